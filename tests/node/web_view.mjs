// web_view.mjs URL - what a person sees on the web board, in headless
// Chromium, a check for each thing seen wrong:
// - an error shows within the window wherever the page is scrolled to, at a
//   desktop's width and a phone's;
// - "You play" is for the next game and leaves the one on the board alone;
// - each game starts the form at its own defaults (record format, empty
//   position, parameters);
// - the heat map of an analysis of 19x19 Go, read back from a screenshot
//   (png.mjs), covers little of the board and rings the best line's first
//   move; its numbers fit their cells (Connect Four's holes too); it goes
//   when the game ends;
// - the players have the game's names, and a game ends with its real result;
// - the game list leaves out a game without a board.
// Prints one line per check; exits non-zero on a failure. Screenshots go to
// $WEB_OUT.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {api, checker, state, waitState} from './web_lib.mjs'
import {T, count, launch, newGame, pageErrors, sessionOf, settle, texts} from './web_browser.mjs'
import {decodePNG} from './png.mjs'

const base = process.argv[2].replace(/\/$/, '')
const out = process.env.WEB_OUT || fs.mkdtempSync(path.join(os.tmpdir(), 'web-view-'))
fs.mkdirSync(out, {recursive: true})
const {check, done} = checker()

const browser = await launch()
const errs = pageErrors()
const games = (await api(base, 'GET', '/api/games')).json.games

// A page of its own viewport at #game=NAME, once its board is drawn.
async function open(name, game, viewport = {width: 1280, height: 1000}) {
  const ctx = await browser.newContext({viewport, acceptDownloads: true})
  ctx.setDefaultTimeout(T)
  const page = await ctx.newPage()
  errs.watch(page, name)
  await page.goto(`${base}/#game=${game}`)
  await page.waitForFunction(g => document.body.dataset.status === 'idle' && document.querySelector('#game').value === g &&
                                  document.querySelectorAll('#board .target').length > 0, game)
  return page
}
const shut = page => page.context().close()
// fn(page) on a page of its own, closed after (its session with it).
async function onPage(name, game, fn, viewport) {
  const page = await open(name, game, viewport)
  try { await fn(page) } finally { await shut(page) }
}
const defaultsOf = name => Object.fromEntries(games.find(g => g.name === name).params.map(p => [p.name, p.default]))
const formParams = page => page.evaluate(() => Object.fromEntries(
  [...document.querySelectorAll('#params [name^="param-"]')].map(c => [c.name.slice(6), c.value])))

// The error shown, once it differs from before: its text, and where it is
// against the window (and whether it is what shows at its centre).
async function shownError(page, before) {
  await page.waitForFunction(b => {
    const t = document.querySelector('#error').textContent.trim()
    return t !== '' && t !== b
  }, before)
  return page.evaluate(() => {
    const e = document.querySelector('#error'), r = e.getBoundingClientRect()
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
    return {text: e.textContent.trim(), x: r.x, y: r.y, w: r.width, h: r.height, vw: innerWidth, vh: innerHeight,
            onTop: !!top && e.contains(top)}
  })
}
function inWindow(e, what) {
  assert.ok(e.w > 0 && e.h > 0, `${what}: the error "${e.text}" has no size`)
  assert.ok(e.x >= 0 && e.y >= 0 && e.x + e.w <= e.vw && e.y + e.h <= e.vh,
            `${what}: the error "${e.text}" at (${e.x.toFixed(0)}, ${e.y.toFixed(0)}) ${e.w.toFixed(0)}x${e.h.toFixed(0)} ` +
            `is not within the window ${e.vw}x${e.vh}`)
  assert.ok(e.onTop, `${what}: the error "${e.text}" is covered`)
}

for (const [name, viewport] of [['desktop', {width: 1280, height: 720}], ['phone', {width: 390, height: 844}]]) {
  await check(`errors at a ${name}'s width: a refused position and a refused new game show within the window`, async () => {
    await onPage(`errors ${name}`, 'gomoku', async page => {
      await errs.expecting(async () => {
        // The position box is at the bottom of the panel, the error's first place far above.
        await page.locator('#set-position').scrollIntoViewIfNeeded()
        await page.fill('#position', 'h8 h8')
        await page.click('#set-position')
        inWindow(await shownError(page, ''), 'position "h8 h8"')
        const before = (await page.textContent('#error')).trim()
        await page.selectOption('#game', 'tictactoe')
        await page.fill('#params [name="param-m"]', '-3')
        await page.locator('#new').scrollIntoViewIfNeeded()
        await page.click('#new')
        inWindow(await shownError(page, before), 'new game m=-3')
      })
      await page.screenshot({path: path.join(out, `error-${name}.png`)})
      // A click closes it.
      await page.click('#error')
      assert.equal((await page.textContent('#error')).trim(), '')
    }, viewport)
  })
}

await check('who plays: #side is for the next game; the one on the board stays as it is', async () => {
  await onPage('side', 'tictactoe', async page => {
    await newGame(page, {game: 'tictactoe', side: 'first', playouts: 200})
    const id = await sessionOf(page)
    await page.selectOption('#side', 'none')
    // Whatever the choice sent is answered before this.
    await page.waitForFunction(() => document.body.dataset.status !== 'waiting')
    let s = await state(base, id)
    assert.deepEqual(s.human, [true, false], 'choosing who plays changed the game on the board')
    assert.equal(s.moves.length, 0, 'the engine played')
    await page.locator('#board .target[data-move="b2"]').click()
    await settle(page, 2)
    s = await state(base, id)
    assert.deepEqual(s.moves.map(m => m.player), [0, 1])
    assert.equal(await page.inputValue('#side'), 'none', 'the form forgot the choice for the next game')
    // The next game: the engine against itself.
    await page.click('#new')
    s = await waitState(base, id, t => t.human.every(h => !h), 10000, 'the new game of the engine against itself')
    assert.equal(await page.inputValue('#side'), 'none')
  })
})

await check('the form: each game starts at its own record format, an empty position and its parameters\' defaults', async () => {
  await onPage('form', 'gomoku', async page => {
    const expect = async (game, format) => {
      assert.equal(await page.inputValue('#save-format'), format, `${game}: the record's format`)
      assert.equal(await page.inputValue('#position'), '', `${game}: the position box`)
      assert.deepEqual(await formParams(page), defaultsOf(game), `${game}: the parameters`)
    }
    // From each game to the next: the choices left in the form for one (the
    // text format, a position, a parameter) are not the next one's.
    const steps = [['go', 'sgf', 'h8 i9', 'size', '9'], ['connect4', 'text', 'D4', 'komi', '0.5'],
                   ['tictactoe', 'text', '4444444'], ['gomoku', 'sgf', 'b2', 'm', '4']]
    for (const [game, format, position, param, value] of steps) {
      await page.selectOption('#save-format', 'text')
      await page.fill('#position', position)
      if (param) await page.fill(`#params [name="param-${param}"]`, value)
      await page.selectOption('#game', game)
      assert.deepEqual(await formParams(page), defaultsOf(game), `${game} chosen: the parameters`)
      await newGame(page, {game, side: 'both'})
      await expect(game, format)
    }
  })
})

// The row of #search-info named key: its value.
const searchRow = (page, key) => page.evaluate(k => {
  const dt = [...document.querySelectorAll('#search-info dt')].find(d => d.textContent.trim() === k)
  return dt ? dt.nextElementSibling.textContent.trim() : null
}, key)
// The analysis of a position, stopped once it has at least n playouts: the
// statistics stay on the board.
async function analyse(page, n) {
  await page.click('#analyze')
  await page.waitForFunction(() => document.body.dataset.status === 'analyzing')
  await page.waitForFunction(n => {
    const dd = document.querySelector('#search-info dd')
    return dd && Number(dd.textContent.replace(/\D/g, '')) >= n
  }, n, {timeout: 3 * T})
  await page.click('#stop')
  await page.waitForFunction(() => document.body.dataset.status === 'idle' &&
                                    /\d s$/.test([...document.querySelectorAll('#search-info dd')][2]?.textContent.trim()))
}

// The clickable cells: their moves and boxes on the screen.
const cellsOf = page => page.locator('#board .target .hit').evaluateAll(hs => hs.map(h => {
  const r = h.getBoundingClientRect()
  return {move: h.parentNode.dataset.move, x: r.x, y: r.y, w: r.width, h: r.height}
}))
// Each label of the heat map and the heat mark nearest it, as boxes on the screen.
const labelsOf = page => page.evaluate(() => {
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height} }
  const marks = [...document.querySelectorAll('#board .heat')].map(e => ({move: e.dataset.move, ...box(e)}))
  return [...document.querySelectorAll('#board text.heat-label')].map(t => {
    const b = box(t), cx = b.x + b.w / 2, cy = b.y + b.h / 2
    const near = marks.slice().sort((p, q) => Math.hypot(p.x + p.w / 2 - cx, p.y + p.h / 2 - cy) -
                                              Math.hypot(q.x + q.w / 2 - cx, q.y + q.h / 2 - cy))[0]
    return {text: t.textContent, ...b, mark: near}
  })
})
const rgbDist = (u, v) => Math.abs(u[0] - v[0]) + Math.abs(u[1] - v[1]) + Math.abs(u[2] - v[2])

let go
await check('heat map, 19x19 Go: a screenshot shows few cells covered and the ring on the best line\'s first move', async () => {
  go = await open('go heat', 'go')
  assert.equal(await count(go, '#board .target'), 362, '361 points and the pass')
  await go.mouse.move(1, 1)
  const before = decodePNG(await go.screenshot())
  await analyse(go, 4000)
  const shot = decodePNG(await go.screenshot({path: path.join(out, 'heat-go19.png')}))
  const bestLine = await searchRow(go, 'Best')
  assert.ok(bestLine, 'no best line in #search-info')
  const bestMove = bestLine.split(/\s+/)[0]
  const cells = (await cellsOf(go)).filter(c => c.move !== 'pass')
  const step = cells[0].w
  const x0 = Math.min(...cells.map(c => c.x)), y0 = Math.min(...cells.map(c => c.y))
  const x1 = Math.max(...cells.map(c => c.x + c.w)), y1 = Math.max(...cells.map(c => c.y + c.h))
  // The share of the board's points whose colour the heat map changed.
  let n = 0, covered = 0, ring = 0, rx = 0, ry = 0
  const cyan = [0x22, 0xd8, 0xff]
  for (let y = Math.ceil(y0); y < y1; y++)
    for (let x = Math.ceil(x0); x < x1; x++) {
      n++
      const p = shot.rgb(x, y)
      if (rgbDist(p, before.rgb(x, y)) > 40) covered++
      if (rgbDist(p, cyan) < 80) { ring++; rx += x; ry += y }
    }
  const share = covered / n
  console.log(`     (${(share * 100).toFixed(1)}% of the board covered; ${ring} pixels of the ring; best line ${bestLine}; ` +
              `${out}/heat-go19.png)`)
  assert.ok(share < 0.05, `the heat map covers ${(share * 100).toFixed(1)}% of the board`)
  // The ring, a colour found nowhere else, around the cell of the best line's first move.
  assert.ok(ring > 2 * step, `${ring} pixels of the ring's colour`)
  const at = {x: rx / ring, y: ry / ring}
  const cell = cells.find(c => at.x >= c.x && at.x < c.x + c.w && at.y >= c.y && at.y < c.y + c.h)
  assert.ok(cell, `the ring's centre (${at.x.toFixed(0)}, ${at.y.toFixed(0)}) is on no point`)
  assert.equal(cell.move, bestMove, `the ring is on ${cell.move}, the best line starts ${bestMove}`)
  assert.equal(await go.getAttribute('#board .heat.best', 'data-move'), bestMove)
  // Numbers on the few top moves only, each inside its mark.
  const labels = await labelsOf(go)
  assert.ok(labels.length >= 2 && labels.length <= 12, `${labels.length} labels`)
  for (const l of labels)
    assert.ok(l.x >= l.mark.x - 1 && l.y >= l.mark.y - 1 && l.x + l.w <= l.mark.x + l.mark.w + 1 && l.y + l.h <= l.mark.y + l.mark.h + 1,
              `label "${l.text}" ${JSON.stringify(l)} out of its mark`)
})

await check('heat map: gone when the game ends by resignation', async () => {
  assert.ok(go, 'no page (the check before failed)')
  try {
    assert.ok(await count(go, '#board .heat') > 0, 'no heat map before resigning')
    await go.click('#resign')
    await go.waitForFunction(() => document.querySelector('#result').textContent.trim() !== '')
    assert.equal(await count(go, '#board .heat'), 0, '.heat after the end')
    assert.equal(await count(go, '#board text.heat-label'), 0, 'labels after the end')
    assert.equal(await count(go, '#board .heat-ring'), 0, 'the ring after the end')
    assert.equal((await go.textContent('#search-info')).trim(), '', '#search-info after the end')
  } finally {
    await shut(go)
  }
})

await check('heat map, Connect Four: the numbers fit inside the holes; the players are Red and Yellow', async () => {
  await onPage('connect4 heat', 'connect4', async page => {
    assert.deepEqual((await texts(page, '#players .name')), ['Red', 'Yellow'])
    // Without the solver and the book, which prove the start at once: visits in the hundreds of thousands.
    await page.selectOption('#params [name="param-solver"]', 'off')
    await page.selectOption('#params [name="param-book"]', 'off')
    await newGame(page, {game: 'connect4', side: 'both'})
    await analyse(page, 300000)
    assert.match(await page.evaluate(() => document.querySelector('#search-info dt:nth-of-type(4)')?.textContent || ''), /^Red wins$/)
    await page.screenshot({path: path.join(out, 'heat-connect4.png')})
    const hole = (await cellsOf(page))[0].w * 0.8
    const labels = await labelsOf(page)
    assert.ok(labels.length >= 2, `${labels.length} labels`)
    for (const l of labels) {
      const cx = l.mark.x + l.mark.w / 2, cy = l.mark.y + l.mark.h / 2
      const far = Math.max(Math.abs(l.x - cx), Math.abs(l.x + l.w - cx), Math.abs(l.y - cy), Math.abs(l.y + l.h - cy))
      assert.ok(l.w <= hole && far <= hole / 2 + 1, `label "${l.text}" (${l.w.toFixed(1)} px wide) out of its hole of ${hole.toFixed(1)} px`)
    }
  })
})

await check('results: Go ended by two passes, by resignation, Othello to its end; the players\' names', async () => {
  await onPage('results', 'go', async page => {
    await page.fill('#params [name="param-size"]', '9')
    await newGame(page, {game: 'go', side: 'both'})
    assert.deepEqual((await texts(page, '#players .name')), ['Black', 'White'])
    for (let i = 1; i <= 2; i++) {
      await page.locator('#board .target[data-move="pass"]').click()
      await settle(page, i, true)
    }
    assert.equal((await page.textContent('#result')).trim(), 'White wins by 7.5 points')
    assert.equal((await page.textContent('#status')).trim(), 'Game over')
    assert.doesNotMatch(await page.textContent('#players'), /score/i)
    await newGame(page, {game: 'go', side: 'both'})
    await page.click('#resign')
    await page.waitForFunction(() => document.querySelector('#result').textContent.trim() !== '')
    assert.equal((await page.textContent('#result')).trim(), 'White wins: Black resigned')
    // Othello to its end through the interface (the first legal move each
    // time), its record loaded into the page.
    const s = (await api(base, 'POST', '/api/sessions', {game: 'othello', human: 'both'})).json
    for (let t = s; !t.over;) t = (await api(base, 'POST', `/api/sessions/${s.id}/move`, {move: t.legal[0].move})).json
    const rec = await api(base, 'GET', `/api/sessions/${s.id}/record?format=text`)
    await api(base, 'DELETE', `/api/sessions/${s.id}`)
    const file = path.join(out, 'othello.txt')
    fs.writeFileSync(file, rec.text)
    await page.setInputFiles('#load', file)
    await page.waitForFunction(() => document.querySelector('#title').textContent === 'Othello' &&
                                      document.querySelector('#result').textContent.trim() !== '')
    const result = (await page.textContent('#result')).trim()
    assert.match(result, /^(Black|White) wins by \d+ discs$|^a draw$/)
    assert.deepEqual((await texts(page, '#players .name')), ['Black', 'White'])
    console.log(`     (Othello: ${result})`)
  })
})

await check('the game list: every game with a board, none without (Morpion Solitaire: banyan solo)', async () => {
  await onPage('list', 'tictactoe', async page => {
    const listed = await page.locator('#game option').evaluateAll(os => os.map(o => o.value))
    assert.deepEqual(listed.sort(), games.filter(g => g.board).map(g => g.name).sort())
    const boardless = games.filter(g => !g.board)
    assert.ok(boardless.length >= 1, 'no game without a board in /api/games')
    // #game=NAME of such a game opens the first game instead.
    await page.goto(`${base}/#game=${boardless[0].name}`)
    await page.waitForFunction(() => document.body.dataset.status === 'idle' && document.querySelectorAll('#board .target').length > 0)
    assert.notEqual(await page.inputValue('#game'), boardless[0].name)
  })
})

await check('no error in the pages\' consoles', async () => {
  assert.deepEqual(errs.list, [])
})

await browser.close()
done()
