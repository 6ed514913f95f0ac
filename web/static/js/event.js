// Events of many tables (docs/events.md): the form of a new event
// (/events/new), an event's page (/e/ID: joining, where to sit, the
// standings, and for the host the QR code and the controls) and its board
// (/e/ID/board, for a projector: js/eventboard.js). The server decides
// the seating, the movement and the standings; the page shows what the
// event's WebSocket (/api/events/ID/ws) sends: the whole event once,
// then what changed after every change (js/delta.js), and where this
// browser's person sits. Nothing is asked again on a timer. What the
// page and the board draw alike is js/eventdraw.js's.

import { t, num } from './i18n.js';
import { $, h, api, store, showError, hideError, errorText, botName } from './util.js';
import { applyOps } from './delta.js';
import { status, gameOf, drawStandings, drawTables } from './eventdraw.js';
import { initBoard, drawBoard } from './eventboard.js';

const E = { id: '', ev: null, v: 0, refused: [], host: '', me: null, board: false, clock: 0, ws: null, tries: 0, retry: 0, at: 0, ending: false, here: 0, shown: false };

const hostKey = (id) => 'pitch.event.host.' + id;
const meKey = (id) => 'pitch.event.me.' + id;

// initEventNew shows the form of a new event.
export function initEventNew() {
  $('#event-new').hidden = false;
  document.title = t('event.new') + ' · Pitch';
  const form = $('#ev-new-form');
  const sync = () => {
    const end = $('#ev-end').value;
    $('#ev-hands-field').hidden = end !== 'hands';
    $('#ev-minutes-field').hidden = end !== 'clock';
    const prog = $('#ev-movement').value === 'progressive';
    $('#ev-partners').hidden = !prog;
    const solo = $('#ev-movement').value === 'duplicate' && $('#ev-solo').checked;
    $('#ev-solo-field').hidden = $('#ev-movement').value !== 'duplicate';
    $('#ev-rounds-field').hidden = solo; // a solo event is one round
    $('#ev-fill-field').hidden = solo; // a solo event seats each person alone
    if ($('#ev-movement').value === 'duplicate' && end !== 'hands') {
      $('#ev-end').value = 'hands';
      sync();
    }
  };
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const end = $('#ev-end').value;
    const body = {
      variant: $('#ev-game').value, rounds: Number($('#ev-rounds').value), end, movement: $('#ev-movement').value,
      switch_partners: $('#ev-switch').checked, head_stays: $('#ev-head').checked, fill: $('#ev-fill').value,
    };
    if (body.movement === 'duplicate' && $('#ev-solo').checked) Object.assign(body, { solo: true, rounds: 1 });
    if (end === 'hands') body.hands = Number($('#ev-hands').value);
    if (end === 'clock') body.minutes = Number($('#ev-minutes').value);
    $('#ev-create').disabled = true;
    try {
      const res = await api('POST', '/api/events', body);
      store.set(hostKey(res.id), res.token);
      location.assign(res.url);
    } catch (e) {
      showError(e.message);
    } finally {
      $('#ev-create').disabled = false;
    }
  });
}

// initEvent opens event id's page, or its board. The page's address
// may name a table to mark (?table=N: a table card's address led here).
export function initEvent(id, board) {
  E.id = id;
  E.board = board;
  E.host = store.get(hostKey(id)) || '';
  takeLink(id);
  try { E.me = JSON.parse(store.get(meKey(id))); } catch (e) { E.me = null; }
  const here = Number(new URLSearchParams(location.search).get('table'));
  E.here = Number.isInteger(here) && here > 0 ? here : 0;
  if (board) {
    initBoard(id);
  } else {
    // The page shows with the event's first drawing (onEvent), or when the
    // connection fails first (setOnline): drawn empty, then filled, it
    // would move everything down.
    $('#ev-join').addEventListener('submit', join);
    $('#ev-name').value = store.get('pitch.name') || '';
    $('#ev-start').addEventListener('click', () => hostAct('start', {}));
    $('#ev-extend').addEventListener('click', () => hostAct('extend', { minutes: 5 }));
    $('#ev-close').addEventListener('click', () => hostAct('close', {}));
    $('#ev-play').addEventListener('click', playSolo);
    $('#ev-pause').addEventListener('click', () => hostAct(E.ev && E.ev.paused ? 'resume' : 'pause', {}));
    $('#ev-finish').addEventListener('click', endEvent);
    $('#ev-leave').addEventListener('click', leave);
    if (E.host) initDesk();
  }
  connect();
  E.clock = setInterval(tick, 1000);
}

// connect follows the event over its WebSocket; when the connection
// drops, it tries again after a while, longer each time.
function connect() {
  clearTimeout(E.retry);
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(proto + '//' + location.host + '/api/events/' + encodeURIComponent(E.id) + '/ws');
  E.ws = ws;
  // The hello asks for the whole event: on opening, and again whenever
  // a change does not follow what the page holds.
  const hello = () => {
    const m = { type: 'hello' };
    if (E.me && E.me.token) m.token = E.me.token;
    if (E.host) m.host = E.host;
    if (E.board) m.full = true; // every table and standing; a phone gets its part
    ws.send(JSON.stringify(m));
  };
  ws.onopen = hello;
  // resync drops what the page holds and asks once for the whole event.
  const resync = () => {
    if (E.ev) hello();
    E.ev = null;
  };
  ws.onmessage = (msg) => {
    if (ws !== E.ws) return;
    let m;
    try { m = JSON.parse(msg.data); } catch (e) { return; }
    if (m.type === 'event') {
      E.tries = 0;
      E.v = m.v;
      E.at = performance.now();
      E.refused = m.refused || [];
      setOnline(true);
      onEvent(m);
    } else if (m.type === 'event.delta') {
      // A change: the ops that turn version v-1 into v (none: only
      // where this person sits, at the same version).
      const want = m.ops.length ? E.v + 1 : E.v;
      if (!E.ev || m.v !== want) { resync(); return; }
      try { E.ev = applyOps(E.ev, m.ops); } catch (e) { resync(); return; }
      E.v = m.v;
      if (m.ops.some((op) => op[0].length === 0 || op[0][0] === 'left_ms')) E.at = performance.now();
      if (m.refused) E.refused = m.refused;
      onEvent({ event: E.ev, me: m.me });
    } else if (m.type === 'error') {
      showError(errorText(m.code, m.params, m.message));
    }
  };
  ws.onclose = (ev) => {
    if (ws !== E.ws) return;
    setOnline(false);
    if (ev.code === 1008) {
      // A token this event does not know (a stale one in this browser):
      // follow the event without it.
      showError(t('conn.limit', { Why: ev.reason }));
      E.me = null;
      E.host = '';
    }
    E.tries++;
    E.retry = setTimeout(connect, Math.min(30000, 500 * 2 ** Math.min(E.tries, 6)));
  };
}

// reconnectNow follows the event again at once (after joining, with the
// new token).
function reconnectNow() {
  const old = E.ws;
  E.ws = null;
  if (old) old.close();
  connect();
}

function setOnline(on) {
  if (!on && !E.board) $('#event').hidden = false; // to say so
  const el = $(E.board ? '#bd-offline' : '#ev-offline');
  el.hidden = on;
  el.textContent = on ? '' : t('banner.offline');
}

// onEvent shows the event as the server sent it.
function onEvent(m) {
  const ev = m.event;
  E.ev = ev;
  if (m.me) {
    E.me = { ...E.me, seat: m.me };
    if (m.me.table) {
      store.set('pitch.seat.' + m.me.table, JSON.stringify({ seat: m.me.seat, token: m.me.seat_token, name: E.me.name }));
    }
  }
  if (E.board) drawBoard(ev);
  else drawEvent(ev);
  tick();
  if (!E.board) $('#event').hidden = false;
}

const MOVES = { progressive: 'event.mv.progressive', mixed: 'event.mv.mixed', duplicate: 'event.mv.duplicate' };

function drawEvent(ev) {
  document.title = t('event.title', { Game: gameOf(ev) }) + ' · Pitch';
  $('#ev-title').textContent = t('event.title', { Game: gameOf(ev) });
  $('#ev-kind').textContent = t(MOVES[ev.settings.movement]) + ' · ' + t('event.rounds.n', { Count: num(ev.settings.rounds) });
  $('#ev-status').textContent = status(ev);
  const joined = E.me && E.me.token;
  $('#ev-join').hidden = !!joined || ev.state === 'over';
  $('#ev-you').hidden = !joined;
  if (joined) {
    const s = E.me.seat;
    if (!E.me.name && s && s.name) E.me.name = s.name; // added by the host: the name comes with the seat
    let you = t('event.you.next', { Name: E.me.name });
    $('#ev-go').hidden = true;
    if (s && s.left) you = t('event.you.left');
    else if (s && s.bye && ev.state === 'playing') you = t('event.you.bye', { Round: s.round });
    else if (s && s.table && ev.state === 'playing') {
      you = t('event.you.table', { Round: s.round, Table: s.table_no });
      $('#ev-go').hidden = false;
      $('#ev-go').href = '/t/' + encodeURIComponent(s.table);
    } else if (ev.state === 'between' || ev.state === 'over') you = t('event.you.wait');
    const solo = ev.settings.solo && ev.state === 'playing' && !(s && s.left);
    $('#ev-play').hidden = !(solo && !ev.closed && !(s && s.table));
    if (solo) you = s && s.table ? (s.done ? t('event.you.soloDone') : you) : t('event.you.solo', { Name: E.me.name });
    if (solo && s && s.done) $('#ev-go').hidden = true;
    $('#ev-you-text').textContent = you;
    $('#ev-leave').hidden = !!(s && s.left) || ev.state === 'over';
  }
  drawHost(ev);
  drawPrintLinks();
  drawStandings($('#ev-standings'), ev, Infinity, E.me && E.me.seat && E.me.seat.standing);
  drawTables($('#ev-tables'), ev, { here: E.here });
  drawHere(ev);
  drawByes(ev);
  drawDeals(ev);
}

// drawPrintLinks points the host's links to the print views: the table
// cards and the standings (js/eventprint.js).
function drawPrintLinks() {
  const base = '/e/' + encodeURIComponent(E.id) + '/print/';
  $('#ev-print-cards').href = base + 'cards';
  $('#ev-print-standings').href = base + 'standings';
}

// drawHere says which table a table card's address named (?table=N), and
// brings it into view the first time it is drawn.
function drawHere(ev) {
  const note = $('#ev-here');
  note.hidden = !E.here;
  if (!E.here) return;
  const round = ev.rounds[ev.rounds.length - 1] || [];
  note.textContent = E.here <= round.length ? t('event.here', { N: num(E.here) }) : t('event.here.none', { N: num(E.here) });
  const el = $('#ev-tables .ev-here');
  if (el && !E.shown) {
    E.shown = true;
    el.scrollIntoView({ block: 'center' });
  }
}

// drawByes says who sits out the latest round.
function drawByes(ev) {
  const byes = (ev.bye_names || [])[ev.rounds.length - 1] || [];
  const el = $('#ev-byes');
  el.hidden = !byes.length;
  el.textContent = byes.length ? t('event.byes', { Names: byes.join(', ') }) : '';
}

// drawDeals links each deal's results of a duplicate event (js/daily.js).
function drawDeals(ev) {
  const dup = ev.settings.movement === 'duplicate' && ev.rounds.length > 0;
  $('#ev-deals-sec').hidden = !dup;
  if (!dup) return;
  $('#ev-deals').replaceChildren(...ev.rounds.map((_, r) => h('li', {}, t('event.round.n', { N: num(r + 1) }) + ': ',
    ...Array.from({ length: ev.settings.hands }, (_, k) => [k ? ' · ' : '',
      h('a', { href: '/e/' + encodeURIComponent(E.id) + '/deals/' + (r + 1) + '/' + (k + 1), text: t('event.deal.n', { N: num(k + 1) }) })]).flat())));
}

function drawHost(ev) {
  const host = !!E.host;
  $('#ev-host').hidden = !host;
  if (!host) return;
  const link = location.origin + '/e/' + E.id;
  $('#ev-link').value = link;
  const qr = $('#ev-qr');
  const src = '/api/events/' + encodeURIComponent(E.id) + '/qr.svg?origin=' + encodeURIComponent(location.origin);
  if (qr.getAttribute('src') !== src) qr.src = src;
  $('#ev-csv').href = '/api/events/' + encodeURIComponent(E.id) + '/standings.csv';
  $('#ev-board-link').href = '/e/' + encodeURIComponent(E.id) + '/board';
  const start = $('#ev-start');
  start.hidden = ev.state === 'playing' || ev.state === 'over';
  start.textContent = t('event.start', { Round: ev.round + 1 });
  start.disabled = ev.people === 0;
  const playing = ev.state === 'playing';
  $('#ev-extend').hidden = !(playing && ev.ends_at && !ev.ended);
  const pause = $('#ev-pause');
  pause.hidden = !playing || ev.ended || !!ev.settings.solo;
  pause.textContent = t(ev.paused ? 'event.resume' : 'event.pause');
  const end = $('#ev-finish');
  end.hidden = ev.state === 'over' || ev.ended || !!ev.settings.solo;
  end.textContent = t(E.ending ? 'event.endSure' : 'event.endEvent');
  $('#ev-close').hidden = !(ev.settings.solo && ev.state === 'playing' && !ev.closed);
  drawDesk(ev);
  const roster = $('#ev-roster');
  roster.replaceChildren(...ev.entries.filter((en) => en.merged_into == null).map((en) => h('li', {},
    h('span', { class: 'ev-name', text: en.name }),
    en.left >= 0 ? h('span', { class: 'hint', text: ' · ' + t(en.withdrawn ? 'event.withdrawn' : 'event.gone') }) :
      h('button', { type: 'button', class: 'linkish', onclick: () => hostAct('leave', { entry: en.entry }) }, t('event.remove')))));

  drawRefused();
}

// drawRefused lists, for the host, the connections to the event's tables
// and page that a limit of the server refused lately, newest first: who,
// where and why, so that nobody's seat is played by the stand-in
// unnoticed.
function drawRefused() {
  const list = E.refused || [];
  $('#ev-refused-box').hidden = list.length === 0;
  $('#ev-refused').replaceChildren(...list.slice().reverse().map((r) => {
    const at = new Date(r.at);
    const when = String(at.getHours()).padStart(2, '0') + ':' + String(at.getMinutes()).padStart(2, '0');
    const where = r.table ? t('event.refused.at', { Round: num(r.round), Table: num(r.table) }) +
      (r.seat >= 0 ? ', ' + t('event.refused.seat', { Seat: num(r.seat + 1) }) : '') : t('event.refused.page');
    return h('li', {}, when + ' · ' + where + (r.name ? ' (' + r.name + ')' : '') + ': ', h('span', { class: 'hint', text: r.reason }));
  }));
}

// hostAct asks the server to do what the host pressed; the change comes
// back over the WebSocket.
async function hostAct(what, body) {
  try {
    await api('POST', '/api/events/' + encodeURIComponent(E.id) + '/' + what, { token: E.host, ...body });
    hideError();
  } catch (e) {
    showError(e.message);
  }
}

// endEvent ends the event on the second press: the first asks to be sure.
function endEvent() {
  if (!E.ending) {
    E.ending = true;
    $('#ev-finish').textContent = t('event.endSure');
    setTimeout(() => { E.ending = false; if (E.ev) drawHost(E.ev); }, 5000);
    return;
  }
  E.ending = false;
  hostAct('end', {});
}

async function join(ev) {
  ev.preventDefault();
  const name = $('#ev-name').value.trim();
  if (!name) {
    showError(t('join.err.name'));
    $('#ev-name').focus();
    return;
  }
  $('#ev-join-btn').disabled = true;
  try {
    const res = await api('POST', '/api/events/' + encodeURIComponent(E.id) + '/join', { name });
    store.set('pitch.name', name);
    E.me = { entry: res.entry, token: res.token, name };
    store.set(meKey(E.id), JSON.stringify(E.me));
    hideError();
    reconnectNow(); // the hello with the new token: where they sit comes with every update
  } catch (e) {
    showError(e.message);
  } finally {
    $('#ev-join-btn').disabled = false;
  }
}

// playSolo makes this person's own table of a solo event's deals and
// takes them to it.
async function playSolo() {
  try {
    const me = await api('POST', '/api/events/' + encodeURIComponent(E.id) + '/play', { token: E.me.token });
    store.set('pitch.seat.' + me.table, JSON.stringify({ seat: me.seat, token: me.seat_token, name: E.me.name }));
    location.assign('/t/' + encodeURIComponent(me.table));
  } catch (e) {
    showError(e.message);
  }
}

async function leave() {
  try {
    await api('POST', '/api/events/' + encodeURIComponent(E.id) + '/leave', { token: E.me.token });
  } catch (e) {
    showError(e.message);
  }
}

// tick shows the time left of a round on the clock: what the server
// said was left when it sent the event, less the time since (a paused
// clock stands still).
function tick() {
  const ev = E.ev;
  const el = $(E.board ? '#bd-clock' : '#ev-clock');
  if (!ev || ev.left_ms == null || ev.state !== 'playing') {
    el.textContent = '';
    return;
  }
  const ms = ev.paused ? ev.left_ms : ev.left_ms - (performance.now() - E.at);
  const left = Math.max(0, Math.round(ms / 1000));
  const mm = Math.floor(left / 60), ss = String(left % 60).padStart(2, '0');
  if (ev.paused) el.textContent = t('event.clock.paused', { Time: mm + ':' + ss });
  else el.textContent = left > 0 && !ev.ended ? t('event.clock', { Time: mm + ':' + ss }) : t('event.clock.up');
}

// takeLink keeps the token a host's late-entry link carries (/e/ID#me=…,
// a fragment: never sent to a server) as this browser's person, and
// takes it out of the address.
function takeLink(id) {
  const m = /^#me=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return;
  store.set(meKey(id), JSON.stringify({ token: m[1] }));
  history.replaceState(null, '', location.pathname + location.search);
}

// The director's desk (the host's): a late entry, renaming, merging a
// double entry, withdrawing a no-show, adjusting a result, and the log.
// The server checks every action; the page shows what it answers.

const LOG = { add: 'event.log.add', rename: 'event.log.rename', merge: 'event.log.merge', withdraw: 'event.log.withdraw', adjust: 'event.log.adjust' };

function initDesk() {
  $('#ev-desk-add').addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = $('#ev-desk-add-name').value.trim();
    const res = await deskAct('add', { name });
    if (!res) return;
    $('#ev-desk-add-name').value = '';
    $('#ev-desk-added').hidden = false;
    $('#ev-desk-added-text').textContent = t('event.desk.added', { Name: name });
    $('#ev-desk-added-link').value = location.origin + res.link;
  });
  $('#ev-desk-rename').addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = $('#ev-desk-rename-name').value.trim();
    if (await deskAct('rename', { entry: Number($('#ev-desk-rename-who').value), name })) $('#ev-desk-rename-name').value = '';
  });
  $('#ev-desk-merge').addEventListener('submit', (e) => {
    e.preventDefault();
    deskAct('merge', { entry: Number($('#ev-desk-merge-from').value), into: Number($('#ev-desk-merge-into').value) });
  });
  $('#ev-desk-withdraw').addEventListener('submit', (e) => {
    e.preventDefault();
    deskAct('withdraw', { entry: Number($('#ev-desk-withdraw-who').value) });
  });
  $('#ev-desk-adjust-table').addEventListener('change', () => { if (E.ev) drawScores(E.ev); });
  $('#ev-desk-adjust').addEventListener('submit', async (e) => {
    e.preventDefault();
    const [round, table] = $('#ev-desk-adjust-table').value.split('/').map(Number);
    const scores = [...document.querySelectorAll('#ev-desk-adjust-scores input')].map((x) => Number(x.value));
    if (await deskAct('adjust', { round, table, scores, reason: $('#ev-desk-adjust-reason').value })) $('#ev-desk-adjust-reason').value = '';
  });
  deskAct('', {});
}

// deskAct posts a desk action (what; '' only reads the log) and shows
// the log it answers with; it returns the answer, or null when refused.
async function deskAct(what, body) {
  try {
    const res = await api('POST', '/api/events/' + encodeURIComponent(E.id) + '/desk' + (what ? '/' + what : ''), { token: E.host, ...body });
    hideError();
    drawLog(res.event, res.log);
    return res;
  } catch (e) {
    showError(e.message);
    return null;
  }
}

// drawLog lists the desk's actions, the latest first.
function drawLog(ev, log) {
  const name = (i) => (ev.entries[i] ? ev.entries[i].name : '?');
  const items = log.slice().reverse().map((l) => {
    const p = { Name: l.name, Was: l.was, Into: name(l.into), Round: num(l.round), Table: num(l.table), Reason: l.reason,
      Before: (l.before || []).map(num).join(' '), Scores: (l.scores || []).map(num).join(' ') };
    const at = new Date(l.at);
    return h('li', {}, h('time', { datetime: l.at, text: at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) }), ' ', t(LOG[l.action], p));
  });
  $('#ev-desk-log').replaceChildren(...(items.length ? items : [h('li', { class: 'hint', text: t('event.desk.logEmpty') })]));
}

// fillSelect lists the entries in a select, keeping its choice.
function fillSelect(sel, entries) {
  const was = sel.value;
  sel.replaceChildren(...entries.map((en) => h('option', { value: en.entry, text: en.name })));
  if (entries.some((en) => String(en.entry) === was)) sel.value = was;
}

// drawDesk fills the desk's choices from the event.
function drawDesk(ev) {
  const desk = $('#ev-desk');
  desk.hidden = !!ev.settings.solo;
  if (desk.hidden) return;
  const here = ev.entries.filter((en) => en.merged_into == null);
  fillSelect($('#ev-desk-rename-who'), here);
  fillSelect($('#ev-desk-merge-from'), here);
  fillSelect($('#ev-desk-merge-into'), here);
  fillSelect($('#ev-desk-withdraw-who'), here.filter((en) => en.left < 0));
  const adjustable = ev.settings.movement !== 'duplicate';
  $('#ev-desk-adjust').hidden = !adjustable;
  const sel = $('#ev-desk-adjust-table');
  const was = sel.value;
  const opts = [];
  ev.rounds.forEach((round, r) => round.forEach((tab, ti) => {
    if (tab.result) opts.push(h('option', { value: (r + 1) + '/' + (ti + 1), text: t('event.desk.tableOpt', { Round: num(r + 1), Table: num(ti + 1) }) }));
  }));
  sel.replaceChildren(...opts);
  if (opts.some((o) => o.value === was)) sel.value = was;
  $('#ev-desk-adjust-none').hidden = opts.length > 0;
  $('#ev-desk-adjust-fields').hidden = opts.length === 0;
  if (sel.value !== $('#ev-desk-adjust-scores').dataset.table) drawScores(ev);
}

// drawScores shows a score for each seat of the table chosen to adjust,
// its current one to start from; partners share their side's.
function drawScores(ev) {
  const box = $('#ev-desk-adjust-scores');
  const v = $('#ev-desk-adjust-table').value;
  box.dataset.table = v;
  if (!v) { box.replaceChildren(); return; }
  const [r, ti] = v.split('/').map(Number);
  const tab = ev.rounds[r - 1][ti - 1];
  const o = ev.settings.options || {};
  const teams = (ev.settings.variant === 'ten-point' || (ev.settings.variant === 'auction' && o.partnerships === true)) && tab.seats.length % 2 === 0;
  const inputs = tab.seats.map((s, k) => h('input', { id: 'ev-desk-score-' + k, type: 'number', min: -9999, max: 9999, step: 1, value: tab.result.scores[k], inputmode: 'numeric' }));
  if (teams) {
    inputs.forEach((inp, k) => inp.addEventListener('input', () => {
      inputs.forEach((other, j) => { if (j % 2 === k % 2 && j !== k) other.value = inp.value; });
    }));
  }
  box.replaceChildren(...tab.seats.flatMap((s, k) => [h('label', { for: 'ev-desk-score-' + k, text: s.name || botName(s.bot_no) }), inputs[k]]));
}
