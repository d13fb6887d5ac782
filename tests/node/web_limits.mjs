// web_limits.mjs URL - the limits of `banyan serve` that need a server of
// their own (tests/cli/web.sh starts it with --sessions 2 --memory 12M
// --idle 1 --max-threads 1): idle sessions closed, the threads a page may
// ask for, and each engine within its share of the memory. Prints one
// line per check and exits non-zero on a failure.
import assert from 'node:assert/strict'
import {SLOW, checker, api, isError, sleep} from './web_lib.mjs'

const base = process.argv[2].replace(/\/$/, '')
const checks = checker()

await checks.check('a session with no request and no open page is closed after --idle', async () => {
  const r = await api(base, 'POST', '/api/sessions', {game: 'tictactoe', human: 'both'})
  assert.equal(r.status, 201, r.text)
  const id = r.json.id
  assert.equal((await api(base, 'GET', `/api/sessions/${id}`)).status, 200)
  // --idle 1, checked every second: gone within a few seconds.
  let status = 200
  for (let i = 0; i < 40 * SLOW && status === 200; i++) {
    await sleep(250)
    if (i >= 12) status = (await api(base, 'GET', `/api/sessions/${id}`)).status
  }
  assert.equal(status, 404, 'the idle session is still open')
})

await checks.check('an open event stream keeps an idle session', async () => {
  const r = await api(base, 'POST', '/api/sessions', {game: 'tictactoe', human: 'both'})
  assert.equal(r.status, 201, r.text)
  const id = r.json.id
  const ac = new AbortController()
  const res = await fetch(`${base}/api/sessions/${id}/events`, {signal: ac.signal})
  assert.equal(res.status, 200)
  const reader = res.body.getReader()
  await reader.read() // The first event: the stream is open.
  await sleep(3000)
  assert.equal((await api(base, 'GET', `/api/sessions/${id}`)).status, 200, 'closed while watched')
  ac.abort()
  await api(base, 'DELETE', `/api/sessions/${id}`)
})

await checks.check('threads beyond --max-threads are refused', async () => {
  isError(await api(base, 'POST', '/api/sessions', {game: 'tictactoe', threads: 2}), 400,
          'threads 2 with --max-threads 1')
  const r = await api(base, 'POST', '/api/sessions', {game: 'tictactoe', threads: 1})
  assert.equal(r.status, 201, r.text)
  isError(await api(base, 'POST', `/api/sessions/${r.json.id}/settings`, {threads: 2}), 400,
          'settings threads 2')
  await api(base, 'DELETE', `/api/sessions/${r.json.id}`)
})

await checks.check('an engine that does not fit in its share of --memory is refused (422)', async () => {
  // 12M over 2 sessions: 6 MiB each, less than Othello's solver table
  // (6 MiB a thread) and a megabyte beside it.
  const r = await api(base, 'POST', '/api/sessions', {game: 'othello'})
  isError(r, 422, 'othello in a 6 MiB share')
  assert.match(r.json.error, /share of the memory/)
  const t = await api(base, 'POST', '/api/sessions', {game: 'tictactoe'})
  assert.equal(t.status, 201, t.text)
  await api(base, 'DELETE', `/api/sessions/${t.json.id}`)
})

checks.done()
