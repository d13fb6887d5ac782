// web_load.mjs URL SECONDS PID MEMORY_MB - `banyan serve` under load: 50
// sessions at once on the loopback for SECONDS, each playing its games
// against the engine (Connect Four, Gomoku and Tic-tac-toe mixed, the
// engine at 50 playouts; a new game when one ends, now and then a new
// session), bad requests mixed in, and every fifth session watching its
// event stream throughout. Checks that every answer has the status it
// should, no connection fails, the server still answers at the end, and
// its peak memory (VmHWM of /proc/PID/status) stays within MEMORY_MB (the
// --memory it was given) and the fixed overhead below. Prints one line per
// check; exits non-zero on a failure.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import {SLOW, checker, api, raw, events, sleep} from './web_lib.mjs'

const [url, secondsArg, pidArg, memArg] = process.argv.slice(2)
const base = url.replace(/\/$/, '')
const seconds = Number(secondsArg || 20)
const pid = Number(pidArg)
const memoryMB = Number(memArg || 800)
const SESSIONS = 50
const {check, done} = checker()
const port = new URL(base).port

// The overhead allowed over --memory: what is not any session's share. The
// server alone is 8 MiB resident, and 15 MiB after 50 sessions came and
// went (the C library keeps some of what was freed); connection threads'
// stacks are mostly untouched. This load (tests/cli/web.sh: --sessions 50
// --memory 500M) peaked at 280 to 380 MiB in a release build on a busy
// 2-core machine and 516 MiB under AddressSanitizer, whose shadow memory
// and quarantine of freed blocks (256 MiB at most) come on top. A share is
// 10 MiB (Connect Four's 8 MiB solver table, Gomoku's 4.1 MiB prover, and
// the tree's arena in the rest), so sessions that kept their memory after
// being closed (some 60 open and close here), or an engine that touched
// more than its share (the default 256 MiB arena, or --memory whole), go
// past the bound within seconds; a tree that grows past its share is only
// caught where it grows that far in the time, which on two cores it may not.
const OVERHEAD_MB = Number(process.env.WEB_OVERHEAD_MB || (SLOW > 1 ? 450 : 150))

const games = ['connect4', 'gomoku', 'tictactoe']
const unexpected = [] // "what: status" for every answer that should not have come.
const errors = []     // Connection errors.
let analyses = 0, requests = 0, moves = 0, gamesEnded = 0, badAsked = 0, created = 0, streamEvents = 0

function expect(r, want, what) {
  requests++
  const ok = Array.isArray(want) ? want.includes(r.status) : r.status === want
  if (!ok && unexpected.length < 20) unexpected.push(`${what}: ${r.status} (want ${want}) ${r.text.slice(0, 120)}`)
  return ok
}
async function call(method, path, body, want, what) {
  try {
    const r = await api(base, method, path, body)
    return expect(r, want, what) ? r : null
  } catch (err) {
    if (errors.length < 20) errors.push(`${what}: ${err.message}${err.cause ? ' (' + err.cause.code + ')' : ''}`)
    return null
  }
}

const deadline = Date.now() + seconds * 1000
const sameGame = (a, b) => a.moves.length === b.moves.length && a.to_move === b.to_move && a.over === b.over

// One session of worker k: created, played (a new game when one ends, or
// closed after its first game when once is set), closed. random(n) is the
// worker's own. Returns false when something went wrong (already counted).
async function session(k, game, once, random) {
  const c = await call('POST', '/api/sessions', {game, human: 'first', playouts: 50}, 201, `create ${game}`)
  if (!c) return false
  created++
  const id = c.json.id
  let s = c.json, ev = null, plies = 0
  try {
    if (k % 5 === 0) ev = await events(base, id)
    while (Date.now() < deadline) {
      if (s.over) {
        gamesEnded++
        if (once) break
        const n = await call('POST', `/api/sessions/${id}/new`, {}, 200, 'new')
        if (!n) return false
        s = n.json
      } else if (s.status !== 'idle' || !s.human[s.to_move]) {
        // The engine's turn: the state is polled, as a program would.
        await sleep(40 + random(40))
        const r = await call('GET', `/api/sessions/${id}`, undefined, 200, 'state')
        if (!r) return false
        s = r.json
      } else if (ev && ++plies % 3 === 0) {
        // A watcher analyses the position for a while (until a few search
        // events came), so that its tree grows towards its share of --memory.
        analyses++
        const from = ev.events.length
        if (!await call('POST', `/api/sessions/${id}/analyze`, undefined, 200, 'analyze')) return false
        let n = 0
        // (A solved position ends its search on its own: done.)
        await ev.next(e => e.event === 'search' && (++n >= 8 || e.data.done), 20000, from, `analysis of ${game}`)
        const r = await call('POST', `/api/sessions/${id}/stop`, undefined, 200, 'stop')
        if (!r) return false
        s = r.json
      } else if (!ev && ++plies % 4 === 0) {
        // A bad request of one kind or another: its own status, and the game unchanged.
        badAsked++
        const kind = random(7)
        if (kind === 0) await call('POST', `/api/sessions/${id}/move`, {move: 'zz99'}, 422, 'illegal move')
        else if (kind === 1) await call('POST', `/api/sessions/${id}/move`, '{"move": ', 400, 'malformed JSON')
        else if (kind === 2) await call('POST', `/api/sessions/${id}/move`, {move: s.legal[0].move, x: 1}, 400, 'unknown field')
        else if (kind === 3) await call('GET', `/api/sessions/${id}x`, undefined, 404, 'unknown session')
        else if (kind === 4) await call('GET', `/api/sessions/${id}/move`, undefined, 405, 'wrong method')
        else if (kind === 5) await call('GET', '/api/nothing', undefined, 404, 'unknown route')
        else expect(await raw(base, 'POST', `/api/sessions/${id}/move`, {body: JSON.stringify({move: s.legal[0].move}),
          headers: {Host: `127.0.0.1:${port}`, Origin: 'http://evil.example', 'Content-Type': 'application/json'}}), 403, 'foreign Origin')
        const r = await call('GET', `/api/sessions/${id}`, undefined, 200, 'state')
        if (!r) return false
        if (!sameGame(r.json, s) && unexpected.length < 20) unexpected.push(`a bad request (${kind}) changed the game`)
        s = r.json
      } else {
        const m = s.legal[random(s.legal.length)].move
        const r = await call('POST', `/api/sessions/${id}/move`, {move: m}, 200, `move ${m}`)
        if (!r) return false
        moves++
        s = r.json
      }
    }
    return true
  } catch (err) {
    if (errors.length < 20) errors.push(`${game}: ${err.message}`)
    return false
  } finally {
    // Also when something above went wrong: the place is freed.
    if (ev) {
      streamEvents += ev.events.length
      if (ev.error) errors.push(`events: ${ev.error.message}`)
      else if (ev.closed) errors.push('events: the stream ended while the session was open')
      await ev.close()
    }
    await call('DELETE', `/api/sessions/${id}`, undefined, 200, 'delete')
  }
}

// Worker k: one session at a time until the time is up. Every fifth
// watches its events and plays Gomoku (a Connect Four analysis may send no
// statistics for seconds while its solver works); those that start with
// Tic-tac-toe, whose games are short, close their session after each game
// and open another (of the next game); the others play on in one session.
async function worker(k) {
  let rnd = k * 7919 + 1
  const random = n => { rnd = (rnd * 1103515245 + 12345) & 0x7fffffff; return rnd % n }
  await sleep(k * 10) // Staggered starts, as tabs open one after another.
  for (let i = 0; Date.now() < deadline; i++) {
    const game = k % 5 === 0 ? 'gomoku' : games[(k + i) % games.length]
    if (!await session(k, game, k % 3 === 2, random)) return
  }
}

function vmHWM() {
  const st = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const m = st.match(/^VmHWM:\s+(\d+) kB/m)
  return m ? Number(m[1]) / 1024 : NaN
}

const t0 = Date.now()
await Promise.all(Array.from({length: SESSIONS}, (_, k) => worker(k)))
const took = (Date.now() - t0) / 1000

await check(`${SESSIONS} sessions for ${seconds} s: every answer as it should be`, async () => {
  assert.deepEqual(unexpected, [])
  console.log(`     (${requests} requests, ${created} sessions, ${moves} moves, ${gamesEnded} games ended, ` +
              `${badAsked} bad requests, ${analyses} analyses, ${streamEvents} events streamed, ${took.toFixed(1)} s)`)
})
await check('no connection error', async () => assert.deepEqual(errors, []))
// That the load ran at all: how far it went depends on the machine (a
// sanitizer build on a busy one ends few games in a few seconds).
await check('the games went on: every session played, the watchers saw events', async () => {
  assert.ok(created >= SESSIONS, `${created} sessions`)
  assert.ok(moves >= SESSIONS, `${moves} moves`)
  assert.ok(streamEvents >= SESSIONS / 5, `${streamEvents} events`)
})
await check('the server still answers, with none of the sessions left', async () => {
  const r = await api(base, 'GET', '/api/games')
  assert.equal(r.status, 200)
  // Every place is free again: --sessions new ones open at once.
  const ids = []
  for (let i = 0; i < SESSIONS; i++) {
    const c = await api(base, 'POST', '/api/sessions', {game: 'tictactoe'})
    assert.equal(c.status, 201, `session ${i + 1} after the load: ${c.status} ${c.text}`)
    ids.push(c.json.id)
  }
  for (const id of ids) assert.equal((await api(base, 'DELETE', `/api/sessions/${id}`)).status, 200)
})
await check(`peak memory within --memory ${memoryMB} MiB + ${OVERHEAD_MB} MiB`, async () => {
  assert.ok(pid > 0, 'no pid given')
  const hwm = vmHWM()
  console.log(`     (VmHWM ${hwm.toFixed(0)} MiB)`)
  assert.ok(hwm < memoryMB + OVERHEAD_MB, `VmHWM ${hwm.toFixed(0)} MiB`)
})
done()
