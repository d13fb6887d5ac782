// gtp_game.mjs BANYAN - drives `banyan gtp` through @sabaki/gtp, the GTP
// controller of the Sabaki GUI: a whole game of Connect Four between two
// Banyan processes relayed move by move, a tic-tac-toe game against moves sent
// with play (illegal ones must be refused), and lz-analyze streaming as Sabaki
// consumes it. Prints one line per check and exits non-zero on a failure.
import assert from 'node:assert/strict'
import gtp from '@sabaki/gtp'
import {check, finish} from './check.mjs'

const {Controller} = gtp
const banyan = process.argv[2]

function engine(args) {
  const c = new Controller(banyan, ['gtp', ...args])
  c.start()
  return c
}

async function send(c, name, ...args) {
  return c.sendCommand({name, args})
}

await check('connect4: a whole game between two engines, relayed', async () => {
  const black = engine(['--game', 'connect4', '--playouts', '400', '--seed', '1'])
  const white = engine(['--game', 'connect4', '--playouts', '400', '--seed', '2'])
  assert.equal((await send(black, 'protocol_version')).content, '2')
  assert.equal((await send(white, 'name')).content, 'Banyan')
  const players = [black, white]
  const colors = ['b', 'w']
  const moves = []
  for (let ply = 0; ; ply++) {
    const me = players[ply % 2], other = players[(ply + 1) % 2]
    const r = await send(me, 'genmove', colors[ply % 2])
    if (r.error) {
      assert.equal(r.content, 'game is over')
      break
    }
    if (r.content === 'resign') break // The game is proven lost for the mover.
    assert.match(r.content, /^[a-g]$/)
    moves.push(r.content)
    const p = await send(other, 'play', colors[ply % 2], r.content)
    assert.equal(p.error, false, `play ${r.content} refused: ${p.content}`)
    assert.ok(ply < 42, 'a Connect Four game has at most 42 moves')
  }
  assert.ok(moves.length >= 7, `the game ended after ${moves.length} moves`)
  // Both engines saw the same game: their boards are identical.
  const a = await send(black, 'showboard'), b = await send(white, 'showboard')
  assert.equal(a.content, b.content)
  await black.stop()
  await white.stop()
})

await check('tictactoe: play, illegal moves refused, the centre answers a corner', async () => {
  const c = engine(['--game', 'tictactoe', '--playouts', '3000', '--seed', '1'])
  assert.equal((await send(c, 'boardsize', '3')).error, false)
  assert.equal((await send(c, 'clear_board')).error, false)
  assert.equal((await send(c, 'play', 'b', 'A1')).error, false)
  let r = await send(c, 'play', 'w', 'A1')
  assert.equal(r.error, true)
  assert.equal(r.content, 'illegal move')
  r = await send(c, 'play', 'b', 'B2')
  assert.equal(r.error, true, 'black cannot move twice')
  r = await send(c, 'genmove', 'w')
  assert.equal(r.content, 'B2', 'the only reply to a corner that does not lose is the centre')
  const moves = ['C3', 'C1', 'A3', 'B3', 'A2', 'B1', 'C2']
  for (const m of moves) {
    r = await send(c, 'play', 'b', m)
    if (r.error) continue // taken: try the next one
    r = await send(c, 'genmove', 'w')
    if (r.error) break
  }
  const board = (await send(c, 'showboard')).content
  assert.match(board, /A B C/)
  await c.stop()
})

await check('lz-analyze: streamed info lines, then the next command', async () => {
  const c = engine(['--game', 'connect4', '--param', 'book=off']) // The book would prove every reply lost at once.
  await send(c, 'play', 'b', 'd')
  const lines = []
  const analysis = c.sendCommand({name: 'lz-analyze', args: ['w', '10']}, ({line}) => {
    if (line.startsWith('info ')) lines.push(line)
  })
  await new Promise(resolve => setTimeout(resolve, 700))
  const name = await send(c, 'name') // interrupts the analysis
  const resp = await analysis
  assert.equal(resp.error, false)
  assert.equal(name.content, 'Banyan')
  assert.ok(lines.length >= 3, `only ${lines.length} updates`)
  assert.match(lines[0], /^info move [a-g] visits \d+ winrate \d+ prior \d+ order 0 pv/)
  await c.stop()
})

finish()
