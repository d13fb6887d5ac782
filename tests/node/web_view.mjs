// web_view.mjs URL - what a person sees on the web board, in headless
// Chromium, a check for each thing seen wrong:
// - an error shows within the window wherever the page is scrolled to, at a
//   desktop's width and a phone's;
// - "You play" is for the next game and leaves the one on the board alone;
// - each game starts the form at its own defaults (record format, empty
//   position, parameters);
// Prints one line per check; exits non-zero on a failure. Screenshots go to
// $WEB_OUT.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {api, checker, state, waitState} from './web_lib.mjs'
import {T, launch, newGame, pageErrors, sessionOf, settle} from './web_browser.mjs'

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

await check('no error in the pages\' consoles', async () => {
  assert.deepEqual(errs.list, [])
})

await browser.close()
done()
