// gtp_go.mjs BANYAN - a whole 9x9 game of Go between two `banyan gtp`
// processes, driven through @sabaki/gtp (the GTP controller of the Sabaki
// GUI) with the commands a GUI sends in a game: komi, time_settings,
// time_left, genmove and play relayed until one resigns or both pass (and
// again with --resign off, until both pass), undo and replay,
// showboard, final_score and final_status_list; then printsgf, whose SGF
// @sabaki/sgf (Sabaki's parser) must read back as the same game: GM 1,
// SZ 9, the same moves in the same order. Prints one line per check and
// exits non-zero on a failure.
import assert from 'node:assert/strict'
import gtp from '@sabaki/gtp'
import {check, finish} from './check.mjs'
import sgf from '@sabaki/sgf'

const {Controller} = gtp
const banyan = process.argv[2]

function engine(seed, extra) {
  const c = new Controller(banyan, ['gtp', '--game', 'go', '--param', 'size=9',
    '--playouts', '300', '--seed', String(seed), ...extra])
  c.start()
  return c
}

async function send(c, name, ...args) {
  const r = await c.sendCommand({name, args})
  return r
}

// GTP vertex "D4" to SGF point "df" on a 9x9 board; "pass" to "".
function sgfPoint(v) {
  if (v.toLowerCase() === 'pass') return ''
  const col = 'ABCDEFGHJ'.indexOf(v[0].toUpperCase())
  const row = 9 - Number(v.slice(1))
  return 'abcdefghi'[col] + 'abcdefghi'[row]
}

// A whole game: resigning as by default (the loser resigns when the value
// stays low), or with `--resign off` (played until both pass).
async function wholeGame(extra) {
  const black = engine(1, extra), white = engine(2, extra)
  const players = [black, white], colors = ['B', 'W']
  for (const c of players) {
    assert.equal((await send(c, 'boardsize', '9')).error, false)
    assert.equal((await send(c, 'clear_board')).error, false)
    assert.equal((await send(c, 'komi', '7')).error, false)
    assert.equal((await send(c, 'time_settings', '600', '0', '0')).error, false)
  }
  const moves = []
  let passes = 0, resigner = null
  for (let ply = 0; passes < 2; ply++) {
    assert.ok(ply < 300, 'the game ends within 300 moves')
    const me = players[ply % 2], other = players[(ply + 1) % 2]
    await send(me, 'time_left', colors[ply % 2], '600', '0')
    const r = await send(me, 'genmove', colors[ply % 2])
    assert.equal(r.error, false, `genmove refused: ${r.content}`)
    assert.match(r.content, /^([A-HJ][1-9]|pass|resign)$/)
    if (r.content === 'resign') {
      resigner = ply % 2
      break
    }
    moves.push(r.content)
    passes = r.content === 'pass' ? passes + 1 : 0
    const p = await send(other, 'play', colors[ply % 2], r.content)
    assert.equal(p.error, false, `play ${r.content} refused: ${p.content}`)
    // A GUI's takeback now and then: undo on both sides, then the move again.
    if (ply === 10) {
      for (const c of players) assert.equal((await send(c, 'undo')).error, false)
      assert.equal((await send(other, 'play', colors[ply % 2], r.content)).error, false)
      assert.equal((await send(me, 'play', colors[ply % 2], r.content)).error, false)
    }
  }
  assert.ok(moves.length >= 20, `the game ended after ${moves.length} moves`)
  const a = await send(black, 'showboard'), b = await send(white, 'showboard')
  assert.equal(a.content, b.content, 'both engines saw the same game')
  const score = await send(black, 'final_score')
  assert.match(score.content, /^([BW]\+\d+(\.\d+)?|0)$/)
  assert.equal(score.content, (await send(white, 'final_score')).content)
  assert.equal((await send(black, 'final_status_list', 'dead')).error, false)

  // The resigner's record says who won by resignation.
  const printed = await send(resigner === null ? black : players[resigner], 'printsgf')
  assert.equal(printed.error, false)
  const [root] = sgf.parse(printed.content)
  assert.equal(root.data.GM[0], '1')
  assert.equal(root.data.SZ[0], '9')
  if (resigner !== null) assert.equal(root.data.RE[0], `${colors[1 - resigner]}+R`)
  const read = []
  for (let node = root.children[0]; node; node = node.children[0]) {
    const color = node.data.B ? 'B' : 'W'
    read.push([color, node.data[color][0]])
  }
  assert.equal(read.length, moves.length, 'the same number of moves')
  read.forEach(([color, point], i) => {
    assert.equal(color, colors[i % 2], `move ${i + 1}'s colour`)
    assert.equal(point, sgfPoint(moves[i]), `move ${i + 1}`)
  })
  console.log(`     ${moves.length} moves, ${resigner === null ? score.content : colors[1 - resigner] + '+R'}`)
  await black.stop()
  await white.stop()
  return resigner
}

await check('go 9x9: a whole game between two engines, then its SGF read back', async () => {
  await wholeGame([])
})

await check('go 9x9: with --resign off, a whole game played until both pass', async () => {
  assert.equal(await wholeGame(['--resign', 'off']), null)
})

finish()
