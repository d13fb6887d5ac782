/*
 * app.js - the page of `banyan serve`.
 *
 * Everything shown comes from the server's JSON state and its search events
 * (docs/WEB.md). The page knows no game by name: the look of the board
 * follows the description the server gives (its SGF number and board kind),
 * and the parameter form is built from GET /api/games.
 */
'use strict';

const NS = 'http://www.w3.org/2000/svg';
const U = 40;            // one cell of the board in viewBox units; the SVG scales it
const $ = (sel) => document.querySelector(sel);

const app = {
  games: [], limits: {}, defaults: {},
  session: '', es: null, state: null,
  search: null,          // the latest search event, while it is about the position shown
  hover: '',             // the move under the pointer, whose principal variation is drawn
  geo: null,             // the geometry of the board drawn last
  layers: null,          // its layers, so that search events redraw only theirs
  targets: new Map(),    // move -> its clickable target
  heat: new Map(),       // move -> its heat element
  formKey: '',           // the session, game and parameters the form last showed
  formSession: '',       // the session whose sides #side was set from
  formGame: '',          // the game the record's format and the position were last kept for
  drawnMoves: -1,        // moves on the board drawn last: one more animates the new piece
  pending: 0,            // requests sent and not answered yet
  recovering: false, closed: false,
};

/* ---------- small helpers ---------- */

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function h(tag, props, parent, text) {
  const e = Object.assign(document.createElement(tag), props || {});
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// A rectangle as a path, with rounded corners of radius r.
function box(x, y, w, hh, r = 0) {
  if (!r) return `M${x} ${y}h${w}v${hh}h${-w}z`;
  return `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${hh - 2 * r}a${r} ${r} 0 0 1 ${-r} ${r}` +
    `h${2 * r - w}a${r} ${r} 0 0 1 ${-r} ${-r}v${2 * r - hh}a${r} ${r} 0 0 1 ${r} ${-r}z`;
}

// 950, 1.2k, 12k, 1.2M: visit counts written in a cell.
function compact(n) {
  const f = (v, d) => v.toFixed(d).replace(/\.0$/, '');
  if (n < 1000) return String(Math.round(n));
  if (n < 1e4) return f(n / 1e3, 1) + 'k';
  if (n < 1e6) return Math.round(n / 1e3) + 'k';
  if (n < 1e7) return f(n / 1e6, 1) + 'M';
  return Math.round(n / 1e6) + 'M';
}

const percent = (v) => `${Math.round(Math.min(1, Math.max(0, v)) * 100)}%`;
const playerName = (st, p) => (st.players && st.players[p]) || `Player ${p + 1}`;

function parseParams(text) {
  const out = {};
  for (const pair of String(text || '').split(/\s+/)) {
    const i = pair.indexOf('=');
    if (i > 0) out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

/* ---------- talking to the server ---------- */

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (method === 'POST') {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw Object.assign(new Error('The server does not answer.'), { status: 0 });
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const msg = (data && data.error) || `The server answered ${res.status}.`;
    throw Object.assign(new Error(msg), { status: res.status });
  }
  return data;
}

// An error shows at the top of the window, wherever the person is looking,
// until the next request succeeds or a click or Escape closes it.
function setError(msg) {
  $('#error').textContent = msg || '';
}

// A request about the open session. Its answer is the new state, drawn at
// once rather than when the event stream brings it.
async function post(action, body) {
  if (!app.session) return null;
  try {
    const st = await api('POST', `/api/sessions/${app.session}/${action}`, body);
    setError('');
    if (st && typeof st.version === 'number') render(st);
    return st;
  } catch (e) {
    setError(e.message);
    if (e.status === 404) recover();
    return null;
  }
}

// Requests are sent one after another, so that the server sees them in the
// order the person made them (a strength changed, then a new game).
// While one is unanswered, body's data-status says "waiting" rather than the
// state's status, so that nobody takes the state before the click for the
// state after it.
let queue = Promise.resolve();
function enqueue(task) {
  app.pending++;
  showStatus();
  const run = queue.then(() => task()).finally(() => { app.pending--; showStatus(); });
  queue = run.catch(() => null);
  return run;
}

const act = (action, body) => enqueue(() => post(action, body));

function showStatus() {
  const st = app.state;
  document.body.dataset.status = app.pending ? 'waiting' : st ? st.status : 'loading';
}

function formSettings() {
  const v = Number($('#strength').value);
  const s = { threads: Math.max(1, Math.round(Number($('#threads').value) || 1)) };
  if ($('#strength-kind').value === 'playouts') s.playouts = Math.max(1, Math.round(v) || 1);
  else s.time = v > 0 ? v : 1;
  return s;
}

async function startSession() {
  closeStream();
  try {
    const st = await api('POST', '/api/sessions', {
      game: $('#game').value, params: formParams(), human: $('#side').value, ...formSettings(),
    });
    app.session = st.id;
    setError('');
    render(st);
    openStream();
  } catch (e) {
    setError(e.message);
  }
}

function openStream() {
  closeStream();
  const es = new EventSource(`/api/sessions/${app.session}/events`);
  app.es = es;
  const onState = (ev) => render(JSON.parse(ev.data));
  es.addEventListener('state', onState);
  es.onmessage = onState;  // in case the first state comes unnamed
  es.addEventListener('search', (ev) => onSearch(JSON.parse(ev.data)));
  // EventSource reconnects by itself while the server is away; it gives up
  // (CLOSED) on an answer that is no stream, such as the 404 of a session
  // the server has forgotten.
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED && app.es === es) recover();
  };
}

function closeStream() {
  if (app.es) app.es.close();
  app.es = null;
}

// The stream or a request found the session gone: reopen it if it is still
// there, else start a new game like the one shown.
async function recover() {
  if (app.recovering || app.closed) return;
  app.recovering = true;
  try {
    const st = await api('GET', `/api/sessions/${app.session}`);
    render(st);
    openStream();
  } catch (e) {
    if (e.status === 404) await startSession();
    else setTimeout(recover, 2000);
  } finally {
    app.recovering = false;
  }
}

/* ---------- state ---------- */

// What identifies a position: the heat map belongs to the one it searched.
function positionKey(st) {
  return [st.id, st.game, st.params, st.moves.length, st.to_move, JSON.stringify(st.cells)].join('|');
}

function render(st) {
  const old = app.state;
  if (old && old.id === st.id && st.version <= old.version) return;  // stale, or drawn already
  app.state = st;
  st.key = positionKey(st);
  // The heat map belongs to the position searched, and goes when the game ends.
  if (app.search && (app.search.key !== st.key || st.over)) app.search = null;
  syncForm(st);
  renderBoard(st);
  renderPanel(st);
  renderSearchInfo();
  renderGraph();
  document.body.dataset.session = st.id;
  document.querySelector('.session').textContent = st.id;
  document.body.dataset.version = String(st.version);
  showStatus();
}

function onSearch(ev) {
  const st = app.state;
  // A late event of a position already left must not paint the new one.
  if (!st || st.over || ev.to_move !== st.to_move || !Array.isArray(ev.moves)) return;
  const legal = new Set(st.legal.map((m) => m.move));
  if (st.legal.length && ev.moves.some((m) => !legal.has(m.move))) return;
  ev.key = st.key;
  app.search = ev;
  drawHeat();
  drawPV();
  renderSearchInfo();
  renderGraph();
}

/* ---------- the board ---------- */

// The look of the board, from the description alone.
function lookOf(st) {
  if (st.board.kind === 'column') return 'column';
  if (st.board.kind === 'none') return 'none';
  if (st.sgf === 1 || st.sgf === 4) return 'stones';
  if (st.sgf === 2) return 'discs';
  return 'marks';
}

// Where everything goes. The margins (left, top, right, bottom) hold the
// coordinates; cell (x, y) is centred on (cx(x), cy(y)).
function geometry(st) {
  const cells = st.cells || [];
  const g = { look: lookOf(st), ny: cells.length, nx: cells.length ? cells[0].length : 0,
              cols: st.board.cols || [], rows: st.board.rows || [] };
  const lab = g.cols.length > 0 || g.rows.length > 0;
  const thin = 0.3 * U;
  let field;  // the extent of the cells, beside the margins
  if (g.look === 'stones') {
    // Stones sit on the intersections, coordinates on all four sides.
    g.ml = g.mt = g.mr = g.mb = lab ? 1.3 * U : 0.75 * U;
    g.sides = ['top', 'bottom', 'left', 'right'];
    g.x0 = g.ml; g.y0 = g.mt;
    field = [(g.nx - 1) * U, (g.ny - 1) * U];
  } else {
    if (g.look === 'discs') {
      g.ml = g.mt = g.mr = g.mb = lab ? 0.8 * U : thin;
      g.sides = ['top', 'bottom', 'left', 'right'];
    } else if (g.look === 'column') {
      g.ml = g.mt = g.mr = g.mb = thin;
      g.sides = ['below'];
    } else {
      g.ml = g.mt = lab ? 0.8 * U : thin;
      g.mr = g.mb = thin;
      g.sides = ['top', 'left'];
    }
    g.x0 = g.ml + U / 2; g.y0 = g.mt + U / 2;
    field = [g.nx * U, g.ny * U];
  }
  g.W = g.look === 'none' ? 10 * U : g.ml + field[0] + g.mr;
  g.plate = g.look === 'none' ? 0.2 * U : g.mt + field[1] + g.mb;  // the board without the labels under it
  g.H = g.plate + (g.look === 'column' && g.cols.length ? 0.8 * U : 0);
  g.cx = (x) => g.x0 + x * U;
  g.cy = (y) => g.y0 + y * U;
  return g;
}

// The row a piece dropped into column x lands on (-1: the column is full).
function landing(st, x) {
  for (let y = st.cells.length - 1; y >= 0; y--) if (st.cells[y][x] < 0) return y;
  return -1;
}

// The cell a move of the state's history occupies, or null (a pass).
function placeOf(st, g, m, dropping) {
  if (m.kind === 'cell' && m.x >= 0 && m.x < g.nx && m.y >= 0 && m.y < g.ny) return { x: m.x, y: m.y };
  if (m.kind === 'column' && m.x >= 0 && m.x < g.nx) {
    if (dropping) {  // a move to come lands on the lowest empty cell
      const y = landing(st, m.x);
      return y < 0 ? null : { x: m.x, y };
    }
    for (let y = 0; y < g.ny; y++) if (st.cells[y][m.x] >= 0) return { x: m.x, y };  // the top piece
  }
  return null;
}

// One piece: a single element whose look the style sheet gives by player.
function piece(parent, g, p, x, y, cls) {
  const cx = g.cx(x), cy = g.cy(y);
  let e;
  if (g.look === 'marks' && p === 0) {
    const r = 0.27 * U;
    e = el('path', { d: `M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx + r} ${cy - r}L${cx - r} ${cy + r}` }, parent);
  } else {
    const r = ({ stones: 0.48, column: 0.4, marks: 0.27 }[g.look] || 0.42) * U;
    e = el('circle', { cx, cy, r }, parent);
  }
  e.setAttribute('class', `${cls} p${p}`);
  return e;
}

function defs(svg) {
  const d = el('defs', {}, svg);
  const radial = (id, stops) => {
    const gr = el('radialGradient', { id, cx: '35%', cy: '30%', r: '75%' }, d);
    stops.forEach(([o, c]) => el('stop', { offset: o, 'stop-color': c }, gr));
  };
  radial('grad-stone-0', [['0', '#6b6b6b'], ['0.35', '#262626'], ['1', '#050505']]);
  radial('grad-stone-1', [['0', '#ffffff'], ['0.6', '#ececec'], ['1', '#b9b9b9']]);
  radial('grad-disc-0', [['0', '#4a4a4a'], ['1', '#0d0d0d']]);
  radial('grad-disc-1', [['0', '#ffffff'], ['1', '#cfcfcf']]);
  radial('grad-drop-0', [['0', '#f0625a'], ['1', '#b81d1d']]);
  radial('grad-drop-1', [['0', '#ffe97a'], ['1', '#e0a800']]);
  const wood = el('linearGradient', { id: 'grad-wood', x1: '0', y1: '0', x2: '1', y2: '1' }, d);
  el('stop', { offset: '0', 'stop-color': '#e9c47e' }, wood);
  el('stop', { offset: '1', 'stop-color': '#d6a75a' }, wood);
}

// Star points: the standard ones on 9, 13 and 19 lines; on other odd boards
// of 9 lines or more, the centre and the points 3 or 4 lines in from the corners.
function starPoints(n) {
  if (n % 2 === 0 || n < 9) return [];
  const a = n >= 13 ? 3 : 2, b = n - 1 - a, c = (n - 1) / 2;
  const pts = [[a, a], [b, a], [c, c], [a, b], [b, b]];
  if (n === 19) pts.push([a, c], [b, c], [c, a], [c, b]);
  return pts;
}

function coords(layer, g) {
  const text = (x, y, t) => el('text', { x, y, class: 'coord' }, layer, t);
  // Half way across the margin, short of the stones' edge on the lines.
  const off = (m) => (g.look === 'stones' ? m - 0.5 * U : m) / 2;
  g.cols.forEach((t, x) => {
    if (g.sides.includes('top')) text(g.cx(x), off(g.mt), t);
    if (g.sides.includes('bottom')) text(g.cx(x), g.H - off(g.mb), t);
    if (g.sides.includes('below')) text(g.cx(x), g.plate + 0.45 * U, t);
  });
  g.rows.forEach((t, y) => {
    if (g.sides.includes('left')) text(off(g.ml), g.cy(y), t);
    if (g.sides.includes('right')) text(g.W - off(g.mr), g.cy(y), t);
  });
}

function drawBackground(svg, g) {
  const layer = el('g', { class: 'background' }, svg);
  const grid = [];
  if (g.look === 'stones') {
    el('path', { d: box(0, 0, g.W, g.H, 6), class: 'wood' }, layer);
    for (let x = 0; x < g.nx; x++) grid.push(`M${g.cx(x)} ${g.cy(0)}V${g.cy(g.ny - 1)}`);
    for (let y = 0; y < g.ny; y++) grid.push(`M${g.cx(0)} ${g.cy(y)}H${g.cx(g.nx - 1)}`);
    el('path', { d: grid.join(''), class: 'grid' }, layer);
    if (g.nx === g.ny) for (const [x, y] of starPoints(g.nx)) el('circle', { cx: g.cx(x), cy: g.cy(y), r: 0.1 * U, class: 'star' }, layer);
    coords(layer, g);
  } else if (g.look === 'discs' || g.look === 'marks') {
    const [l, t] = [g.ml, g.mt];
    el('path', { d: box(0, 0, g.W, g.H, 6), class: 'frame' }, layer);
    el('path', { d: box(l, t, g.nx * U, g.ny * U, g.look === 'marks' ? 4 : 0), class: 'field' }, layer);
    // Discs sit in squares: the whole grid. Marks: only the lines between cells.
    const from = g.look === 'discs' ? 0 : 1;
    for (let x = from; x <= g.nx - from; x++) grid.push(`M${l + x * U} ${t}v${g.ny * U}`);
    for (let y = from; y <= g.ny - from; y++) grid.push(`M${l} ${t + y * U}h${g.nx * U}`);
    el('path', { d: grid.join(''), class: 'grid' }, layer);
    if (g.look === 'discs' && g.nx >= 6 && g.ny >= 6)
      for (const [x, y] of [[2, 2], [g.nx - 2, 2], [2, g.ny - 2], [g.nx - 2, g.ny - 2]])
        el('circle', { cx: l + x * U, cy: t + y * U, r: 0.08 * U, class: 'star' }, layer);
    coords(layer, g);
  } else if (g.look === 'column') {
    // The holes show a light back; pieces fall behind the frame drawn later.
    el('path', { d: box(g.ml, g.mt, g.nx * U, g.ny * U), class: 'slots' }, layer);
    coords(layer, g);
  }
}

// The frame of the column look: a plate with a round hole per cell.
function drawFrame(svg, g) {
  const r = 0.4 * U;
  let d = box(0, 0, g.W, g.plate, 8);
  for (let y = 0; y < g.ny; y++)
    for (let x = 0; x < g.nx; x++)
      d += `M${g.cx(x) - r} ${g.cy(y)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
  el('path', { d, class: 'frame' }, svg);  // the style sheet fills it evenodd: holes
}

// A mark on a cell (last move, winning line, hint): a ring, or a square for marks.
function ring(parent, g, x, y, cls, r) {
  if (g.look === 'marks') {
    const s = 0.86 * U;
    return el('path', { d: box(g.cx(x) - s / 2, g.cy(y) - s / 2, s, s, 6), class: cls }, parent);
  }
  return el('circle', { cx: g.cx(x), cy: g.cy(y), r: r * U, class: cls }, parent);
}

function renderBoard(st) {
  const svg = $('#board');
  const g = geometry(st);
  const last = st.moves[st.moves.length - 1];
  const canPlay = !st.over && st.status !== 'thinking' && !!(st.human && st.human[st.to_move]);

  // Moves that have no cell (a pass) become buttons in a strip under the board.
  const buttons = canPlay ? st.legal.filter((m) => !placeOf(st, g, m, true)) : [];
  const notes = [];
  // A game without a board (a record loaded of one): its moves and the list of them only.
  if (g.look === 'none') notes.push({ cls: 'note', text: 'No board to draw here:' }, { cls: 'note', text: '`banyan solo` draws this game.' });
  if (last && !placeOf(st, g, last)) notes.push({ cls: 'last-move note', text: `${playerName(st, last.player)}: ${last.move}` });
  if (st.hint && !placeOf(st, g, st.hint, true)) notes.push({ cls: 'hint note', text: `Hint: ${st.hint.move}`, move: st.hint.move });
  const bw = 2.6 * U, bh = 0.9 * U, gap = 0.25 * U;
  const perRow = Math.max(1, Math.floor((g.W - gap) / (bw + gap)));
  const buttonRows = Math.ceil(buttons.length / perRow);
  const stripTop = g.H + gap;
  const H = g.H + (buttonRows + notes.length) * (bh + gap) + (buttonRows + notes.length ? gap : 0);

  app.geo = g;
  app.targets = new Map();
  app.heat = new Map();
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${g.W} ${H}`);
  svg.dataset.look = g.look;
  defs(svg);
  drawBackground(svg, g);

  // Pieces; the newest one of the column look falls into place.
  const pieces = el('g', { class: 'pieces' }, svg);
  const dropAt = g.look === 'column' && last && st.moves.length === app.drawnMoves + 1 ? placeOf(st, g, last) : null;
  st.cells.forEach((row, y) => row.forEach((p, x) => {
    if (p < 0) return;
    const e = piece(pieces, g, p, x, y, 'piece');
    e.setAttribute('data-player', p);
    e.setAttribute('data-x', x);
    e.setAttribute('data-y', y);
    if (dropAt && dropAt.x === x && dropAt.y === y) {
      e.classList.add('drop');
      e.style.setProperty('--drop', `${-(g.cy(y) + U)}px`);
    }
  }));
  app.drawnMoves = st.moves.length;
  if (g.look === 'column') drawFrame(svg, g);

  const marks = el('g', { class: 'marks' }, svg);
  if (last) {
    const at = placeOf(st, g, last);
    if (at) ring(marks, g, at.x, at.y, `last-move on-p${last.player}`, g.look === 'discs' ? 0.1 : 0.2);
  }
  const line = (st.win_line || []).filter((c) => Array.isArray(c) && c.length >= 2);
  if (line.length >= 2) {
    // The extreme cells of a straight line are its first and last in (x, y) order.
    const s = line.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const [a, b] = [s[0], s[s.length - 1]];
    el('path', { d: `M${g.cx(a[0])} ${g.cy(a[1])}L${g.cx(b[0])} ${g.cy(b[1])}`, class: 'win-line stroke' }, marks);
  }
  for (const [x, y] of line) ring(marks, g, x, y, 'win-line', 0.46);

  // Heat elements of moves the person cannot click are put here (while the engine thinks).
  app.layers = { heat: el('g', { class: 'heat-layer' }, svg) };

  const targets = el('g', { class: 'targets' }, svg);
  // Where few of the empty cells are legal (discs that must flip), dots say which.
  const empty = st.cells.reduce((n, r) => n + r.filter((c) => c < 0).length, 0);
  const dots = g.look !== 'column' && st.legal.length <= empty / 2;
  if (canPlay) {
    for (const m of st.legal) {
      const at = placeOf(st, g, m, true);
      if (!at) continue;
      const t = el('g', { class: 'target', 'data-move': m.move }, targets);
      const hit = m.kind === 'column'
        ? box(g.cx(at.x) - U / 2, g.y0 - U / 2, U, g.ny * U)
        : box(g.cx(at.x) - U / 2, g.cy(at.y) - U / 2, U, U);
      el('path', { d: hit, class: 'hit' }, t);
      if (dots) el('circle', { cx: g.cx(at.x), cy: g.cy(at.y), r: 0.1 * U, class: 'dot' }, t);
      piece(t, g, st.to_move, at.x, at.y, 'ghost');
      el('title', {}, t, m.move);
      app.targets.set(m.move, t);
    }
  }
  buttons.forEach((m, i) => {
    const x = gap + (i % perRow) * (bw + gap), y = stripTop + Math.floor(i / perRow) * (bh + gap);
    const t = el('g', { class: 'target button', 'data-move': m.move }, targets);
    el('path', { d: box(x, y, bw, bh, 6), class: 'hit' }, t);
    el('text', { x: x + bw / 2, y: y + bh / 2 }, t, m.move);
    app.targets.set(m.move, t);
  });
  notes.forEach((n, i) => {
    const y = stripTop + (buttonRows + i) * (bh + gap) + bh / 2;
    el('text', { x: gap, y, class: n.cls, 'data-move': n.move }, svg, n.text);
  });

  const over = el('g', { class: 'overlay' }, svg);
  if (st.hint) {
    const at = placeOf(st, g, st.hint, true);
    if (at) ring(over, g, at.x, at.y, 'hint', 0.47).setAttribute('data-move', st.hint.move);
  }
  app.layers.labels = el('g', { class: 'labels' }, svg);
  app.layers.ring = el('g', { class: 'ring' }, svg);
  app.layers.pv = el('g', { class: 'pv' }, svg);
  drawHeat();
  drawPV();
}

/* ---------- heat map and principal variation ---------- */

// The heat map shows the moves the search looked at most, as analysis
// boards do: a mark on each of the most visited moves, stronger the closer
// its visits come to the most visited one's, with its win rate and visits
// written on it for the first few; moves searched much less are marked
// faintly and small, or not at all. The engine's choice (the first move of
// the best line: the event lists the moves best first) is ringed.
const HEAT_LABELS = 5;   // how many of the most visited moves get their numbers written on them
const HEAT_MARKS = 20;   // the most moves marked
const HEAT_FAINT = 0.05; // a move with fewer visits than this share of the most visited one's is left out

// A mark's size on a cell of the board: it stays inside a stone, a disc or a hole.
function heatRadius(g) {
  return ({ stones: 0.46, column: 0.37, discs: 0.4, marks: 0.4 }[g.look] || 0.4) * U;
}

// The colour of a move, red to green: by its visits against the most
// visited move's, or by its win rate below the best move's (15 points or
// more: red).
function heatColour(m, top, best, mode) {
  const share = top > 0 ? m.visits / top : 0;
  const t = mode === 'winrate' ? Math.min(1, Math.max(0, 1 - (best - m.value) / 0.15)) : share;
  return `hsl(${Math.round(120 * t)} 80% 47%)`;
}

// A mark of radius r at (cx, cy): a circle, or a rounded square for marks.
function heatShape(e, g, cx, cy, r) {
  if (g.look === 'marks') e.setAttribute('d', box(cx - r, cy - r, 2 * r, 2 * r, 0.15 * r));
  else { e.setAttribute('cx', cx); e.setAttribute('cy', cy); e.setAttribute('r', r); }
}

// Text centred at (x, y), its font as large as size but no wider than width.
function fitText(parent, x, y, text, cls, size, width) {
  const t = el('text', { x, y, class: cls }, parent, text);
  let f = Math.min(size, width / (0.62 * Math.max(1, text.length)));
  t.setAttribute('font-size', f.toFixed(1));
  const w = t.getComputedTextLength ? t.getComputedTextLength() : 0;
  if (w > width) {
    f *= width / w;
    t.setAttribute('font-size', f.toFixed(1));
  }
  return t;
}

// Heat elements are updated in place, so that the one under the pointer
// stays while events arrive several times a second.
function drawHeat() {
  const g = app.geo, st = app.state, s = app.search, layers = app.layers;
  if (!g || !layers) return;
  layers.labels.replaceChildren();
  layers.ring.replaceChildren();
  const mode = $('#heat-mode').value;
  const seen = new Set();
  const list = s && !st.over ? s.moves : [];
  const chosen = list[0];
  const moves = list.filter((m) => m.visits > 0 || m.proof || m === chosen).sort((a, b) => b.visits - a.visits);
  const top = moves.length ? moves[0].visits : 0;
  const best = chosen ? chosen.value : 0;
  const R = heatRadius(g);
  moves.forEach((m, i) => {
    const share = top > 0 ? m.visits / top : 0;
    const labelled = m === chosen || (i < HEAT_LABELS && share >= 2 * HEAT_FAINT);
    if (!labelled && !m.proof && (i >= HEAT_MARKS || share < HEAT_FAINT)) return;
    const at = placeOf(st, g, m, true);
    if (!at) return;
    seen.add(m.move);
    const cx = g.cx(at.x), cy = g.cy(at.y);
    let e = app.heat.get(m.move);
    if (!e) {
      const t = app.targets.get(m.move);
      e = el(g.look === 'marks' ? 'path' : 'circle', { 'data-move': m.move });
      // Inside its target, above the hit area: the pointer reaches both.
      if (t) t.insertBefore(e, t.querySelector('.ghost')); else layers.heat.appendChild(e);
      if (t) t.classList.add('has-heat');
      app.heat.set(m.move, e);
    }
    heatShape(e, g, cx, cy, labelled ? R : R * (0.3 + 0.4 * Math.sqrt(share)));
    e.setAttribute('fill', heatColour(m, top, best, mode));
    e.setAttribute('fill-opacity', (labelled ? 0.6 + 0.3 * share : 0.2 + 0.35 * share).toFixed(2));
    e.setAttribute('class', `heat${labelled ? ' top' : ''}${m === chosen ? ' best' : ''}${m.proof ? ` proof-${m.proof}` : ''}`);
    if (labelled) {
      const rate = m.proof === 'win' ? 'win' : m.proof === 'loss' ? 'loss' : percent(m.value);
      fitText(layers.labels, cx, cy - 0.3 * R, rate, 'heat-label rate', 0.7 * R, 1.55 * R);
      fitText(layers.labels, cx, cy + 0.38 * R, compact(m.visits), 'heat-label visits', 0.55 * R, 1.35 * R);
    }
    if (m === chosen) {
      const ring = el(g.look === 'marks' ? 'path' : 'circle', { class: 'heat-ring', 'data-move': m.move }, layers.ring);
      heatShape(ring, g, cx, cy, R + 0.06 * U);
    }
  });
  for (const [move, e] of app.heat) {
    if (seen.has(move)) continue;
    const t = e.parentNode;
    e.remove();
    app.heat.delete(move);
    if (t && t.classList) t.classList.remove('has-heat');
  }
}

function drawPV() {
  const layer = app.layers && app.layers.pv, g = app.geo, st = app.state, s = app.search;
  if (!layer) return;
  layer.replaceChildren();
  const entry = s && app.hover ? s.moves.find((m) => m.move === app.hover) : null;
  $('#board').classList.toggle('pv-on', !!entry);  // the numbers of the heat map step aside
  if (!entry) return;
  let pv = Array.isArray(entry.pv) && entry.pv.length ? entry.pv : [entry];
  if (pv[0].move !== entry.move) pv = [entry, ...pv];
  const n = Math.max(2, (st.players || []).length);
  const fill = st.cells.map((row) => row.slice());   // so that pieces of the line stack in columns
  pv.forEach((m, i) => {
    const p = (s.to_move + i) % n;
    let at = null;
    if (m.kind === 'cell' && m.x >= 0 && m.x < g.nx && m.y >= 0 && m.y < g.ny && fill[m.y][m.x] < 0) at = { x: m.x, y: m.y };
    if (m.kind === 'column' && m.x >= 0 && m.x < g.nx) {
      for (let y = g.ny - 1; y >= 0 && !at; y--) if (fill[y][m.x] < 0) at = { x: m.x, y };
    }
    if (!at) return;
    fill[at.y][at.x] = p;
    const grp = el('g', { class: 'pv-stone' }, layer);
    piece(grp, g, p, at.x, at.y, 'pv-piece');
    el('text', { x: g.cx(at.x), y: g.cy(at.y), class: `pv-num on-p${p}` }, grp, String(i + 1));
  });
}

function setHover(move) {
  if (move === app.hover) return;
  app.hover = move;
  drawPV();
}

/* ---------- the side panel ---------- */

function statusText(st) {
  if (st.over) return 'Game over';
  if (st.status === 'thinking') return 'Banyan is thinking…';
  if (st.status === 'analyzing') return 'Analysing…';
  if (st.status === 'hint') return 'Looking for a hint…';
  if (st.hint) return `Hint: ${st.hint.move}`;
  if (st.human && st.human[st.to_move]) return 'Your move';
  return 'Banyan to move';
}

// A small piece in the look of the board, for the panel.
function icon(parent, look, p) {
  const s = el('svg', { class: 'icon', viewBox: '0 0 40 40', 'data-look': look }, parent);
  const g = { look, cx: () => 20, cy: () => 20 };
  piece(s, g, p, 0, 0, 'mini');
  return s;
}

function renderPanel(st) {
  const look = lookOf(st);
  $('#title').textContent = st.title || st.game;
  $('#params-summary').textContent = st.params || '';
  document.title = `${st.title || st.game} · Banyan`;
  $('#status').textContent = statusText(st);
  $('#result').textContent = st.over ? st.result || '' : '';

  const players = $('#players');
  players.replaceChildren();
  (st.players || []).forEach((name, p) => {
    const row = h('div', { className: `player${!st.over && p === st.to_move ? ' to-move' : ''}` }, players);
    icon(row, look, p);
    h('span', { className: 'name' }, row, name);
    h('span', { className: 'who muted' }, row, st.human && st.human[p] ? 'you' : 'Banyan');
    if (look === 'discs') {
      const count = st.cells.reduce((n, r) => n + r.filter((c) => c === p).length, 0);
      h('span', { className: 'count' }, row, String(count));
    }
  });

  const list = $('#moves');
  list.dataset.look = look;
  list.replaceChildren(...st.moves.map((m) => {
    const li = h('li', { className: `p${m.player}`, title: `${playerName(st, m.player)} ${m.move}` });
    h('span', {}, li, m.move);  // a long move (a line) is cut short, its whole text in the title
    return li;
  }));
  list.scrollTop = list.scrollHeight;

  const searching = ['thinking', 'hint', 'analyzing'].includes(st.status);
  const myTurn = !st.over && !!(st.human && st.human[st.to_move]);
  $('#undo').disabled = st.moves.length === 0;
  $('#hint').disabled = !myTurn || st.status !== 'idle';
  $('#swap').disabled = st.over || st.status === 'thinking';
  $('#resign').disabled = st.over || st.status === 'thinking';
  $('#analyze').disabled = st.over || st.status !== 'idle';
  $('#stop').disabled = !searching;

  // Another game starts with its own record format (its first: SGF where it
  // has one) and an empty position.
  const fmt = $('#save-format'), formats = st.formats || [];
  if (app.formGame !== st.game || fmt.dataset.list !== formats.join(' ')) {
    if (app.formGame !== st.game) $('#position').value = '';
    app.formGame = st.game;
    fmt.replaceChildren(...formats.map((f) => h('option', { value: f }, null, f)));
    fmt.dataset.list = formats.join(' ');
  }
  $('#save').disabled = formats.length === 0;
  $('#graph-caption').textContent = (st.players || []).length === 2
    ? `The chance of ${playerName(st, 0)}, as the engine saw it after each move.` : 'No win rate: the game has one player.';
}

function renderSearchInfo() {
  const info = $('#search-info'), s = app.search, st = app.state;
  info.replaceChildren();
  if (!s || !st) return;
  const row = (k, v) => { h('dt', {}, info, k); h('dd', {}, info, v); };
  const best = s.moves && s.moves[0];
  row('Playouts', Number(s.playouts || 0).toLocaleString('en'));
  row('Speed', s.seconds > 0 ? `${compact(s.playouts / s.seconds)}/s` : '–');
  row('Time', `${Number(s.seconds || 0).toFixed(1)} s${s.done ? '' : ' …'}`);
  if (typeof s.value === 'number') {
    const proof = best && best.proof ? ` (proven ${best.proof})` : '';
    // A game of one player has no winner: its value is how well it goes.
    row((st.players || []).length === 2 ? `${playerName(st, s.to_move)} wins` : 'Value', percent(s.value) + proof);
  }
  if (best) row('Best', (best.pv && best.pv.length ? best.pv : [best]).slice(0, 12).map((m) => m.move).join(' '));
}

// The win rate of the first player over the game, with the running search's
// value at the end.
function renderGraph() {
  const svg = $('#graph'), st = app.state;
  if (!st) return;
  svg.replaceChildren();
  const GW = 320, GH = 120, L = 30, R = 8, T = 8, B = 14;
  const vals = (st.winrate || []).slice();
  const n = st.moves.length;
  const s = app.search;
  if (s && typeof s.winrate === 'number') vals[n] = s.winrate;
  const span = Math.max(vals.length - 1, n, 10);
  const X = (k) => L + (GW - L - R) * k / span;
  const Y = (v) => T + (GH - T - B) * (1 - v);
  for (const v of [0, 0.5, 1]) {
    el('path', { d: `M${L} ${Y(v)}H${GW - R}`, class: v === 0.5 ? 'mid' : 'axis' }, svg);
    el('text', { x: L - 5, y: Y(v), class: 'tick' }, svg, `${v * 100}%`);
  }
  el('path', { d: `M${X(n)} ${T}V${GH - B}`, class: 'now' }, svg);
  el('text', { x: X(0), y: GH - 3, class: 'tick x' }, svg, '0');
  el('text', { x: X(span), y: GH - 3, class: 'tick x' }, svg, String(span));
  // The engine searches on its own turns only: the line joins the values
  // it has, over the positions it did not search.
  let d = '', lastPoint = null;
  vals.forEach((v, k) => {
    if (typeof v !== 'number') return;
    d += `${d ? 'L' : 'M'}${X(k).toFixed(1)} ${Y(v).toFixed(1)}`;
    lastPoint = [X(k), Y(v)];
  });
  if (d && !d.includes('L')) d += 'h0.01';  // a single value: a dot, with the line's round cap
  if (!d) return;
  el('path', { d, class: 'winrate-line' }, svg);
  el('circle', { cx: lastPoint[0], cy: lastPoint[1], r: 3, class: 'winrate-dot' }, svg);
}

/* ---------- the form ---------- */

function gameOf(name) {
  return app.games.find((g) => g.name === name) || app.games[0];
}

function buildParams(game, values) {
  const box = $('#params');
  box.replaceChildren();
  for (const p of (game && game.params) || []) {
    const label = h('label', { className: 'field', title: p.help || '' }, box);
    h('span', {}, label, p.name);
    let c;
    if (p.type === 'choice') {
      const choices = Array.isArray(p.choices) ? p.choices : String(p.choices || '').split('|');
      c = h('select', {}, label);
      for (const ch of choices) h('option', { value: ch }, c, ch);
    } else {
      // "int": whole numbers; "number": any decimal (Go's komi).
      c = h('input', { type: 'number', step: p.type === 'number' ? 'any' : 1 }, label);
      if (p.min !== undefined) c.min = p.min;
      if (p.max !== undefined) c.max = p.max;
    }
    c.name = `param-${p.name}`;
    c.value = values[p.name] !== undefined ? values[p.name] : p.default;
  }
}

function formParams() {
  return [...$('#params').querySelectorAll('[name^="param-"]')]
    .map((c) => `${c.name.slice('param-'.length)}=${c.value}`).join(' ');
}

function sideOf(human) {
  if (!human) return 'first';
  if (human[0] && human[1]) return 'both';
  return human[0] ? 'first' : human[1] ? 'second' : 'none';
}

function setStrengthKind(kind) {
  const s = $('#strength');
  $('#strength-kind').value = kind;
  if (kind === 'playouts') Object.assign(s, { min: 1, max: 100000000, step: 100 });
  else Object.assign(s, { min: 0.01, max: 3600, step: 0.1 });
}

// The form follows the state where the state says something new: another
// game (a record loaded, a new session), or settings changed elsewhere.
// What the person is editing is left alone.
function syncForm(st) {
  const editing = (e) => document.activeElement === e;
  const key = `${st.id} ${st.game} ${st.params}`;
  if (key !== app.formKey) {
    app.formKey = key;
    if (app.games.some((g) => g.name === st.game)) {
      $('#game').value = st.game;
      buildParams(gameOf(st.game), parseParams(st.params));
    }
    history.replaceState(null, '', `#game=${encodeURIComponent(st.game)}`);
  }
  // Who plays is the form's choice for the next game; a session, when it
  // opens, shows its own.
  if (st.id !== app.formSession) {
    app.formSession = st.id;
    $('#side').value = sideOf(st.human);
  }
  const set = st.settings || {};
  if (!editing($('#strength')) && !editing($('#strength-kind'))) {
    if (set.playouts > 0) { setStrengthKind('playouts'); $('#strength').value = set.playouts; }
    else if (set.time > 0) { setStrengthKind('time'); $('#strength').value = set.time; }
  }
  if (!editing($('#threads')) && set.threads) $('#threads').value = set.threads;
}

// Strength and threads are sent to the server when they differ from its settings.
async function pushSettings() {
  const want = formSettings(), have = (app.state && app.state.settings) || {};
  const same = want.threads === have.threads &&
    (want.playouts ? want.playouts === have.playouts : want.time === have.time && !(have.playouts > 0));
  return same ? true : !!(await post('settings', want));
}

function newGame() {
  return enqueue(async () => {
    if (!app.session) return startSession();
    if (!(await pushSettings())) return null;
    return post('new', { game: $('#game').value, params: formParams(), human: $('#side').value });
  });
}

function save() {
  const a = h('a', { href: `/api/sessions/${app.session}/record?format=${encodeURIComponent($('#save-format').value)}` }, document.body);
  a.download = '';  // the name comes from the server's Content-Disposition
  a.click();
  a.remove();
}

async function load(input) {
  const file = input.files && input.files[0];
  if (!file) return;
  const text = await file.text();
  input.value = '';  // so that loading the same file again is noticed
  await act('record', { text });
}

function closeSession() {
  if (app.closed || !app.session) return;
  app.closed = true;
  closeStream();
  navigator.sendBeacon(`/api/sessions/${app.session}/close`);
}

/* ---------- start ---------- */

function wire() {
  const on = (sel, ev, fn) => $(sel).addEventListener(ev, fn);
  for (const name of ['undo', 'hint', 'swap', 'resign', 'analyze', 'stop']) on(`#${name}`, 'click', () => act(name));
  on('#new', 'click', newGame);
  on('#game', 'change', () => buildParams(gameOf($('#game').value), {}));
  // #side is for the next game: Swap changes sides in this one.
  on('#error', 'click', () => setError(''));
  addEventListener('keydown', (e) => { if (e.key === 'Escape') setError(''); });
  on('#strength-kind', 'change', () => {
    const kind = $('#strength-kind').value;
    setStrengthKind(kind);
    $('#strength').value = kind === 'playouts' ? (app.defaults.playouts || 10000) : (app.defaults.time || 1);
    act('settings', formSettings());
  });
  on('#strength', 'change', () => act('settings', formSettings()));
  on('#threads', 'change', () => act('settings', formSettings()));
  on('#heat-mode', 'change', drawHeat);
  on('#save', 'click', save);
  on('#load', 'change', (e) => load(e.target));
  on('#set-position', 'click', () => act('position', { position: $('#position').value }));
  on('#position', 'keydown', (e) => { if (e.key === 'Enter') act('position', { position: $('#position').value }); });

  const board = $('#board');
  board.addEventListener('click', (e) => {
    const t = e.target.closest('.target');
    if (t) act('move', { move: t.dataset.move });
  });
  // The pointer over a heat element, or the target holding it, shows that move's line.
  board.addEventListener('pointerover', (e) => {
    const t = e.target.closest('.heat, .target');
    setHover(t ? t.dataset.move : '');
  });
  board.addEventListener('pointerleave', () => setHover(''));

  addEventListener('pagehide', closeSession);
  addEventListener('beforeunload', closeSession);
  // A link to #game=NAME within the page starts that game.
  addEventListener('hashchange', () => {
    const name = hashGame();
    if (!name || (app.state && app.state.game === name)) return;
    $('#game').value = name;
    buildParams(gameOf(name), {});
    newGame();
  });
  // A page restored from the back-forward cache closed its session on leaving.
  addEventListener('pageshow', (e) => {
    if (e.persisted && app.closed) { app.closed = false; startSession(); }
  });
}

// The game #game=NAME asks for, if there is one of that name.
function hashGame() {
  const name = decodeURIComponent((location.hash.match(/game=([^&]+)/) || [])[1] || '');
  return app.games.some((g) => g.name === name) ? name : '';
}

async function main() {
  wire();
  let info;
  try {
    info = await api('GET', '/api/games');
  } catch (e) {
    setError(e.message);
    $('#status').textContent = 'The server cannot be reached.';
    return;
  }
  // The games the page can draw: one without a board (whose moves are
  // lines, say) is left to its own front-end.
  app.games = (info.games || []).filter((g) => g.board !== false);
  app.limits = info.limits || {};
  app.defaults = info.defaults || {};
  document.querySelector('.version').textContent = info.version || '';
  const select = $('#game');
  for (const g of app.games) h('option', { value: g.name }, select, g.title || g.name);
  if (app.limits.max_threads) $('#threads').max = app.limits.max_threads;
  const d = app.defaults;
  setStrengthKind(d.playouts > 0 ? 'playouts' : 'time');
  $('#strength').value = d.playouts > 0 ? d.playouts : (d.time || 1);
  $('#threads').value = d.threads || 1;

  const game = gameOf(hashGame() || (app.games[0] || {}).name);
  if (!game) { setError('The server offers no games.'); return; }
  select.value = game.name;
  buildParams(game, {});
  await startSession();
}

main();
