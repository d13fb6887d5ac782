// web_api.mjs URL [GAMES] - the HTTP interface of `banyan serve` (docs/WEB.md),
// through Node's fetch and node:http: the games, a session of each, moves,
// the engine's replies, undo, hint, new, swap, resign, settings, positions,
// records in every format and back, analysis with its event stream, closing,
// every error of WEB.md's table, and the page's files. GAMES is the
// comma-separated list of `banyan games`. The server must run with small
// limits (tests/cli/web.sh: --sessions 4 --playouts 200) and no other
// client. Prints one line per check and exits non-zero on a failure.
import assert from 'node:assert/strict'
import net from 'node:net'
import {SLOW, checker, api, raw, isError, state, waitState, idle, moveTexts, events, sleep}
  from './web_lib.mjs'

const base = process.argv[2].replace(/\/$/, '')
// The games `banyan games` lists (web.sh passes them), else the four of old.
const gameNames = (process.argv[3] || 'tictactoe,connect4,gomoku,othello').split(',').sort()
const checks = checker()
const port = new URL(base).port
const open = new Set() // Sessions this script made and has not closed.
// Each check closes what it left open (a failed one too), so that the next
// starts with every place free.
async function check(name, fn) {
  await checks.check(name, fn)
  for (const id of open) await api(base, 'DELETE', `/api/sessions/${id}`).catch(() => {})
  open.clear()
}

async function create(body, what = 'POST /api/sessions') {
  const r = await api(base, 'POST', '/api/sessions', body)
  assert.equal(r.status, 201, `${what}: status ${r.status} ${r.text.slice(0, 200)}`)
  assert.match(r.json.id, /^[0-9A-Za-z_-]{8,}$/, 'the session id')
  open.add(r.json.id)
  return r.json
}
async function close(id) {
  const r = await api(base, 'DELETE', `/api/sessions/${id}`)
  assert.equal(r.status, 200, `DELETE: ${r.status} ${r.text}`)
  open.delete(id)
}
// POST to a session's route; status must be want (200 unless given).
async function post(id, route, body, want = 200) {
  const r = await api(base, 'POST', `/api/sessions/${id}/${route}`, body)
  assert.equal(r.status, want, `POST ${route} ${JSON.stringify(body) ?? ''}: status ${r.status}, ` +
               `want ${want}: ${r.text.slice(0, 200)}`)
  return r.json
}
async function play(id, move) { return post(id, 'move', {move}) }

let games
await check('GET /api/games: every game, its parameters, and the limits', async () => {
  const r = await api(base, 'GET', '/api/games')
  assert.equal(r.status, 200)
  assert.match(r.headers.get('content-type'), /^application\/json/)
  assert.match(r.headers.get('cache-control') || '', /no-store/)
  games = r.json
  assert.match(games.version, /^\d+\.\d+\.\d+/)
  assert.deepEqual(games.games.map(g => g.name).sort(), gameNames)
  for (const g of games.games) {
    assert.equal(typeof g.title, 'string', `${g.name}: title`)
    assert.ok(Number.isInteger(g.players) && g.players >= 1 && g.players <= 4, `${g.name}: players ${g.players}`)
    assert.ok(Array.isArray(g.formats) && g.formats.includes('text'), `${g.name}: formats ${g.formats}`)
    assert.equal(typeof g.board, 'boolean', `${g.name}: board`)
    assert.ok(Array.isArray(g.params), `${g.name}: params`)
    for (const p of g.params) {
      assert.equal(typeof p.name, 'string')
      assert.ok(['int', 'number', 'choice'].includes(p.type), `${g.name}.${p.name}: type ${p.type}`)
      assert.equal(typeof p.default, 'string', `${g.name}.${p.name}: default`)
      if (p.type === 'choice') assert.ok(p.choices.includes(p.default), `${g.name}.${p.name}: choices`)
      if (p.type === 'int' || p.type === 'number') assert.ok(p.min <= Number(p.default) && Number(p.default) <= p.max,
                                      `${g.name}.${p.name}: ${p.min} <= ${p.default} <= ${p.max}`)
    }
  }
  const gomoku = games.games.find(g => g.name === 'gomoku')
  assert.equal(gomoku.sgf, 4)
  assert.deepEqual(gomoku.formats.slice().sort(), ['psq', 'sgf', 'text'])
  const size = gomoku.params.find(p => p.name === 'size'), rule = gomoku.params.find(p => p.name === 'rule')
  assert.equal(size.type, 'int')
  assert.equal(size.default, '15')
  assert.equal(rule.type, 'choice')
  assert.ok(rule.choices.includes('freestyle') && rule.choices.includes('renju'))
  assert.ok(games.limits.sessions >= 2 && games.limits.sessions <= 8,
            `limits.sessions ${games.limits.sessions}: web.sh starts this server with a few`)
  assert.ok(games.limits.max_threads >= 1)
  assert.equal(typeof games.defaults.threads, 'number')
})

await check('a session of each game: its state, then DELETE closes it (404 after)', async () => {
  // Board kind, width, height, legal moves and pieces at the start; a game
  // not listed here is checked for what every game has.
  const shapes = {tictactoe: ['cell', 3, 3, 9, 0], connect4: ['column', 7, 6, 7, 0],
                  gomoku: ['cell', 15, 15, 225, 0], othello: ['cell', 8, 8, 4, 4]}
  for (const name of gameNames) {
    const s = await create({game: name, human: 'both'}, name)
    const players = games.games.find(g => g.name === name).players  // Morpion Solitaire has one
    const [kind, w, h, nlegal, npieces] = shapes[name] ||
      [s.board.kind, s.board.width, s.board.height, s.legal.length, s.cells.flat().filter(c => c >= 0).length]
    assert.equal(s.game, name)
    assert.equal(s.board.kind, kind, `${name}: board.kind`)
    assert.equal(s.board.width, w, `${name}: width`)
    assert.equal(s.board.height, h, `${name}: height`)
    assert.equal(s.cells.length, h, `${name}: cells rows`)
    assert.ok(s.cells.every(row => row.length === w), `${name}: cells columns`)
    assert.equal(s.legal.length, nlegal, `${name}: legal moves`)
    assert.ok(nlegal > 0, `${name}: no legal move at the start`)
    assert.ok(s.legal.every(m => (m.kind === kind || m.kind === 'pass') && typeof m.move === 'string'), `${name}: legal kinds`)
    assert.ok(s.legal.every(m => m.kind !== 'cell' || (m.x >= 0 && m.x < w && m.y >= 0 && m.y < h)), `${name}: legal places`)
    assert.deepEqual(s.moves, [])
    assert.equal(s.to_move, 0)
    assert.deepEqual(s.human, Array(players).fill(true))
    assert.equal(s.over, false)
    assert.equal(s.result, '')
    assert.equal(s.winner, null)
    assert.equal(games.games.find(g => g.name === name).board, kind !== 'none', `${name}: board in /api/games`)
    assert.equal(s.status, 'idle')
    assert.equal(s.players.length, players, `${name}: players`)
    assert.equal(s.cells.flat().filter(c => c >= 0).length, npieces, `${name}: pieces at the start`)
    const g = await state(base, s.id)
    assert.equal(g.id, s.id)
    assert.equal(g.version, s.version)
    const d = await api(base, 'DELETE', `/api/sessions/${s.id}`)
    assert.equal(d.status, 200)
    assert.deepEqual(d.json, {})
    open.delete(s.id)
    isError(await api(base, 'GET', `/api/sessions/${s.id}`), 404, `${name}: GET after DELETE`)
    isError(await api(base, 'POST', `/api/sessions/${s.id}/move`, {move: s.legal[0].move}), 404,
            `${name}: a move after DELETE`)
  }
  const s = await create({game: 'tictactoe'})
  assert.deepEqual((await post(s.id, 'close')), {})
  open.delete(s.id)
  isError(await api(base, 'GET', `/api/sessions/${s.id}`), 404, 'GET after POST close')
})

await check('moves: played, the version grows, the engine replies (polled), winrate recorded', async () => {
  const s = await create({game: 'gomoku', human: 'first', playouts: 200})
  assert.deepEqual(s.human, [true, false])
  assert.equal(s.settings.playouts, 200)
  const a = await play(s.id, 'h8')
  assert.ok(a.version > s.version, `version ${a.version} after ${s.version}`)
  assert.deepEqual(a.moves[0], {move: 'h8', player: 0, kind: 'cell', x: 7, y: 7})
  assert.equal(a.cells[7][7], 0)
  assert.ok(!a.legal.some(m => m.move === 'h8'), 'h8 still legal')
  const b = await waitState(base, s.id, t => idle(t) && t.moves.length === 2, 20000, 'the engine\'s reply')
  assert.equal(b.moves[1].player, 1)
  assert.equal(b.to_move, 0)
  assert.equal(b.cells[b.moves[1].y][b.moves[1].x], 1)
  assert.equal(b.winrate.length, 3, `winrate ${JSON.stringify(b.winrate)}`)
  assert.equal(b.winrate[0], null)
  assert.ok(typeof b.winrate[1] === 'number' && b.winrate[1] >= 0 && b.winrate[1] <= 1,
            `winrate after the engine's search: ${JSON.stringify(b.winrate)}`)
  await close(s.id)
})

await check('moves: illegal ones refused with 422 and the game\'s reason', async () => {
  const s = await create({game: 'connect4', human: 'both'})
  isError(await api(base, 'POST', `/api/sessions/${s.id}/move`, {move: 'zz'}), 422, 'move zz')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/move`, {move: 'h'}), 422, 'move h')
  for (let i = 0; i < 6; i++) await play(s.id, 'd')
  const r = await api(base, 'POST', `/api/sessions/${s.id}/move`, {move: 'd'})
  isError(r, 422, 'a move in a full column')
  assert.match(r.json.error, /full/, 'the reason')
  assert.equal((await state(base, s.id)).moves.length, 6, 'a refused move changed the game')
  await close(s.id)
})

await check('a move while the engine thinks: 409; stop makes it play its best so far', async () => {
  const s = await create({game: 'gomoku', human: 'first', time: 30})
  const a = await play(s.id, 'h8')
  assert.equal(a.status, 'thinking')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/move`, {move: 'a1'}), 409, 'a move while thinking')
  const st = await post(s.id, 'stop')
  // The move comes from stop, not from the 30 s clock: it must come well
  // before that (a bound on liveness, not on the machine's speed).
  const b = await waitState(base, s.id, t => idle(t) && t.moves.length === 2, 20000, 'the move after stop')
  assert.equal(b.moves[1].player, 1)
  assert.ok(st.version >= a.version)
  await close(s.id)
})

await check('undo: back to your previous turn; the last move alone with both sides; 409 with nothing to undo', async () => {
  const s = await create({game: 'tictactoe', human: 'first', playouts: 200})
  isError(await api(base, 'POST', `/api/sessions/${s.id}/undo`), 409, 'undo at the start')
  await play(s.id, 'b2')
  await waitState(base, s.id, t => idle(t) && t.moves.length === 2, 20000, 'the engine\'s reply')
  const u = await post(s.id, 'undo')
  assert.equal(u.moves.length, 0, `moves after undo: ${moveTexts(u)}`)
  assert.equal(u.to_move, 0)
  assert.equal(u.status, 'idle')
  assert.ok(u.cells.flat().every(c => c === -1))
  await close(s.id)
  const t = await create({game: 'tictactoe', human: 'both'})
  await play(t.id, 'a1'); await play(t.id, 'b2'); await play(t.id, 'c3')
  const v = await post(t.id, 'undo')
  assert.deepEqual(moveTexts(v), ['a1', 'b2'])
  assert.equal(v.to_move, 0)
  await close(t.id)
})

await check('hint: status hint, then hint set to a legal move; no move played', async () => {
  const s = await create({game: 'gomoku', human: 'first', time: 0.5})
  await play(s.id, 'h8')
  const r = await waitState(base, s.id, t => idle(t) && t.moves.length === 2, 20000, 'the reply')
  const h = await post(s.id, 'hint')
  assert.equal(h.status, 'hint')
  const d = await waitState(base, s.id, t => idle(t) && t.hint, 20000, 'the hint')
  assert.ok(r.legal.some(m => m.move === d.hint.move), `hint ${JSON.stringify(d.hint)} is not legal`)
  assert.equal(d.hint.kind, 'cell')
  assert.equal(typeof d.hint.x, 'number')
  assert.equal(d.moves.length, 2)
  await close(s.id)
})

await check('new: the same game and settings, or another game; unknown game refused', async () => {
  const s = await create({game: 'gomoku', human: 'both', playouts: 300})
  await play(s.id, 'h8'); await play(s.id, 'h9')
  const n = await post(s.id, 'new', {})
  assert.equal(n.game, 'gomoku')
  assert.deepEqual(n.moves, [])
  assert.equal(n.settings.playouts, 300)
  assert.deepEqual(n.human, [true, true])
  const t = await post(s.id, 'new', {game: 'tictactoe', human: 'second'})
  assert.equal(t.game, 'tictactoe')
  assert.equal(t.board.width, 3)
  assert.deepEqual(t.human, [false, true])
  // The engine is to move: it starts.
  await waitState(base, s.id, x => idle(x) && x.moves.length === 1, 20000, 'the engine\'s first move')
  const r = await api(base, 'POST', `/api/sessions/${s.id}/new`, {game: 'nogame'})
  assert.ok(r.status === 422 || r.status === 400, `unknown game: ${r.status}`)
  isError(r, r.status, 'unknown game')
  await close(s.id)
})

await check('params: a game\'s parameters as "key=value ...", for a session and a new game; bad ones 422', async () => {
  const s = await create({game: 'gomoku', human: 'both', params: 'size=9'})
  assert.equal(s.board.width, 9)
  assert.equal(s.legal.length, 81)
  assert.match(s.params, /(^| )size=9( |$)/)
  const n = await post(s.id, 'new', {params: 'size=11 rule=standard'})
  assert.equal(n.board.height, 11)
  assert.match(n.params, /rule=standard/)
  assert.equal((await post(s.id, 'new', {})).board.width, 11, 'new without params keeps them')
  const t = await post(s.id, 'new', {game: 'tictactoe', params: 'm=4 n=4 k=3'})
  assert.equal(t.board.width, 4)
  assert.equal(t.legal.length, 16)
  for (const bad of ['size=99', 'size=x', 'nosuch=1'])
    isError(await api(base, 'POST', '/api/sessions', {game: 'gomoku', params: bad}), 422, `params ${bad}`)
  isError(await api(base, 'POST', `/api/sessions/${s.id}/new`, {game: 'gomoku', params: 'size=4'}), 422, 'new, params size=4')
  assert.equal((await state(base, s.id)).game, 'tictactoe', 'refused params changed the game')
  isError(await api(base, 'POST', '/api/sessions', {game: 'gomoku', params: {size: 9}}), 400, 'params of the wrong type')
  await close(s.id)
})

await check('swap: the engine takes the side to move and plays', async () => {
  const s = await create({game: 'tictactoe', human: 'first', playouts: 200})
  const w = await post(s.id, 'swap')
  assert.deepEqual(w.human, [false, true])
  const d = await waitState(base, s.id, t => idle(t) && t.moves.length === 1, 20000, 'the engine\'s move')
  assert.equal(d.moves[0].player, 0)
  assert.equal(d.to_move, 1)
  await close(s.id)
})

await check('resign: the person resigns (the side to move when theirs, else their side); the game is over', async () => {
  const s = await create({game: 'tictactoe', human: 'both'})
  const r = await post(s.id, 'resign')
  assert.equal(r.over, true)
  assert.equal(r.result, 'O wins: X resigned')
  assert.equal(r.winner, 1)
  assert.deepEqual(r.legal, [])
  const t = await create({game: 'connect4', human: 'both'})
  await play(t.id, 'd')
  const u = await post(t.id, 'resign')
  assert.equal(u.result, 'Red wins: Yellow resigned')
  assert.equal(u.winner, 0)
  // While the engine thinks on its move: the person's side resigns, the search stops.
  const e = await create({game: 'gomoku', human: 'second', time: 30})
  const th = await waitState(base, e.id, x => x.status === 'thinking', 5000, 'the engine thinking')
  assert.equal(th.to_move, 0)
  const v = await post(e.id, 'resign')
  assert.equal(v.over, true)
  assert.equal(v.result, 'Black wins: White resigned')
  assert.equal(v.winner, 0)
  assert.equal(v.moves.length, 0)
  await waitState(base, e.id, idle, 5000, 'idle after resigning')
  // The resignation kept in the record, read back.
  const rec = await api(base, 'GET', `/api/sessions/${e.id}/record?format=text`)
  assert.match(rec.text, /resigned/)
  const back = await post(s.id, 'record', {text: rec.text})
  assert.equal(back.result, 'Black wins: White resigned')
  assert.equal(back.winner, 0)
  await close(s.id); await close(t.id); await close(e.id)
})

await check('settings: playouts, time (one clears the other), threads, human; out of range refused', async () => {
  const s = await create({game: 'connect4', human: 'both'})
  let r = await post(s.id, 'settings', {playouts: 123})
  assert.equal(r.settings.playouts, 123); assert.equal(r.settings.time, 0)
  r = await post(s.id, 'settings', {time: 0.25})
  assert.equal(r.settings.time, 0.25); assert.equal(r.settings.playouts, 0)
  r = await post(s.id, 'settings', {threads: 1, playouts: 150})
  assert.equal(r.settings.threads, 1); assert.equal(r.settings.playouts, 150)
  for (const bad of [{playouts: -5}, {playouts: 100000001}, {time: 5000}, {time: -1},
                     {threads: 0}, {threads: games.limits.max_threads + 1}, {human: 'nobody'},
                     {playouts: 'many'}, {threads: 1.5}])
    isError(await api(base, 'POST', `/api/sessions/${s.id}/settings`, bad), 400, JSON.stringify(bad))
  assert.equal((await state(base, s.id)).settings.playouts, 150, 'a refused setting changed the settings')
  // human: the engine to move now starts.
  r = await post(s.id, 'settings', {human: 'second'})
  assert.deepEqual(r.human, [false, true])
  await waitState(base, s.id, t => idle(t) && t.moves.length === 1, 20000, 'the engine\'s move after human: second')
  await close(s.id)
})

// The position is the new game's start: its moves are not listed as the
// game's (WEB.md: "a new game from that position"); the board shows them.
const stones = s => s.cells.flat().filter(c => c >= 0).length
await check('position: a game from a position in the game\'s notation; a bad one is 422', async () => {
  const s = await create({game: 'gomoku', human: 'both'})
  const p = await post(s.id, 'position', {position: 'h8 i9 h9'})
  assert.ok(p.moves.length === 0 || p.moves.length === 3, `moves ${moveTexts(p)}`)
  assert.equal(p.cells[7][7], 0)
  assert.equal(p.cells[6][8], 1)
  assert.equal(p.cells[6][7], 0)
  assert.equal(stones(p), 3)
  assert.equal(p.to_move, 1)
  assert.ok(!p.legal.some(m => ['h8', 'i9', 'h9'].includes(m.move)), 'an occupied point is legal')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/position`, {position: 'h8 h8'}), 422, 'position h8 h8')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/position`, {position: 'zz99'}), 422, 'position zz99')
  assert.equal(stones(await state(base, s.id)), 3, 'a refused position changed the game')
  await post(s.id, 'new', {game: 'connect4'})
  const c = await post(s.id, 'position', {position: '4453'})
  assert.equal(c.game, 'connect4')
  assert.equal(stones(c), 4)
  assert.equal(c.cells[5][3], 0, 'd1')
  await close(s.id)
})

await check('records: every format each game lists, saved and loaded back into another game; bad ones 422', async () => {
  let n = 0
  const problems = []
  for (const g of games.games) {
    const s = await create({game: g.name, human: 'both'})
    let t = s
    for (let i = 0; i < 5; i++) t = await play(s.id, t.legal[(i * 7) % t.legal.length].move)
    if (t.formats.join() !== g.formats.join()) problems.push(`${g.name}: formats ${t.formats}, /api/games says ${g.formats}`)
    // Each format loaded into a session of another game: it becomes the record's game.
    const o = await create({game: g.name === 'tictactoe' ? 'connect4' : 'tictactoe', human: 'both'})
    for (const f of g.formats) {
      const r = await api(base, 'GET', `/api/sessions/${s.id}/record?format=${f}`)
      const what = `${g.name} ${f}`
      if (r.status !== 200) { problems.push(`${what}: GET ${r.status} ${r.text.slice(0, 100)}`); continue }
      if (!/^attachment/.test(r.headers.get('content-disposition') || ''))
        problems.push(`${what}: Content-Disposition "${r.headers.get('content-disposition')}"`)
      if (f === 'sgf' && !new RegExp(`^\\(;.*GM\\[${g.sgf}\\]`, 's').test(r.text)) problems.push(`${what}: ${r.text.slice(0, 60)}`)
      const l = await api(base, 'POST', `/api/sessions/${o.id}/record`, {text: r.text})
      if (l.status !== 200) problems.push(`${what}: saved, then POST record: ${l.status} ${l.text.slice(0, 150)}`)
      else if (l.json.game !== g.name) problems.push(`${what}: loaded as ${l.json.game}`)
      else if (moveTexts(l.json).join() !== moveTexts(t).join()) problems.push(`${what}: moves ${moveTexts(l.json)}`)
      else if (JSON.stringify(l.json.cells) !== JSON.stringify(t.cells)) problems.push(`${what}: another board`)
      else n++
      // Back to another game for the next format.
      await post(o.id, 'new', {game: g.name === 'tictactoe' ? 'connect4' : 'tictactoe'})
    }
    const b = await api(base, 'POST', `/api/sessions/${s.id}/record`, {text: 'this is no record'})
    if (b.status !== 422 || !b.json || !b.json.error) problems.push(`${g.name}: a bad record: ${b.status} ${b.text.slice(0, 100)}`)
    if ((await state(base, s.id)).moves.length !== 5) problems.push(`${g.name}: a refused record changed the game`)
    await close(o.id); await close(s.id)
  }
  assert.deepEqual(problems, [])
  const want = games.games.reduce((k, g) => k + g.formats.length, 0)
  assert.ok(n === want && n >= 5, `${n} round trips of ${want}`)
})

await check('analyze: search events with moves and visits on the stream; stop ends it with done', async () => {
  const s = await create({game: 'gomoku', human: 'both'})
  await post(s.id, 'position', {position: 'h8 i9 h9'})
  const ev = await events(base, s.id)
  try {
    assert.match(ev.res.headers.get('content-type'), /^text\/event-stream/)
    const first = await ev.next(() => true, 5000, 0, 'the first event')
    assert.equal(first.event, 'state')
    assert.equal(first.data.id, s.id)
    assert.equal(stones(first.data), 3)
    const a = await post(s.id, 'analyze')
    assert.equal(a.status, 'analyzing')
    const from = ev.events.length
    const searchWith = e => e.event === 'search' && e.data && e.data.moves && e.data.moves.length > 0
    await ev.next(searchWith, 10000, from, 'a search event')
    const i1 = ev.events.findIndex((e, i) => i >= from && searchWith(e))
    await ev.next(searchWith, 10000, i1 + 1, 'a second search event')
    const searches = ev.events.filter(e => e.event === 'search').map(e => e.data)
    for (const d of searches) {
      assert.equal(d.kind, 'analyzing')
      assert.equal(d.to_move, 1)
      assert.equal(d.done, false)
      assert.ok(d.moves.length <= 60)
      assert.ok(d.value >= 0 && d.value <= 1 && d.winrate >= 0 && d.winrate <= 1, `value ${d.value} winrate ${d.winrate}`)
    }
    const last = searches[searches.length - 1]
    assert.ok(last.playouts > searches[0].playouts || searches.length === 1 || last.playouts > 0)
    const m = last.moves[0]
    assert.ok(m.visits > 0 && m.kind === 'cell' && typeof m.x === 'number', JSON.stringify(m))
    assert.ok(Array.isArray(m.pv) && m.pv.length >= 1 && m.pv[0].move === m.move, `pv ${JSON.stringify(m.pv)}`)
    assert.ok(last.moves.every(x => x.visits >= 1), 'a move without visits')
    assert.equal((await state(base, s.id)).status, 'analyzing')
    await sleep(300)
    const st = await post(s.id, 'stop')
    assert.equal(st.status, 'idle')
    assert.equal(stones(st), 3, 'analysis played a move')
    await ev.next(e => e.event === 'search' && e.data && e.data.done === true, 5000, from, 'the final search event (done)')
    await ev.next(e => e.event === 'state' && e.data && e.data.status === 'idle', 5000, from, 'a state event, idle')
  } finally {
    await ev.close()
  }
  await close(s.id)
})

await check('analyze connect4: the first search event carries moves, at the start and mid-game', async () => {
  const problems = []
  for (const pos of [[], ['d', 'd', 'c'], ['a', 'b', 'c', 'd']]) {
    const s = await create({game: 'connect4', human: 'both'})
    for (const m of pos) await play(s.id, m)
    const ev = await events(base, s.id)
    try {
      await ev.next(e => e.event === 'state', 5000, 0, 'the first event')
      const t0 = Date.now()
      await post(s.id, 'analyze')
      const withMoves = e => e.event === 'search' && e.data && e.data.moves && e.data.moves.length > 0
      const e = await ev.next(e => withMoves(e) || e.event === 'search' && e.data && e.data.done, 5000, 0, 'a search event')
        .catch(err => err)
      const ms = Date.now() - t0
      if (e instanceof Error) problems.push(`after "${pos.join('')}": ${e.message}`)
      else if (!withMoves(e)) problems.push(`after "${pos.join('')}": the first search event, after ${ms} ms, is the last (done, ` +
                                            `${e.data.playouts} playouts, no moves)`)
      await post(s.id, 'stop')
    } finally {
      await ev.close()
    }
    await close(s.id)
  }
  assert.deepEqual(problems, [])
})

await check('closing the only event stream of an analysing session stops its search', async () => {
  const s = await create({game: 'othello', human: 'both'})
  const ev = await events(base, s.id)
  await ev.next(e => e.event === 'state', 5000, 0, 'the first event')
  await post(s.id, 'analyze')
  await ev.next(e => e.event === 'search', 10000, 0, 'a search event')
  await ev.close()
  const t0 = Date.now()
  const d = await waitState(base, s.id, idle, 5000, 'idle after the stream closed')
  assert.equal(d.moves.length, 0)
  console.log(`     (stopped ${Date.now() - t0} ms after the stream closed)`)
  await close(s.id)
})

await check('human none: the engine plays both sides to the end while a stream is open', async () => {
  const s = await create({game: 'tictactoe', human: 'none', playouts: 300})
  const ev = await events(base, s.id)
  try {
    const e = await ev.next(x => x.event === 'state' && x.data && x.data.over, 30000, 0, 'the end of the game')
    assert.ok(e.data.moves.length >= 5, `${e.data.moves.length} moves`)
    assert.match(e.data.result, /^(X|O) wins$|^a draw$/)
    assert.equal(e.data.winner, {'X wins': 0, 'O wins': 1}[e.data.result] ?? null)
  } finally {
    await ev.close()
  }
  await close(s.id)
})

await check('bad requests: 400 for malformed JSON, an array, an unknown field, a wrong type', async () => {
  isError(await api(base, 'POST', '/api/sessions', '{"game": "connect4"'), 400, 'malformed JSON')
  isError(await api(base, 'POST', '/api/sessions', 'connect4'), 400, 'not JSON')
  isError(await api(base, 'POST', '/api/sessions', '["connect4"]'), 400, 'an array body')
  isError(await api(base, 'POST', '/api/sessions', '"connect4"'), 400, 'a string body')
  isError(await api(base, 'POST', '/api/sessions', {game: 'connect4', bogus: 1}), 400, 'an unknown field')
  isError(await api(base, 'POST', '/api/sessions', {game: 5}), 400, 'game of the wrong type')
  isError(await api(base, 'POST', '/api/sessions', {game: 'connect4', human: 1}), 400, 'human of the wrong type')
  isError(await api(base, 'POST', '/api/sessions', {game: 'connect4', playouts: '100'}), 400, 'playouts of the wrong type')
  const s = await create({game: 'connect4', human: 'both'})
  isError(await api(base, 'POST', `/api/sessions/${s.id}/move`, {move: 3}), 400, 'move of the wrong type')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/move`, {}), 400, 'move missing')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/move`, {move: 'd', x: 1}), 400, 'move with an unknown field')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/move`, '{move: d}'), 400, 'move, malformed JSON')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/position`, {position: ['d']}), 400, 'position of the wrong type')
  isError(await api(base, 'POST', `/api/sessions/${s.id}/record`, {text: null}), 400, 'record text null')
  assert.equal((await state(base, s.id)).moves.length, 0, 'a bad request changed the game')
  await close(s.id)
})

// A request written on a socket of its own: the head, then the body in
// pieces while the server reads; resolves with what came back once a whole
// head and a body of its Content-Length came. Writing may fail once the
// server has answered: what it answered counts.
function socketRequest(head, body) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(port), '127.0.0.1')
    let got = Buffer.alloc(0), settled = false
    const finish = () => {
      if (settled) return
      const text = got.toString('latin1'), m = text.match(/^HTTP\/1\.[01] (\d{3})/)
      if (!m) return
      const end = text.indexOf('\r\n\r\n')
      const len = Number((text.match(/\r\ncontent-length: *(\d+)/i) || [])[1])
      if (end < 0 || (len >= 0 && got.length < end + 4 + len)) return
      settled = true
      sock.destroy()
      const b = text.slice(end + 4)
      let json
      try { json = JSON.parse(b) } catch { json = undefined }
      resolve({status: Number(m[1]), text: b, json, head: text.slice(0, end)})
    }
    sock.on('data', d => { got = Buffer.concat([got, d]); finish() })
    let error = ''
    sock.on('error', err => { error = err.code || err.message })
    sock.on('close', () => {
      finish()
      if (!settled) reject(new Error(`the connection ended (${error || 'closed'}) after ${got.length} bytes came: ${got.toString().slice(0, 100)}`))
    })
    sock.setTimeout(20000 * SLOW, () => sock.destroy())
    sock.write(head)
    let at = 0
    const more = () => {
      while (at < body.length && !settled && !sock.destroyed)
        if (!sock.write(body.subarray(at, (at += 65536)))) return sock.once('drain', more)
    }
    more()
  })
}

await check('a body over 1 MiB: 413, with Content-Length or chunked', async () => {
  const big = Buffer.from(JSON.stringify({game: 'connect4', pad: 'x'.repeat(1100000)}))
  const head = `POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n`
  // The body sent after the head, as fetch and browsers do: the answer must
  // come (a server that answers and closes with the body unread makes the
  // client's system drop the answer it had received: a few tries tell).
  for (let i = 0; i < 5; i++) {
    const r = await socketRequest(`${head}Content-Length: ${big.length}\r\n\r\n`, big)
      .catch(err => { throw new Error(`Content-Length 1.1 MB with the body, try ${i + 1}: no answer: ${err.message}`) })
    isError(r, 413, 'Content-Length 1.1 MB, the body sent')
  }
  // Chunked: the server finds out as it reads.
  const chunks = []
  for (let at = 0; at < big.length; at += 100000) {
    const c = big.subarray(at, at + 100000)
    chunks.push(Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from('0\r\n\r\n'))
  isError(await socketRequest(`${head}Transfer-Encoding: chunked\r\n\r\n`, Buffer.concat(chunks)), 413, 'chunked 1.1 MB')
  // Exactly at the limit is taken (and refused for what it says).
  const at = JSON.stringify({game: 'connect4', bogus: ''}).length
  const pad = JSON.stringify({game: 'connect4', bogus: 'x'.repeat((1 << 20) - at)})
  assert.equal(Buffer.byteLength(pad), 1 << 20)
  isError(await api(base, 'POST', '/api/sessions', pad), 400, 'a body of exactly 1 MiB with an unknown field')
  // The server is still well.
  assert.equal((await api(base, 'GET', '/api/games')).status, 200)
})

await check('unknown routes and paths out of the assets: 404', async () => {
  for (const p of ['/api/nothing', '/api/sessions/0123456789abcdef', '/api/sessions/x/nothing',
                   '/nothing.html', '/app.js/x', '/api/games/x'])
    isError(await api(base, 'GET', p), 404, `GET ${p}`)
  for (const p of ['/../../etc/passwd', '/%2e%2e/etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc/passwd',
                   '/static/../../../etc/passwd', '//etc/passwd']) {
    const r = await raw(base, 'GET', p, {headers: {Host: `127.0.0.1:${port}`}})
    assert.equal(r.status, 404, `GET ${p}: ${r.status}`)
    assert.ok(!/root:/.test(r.text), `GET ${p} served /etc/passwd`)
  }
  const r = await api(base, 'GET', '/api/nothing')
  assert.match(r.headers.get('content-type'), /^application\/json/, 'an /api/ error is JSON')
  assert.match(r.headers.get('cache-control') || '', /no-store/, 'an /api/ error has no-store')
})

await check('a known path with the wrong method: 405 with Allow', async () => {
  const s = await create({game: 'connect4', human: 'both'})
  const cases = [['PUT', '/api/games', 'GET'], ['DELETE', '/api/games', 'GET'], ['GET', `/api/sessions/${s.id}/move`, 'POST'],
                 ['PUT', `/api/sessions/${s.id}`, 'GET'], ['GET', '/api/sessions', 'POST'],
                 ['POST', '/app.js', 'GET'], ['DELETE', '/', 'GET']]
  for (const [m, p, allow] of cases) {
    const r = await api(base, m, p, m === 'GET' || m === 'DELETE' ? undefined : {})
    assert.equal(r.status, 405, `${m} ${p}: ${r.status}`)
    assert.ok((r.headers.get('allow') || '').split(/,\s*/).includes(allow), `${m} ${p}: Allow "${r.headers.get('allow')}"`)
  }
  await close(s.id)
})

await check('Origin and Host: a foreign Origin on POST/DELETE and a foreign Host get 403', async () => {
  const h = {Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json'}
  const body = JSON.stringify({game: 'connect4'})
  isError(await raw(base, 'POST', '/api/sessions', {headers: {...h, Origin: 'http://evil.example'}, body}), 403, 'POST, Origin evil')
  isError(await raw(base, 'POST', '/api/sessions', {headers: {...h, Origin: `http://127.0.0.1:${port + 1}`}, body}), 403, 'POST, Origin another port')
  isError(await raw(base, 'POST', '/api/sessions', {headers: {...h, Origin: 'null'}, body}), 403, 'POST, Origin null')
  const own = await raw(base, 'POST', '/api/sessions', {headers: {...h, Origin: `http://127.0.0.1:${port}`}, body})
  assert.equal(own.status, 201, `POST with its own Origin: ${own.status} ${own.text}`)
  const id = own.json.id
  open.add(id)
  isError(await raw(base, 'DELETE', `/api/sessions/${id}`, {headers: {Host: h.Host, Origin: 'http://evil.example'}}), 403, 'DELETE, Origin evil')
  isError(await raw(base, 'POST', `/api/sessions/${id}/move`, {headers: {...h, Origin: 'http://evil.example'}, body: '{"move": "d"}'}), 403, 'move, Origin evil')
  assert.equal((await state(base, id)).moves.length, 0, 'a refused move was played')
  for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
    isError(await raw(base, 'GET', '/api/games', {headers: {Host: host}}), 403, `GET /api/games, Host ${host}`)
    assert.equal((await raw(base, 'GET', '/', {headers: {Host: host}})).status, 403, `GET /, Host ${host}`)
  }
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`])
    assert.equal((await raw(base, 'GET', '/api/games', {headers: {Host: host}})).status, 200, `Host ${host}`)
  await close(id)
})

await check('--sessions games at once, then 503; a closed one frees its place', async () => {
  assert.equal(open.size, 0, `sessions left open: ${[...open]}`)
  const ids = []
  for (let i = 0; i < games.limits.sessions; i++) ids.push((await create({game: 'tictactoe'}, `session ${i + 1}`)).id)
  isError(await api(base, 'POST', '/api/sessions', {game: 'tictactoe'}), 503, `session ${ids.length + 1}`)
  await close(ids.pop())
  ids.push((await create({game: 'tictactoe'}, 'a session after one closed')).id)
  for (const id of ids) await close(id)
})

await check('the page\'s files: types, ETag, no-cache, 304 for If-None-Match', async () => {
  for (const [p, type] of [['/', /^text\/html/], ['/app.js', /^(text|application)\/javascript/],
                           ['/style.css', /^text\/css/], ['/favicon.svg', /^image\/svg\+xml/]]) {
    const r = await api(base, 'GET', p)
    assert.equal(r.status, 200, `GET ${p}`)
    assert.match(r.headers.get('content-type') || '', type, `${p}: Content-Type`)
    assert.match(r.headers.get('cache-control') || '', /no-cache/, `${p}: Cache-Control`)
    const etag = r.headers.get('etag')
    assert.match(etag || '', /^(W\/)?"[^"]+"$/, `${p}: ETag ${etag}`)
    assert.ok(r.text.length > 50, `${p}: ${r.text.length} bytes`)
    const c = await api(base, 'GET', p, undefined, {'If-None-Match': etag})
    assert.equal(c.status, 304, `${p} with If-None-Match: ${c.status}`)
    assert.equal(c.text, '')
    const d = await api(base, 'GET', p, undefined, {'If-None-Match': '"other"'})
    assert.equal(d.status, 200, `${p} with another ETag`)
  }
  const page = (await api(base, 'GET', '/')).text
  assert.match(page, /app\.js/)
  assert.match(page, /style\.css/)
})

checks.done()
