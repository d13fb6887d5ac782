// sgf_go.mjs BANYAN - the SGF that `banyan gtp` writes (printsgf) read by
// @sabaki/sgf, Sabaki's parser: a 9x9 game that ends on the board with the
// standard root properties (KM from the komi, RE with the margin, DT the
// day), and a handicap game loaded from a KGS-style file (HA, AB, PL, KM,
// PB, PW, DT and RE kept) whose setup stones Sabaki must see. Prints one
// line per check and exits non-zero on a failure.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import gtp from '@sabaki/gtp'
import {check, finish} from './check.mjs'
import sgf from '@sabaki/sgf'

const {Controller} = gtp
const banyan = process.argv[2]

async function session(args, commands) {
  const c = new Controller(banyan, ['gtp', ...args])
  c.start()
  const answers = []
  for (const line of commands) {
    const [name, ...rest] = line.split(' ')
    const r = await c.sendCommand({name, args: rest})
    assert.equal(r.error, false, `${line}: ${r.content}`)
    answers.push(r.content)
  }
  await c.stop()
  return answers
}

const day = /^\d{4}-\d{2}-\d{2}$/

await check('a game ended on the board: GM, SZ, KM, DT and RE with the margin', async () => {
  const a = await session(['--game', 'go', '--param', 'size=9', '--playouts', '200'],
    ['komi 6.5', 'play b E5', 'play w C3', 'play b pass', 'play w pass', 'final_score', 'printsgf'])
  const [root] = sgf.parse(a[6])
  assert.equal(root.data.GM[0], '1')
  assert.equal(root.data.SZ[0], '9')
  assert.equal(root.data.KM[0], '6.5')
  assert.match(root.data.DT[0], day)
  assert.match(root.data.RE[0], /^[BW]\+\d+(\.\d+)?$/)
  const read = []
  for (let node = root.children[0]; node; node = node.children[0])
    read.push(node.data.B ? `B${node.data.B[0]}` : `W${node.data.W[0]}`)
  assert.deepEqual(read, ['Bee', 'Wcg', 'B', 'W'])
})

await check('a handicap game loaded and written back: HA, AB, PL, KM, PB, PW, DT, RE', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'banyan-sgf-'))
  const file = path.join(dir, 'kgs.sgf')
  fs.writeFileSync(file, '(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]SZ[19]HA[2]KM[0.50]PW[whitey]' +
    'PB[blacky]DT[2023-11-04]RE[W+Resign]AB[dp][pd];W[qp];B[dd])\n')
  const a = await session(['--game', 'go', '--playouts', '200'], [`loadsgf ${file}`, 'printsgf'])
  const [root] = sgf.parse(a[1])
  assert.equal(root.data.SZ[0], '19')
  assert.equal(root.data.HA[0], '2')
  assert.deepEqual([...root.data.AB].sort(), ['dp', 'pd'])
  assert.equal(root.data.AW, undefined)
  assert.equal(root.data.PL[0], 'W')
  assert.equal(root.data.KM[0], '0.50')
  assert.equal(root.data.PB[0], 'blacky')
  assert.equal(root.data.PW[0], 'whitey')
  assert.equal(root.data.DT[0], '2023-11-04')
  assert.equal(root.data.RE[0], 'W+Resign')
  assert.equal(root.children[0].data.W[0], 'qp')
  assert.equal(root.children[0].children[0].data.B[0], 'dd')
  // And White, to move after the stones, answers genmove.
  const b = await session(['--game', 'go', '--playouts', '200'], [`loadsgf ${file} 1`, 'genmove w'])
  fs.rmSync(dir, {recursive: true, force: true})
  assert.match(b[1], /^([A-HJ-T]\d+|pass)$/)
})

finish()
