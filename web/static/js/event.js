// Events of many tables (docs/events.md): the form of a new event
// (/events/new), an event's page (/e/ID: joining, where to sit, the
// standings, and for the host the QR code and the controls) and its board
// (/e/ID/board, for a projector). The server decides the seating, the
// movement and the standings; the page shows what GET /api/events/ID
// says, asking again every few seconds.

import { t, num } from './i18n.js';
import { $, h, api, store, showError, hideError, gameName } from './util.js';

const E = { id: '', ev: null, host: '', me: null, board: false, clock: 0, poll: 0 };

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
      switch_partners: $('#ev-switch').checked, head_stays: $('#ev-head').checked,
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

// initEvent opens event id's page, or its board.
export function initEvent(id, board) {
  E.id = id;
  E.board = board;
  E.host = store.get(hostKey(id)) || '';
  try { E.me = JSON.parse(store.get(meKey(id))); } catch (e) { E.me = null; }
  if (board) {
    document.body.classList.add('board-page');
    $('#board').hidden = false;
  } else {
    $('#event').hidden = false;
    $('#ev-join').addEventListener('submit', join);
    $('#ev-name').value = store.get('pitch.name') || '';
    $('#ev-start').addEventListener('click', () => hostAct('start', {}));
    $('#ev-extend').addEventListener('click', () => hostAct('extend', { minutes: 5 }));
    $('#ev-close').addEventListener('click', () => hostAct('close', {}));
    $('#ev-play').addEventListener('click', playSolo);
    $('#ev-leave').addEventListener('click', leave);
  }
  load();
  E.poll = setInterval(load, board ? 2000 : 3000);
  E.clock = setInterval(tick, 1000);
}

async function load() {
  let ev;
  try {
    ev = await api('GET', '/api/events/' + encodeURIComponent(E.id));
  } catch (e) {
    showError(e.message);
    return;
  }
  E.ev = ev;
  if (E.board) {
    drawBoard(ev);
  } else {
    await findSeat(ev);
    drawEvent(ev);
  }
  tick();
}

const STATES = { waiting: 'event.state.waiting', playing: 'event.state.playing', between: 'event.state.between', over: 'event.state.over' };
const MOVES = { progressive: 'event.mv.progressive', mixed: 'event.mv.mixed', duplicate: 'event.mv.duplicate' };

const gameOf = (ev) => gameName(ev.settings.variant);

// status says where the event is.
function status(ev) {
  const p = { Round: ev.round, Rounds: ev.settings.rounds, Count: num(ev.entries.length) };
  return t(STATES[ev.state], p);
}

// findSeat asks the server where this browser's person sits now, and
// keeps the seat's token where the table page looks for it.
async function findSeat(ev) {
  if (!E.me || !E.me.token || ev.round === 0) return;
  try {
    const me = await api('POST', '/api/events/' + encodeURIComponent(E.id) + '/me', { token: E.me.token });
    E.me = { ...E.me, seat: me };
    if (me.table) {
      store.set('pitch.seat.' + me.table, JSON.stringify({ seat: me.seat, token: me.seat_token, name: E.me.name }));
    }
  } catch (e) {
    showError(e.message);
  }
}

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
    let you = t('event.you.next', { Name: E.me.name });
    $('#ev-go').hidden = true;
    if (s && s.left) you = t('event.you.left');
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
  drawStandings($('#ev-standings'), ev, Infinity);
  drawTables($('#ev-tables'), ev, false);
  drawDeals(ev);
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
  start.disabled = ev.entries.length === 0;
  $('#ev-extend').hidden = !(ev.state === 'playing' && ev.ends_at);
  $('#ev-close').hidden = !(ev.settings.solo && ev.state === 'playing' && !ev.closed);
  const roster = $('#ev-roster');
  roster.replaceChildren(...ev.entries.map((en) => h('li', {},
    h('span', { class: 'ev-name', text: en.name }),
    en.left >= 0 ? h('span', { class: 'hint', text: ' · ' + t('event.gone') }) :
      h('button', { type: 'button', class: 'linkish', onclick: () => hostAct('leave', { entry: en.entry }) }, t('event.remove')))));
}

async function hostAct(what, body) {
  try {
    await api('POST', '/api/events/' + encodeURIComponent(E.id) + '/' + what, { token: E.host, ...body });
    hideError();
    load();
  } catch (e) {
    showError(e.message);
  }
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
    load();
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
    load();
  } catch (e) {
    showError(e.message);
  }
}

// drawStandings fills a table body with the first max standings.
function drawStandings(body, ev, max) {
  const dup = ev.settings.movement === 'duplicate';
  const rows = ev.standings.slice(0, max).map((s) => h('tr', {},
    h('td', { text: num(s.place) }),
    h('td', { class: 'ev-name', text: s.name + (s.left ? ' · ' + t('event.gone') : '') }),
    h('td', { text: dup ? num(Math.round(s.percent * 10) / 10) + '%' : num(s.total) })));
  body.replaceChildren(...rows);
  const head = body.closest('table').querySelector('.ev-score-h');
  if (head) head.textContent = t(dup ? 'event.col.percent' : 'event.col.total');
}

// drawTables lists the latest round's tables with who sits where.
function drawTables(list, ev, board) {
  const round = ev.rounds[ev.rounds.length - 1] || [];
  list.replaceChildren(...round.map((tab, i) => h('li', { class: 'ev-table' + (tab.result ? ' done' : '') },
    h(board || !tab.table ? 'div' : 'a', board || !tab.table ? { class: 'ev-table-h' } : { class: 'ev-table-h', href: '/t/' + encodeURIComponent(tab.table) + '?watch=1' },
      t('event.table', { N: i + 1 })),
    h('ul', {}, tab.seats.map((s, k) => h('li', { class: 'ev-name' + (s.bot ? ' bot' : '') },
      (s.name || t('event.bot')) + (s.bot && s.name ? ' (' + t('event.bot') + ')' : '') +
        (tab.result ? ' · ' + num(tab.result.scores[k]) : '')))))));
  if (!round.length) list.replaceChildren(h('li', { class: 'hint', text: t('event.noTables') }));
}

function drawBoard(ev) {
  document.title = t('event.title', { Game: gameOf(ev) }) + ' · Pitch';
  $('#bd-title').textContent = t('event.title', { Game: gameOf(ev) });
  $('#bd-status').textContent = status(ev);
  $('#bd-join').textContent = t('event.board.join', { Link: location.host + '/e/' + E.id });
  drawTables($('#bd-tables'), ev, true);
  drawStandings($('#bd-standings'), ev, 20);
}

// tick shows the time left of a round on the clock.
function tick() {
  const ev = E.ev;
  const el = $(E.board ? '#bd-clock' : '#ev-clock');
  if (!ev || !ev.ends_at || ev.state !== 'playing') {
    el.textContent = '';
    return;
  }
  const left = Math.max(0, Math.round((new Date(ev.ends_at) - Date.now()) / 1000));
  const mm = Math.floor(left / 60), ss = String(left % 60).padStart(2, '0');
  el.textContent = left > 0 ? t('event.clock', { Time: mm + ':' + ss }) : t('event.clock.up');
}
