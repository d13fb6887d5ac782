// web_lib.mjs - what the tests of `banyan serve` share (web_api.mjs,
// web_page.mjs, web_load.mjs): one line per check, requests through fetch
// and through node:http (which sends a path and a Host header exactly as
// given), the event stream read as a browser's EventSource reads it, and
// waiting for a session's state. docs/WEB.md is the specification.
import http from 'node:http'
import assert from 'node:assert/strict'

// WEB_SLOW=1 (tests/cli/web.sh sets it for sanitizer builds): every time
// limit is this many times longer.
export const SLOW = process.env.WEB_SLOW ? 4 : 1

export const sleep = ms => new Promise(r => setTimeout(r, ms))

// Checks: each prints "ok   NAME" or "FAIL NAME: why"; done() sets the exit code.
export function checker() {
  let failures = 0, passes = 0
  return {
    async check(name, fn) {
      const t0 = Date.now()
      try {
        await fn()
        passes++
        console.log(`ok   ${name}`)
        if (Date.now() - t0 > 2000) console.log(`     (${((Date.now() - t0) / 1000).toFixed(1)} s)`)
      } catch (err) {
        failures++
        const why = (err && err.message ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 600)
        console.log(`FAIL ${name}: ${why}`)
      }
    },
    get failures() { return failures },
    done() {
      if (failures || !passes) process.exitCode = 1
    },
  }
}

// A request through fetch: {status, headers, text, json}, json undefined
// where the body is not JSON. body: an object (sent as JSON) or a string
// (sent as it is).
export async function api(base, method, path, body, headers = {}) {
  const init = {method, headers: {...headers}}
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    init.headers['Content-Type'] ??= 'application/json'
  }
  const res = await fetch(base + path, init)
  const text = await res.text()
  let json
  try { json = JSON.parse(text) } catch { json = undefined }
  return {status: res.status, headers: res.headers, text, json}
}

// The same through node:http: path and headers go out exactly as given
// (fetch would normalise "/../" away and set Host itself). headers is a
// plain object with lower-case names in the answer.
export function raw(base, method, path, {headers = {}, body} = {}) {
  const u = new URL(base)
  return new Promise((resolve, reject) => {
    const req = http.request({host: u.hostname, port: u.port, method, path, headers,
                              agent: false}, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        let json
        try { json = JSON.parse(text) } catch { json = undefined }
        resolve({status: res.statusCode, headers: res.headers, text, json})
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    if (body !== undefined) req.end(body); else req.end()
  })
}

// An error answer of docs/WEB.md: the status, JSON {"error": "a sentence"}.
export function isError(r, status, what) {
  assert.equal(r.status, status, `${what}: status ${r.status}, want ${status} (${r.text.slice(0, 200)})`)
  assert.ok(r.json && typeof r.json.error === 'string' && r.json.error.length >= 3,
            `${what}: the ${status} has no {"error": "a sentence"} body: ${r.text.slice(0, 200)}`)
}

// The state of session id.
export async function state(base, id) {
  const r = await api(base, 'GET', `/api/sessions/${id}`)
  assert.equal(r.status, 200, `GET /api/sessions/${id}: ${r.status} ${r.text.slice(0, 200)}`)
  return r.json
}

// Polls the state of session id until pred(state) holds, up to ms (times
// SLOW); returns that state.
export async function waitState(base, id, pred, ms = 20000, what = 'the state') {
  const end = Date.now() + ms * SLOW
  let s
  for (;;) {
    s = await state(base, id)
    if (pred(s)) return s
    if (Date.now() > end)
      throw new Error(`${what}: not reached in ${ms * SLOW} ms; last: status ${s.status}, ` +
                      `${s.moves.length} moves, over ${s.over}, version ${s.version}`)
    await sleep(30)
  }
}

export const idle = s => s.status === 'idle'
export const moveTexts = s => s.moves.map(m => m.move)

// The event stream of session id, read in the background. events holds
// {event, data, raw, t} in order (data parsed from JSON where it is),
// comments counts ":" lines. next(pred, ms, from) waits for the first event
// at index >= from that satisfies pred. close() ends the stream.
export async function events(base, id) {
  const ac = new AbortController()
  const res = await fetch(`${base}/api/sessions/${id}/events`, {signal: ac.signal})
  const s = {res, events: [], comments: 0, closed: false, error: null}
  if (res.status !== 200) {
    ac.abort()
    throw new Error(`GET events: status ${res.status}`)
  }
  const reader = res.body.getReader()
  const dec = new TextDecoder()
  let buf = '', name = '', data = []
  s.done = (async () => {
    try {
      for (;;) {
        const {value, done} = await reader.read()
        if (done) break
        buf += dec.decode(value, {stream: true})
        let i
        while ((i = buf.search(/\r\n|\n|\r/)) >= 0) {
          const line = buf.slice(0, i)
          buf = buf.slice(buf[i] === '\r' && buf[i + 1] === '\n' ? i + 2 : i + 1)
          if (line === '') {
            if (data.length) {
              const text = data.join('\n')
              let parsed
              try { parsed = JSON.parse(text) } catch { parsed = undefined }
              s.events.push({event: name || 'message', data: parsed, raw: text, t: Date.now()})
            }
            name = ''
            data = []
          } else if (line[0] === ':') {
            s.comments++
          } else {
            const c = line.indexOf(':')
            const field = c < 0 ? line : line.slice(0, c)
            let v = c < 0 ? '' : line.slice(c + 1)
            if (v[0] === ' ') v = v.slice(1)
            if (field === 'event') name = v
            else if (field === 'data') data.push(v)
          }
        }
      }
    } catch (err) {
      if (err.name !== 'AbortError') s.error = err
    }
    s.closed = true
  })()
  s.close = async () => {
    ac.abort()
    await s.done
  }
  s.next = async (pred, ms = 10000, from = 0, what = 'an event') => {
    const end = Date.now() + ms * SLOW
    for (;;) {
      for (let i = from; i < s.events.length; i++)
        if (pred(s.events[i])) return s.events[i]
      if (s.closed) throw new Error(`${what}: the stream ended first (${s.error || 'closed'})`)
      if (Date.now() > end) throw new Error(`${what}: none in ${ms * SLOW} ms (${s.events.length} events)`)
      await sleep(10)
    }
  }
  return s
}
