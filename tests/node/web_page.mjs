// web_page.mjs URL - the web board end to end in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core; no browser is downloaded),
// through the page alone, as a person would: a whole game of Connect Four
// by clicks; Gomoku with moves, undo and a hint; an analysis with its heat
// map, labels and a principal variation under the pointer; a screenshot of
// the board mid-search, decoded (png.mjs) and checked; the record saved and
// loaded into a new game; a position set up; the win-rate graph. Any
// uncaught exception or error in the page's console fails. Screenshots and
// the saved record go to $WEB_OUT. Prints one line per check; exits
// non-zero on a failure. (The state is read through the interface only to
// check what the page shows.)
//
// What the page promises (its DOM contract): #game (game names as values),
// #params with [name="param-KEY"], #strength-kind (time|playouts),
// #strength, #threads, #side (first|second|both|none); buttons #new, #undo,
// #hint, #swap, #resign, #analyze, #stop; #save-format, #save, #load (file
// input); #position and #set-position; #status, #result, #error (shown
// within the window; a click closes it), #search-info (dt and dd, "Best"
// the best line), #players (.name of each), #moves (an <ol>, an <li> a
// move); #board (svg) with
// .target[data-move] for each legal move (a click plays it),
// .piece[data-player][data-x][data-y], .last-move, .win-line,
// .hint[data-move], .heat[data-move] (.heat.best and .heat-ring on the
// best line's first move), text.heat-label, and .pv-stone while the
// pointer is on a .heat; #heat-mode (visits|winrate); #graph (svg) with
// path.winrate-line; body[data-status] (idle|thinking|hint|analyzing);
// .version and .session. #game=NAME in the address loads that game; the
// form's game, parameters and #side apply on #new, its strength and
// threads at once. Launching the browser and waiting for the page:
// web_browser.mjs.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {checker, state} from './web_lib.mjs'
import {T, count, launch, newGame, pageErrors, sessionOf, settle, status, texts} from './web_browser.mjs'
import {decodePNG, encodePNG} from './png.mjs'

const base = process.argv[2].replace(/\/$/, '')
const out = process.env.WEB_OUT || fs.mkdtempSync(path.join(os.tmpdir(), 'web-page-'))
fs.mkdirSync(out, {recursive: true})
const {check, done} = checker()

const browser = await launch()
const context = await browser.newContext({viewport: {width: 1280, height: 1000}, acceptDownloads: true})
context.setDefaultTimeout(T)
const pageErrs = pageErrors()
const {watch} = pageErrs

// PNG decoder first: the screenshot checks rest on it.
await check('png: the test\'s decoder reads RGB and RGBA rows of all five filters', async () => {
  for (const ch of [3, 4]) {
    const w = 13, h = 11, d = Buffer.alloc(w * h * ch)
    for (let i = 0; i < d.length; i++) d[i] = (i * 37 + (i >> 3) * 101) & 255
    const p = decodePNG(encodePNG(w, h, ch, d, [0, 1, 2, 3, 4]))
    assert.equal(p.width, w)
    assert.ok(p.data.equals(d), `channels ${ch}`)
  }
  const bad = encodePNG(2, 2, 3, Buffer.alloc(12), [0])
  bad[bad.length - 20] ^= 1
  assert.throws(() => decodePNG(bad), /CRC|PNG/)
})

const c4 = await context.newPage()
watch(c4, 'connect4 page')
await check('the page loads the game of #game=connect4 with its board', async () => {
  await c4.goto(`${base}/#game=connect4`)
  await c4.waitForFunction(() => document.querySelectorAll('#board .target').length === 7 &&
                                 document.body.dataset.status === 'idle')
  assert.equal(await c4.inputValue('#game'), 'connect4')
  assert.match(await c4.locator('.version').first().textContent(), /\d+\.\d+\.\d+/)
  await sessionOf(c4)
  const moves = await c4.locator('#board .target').evaluateAll(ts => ts.map(t => t.dataset.move))
  assert.deepEqual(moves.sort(), ['a', 'b', 'c', 'd', 'e', 'f', 'g'])
  assert.equal(await count(c4, '#moves li'), 0)
})

await check('connect4: a whole game against the engine at 200 playouts, clicking, to its result', async () => {
  await newGame(c4, {side: 'first', playouts: 200})
  let clicks = 0
  for (;;) {
    const result = (await c4.textContent('#result')).trim()
    if (result) break
    assert.ok(clicks < 22, 'more than 21 moves of ours in a game of 42')
    const n = await count(c4, '#moves li')
    await c4.locator('#board .target').first().click()
    clicks++
    await settle(c4, n + 2, true)
  }
  const result = (await c4.textContent('#result')).trim()
  const n = await count(c4, '#moves li')
  assert.ok(n >= 7 && n <= 42, `${n} moves`)
  assert.equal(await count(c4, '#board .piece'), n, 'a piece for each move')
  assert.equal(await count(c4, '#board .target'), 0, 'targets after the end')
  assert.ok(await count(c4, '#board .last-move') >= 1, 'the last move is marked')
  const s = await state(base, await sessionOf(c4))
  assert.equal(s.over, true)
  assert.equal(s.moves.length, n)
  if (s.winner !== null) assert.ok(await count(c4, '#board .win-line') >= 1, 'no .win-line for ' + s.result)
  assert.equal(await c4.locator('#error').textContent().then(t => t.trim()), '', '#error after a game')
  console.log(`     (${n} moves, ${clicks} clicks: ${result})`)
})

await check('connect4: the win-rate graph after the engine\'s moves', async () => {
  const line = c4.locator('#graph path.winrate-line')
  await line.first().waitFor({state: 'attached'})
  const d = await line.first().getAttribute('d')
  assert.match(d || '', /^M\s*[-\d.]+[ ,][-\d.]+.*[LlCcHhVv]/s, `path d="${d}"`)
})

const gm = await context.newPage()
watch(gm, 'gomoku page')
let heatShot
await check('gomoku: parameters, moves by click, the engine\'s replies', async () => {
  await gm.goto(`${base}/`)
  await gm.waitForFunction(() => document.body.dataset.status === 'idle' && document.querySelector('#game').value)
  await gm.selectOption('#game', 'gomoku')
  await gm.locator('#params [name="param-size"]').waitFor()
  assert.equal(await gm.inputValue('#params [name="param-size"]'), '15')
  await newGame(gm, {game: 'gomoku', side: 'first', playouts: 200})
  assert.equal(await count(gm, '#board .target'), 225)
  await gm.locator('#board .target[data-move="h8"]').click()
  await settle(gm, 2)
  await gm.locator('#board .target').first().click()
  await settle(gm, 4)
  assert.equal(await count(gm, '#board .piece'), 4)
  assert.equal(await count(gm, '#board .target'), 221)
  // Each piece where the game has it.
  const s = await state(base, await sessionOf(gm))
  const pieces = await gm.locator('#board .piece').evaluateAll(ps => ps.map(p => [p.dataset.player, p.dataset.x, p.dataset.y].join()).sort())
  assert.deepEqual(pieces, s.moves.map(m => [m.player, m.x, m.y].join()).sort())
  assert.equal(await count(gm, '#board .piece[data-player="0"][data-x="7"][data-y="7"]'), 1, 'h8')
})

await check('gomoku: undo takes back two moves; a hint appears on the board', async () => {
  await gm.click('#undo')
  await settle(gm, 2)
  assert.equal(await count(gm, '#board .piece'), 2)
  await gm.click('#hint')
  const hint = gm.locator('#board .hint')
  await hint.first().waitFor({state: 'attached'})
  const mv = await hint.first().getAttribute('data-move')
  assert.equal(await count(gm, `#board .target[data-move="${mv}"]`), 1, `hint ${mv} is not a legal target`)
  await settle(gm, 2)
  // The hint played: the engine replies.
  await gm.locator(`#board .target[data-move="${mv}"]`).click()
  await settle(gm, 4)
  assert.equal(await count(gm, '#board .piece'), 4)
})

await check('analysis: the heat map and its labels while analysing; a PV under the pointer', async () => {
  await gm.locator('#board').scrollIntoViewIfNeeded()
  await gm.mouse.move(1, 1)
  const before = await gm.screenshot()
  await gm.click('#analyze')
  await gm.waitForFunction(() => document.body.dataset.status === 'analyzing')
  // How many moves are marked is the position's: where one move takes nearly
  // every visit (this game's, after the engine's replies), it alone.
  await gm.waitForFunction(() => {
    const labels = [...document.querySelectorAll('#board text.heat-label')].filter(t => t.textContent.trim())
    return document.querySelectorAll('#board .heat').length >= 1 && labels.length >= 1
  })
  assert.equal(await status(gm), 'analyzing')
  const labels = (await texts(gm, '#board text.heat-label')).map(t => t.trim()).filter(Boolean)
  assert.ok(labels.length >= 1)
  assert.notEqual((await gm.textContent('#search-info')).trim(), '', '#search-info while analysing')
  const shot = await gm.screenshot({path: path.join(out, 'board-analysis.png')})
  // The heat element drawn most strongly, its box and colour, for the picture's checks.
  const heat = await gm.evaluate(() => {
    const shapes = 'circle,rect,ellipse,path,polygon'
    let best = null
    for (const el of document.querySelectorAll('#board .heat')) {
      const shape = el.matches(shapes) ? el : el.querySelector(shapes)
      if (!shape) continue
      const cs = getComputedStyle(shape), ce = getComputedStyle(el)
      const alpha = Number(cs.fillOpacity) * Number(cs.opacity) * (el === shape ? 1 : Number(ce.opacity))
      const r = shape.getBoundingClientRect()
      if (r.width < 2 || r.height < 2) continue
      if (!best || alpha > best.alpha)
        best = {alpha, fill: cs.fill, move: el.dataset.move, box: {x: r.x, y: r.y, w: r.width, h: r.height}}
    }
    return best
  })
  assert.ok(heat, 'no .heat element with a size')
  const board = await gm.locator('#board').boundingBox()
  const bg = await gm.evaluate(() => {
    for (let e = document.body; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor
      if (c && !/rgba\(.*, 0\)$|transparent/.test(c)) return c
    }
    return 'rgb(255, 255, 255)'
  })
  heatShot = {before, shot, heat, board, bg}
  // The principal variation of the heat under the pointer.
  const b = heat.box
  await gm.mouse.move(b.x + b.w / 2, b.y + b.h / 2)
  await gm.locator('#board .pv-stone').first().waitFor({state: 'attached'})
  await gm.screenshot({path: path.join(out, 'board-pv.png')})
  assert.ok(await count(gm, '#board .pv-stone') >= 1)
  await gm.mouse.move(1, 1)
})

await check('the screenshot mid-search: not blank, the board drawn, the heat map\'s colour on it', async () => {
  assert.ok(heatShot, 'no screenshot (the check before failed)')
  const {before, shot, heat, board, bg} = heatShot
  const a = decodePNG(before), p = decodePNG(shot)
  assert.equal(p.width, 1280)
  assert.equal(p.height, 1000)
  const colours = new Set()
  for (let y = 0; y < p.height; y += 2)
    for (let x = 0; x < p.width; x += 2) colours.add(p.rgb(x, y).join())
  assert.ok(colours.size >= 32, `${colours.size} distinct colours`)
  const rgbOf = s => (s.match(/\d+(\.\d+)?/g) || []).slice(0, 3).map(Number)
  const dist = (u, v) => Math.abs(u[0] - v[0]) + Math.abs(u[1] - v[1]) + Math.abs(u[2] - v[2])
  const pageBg = rgbOf(bg)
  const box = (b, f) => {
    let n = 0, hit = 0
    const x0 = Math.max(0, Math.ceil(b.x)), y0 = Math.max(0, Math.ceil(b.y))
    const x1 = Math.min(p.width, Math.floor(b.x + (b.w ?? b.width))), y1 = Math.min(p.height, Math.floor(b.y + (b.h ?? b.height)))
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) { n++; if (f(x, y)) hit++ }
    assert.ok(n > 0, `an empty box ${JSON.stringify(b)}`)
    return hit / n
  }
  const boardDrawn = box(board, (x, y) => dist(p.rgb(x, y), pageBg) > 30)
  assert.ok(boardDrawn > 0.2, `only ${(boardDrawn * 100).toFixed(1)}% of #board differs from the page's background ${bg}`)
  const boardColours = new Set()
  box(board, (x, y) => boardColours.add(p.rgb(x, y).join()))
  assert.ok(boardColours.size >= 8, `#board has ${boardColours.size} colours`)
  // The heat changed the pixels of its place since the screenshot before the analysis...
  const changed = box(heat.box, (x, y) => dist(p.rgb(x, y), a.rgb(x, y)) > 12)
  assert.ok(changed > 0.25, `${(changed * 100).toFixed(1)}% of the heat's box (${heat.move}) changed`)
  // ...towards its colour.
  const fill = rgbOf(heat.fill)
  if (/^rgb/.test(heat.fill)) {
    const toward = box(heat.box, (x, y) => dist(p.rgb(x, y), fill) + 8 < dist(a.rgb(x, y), fill))
    assert.ok(toward > 0.2, `${(toward * 100).toFixed(1)}% of the heat's box went towards its fill ${heat.fill}`)
  }
  console.log(`     (${colours.size} colours; board ${(boardDrawn * 100).toFixed(0)}% drawn; heat ${heat.move} ` +
              `${heat.fill} alpha ${heat.alpha}: ${(changed * 100).toFixed(0)}% of its box changed; ${out}/board-analysis.png)`)
})

await check('analysis: heat mode win rate relabels; stop ends the analysis with no move played', async () => {
  assert.equal(await status(gm), 'analyzing')
  await gm.selectOption('#heat-mode', 'winrate')
  await gm.waitForFunction(() => [...document.querySelectorAll('#board text.heat-label')].some(t => t.textContent.trim()))
  await gm.click('#stop')
  await settle(gm, 4)
  assert.equal(await count(gm, '#board .piece'), 4)
})

let saved, savedMoves
await check('record: #save downloads the SGF with the moves', async () => {
  await gm.selectOption('#save-format', 'sgf')
  const [download] = await Promise.all([gm.waitForEvent('download'), gm.click('#save')])
  saved = path.join(out, 'gomoku.sgf')
  await download.saveAs(saved)
  const text = fs.readFileSync(saved, 'utf8')
  assert.match(text, /^\(;/)
  assert.match(text, /GM\[4\]/)
  assert.match(text, /SZ\[15\]/)
  // h8 i9 h9 i10 in SGF's letters (column, then row from the top).
  const s = await state(base, await sessionOf(gm))
  savedMoves = s.moves.map(m => m.move)
  assert.equal(savedMoves.length, 4)
  const sgf = s.moves.map(m => String.fromCharCode(97 + m.x) + String.fromCharCode(97 + m.y))
  let at = 0
  for (const [i, c] of sgf.entries()) {
    const k = text.indexOf(`;${i % 2 ? 'W' : 'B'}[${c}]`, at)
    assert.ok(k >= 0, `move ${i + 1} ${s.moves[i].move} (${c}) not in the record after offset ${at}: ${text}`)
    at = k
  }
})

await check('record: #load into a new game gives the same moves', async () => {
  assert.ok(saved, 'no record saved')
  const listed = await texts(gm, '#moves li')
  await newGame(gm, {game: 'gomoku', side: 'both'})
  assert.equal(await count(gm, '#board .piece'), 0)
  await gm.setInputFiles('#load', saved)
  await settle(gm, listed.length)
  assert.deepEqual(await texts(gm, '#moves li'), listed)
  assert.equal(await count(gm, '#board .piece'), 4)
  const s = await state(base, await sessionOf(gm))
  assert.deepEqual(s.moves.map(m => m.move), savedMoves)
})

await check('gomoku: a position set up through #position', async () => {
  await gm.fill('#position', 'h8 i9 h9 i10 h10')
  await gm.click('#set-position')
  // The position is the new game's start (its moves are not the game's).
  await gm.waitForFunction(() => document.querySelectorAll('#board .piece').length === 5 &&
                                 document.body.dataset.status === 'idle')
  const s = await state(base, await sessionOf(gm))
  assert.equal(s.cells[7][7], 0, 'h8')
  assert.equal(s.cells[6][8], 1, 'i9')
  assert.equal(s.cells[5][7], 0, 'h10')
  const listed = await count(gm, '#moves li')
  await pageErrs.expecting(async () => {
    await gm.fill('#position', 'zz99')
    await gm.click('#set-position')
    await gm.waitForFunction(() => document.querySelector('#error').textContent.trim() !== '')
  })
  assert.equal(await count(gm, '#board .piece'), 5, 'a refused position changed the board')
  assert.equal(await count(gm, '#moves li'), listed, 'a refused position changed the moves')
})

await check('gomoku: the win-rate graph after the engine\'s moves', async () => {
  await newGame(gm, {game: 'gomoku', side: 'first', playouts: 200})
  await gm.locator('#board .target[data-move="h8"]').click()
  await settle(gm, 2)
  // Any free point: the engine's reply may be anywhere near h8.
  await gm.locator('#board .target').first().click()
  await settle(gm, 4)
  await gm.locator('#graph path.winrate-line').first().waitFor({state: 'attached'})
})

await check('go: 9x9 from the form, a move by click, the engine\'s reply, a pass', async () => {
  const go = await context.newPage()
  watch(go, 'go')
  await go.goto(`${base}/#game=go`)
  await go.waitForFunction(() => document.body.dataset.status === 'idle' && document.querySelector('#game').value === 'go')
  await go.locator('#params [name="param-size"]').waitFor()
  await go.fill('#params [name="param-size"]', '9')
  await newGame(go, {game: 'go', side: 'first', playouts: 200})
  assert.equal(await count(go, '#board .target'), 82, '81 points and the pass')
  await go.locator('#board .target[data-move="E5"]').click()
  await settle(go, 2)
  assert.equal(await count(go, '#board .piece[data-player="0"][data-x="4"][data-y="4"]'), 1, 'E5')
  assert.equal(await count(go, '#board .piece'), 2)
  const pass = (await state(base, await sessionOf(go))).legal.find(m => m.kind === 'pass')
  assert.ok(pass, 'a pass among the legal moves')
  await go.locator(`#board .target[data-move="${pass.move}"]`).click()
  await settle(go, 4, true)
  const s = await state(base, await sessionOf(go))
  assert.equal(s.moves[2].kind, 'pass')
  assert.equal(s.board.width, 9)
  await go.close()
})

await check('no error in the pages\' consoles', async () => {
  await c4.close()
  await gm.close()
  assert.deepEqual(pageErrs.list, [])
})

await browser.close()
done()
