// web_browser.mjs - what the browser tests of `banyan serve` share
// (web_page.mjs, web_view.mjs): Debian's Chromium driven by playwright-core
// (no browser is downloaded), the pages' errors collected, and waiting for
// what the page shows. The page's DOM contract is in web_page.mjs.
import assert from 'node:assert/strict'
import {chromium} from 'playwright-core'
import {SLOW} from './web_lib.mjs'

export const T = 20000 * SLOW // The longest wait for anything the page does.

export async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run'],
    timeout: 60000 * SLOW,
  })
}

// Errors of the pages: uncaught exceptions and console errors. watch(page,
// name) collects a page's; while expectHttp is set, the browser's own line
// for a 4xx answer the check asked for is not one.
export function pageErrors() {
  const e = {list: [], expectHttp: false}
  e.watch = (page, name) => {
    page.on('pageerror', x => e.list.push(`${name}: uncaught ${x.message}`))
    page.on('console', m => {
      if (m.type() !== 'error') return
      if (e.expectHttp && /Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) return
      e.list.push(`${name}: console error: ${m.text()}`)
    })
  }
  // Runs fn with 4xx answers expected.
  e.expecting = async fn => {
    e.expectHttp = true
    try { return await fn() } finally { e.expectHttp = false }
  }
  return e
}

export const status = page => page.evaluate(() => document.body.dataset.status)
export const count = (page, sel) => page.locator(sel).count()
export const texts = (page, sel) => page.locator(sel).allTextContents()

// Waits until the page is idle with n moves listed (or, with orOver, until the game is over).
export async function settle(page, n, orOver = false) {
  await page.waitForFunction(([n, orOver]) => {
    const moves = document.querySelectorAll('#moves li').length
    const over = document.querySelector('#result').textContent.trim() !== ''
    return document.body.dataset.status === 'idle' && (moves === n || (orOver && over && moves >= n - 1))
  }, [n, orOver], {timeout: T})
}

// A new game from the form: game (when given), who plays, playouts a move.
export async function newGame(page, {game, side = 'first', playouts = 200}) {
  if (game && (await page.inputValue('#game')) !== game) await page.selectOption('#game', game)
  await page.selectOption('#side', side)
  await page.selectOption('#strength-kind', 'playouts')
  await page.fill('#strength', String(playouts))
  await page.click('#new')
  await settle(page, 0)
  await page.waitForFunction(() => document.querySelectorAll('#board .target').length > 0 &&
                                   document.querySelector('#result').textContent.trim() === '')
}

export async function sessionOf(page) {
  const id = (await page.locator('.session').first().textContent()).trim()
  assert.match(id, /^[0-9A-Za-z_-]{8,}$/, `.session says "${id}"`)
  return id
}
