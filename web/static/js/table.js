// A table: the connection, the states the server sends (played out at a
// pace people can follow), and what they show. The server decides
// everything; this module only draws the state it is sent and sends the
// player's choices.

import {
  SUITS, suitName, cardLabel, cardText, gameName, POINT_KEYS, phaseVerb, levelName, seatLabel, seatNo,
  $, h, store, api, showError, hideError, setText, roving, fixTabStop, cardNode, errorText, ratingText, changeText,
} from './util.js';
import { onFairState, renderFair, summaryFair, translate as translateFair } from './fairness.js';
import { t, num } from './i18n.js';
import { whoami } from './account.js';
import { layoutFelt, feltHeight } from './felt.js';

// ---------- state ----------

// app holds the page's state. m is the state on screen; latest the newest
// the server sent (they differ while queued states are played out).
const app = {
  id: '', token: '', saved: null, ws: null, attempt: 0, retryTimer: 0,
  m: null, latest: null, latestAt: 0, queue: [], playing: false, show: null,
  pending: false, picked: '', pickSuit: '', chosen: new Set(), discardKey: '', passMode: false,
  seenHand: null, recordsFor: -1, watch: false, status: '', restarting: false,
  focusNext: false, hint: null, chat: [], justConnected: false, followed: false, online: false,
};

// PACE is how long each kind of step stays on screen, per speed setting
// (ms): step, a move by someone else; hold, a complete trick; gather, the
// trick going to its winner.
const PACE = {
  slow: { step: 1200, hold: 2600, gather: 600 },
  normal: { step: 700, hold: 1500, gather: 400 },
  fast: { step: 300, hold: 800, gather: 250 },
  // Not offered on the page: for tests that play whole matches, and for
  // anyone who sets it by hand (localStorage pitch.speed = "instant").
  instant: { step: 0, hold: 120, gather: 0 },
  // Not offered either: a finished trick stays on the table for ten
  // minutes, for the tests and screenshots of a held trick.
  still: { step: 0, hold: 600000, gather: 0 },
};
const speed = () => (PACE[store.get('pitch.speed')] ? store.get('pitch.speed') : 'normal');
const reducedMotion = () => !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function pace() {
  // A long queue (a slow device, a tab in the background) catches up fast.
  return app.queue.length > 4 ? PACE.fast : PACE[speed()];
}

function seatKey() { return 'pitch.seat.' + app.id; }
function seenKey() { return 'pitch.seen.' + app.id; }

function loadSeat() {
  try { app.saved = JSON.parse(store.get(seatKey())); } catch (e) { app.saved = null; }
  app.token = app.saved && app.saved.token ? app.saved.token : '';
}
function forgetSeat() { store.del(seatKey()); app.saved = null; app.token = ''; }

// initTable opens the table page for table id.
export async function initTable(id) {
  app.id = id;
  $('#table-view').hidden = false;
  document.body.classList.add('at-table');
  $('#invite').value = location.origin + '/t/' + id;
  app.watch = new URLSearchParams(location.search).has('watch');
  loadSeat();
  $('#join-name').value = store.get('pitch.name') || '';
  whoami().then((me) => { if (me) { $('#join-name').value = me.name; $('#join-name').readOnly = true; } });

  $('#copy').addEventListener('click', copyInvite);
  $('#join-form').addEventListener('submit', join);
  $('#show-join').addEventListener('click', () => { app.watch = false; render(); $('#join-name').focus(); });
  $('#summary-close').addEventListener('click', () => $('#summary').close());
  $('#summary').addEventListener('close', summaryClosed);
  $('#show-last').addEventListener('click', () => { if (app.m && app.m.last_hand) showSummary(app.m.last_hand, true); });
  const sp = $('#speed');
  sp.value = speed();
  sp.addEventListener('change', () => store.set('pitch.speed', sp.value));
  const snd = $('#sound');
  snd.checked = store.get('pitch.sound') === 'on';
  snd.addEventListener('change', () => store.set('pitch.sound', snd.checked ? 'on' : 'off'));
  $('#chat-form').addEventListener('submit', (ev) => { ev.preventDefault(); sendChat($('#chat-text').value); });
  for (const b of document.querySelectorAll('#chat-quick button')) b.addEventListener('click', () => sendChat(b.textContent));
  $('#chat-text').placeholder = t('chat.placeholder');
  translateFair(t);
  roving($('#hand'), 0);
  window.addEventListener('online', () => { if (!app.ws) reconnectNow(); });
  document.addEventListener('visibilitychange', () => { if (!document.hidden && !app.ws) reconnectNow(); });
  // A page left for another (kept in the back/forward cache) lets its
  // connection go, so that the table does not play on for a page nobody
  // sees; shown again, it connects afresh.
  window.addEventListener('pagehide', () => {
    const ws = app.ws;
    app.ws = null;
    clearTimeout(app.retryTimer);
    if (ws) ws.close(1000);
  });
  window.addEventListener('pageshow', (ev) => { if (ev.persisted && !app.ws) reconnectNow(); });
  try { // moved here from the last match: say who started this one
    app.moved = sessionStorage.getItem('pitch.moved.' + id) || '';
    sessionStorage.removeItem('pitch.moved.' + id);
  } catch (e) { app.moved = ''; }
  new ResizeObserver(() => placeSeats()).observe($('#felt'));
  window.addEventListener('resize', () => placeSeats()); // seat boxes change size with the screen too
  setInterval(tick, 250);

  try {
    const info = await api('GET', '/api/tables/' + encodeURIComponent(id));
    setText($('#t-title'), gameName(info.variant) + ' · ' + t('table.target', { Target: info.options && info.options.target }));
  } catch (e) {
    setText($('#t-title'), t('table.none'));
    showError(t('table.err.open', { Why: e.message }));
    $('#main').append(h('p', { class: 'panel' }, h('a', { href: '/' }, t('table.backToLobby'))));
    return;
  }
  connect();
}

// ---------- the connection ----------

function wsURL() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return proto + '//' + location.host + '/api/tables/' + encodeURIComponent(app.id) + '/ws';
}

function setConn(what, delay) {
  const c = $('#conn');
  c.hidden = false;
  c.className = 'conn ' + what;
  if (what === 'online') setText(c, t('conn.online'));
  else if (app.restarting) setText(c, t('conn.restarting'));
  else if (what === 'connecting') setText(c, t('conn.connecting'));
  else setText(c, t('conn.offline', { Count: Math.ceil(delay / 1000) }));
  c.title = c.textContent; // a phone shows the dot alone
}

// connect opens the WebSocket; when it drops, it tries again after a
// growing pause (0.5 s doubling to 15 s). The server sends the whole
// state on every connect, so nothing is lost.
function connect() {
  clearTimeout(app.retryTimer);
  const ws = new WebSocket(wsURL());
  app.ws = ws;
  setConn('connecting');
  ws.onopen = () => {
    app.justConnected = true;
    // summary: this page shows each hand's summary and says when it is
    // closed, so that the table waits for it (see sayReady).
    const hello = { type: 'hello', summary: true };
    if (app.token) hello.token = app.token;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => {
    if (ws !== app.ws) return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === 'state') {
      app.attempt = 0;
      app.restarting = false;
      app.online = true;
      setConn('online');
      if (app.justConnected) { msg.fresh = true; app.justConnected = false; }
      onState(msg);
    } else if (msg.type === 'error') {
      app.pending = false;
      showError(errorText(msg.code, msg.params, msg.message));
      render();
    } else if (msg.type === 'hint') {
      app.hint = msg;
      render();
    } else if (msg.type === 'chat') {
      app.chat.push(msg);
      if (app.chat.length > 50) app.chat.shift();
      renderChat();
    }
  };
  ws.onclose = (ev) => {
    if (ws !== app.ws) return;
    app.ws = null;
    app.pending = false;
    if (ev.code === 1008 && /token/i.test(ev.reason || '')) {
      forgetSeat();
      showError(t('conn.badToken', { Why: ev.reason }));
    }
    if (ev.code === 1012) { // the server is restarting (a graceful shutdown): back soon, try at once
      app.restarting = true;
      app.attempt = 0;
    } else if (ev.code === 1013 && ev.reason) { // a limit: say which
      showError(t('conn.limit', { Why: ev.reason }));
    }
    const delay = Math.min(15000, 500 * Math.pow(2, app.attempt)) * (0.8 + Math.random() * 0.4);
    app.attempt++;
    setConn('offline', delay);
    app.retryTimer = setTimeout(connect, delay);
    app.online = false;
    render(); // disconnected: no controls, no countdown, until a state comes
  };
}

function reconnectNow() {
  const old = app.ws;
  app.ws = null;
  if (old) old.close();
  app.attempt = 0;
  connect();
}

function sendMsg(msg) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    showError(t('conn.notSent'));
    return false;
  }
  app.ws.send(JSON.stringify(msg));
  return true;
}

function send(action) {
  if (!sendMsg({ type: 'action', action })) return;
  app.pending = true;
  app.focusNext = true;
  app.hint = null;
  render();
}

function sendChat(text) {
  text = (text || '').trim();
  if (!text) return;
  if (sendMsg({ type: 'chat', text })) $('#chat-text').value = '';
}

async function copyInvite() {
  const input = $('#invite');
  try {
    await navigator.clipboard.writeText(input.value);
    setText($('#copy'), t('invite.copied'));
  } catch (e) {
    input.select();
    setText($('#copy'), t('invite.pressCtrlC'));
  }
  setTimeout(() => setText($('#copy'), t('invite.copy')), 2500);
}

async function join(ev) {
  ev.preventDefault();
  const name = $('#join-name').value.trim();
  if (!name) {
    showError(t('join.err.name'));
    $('#join-name').focus();
    return;
  }
  const body = { name };
  const seat = $('#join-seat').value;
  if (seat !== '') body.seat = Number(seat);
  $('#join-btn').disabled = true;
  try {
    const res = await api('POST', '/api/tables/' + encodeURIComponent(app.id) + '/join', body);
    store.set('pitch.name', name);
    app.saved = { seat: res.seat, token: res.token, name };
    store.set(seatKey(), JSON.stringify(app.saved));
    app.token = res.token;
    hideError();
    reconnectNow();
  } catch (e) {
    showError(t('join.err.failed', { Why: e.message }));
  } finally {
    $('#join-btn').disabled = false;
  }
}

// playAgain asks the server for a new match with the same seats; every
// seated player follows to it (next_table in the state).
async function playAgain() {
  try {
    const res = await api('POST', '/api/tables/' + encodeURIComponent(app.id) + '/rematch', { token: app.token });
    follow(res.id, app.m ? app.m.seat : -1);
  } catch (e) {
    showError(t('again.err', { Why: e.message }));
  }
}

// follow moves to the next match of this table, keeping this browser's
// seat; the new table's page says who started it (by: a seat, or -1 when
// the server does not say).
function follow(id, by) {
  if (app.saved) store.set('pitch.seat.' + id, JSON.stringify(app.saved));
  const m = app.m;
  let text = t('again.startedNone');
  if (m && by === m.seat && by >= 0) text = t('again.startedYou');
  else if (m && by >= 0) text = t('again.started', { Who: seatName(by) });
  try { sessionStorage.setItem('pitch.moved.' + id, text); } catch (e) { /* no storage: no notice */ }
  location.assign('/t/' + encodeURIComponent(id) + (app.m && app.m.seat < 0 ? '?watch=1' : ''));
}

// ---------- pacing: the server's states, played out ----------

// onState queues a state from the server. The queue is played out one
// step at a time, so that every card played is seen and a finished trick
// stays on the table for a moment; the server never waits for it.
function onState(m) {
  onFairState(app.id, m, sendMsg); // this page's random value for a new deal, at once
  app.latest = m;
  app.latestAt = performance.now();
  app.queue.push(m);
  if (!app.playing) playQueue();
}

async function playQueue() {
  app.playing = true;
  try {
    while (app.queue.length) {
      const m = app.queue.shift();
      await step(app.m, m);
    }
  } finally {
    app.playing = false;
  }
}

// newEntries returns the log entries of m that prev did not show yet.
function newEntries(prev, m) {
  if (!prev) return [];
  if (prev.hand_no !== m.hand_no || (prev.match_over !== m.match_over && !prev.ended)) return m.log;
  return m.log.slice(prev.log.length);
}

// step shows m after prev: the card just played moves in from its seat; a
// trick just completed (and the last trick of a hand) stays whole for a
// hold, then goes to its winner; then the summary, if a hand ended. The
// last trick of a hand is held on the hand as it was at its end (the
// server sends it in last_hand: its bid, trump, scores, log), and only
// then does the next hand (or the match's end) appear.
async function step(prev, m) {
  initSeen(m);
  const lh = m.last_hand;
  const handDone = !!(lh && lh.hand > app.seenHand);
  const trickDone = !!(prev && !handDone && prev.hand_no === m.hand_no && m.view.tricks > prev.view.tricks);
  let done = null; // the trick to hold: {cards, winner}
  let ended = null; // the finished hand as it was, shown while its last trick is held
  if (handDone && lh.last_trick && lh.last_trick.length) {
    done = { cards: lh.last_trick, winner: lh.last_winner };
    if (lh.view) ended = endedState(prev, m);
  } else if (trickDone) {
    done = { cards: m.view.last_trick, winner: m.view.last_winner };
  }
  const shown = ended || m;
  const fresh = newEntries(prev, shown);
  const before = prev ? new Set(prev.view.trick.map((t) => t.card)) : new Set();
  const moved = (done ? done.cards : m.view.trick).filter((t) => !before.has(t.card));
  const mine = fresh.length > 0 && fresh[fresh.length - 1].seat === m.seat;
  show(shown, fresh, done);
  if (moved.length && prev) await flyIn(moved, mine);
  if (done) {
    await sleep(pace().hold);
    await gather(done.winner);
    if (ended) {
      show(m, newEntries(ended, m), null);
    } else {
      app.show = null;
      render();
    }
  } else if (prev && fresh.length && !mine && app.queue.length) {
    await sleep(pace().step); // give a person time to see a move before the next
  }
  if (handDone) endOfHand(m);
}

// endedState is the hand that m's last_hand finished, as it stood at its
// end, for the hold of its last trick: its view and log as the server
// sent them, the score sheet without it, nothing to do, the match not yet
// over.
function endedState(prev, m) {
  const lh = m.last_hand;
  const before = prev && prev.last_hand && prev.last_hand.hand < lh.hand ? prev.last_hand : undefined;
  return Object.assign({}, m, {
    view: lh.view, log: lh.log || [], hand_no: lh.hand, sheet: m.sheet.filter((r) => r.hand < lh.hand),
    last_hand: before, legal: undefined, discard: undefined, refusals: undefined, suit_trumps: undefined,
    timer: undefined, reading: undefined, match_over: false, winner: null, next_table: undefined, ended: true,
  });
}

// initSeen reads, once, the last hand whose end this browser has shown
// at this table, and keeps it: a page reloaded while a hand's last trick
// is held still shows that hand's end and summary.
function initSeen(m) {
  if (app.seenHand !== null) return;
  const stored = store.get(seenKey());
  app.seenHand = stored !== null && stored !== undefined && stored !== '' && Number(stored) >= 0 ? Number(stored) : (m.last_hand ? m.last_hand.hand : 0);
  store.set(seenKey(), String(app.seenHand));
}

// show puts m on screen, with done (a complete trick) held on the felt.
function show(m, fresh, done) {
  const prev = app.m;
  app.m = m;
  app.show = done;
  if (!prev || prev.seq !== m.seq || prev.view.turn !== m.view.turn) {
    // A new decision: forget choices made for an old one.
    const key = m.discard ? m.seq + ':' + m.view.turn : '';
    if (key !== app.discardKey) { app.discardKey = key; app.chosen = new Set(); app.passMode = false; }
    if (m.view.phase !== 'call') { app.picked = ''; app.pickSuit = ''; }
    if (m.seq !== (prev && prev.seq)) app.hint = null;
  }
  if (m.next_table && m.seat >= 0 && !app.followed) {
    app.followed = true;
    follow(m.next_table, m.next_by == null ? -1 : m.next_by);
    return;
  }
  if (m === app.latest) app.pending = false;
  for (const e of fresh) announce(describe(e));
  tellAway(m, fresh);
  render();
  if (isMyTurn(m) && !(prev && isMyTurn(prev) && prev.seq === m.seq)) yourTurn();
  if (app.moved && !m.ended) { notice(app.moved); app.moved = ''; }
  // The server waits for this seat to read the last hand's summary: say
  // ready at once when it has been read (or this page shows none).
  const lh = m.last_hand;
  if (!m.ended && lh && m.reading && m.reading.includes(m.seat) && lh.hand <= app.seenHand && !$('#summary').open) sayReady(lh.hand);
}

// sayReady tells the server that this person has closed the summary of
// hand n, so that play goes on (the server waits for it, up to a bound).
function sayReady(n) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify({ type: 'ready', hand: n }));
}

// summaryClosed: the person has read the summary. Play goes on, and the
// focus goes to the table's controls (never to the page's body).
function summaryClosed() {
  const m = app.m;
  if (!m) return;
  if (m.last_hand) sayReady(m.last_hand.hand);
  if (!app.show) focusNext(myAction(m));
}

// endOfHand opens the hand's summary for players; spectators get a line
// they may open it from.
function endOfHand(m) {
  const lh = m.last_hand;
  if (!lh || lh.hand <= app.seenHand) return;
  app.seenHand = lh.hand;
  store.set(seenKey(), String(app.seenHand));
  if (m.seat >= 0) showSummary(lh);
  else notice(handHeadline(lh));
}

// flyIn moves the trick's new cards from their players' seats.
async function flyIn(moved, mine) {
  if (reducedMotion()) return;
  const anims = [];
  for (const tc of moved) {
    const card = $('#trick [data-card="' + tc.card + '"]');
    const seat = $('#seats [data-seat="' + tc.seat + '"]');
    if (!card || !seat) continue;
    const a = card.getBoundingClientRect(), b = seat.getBoundingClientRect();
    const dx = b.left + b.width / 2 - (a.left + a.width / 2), dy = b.top + b.height / 2 - (a.top + a.height / 2);
    anims.push(card.animate([
      { transform: 'translate(' + dx + 'px,' + dy + 'px) scale(.6)', opacity: 0.4 },
      { transform: 'translate(0,0) scale(1)', opacity: 1 },
    ], { duration: mine ? 180 : Math.min(400, pace().step), easing: 'ease-out', composite: 'add' }).finished.catch(() => {}));
  }
  await Promise.all(anims);
}

// gather sends the trick on the felt to its winner's seat.
async function gather(winner) {
  const seat = $('#seats [data-seat="' + winner + '"]');
  const cards = Array.from(document.querySelectorAll('#trick .tcard'));
  if (reducedMotion() || !seat || !cards.length) return;
  const b = seat.getBoundingClientRect();
  await Promise.all(cards.map((card) => {
    const a = card.getBoundingClientRect();
    const dx = b.left + b.width / 2 - (a.left + a.width / 2), dy = b.top + b.height / 2 - (a.top + a.height / 2);
    return card.animate([
      { transform: 'translate(0,0) scale(1)', opacity: 1 },
      { transform: 'translate(' + dx + 'px,' + dy + 'px) scale(.4)', opacity: 0 },
    ], { duration: pace().gather, easing: 'ease-in', fill: 'forwards', composite: 'add' }).finished.catch(() => {});
  }));
}

// ---------- turns, time, notices ----------

function isMyTurn(m) { return myAction(m) !== ''; }

// yourTurn tells a player it is their turn: the title (in render), and a
// short tone if they turned sound on.
function yourTurn() {
  if (store.get('pitch.sound') !== 'on') return;
  try {
    const ctx = yourTurn.ctx || (yourTurn.ctx = new AudioContext());
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.08, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.26);
  } catch (e) { /* no audio here */ }
}

// timeLeft is what is left of the turn timer of the newest state, in ms,
// or null when no timer runs.
function timeLeft() {
  const t = app.latest && app.latest.timer;
  if (!t || app.m !== app.latest || !app.online) return null;
  return Math.max(0, t.left_ms - (performance.now() - app.latestAt));
}

// tick updates the turn countdown four times a second.
function tick() {
  const left = timeLeft();
  const box = $('#seats .countdown');
  if (box) {
    box.hidden = left == null;
    if (left != null) {
      const s = Math.ceil(left / 1000);
      setText(box, t('timer.short', { Count: s }));
      box.classList.toggle('warn', s <= 5);
      box.setAttribute('aria-label', t('timer.left', { Count: s }));
    }
  }
  // The felt or a seat box (its countdown shown or hidden) changed size.
  if (placeKey($('#felt'), Array.from(document.querySelectorAll('#seats .seat'))) !== placedFor) placeSeats();
}

// announce says a move to screen readers (the live region).
function announce(text) {
  if (!text) return;
  const r = $('#announce');
  r.textContent = text;
}

// notice shows a short message that is not an error.
let noticeTimer = 0;
function notice(text) {
  const n = $('#notice');
  setText(n, text);
  n.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { n.hidden = true; }, 8000);
}

// tellAway tells a player which moves the table made for them: at once
// when the timer ran out, and on return for moves made while away.
function tellAway(m, fresh) {
  if (m.seat < 0) return;
  const forMe = fresh.filter((e) => e.seat === m.seat && e.by);
  if (forMe.length) {
    const e = forMe[forMe.length - 1];
    notice(t(e.by === 'timer' ? 'notice.timer' : 'notice.standIn', { Move: describeVerb(e) }));
    return;
  }
  if (m.fresh) { // the first state after (re)connecting: what was done while away
    const made = m.log.filter((e) => e.seat === m.seat && e.by);
    if (made.length) notice(t('notice.back', { Count: made.length }));
  }
}

function showRefusal(text) {
  const r = $('#refusal');
  setText(r, text);
  r.hidden = !text;
}

// ---------- naming seats ----------

function seatName(i) {
  return seatLabel(app.m && app.m.table.seats[i], i);
}
function nameOf(i) { return app.m && i === app.m.seat ? t('seat.you', { Name: seatName(i) }) : seatName(i); }
// isTeamGame: partnerships are fixed for the match (the server sends
// each seat's team).
function isTeamGame() {
  return !!(app.m.table.teams && app.m.table.teams.length);
}

// isMoon: the server names the bid that is the moon (none in auction).
function isMoon(bid) {
  return !!app.m.table.moon && bid === app.m.table.moon;
}

// describeVerb is an action without its actor: "plays 10♦".
// It is also the move the table made for an absent player.
function describeVerb(e) {
  const a = e.action;
  if (!a) { // hidden cards: only how many
    const n = Number((/(\d+) (cards|trumps)/.exec(e.text) || [])[1] || 0);
    return t(e.kind === 'pass_trumps' ? 'move.passHidden' : 'move.discardHidden', { Count: n });
  }
  if ('bid' in a) return t(isMoon(a.bid) ? 'move.moon' : 'move.bid', { Bid: a.bid });
  if ('pass' in a) return t('move.pass');
  if ('call' in a) return t('move.call', { Card: cardText(a.call) });
  if ('trump' in a) return t('move.trump', { Suit: SUITS[a.trump].sym + ' ' + suitName(a.trump) });
  if ('give_stock' in a) return t(a.give_stock ? 'move.giveStock' : 'move.keepStock');
  if ('pass_trumps' in a) return t('move.passTrumps', { Cards: a.pass_trumps.map(cardText).join(' ') });
  if ('discard' in a) return t(app.m.table.variant === 'ten-point' ? 'move.burn' : 'move.discard', { Cards: a.discard.map(cardText).join(' ') });
  if ('play' in a) return t('move.play', { Card: cardText(a.play) });
  return e.text;
}

// describe is a log line: who did what, and who did it for an absent player.
function describe(e) {
  const line = t('move.line', { Who: nameOf(e.seat), Move: describeVerb(e) });
  if (e.by === 'timer') return t('move.byTimer', { Line: line });
  if (e.by === 'stand-in') return t('move.byStandIn', { Line: line });
  return line;
}

// myAction says what the server asks of this seat now: "" for nothing.
function myAction(m) {
  if (!m || m.match_over || m.seat < 0 || m.view.turn !== m.seat) return '';
  if (m.discard) return 'discard';
  if (!m.legal || !m.legal.length) return '';
  const k = Object.keys(m.legal[0]).find((x) => x !== 'seat');
  return k === 'pass' ? 'bid' : k;
}

// ---------- rendering ----------

function render() {
  const m = app.m;
  if (!m) return;
  const v = m.view;
  // No move while a trick is held, nor while the connection is down.
  const act = app.show || !app.online ? '' : myAction(m);
  const tv = $('#table-view');
  Object.assign(tv.dataset, {
    phase: v.phase, act, seq: String(m.seq), hand: String(m.hand_no), rows: String(m.sheet.length), seat: String(m.seat),
    turn: String(v.turn), over: String(m.match_over), pending: String(app.pending), held: String(!!app.show),
    queued: String(app.queue.length), trump: v.trump || '', variant: m.table.variant, offline: String(!app.online),
    ended: String(!!m.ended), // a finished hand shown as it was, while its last trick is held
  });
  tv.classList.toggle('offline', !app.online);
  const opts = m.table.options || {};
  setText($('#t-title'), gameName(m.table.variant) + ' · ' + t('table.target', { Target: opts.target }) + ' · ' + t('table.handNo', { N: m.hand_no }));
  document.title = t(act ? 'title.yourTurn' : 'title.table', { Game: gameName(m.table.variant) });

  renderJoin(m);
  renderBanner(m);
  renderInfo(m);
  renderFelt(m);
  renderActions(m, act);
  renderHand(m, act);
  renderSheet(m);
  renderLastTrick(m);
  renderOut(m);
  renderLog(m);
  renderRecords(m);
  renderFair($('#fair'), m, app.id);
  renderChat();
  $('#show-last').hidden = !m.last_hand;
  renderStatus(m, act);
  tick();
  if (app.focusNext && !app.pending && m === app.latest && !app.show) {
    app.focusNext = false;
    focusNext(act);
  }
}

// focusNext moves the focus, after the player's move, to the next thing
// they will want: the first control of a new decision, or the panel.
function focusNext(act) {
  let el = null;
  if (act === 'play' || act === 'discard') el = $('#hand button.can') || $('#hand button.card');
  else if (act) el = $('#action-body button:not(:disabled)');
  if (!el) el = $('#actions');
  el.focus({ preventScroll: true });
}

function freeSeats(m) { return m.table.seats.filter((s) => s.kind === 'human' && !s.taken); }

function renderJoin(m) {
  const free = freeSeats(m);
  const canJoin = m.seat < 0 && free.length > 0 && !m.match_over;
  $('#join').hidden = !canJoin || app.watch;
  $('#show-join').hidden = !canJoin || !app.watch;
  const sel = $('#join-seat');
  const want = free.map((s) => String(s.seat)).join(',');
  if (sel.dataset.free !== want) {
    sel.dataset.free = want;
    sel.replaceChildren(h('option', { value: '' }, t('join.firstFree')),
      ...free.map((s) => h('option', { value: s.seat }, t('seat.n', { N: seatNo(s.seat) }))));
  }
}

function renderBanner(m) {
  const b = $('#banner');
  let text = '', cls = 'banner';
  if (!app.online) {
    text = t('banner.offline');
    cls += ' offline';
  } else if (m.match_over) {
    const w = (m.winner || []).map(nameOf);
    text = w.length ? t('banner.over', { Who: w.join(' & '), Count: w.length }) : t('banner.overNone');
    if (m.winner && m.winner.includes(m.seat)) text += ' ' + t('banner.wellPlayed');
    cls += ' over';
  } else if (m.waiting) {
    const free = freeSeats(m).map((s) => t('seat.n', { N: seatNo(s.seat) }));
    text = t('banner.waiting', { Seats: free.join(', '), Count: free.length });
    cls += ' waiting';
  }
  b.hidden = !text;
  b.className = cls;
  setText(b, text);
  // A rated match, once rated: each signed-in seat's new rating and change.
  const r = $('#rating-changes');
  const lines = m.match_over && m.ratings ? m.ratings.map((c) => t('table.ratingChange', { Name: seatName(c.seat), Rating: ratingText(c), Change: changeText(c.change) })) : [];
  r.hidden = !lines.length;
  setText(r, [m.table.rated ? t('table.rated') + ':' : '', ...lines].filter(Boolean).join(' '));
}

function renderInfo(m) {
  const v = m.view, variant = m.table.variant;
  const items = [];
  const moon = isMoon(v.bid);
  if (v.bidder >= 0) items.push([t(v.phase === 'bid' ? 'info.highBid' : 'info.bid'), t(moon ? 'info.moonBy' : 'info.bidBy', { Bid: v.bid, Who: nameOf(v.bidder) })]);
  else if (v.phase === 'bid') items.push([t('info.highBid'), t('info.noneYet')]);
  if (v.trump) items.push([t('info.trump'), SUITS[v.trump].sym + ' ' + suitName(v.trump), SUITS[v.trump].red ? 'red' : 'black']);
  else items.push([t('info.trump'), t(variant === 'auction' ? 'info.trumpByLead' : 'info.notYet')]);
  if (variant === 'pawnee' && v.called) {
    items.push([t('info.called'), cardText(v.called), SUITS[v.called[1]].red ? 'red' : 'black']);
    if (v.partner_known) items.push([t('info.partner'), v.partner == null ? t('info.alone') : nameOf(v.partner)]);
    else items.push([t('info.partner'), t('info.secret')]);
  }
  if (variant === 'ten-point' && v.phase !== 'bid' && v.phase !== 'play' && v.stock_left > 0) items.push([t('info.stock'), t('count.cards', { Count: v.stock_left })]);
  if (v.phase === 'play') items.push([t('info.trick'), t('info.trickOf', { N: Math.min(v.tricks + 1, 6) })]);
  if (m.table.turn_timer) items.push([t('info.timer'), t('info.timerEach', { Count: m.table.turn_timer })]);
  const box = $('#table-info');
  box.replaceChildren(...items.map(([k, val, cls]) =>
    h('span', { class: 'info-item' }, h('span', { class: 'info-k', text: t('info.label', { Label: k }) }), h('span', { class: 'info-v ' + (cls || ''), text: val }))));
}

// relSeat is where seat i sits round the table counted from the player
// (who sits at the bottom, 0; the others clockwise, C-1).
function relSeat(m, i) {
  const n = m.table.seats.length;
  return (i - (m.seat >= 0 ? m.seat : 0) + n) % n;
}

function renderFelt(m) {
  const v = m.view, n = m.table.seats.length;
  const felt = $('#felt');
  felt.className = 'felt n' + n;
  const seats = [];
  const acting = app.online && !m.match_over && !m.waiting && v.turn >= 0 && v.phase !== 'done';
  // The view's scores are those before its hand; once the match is over
  // (and its last trick gathered) the boxes show the final ones.
  const scores = m.match_over && m.last_hand ? m.last_hand.scores : v.scores;
  for (let i = 0; i < n; i++) {
    const s = m.table.seats[i];
    const badges = [];
    if (v.dealer === i) badges.push(h('span', { class: 'badge dealer' }, t('badge.dealer')));
    if (v.bidder === i) badges.push(h('span', { class: 'badge bidder' }, t(v.phase === 'bid' ? 'badge.high' : 'badge.bid', { Bid: v.bid })));
    if (v.partner_known && v.partner === i && i !== v.bidder) badges.push(h('span', { class: 'badge partner' }, t('badge.partner')));
    if (v.phase === 'bid' && v.passed.includes(i)) badges.push(h('span', { class: 'badge passed' }, t('badge.passed')));
    if (isTeamGame()) {
      const team = m.table.teams[i] === 0 ? 'A' : 'B';
      badges.push(h('span', { class: 'badge team', title: t('badge.team', { Team: team }) }, h('span', { class: 'wide', text: t('badge.team', { Team: '' }) }), team));
    }
    if (m.away && m.away[i]) badges.push(h('span', { class: 'badge away', title: t('badge.awayTitle') }, t('badge.away')));
    if (s.kind === 'human' && !s.taken) badges.push(h('span', { class: 'badge free' }, t('badge.free')));
    const turn = acting && v.turn === i && !app.show;
    const held = t('count.cards', { Count: v.counts[i] }) +
      (v.phase === 'play' || v.tricks > 0 ? ' · ' + t('count.tricks', { Count: v.trick_wins[i] }) : '');
    const stats = t('seat.score', { Score: scores[i] }) + ' · ' + held;
    const label = t(s.kind === 'bot' ? 'seat.labelBot' : 'seat.label', { Who: nameOf(i), N: seatNo(i), Level: levelName(s.level) }) + ' ' + stats +
      (badges.length ? '. ' + badges.map((b) => b.textContent).join(', ') : '') + (turn ? '. ' + t('seat.toAct') : '');
    seats.push(h('div', {
      class: 'seat' + (turn ? ' turn' : '') + (i === m.seat ? ' me' : ''), role: 'group', 'aria-label': label,
      dataset: { seat: i, rel: relSeat(m, i) },
    },
    h('div', { class: 's-name', title: nameOf(i) + (s.kind === 'bot' ? ' · ' + levelName(s.level) : '') },
      h('span', { class: 's-num', text: seatNo(i) }), ' ', seatName(i), i === m.seat ? h('span', { class: 'you', text: ' ' + t('seat.youMark') }) : null),
    h('div', { class: 's-stats', title: stats }, h('span', { text: t('seat.points', { Count: scores[i] }) }), ' · ', h('span', { text: held })),
    badges.length || turn ? h('div', { class: 's-badges' }, badges,
      turn && m.timer && m.timer.seat === i ? h('span', { class: 'badge countdown', role: 'timer' }) : null) : null));
  }
  $('#seats').replaceChildren(...seats);

  const trick = $('#trick');
  let cards = v.trick, faded = false, held = false, winner = -1;
  if (app.show) { cards = app.show.cards; held = true; winner = app.show.winner; } else if (!cards.length && v.phase === 'play' && v.last_trick.length) {
    cards = v.last_trick; faded = true; winner = v.last_winner;
  }
  // The server names the trumps; a trick held up after the hand is over
  // takes the finished hand's.
  const trumps = new Set(v.trumps.length || !app.show || !m.last_hand ? v.trumps : m.last_hand.trumps);
  const trumpOf = (c) => trumps.has(c);
  trick.replaceChildren(...cards.map((tc) => {
    const node = cardNode(tc.card, { trump: trumpOf(tc.card), note: t(tc.seat === winner && held ? 'trick.playedByWins' : 'trick.playedBy', { Who: nameOf(tc.seat) }) });
    node.classList.add('tcard');
    if (faded) node.classList.add('faded');
    if (held && tc.seat === winner) node.classList.add('wins');
    node.dataset.seat = tc.seat;
    return node;
  }));
  placeSeats();
  let note = '';
  if (held) note = t('trick.takes', { Who: nameOf(winner) });
  else if (faded) note = t('trick.last', { Who: nameOf(winner) });
  $('#trick-note').hidden = !note;
  setText($('#trick-note'), note);
  trick.setAttribute('aria-label', held ? t('trick.ariaDone', { Who: nameOf(winner) }) : faded ? t('trick.ariaLast', { Who: nameOf(v.last_winner) }) : t('trick.aria'));
}

// placeSeats puts the seat boxes round the edge of the felt and each
// trick card in front of its player (felt.js does the geometry): the
// boxes evenly round the felt (the player at the bottom, the others
// clockwise, C-1), wholly inside its rounded edge and apart; each card
// clear of the boxes, clearly nearer its player than any other seat, and
// over no other card's rank or suit — at the largest size that allows
// it. Where the page may grow (a narrow screen) and nothing fits, the
// felt grows until it does. It runs on every render, when the felt, the
// window or a seat box changes size (from tick); the same sizes give the
// same layout, worked out once.
let placedFor = '';
const laid = new Map(); // the layouts worked out, by what they were for (the last few)
let grown = { key: '', px: 0 }; // the felt's height raised for a layout
let cornerSeen = null; // a trick card's rank and suit: {x, y, w, h}
function placeSeats() {
  const felt = $('#felt');
  const W = felt.clientWidth, H = felt.clientHeight;
  const seats = Array.from(document.querySelectorAll('#seats .seat'));
  placedFor = placeKey(felt, seats);
  const n = seats.length;
  if (!n || !W || !H) return;
  const trick = $('#trick');
  const cards = Array.from(trick.querySelectorAll('.tcard'));
  // The cards' full size for this felt (style.css, on the seats' layer:
  // the trick's own is the size chosen), and where a card's rank and
  // suit lie on it, measured on a card shown ("10" is the widest rank).
  const base = getComputedStyle($('#seats'));
  const tw = parseFloat(base.getPropertyValue('--tw')) || 64, th = parseFloat(base.getPropertyValue('--th')) || 92;
  for (const c of cards) {
    const corner = c.querySelector('.c-corner');
    if (!corner) continue;
    const a = c.getBoundingClientRect(), r = corner.getBoundingClientRect(), size = parseFloat(getComputedStyle(corner).fontSize) || 16;
    if (!r.width || !a.width) continue;
    const scale = c.offsetWidth / a.width || 1; // a card flying in is scaled
    cornerSeen = { x: (r.left - a.left) * scale, y: (r.top - a.top) * scale, w: Math.max(r.width * scale, size * 1.25), h: r.height * scale };
    break;
  }
  const corner = cornerSeen || { x: 5, y: 3, w: 20, h: 32 };
  const sizes = seats.map((s) => ({ w: s.offsetWidth, h: s.offsetHeight, rel: Number(s.dataset.rel) || 0 }));
  const playing = cards.length > 0 || !!(app.m && app.m.view.phase === 'play');
  // The felt's rounded corners (its border-radius is of the border box).
  const fs = getComputedStyle(felt), bw = felt.offsetWidth - W;
  const radius = (v, size) => (String(v).endsWith('%') ? (parseFloat(v) * size) / 100 : parseFloat(v)) || 0;
  const [rxs, rys] = fs.borderTopLeftRadius.split(' ');
  const rxOf = () => Math.max(0, radius(rxs, W + bw) - bw / 2), ryOf = (hh) => Math.max(0, radius(rys || rxs, hh + bw) - bw / 2);
  const shape = [W, tw, th, corner.x, corner.y, corner.w, corner.h, playing, sizes.map((z) => z.w + 'x' + z.h + '@' + z.rel).join(',')].map(String).join(':');
  const key = shape + ':' + H;
  let L = laid.get(key);
  if (!L) {
    L = layoutFelt(W, H, sizes, rxOf(H), ryOf(H), tw, th, corner, playing);
    if (laid.size >= 16) laid.delete(laid.keys().next().value);
    laid.set(key, L);
  }
  // On a narrow screen the page grows below the felt: the felt may take
  // the height the layout needs (and gives it back when it needs less).
  const area = felt.closest('.play-area');
  if (area && window.matchMedia('(max-width: 980px)').matches && (!L.ok || grown.px) && grown.key !== shape) {
    grown.key = shape;
    area.style.removeProperty('--felt-min');
    const low = Math.ceil(parseFloat(getComputedStyle(area).getPropertyValue('--felt-min')) || 160) - bw;
    const need = feltHeight(W, low, low + 640, sizes, rxOf, ryOf, tw, th, corner, playing);
    grown.px = need > low ? need + bw : 0;
    if (grown.px) area.style.setProperty('--felt-min', grown.px + 'px');
    if (felt.clientHeight !== H) return; // the felt's new size places everything again (ResizeObserver)
  }
  seats.forEach((s, k) => {
    s.style.left = L.boxes[k].left + 'px';
    s.style.top = L.boxes[k].top + 'px';
  });
  trick.style.setProperty('--tw', L.tw + 'px');
  trick.style.setProperty('--th', L.th + 'px');
  trick.dataset.size = L.tw >= 52 ? 'l' : L.tw >= 40 ? 'm' : 's';
  spots = {};
  seats.forEach((s, k) => { spots[s.dataset.seat] = { left: Math.round(L.spots[k].left), top: Math.round(L.spots[k].top) }; });
  for (const c of cards) {
    const spot = spots[c.dataset.seat];
    if (!spot) continue;
    c.style.left = spot.left + 'px';
    c.style.top = spot.top + 'px';
  }
}
let spots = {};

// placeKey is what the placement of the seats depends on: the felt's size,
// the window's width and each seat box's size.
function placeKey(felt, seats) {
  return felt.clientWidth + 'x' + felt.clientHeight + ':' + window.innerWidth + ':' + seats.map((s) => s.offsetWidth + 'x' + s.offsetHeight).join(',');
}

function renderStatus(m, act) {
  const v = m.view;
  let text;
  const reading = (m.reading || []).filter((s) => s !== m.seat);
  if (!app.online) text = t('status.offline');
  else if (m.match_over) text = m.table.event ? t('event.tableOver') : t('status.over');
  else if (m.waiting) text = t('status.waiting');
  else if (m.paused) text = t('status.paused');
  else if (app.show) text = t('trick.takes', { Who: nameOf(app.show.winner) });
  else if (app.pending) text = t('status.sending');
  else if (reading.length && !act) text = t('status.reading', { Who: reading.map(nameOf).join(', '), Count: reading.length });
  else if (act) text = t('status.yourTurn', { What: act === 'discard' ? t(m.discard.kind === 'burn' ? 'phase.burn' : 'phase.discard') : phaseVerb(v.phase) });
  else if (v.turn >= 0 && v.phase !== 'done') text = t('status.waitingFor', { Who: nameOf(v.turn), What: phaseVerb(v.phase) });
  else text = '';
  if (text !== app.status) { app.status = text; setText($('#status'), text); }
  $('#status').className = 'status' + (act ? ' mine' : '') + (app.online ? '' : ' offline');
}

// ---------- the action panel ----------

function renderActions(m, act) {
  const box = $('#action-body');
  const focusKey = document.activeElement && $('#actions').contains(document.activeElement) ? document.activeElement.dataset.key : null;
  box.replaceChildren();
  $('#hand-actions').replaceChildren();
  delete $('#actions').dataset.remaining;
  $('#actions').className = 'actions' + (app.pending ? ' busy' : '') + (act ? ' mine' : '');
  if (!app.online) {
    box.append(h('p', { class: 'hint offline', text: t('actions.offline') }));
  } else if (m.match_over && m.table.event) {
    // An event's round: the host starts the next one; the event's page
    // shows where each person plays it. No next match here.
    box.append(h('p', {}, h('a', { href: '/e/' + encodeURIComponent(m.table.event), 'data-key': 'event' }, t('event.back'))));
  } else if (m.match_over) {
    box.append(h('p', { text: t('status.over') }));
    if (m.seat >= 0) box.append(actionButton(t('again.button'), 'again', playAgain, { cls: 'primary', title: t('again.title') }));
    else box.append(h('p', {}, h('a', { href: '/' }, t('again.newTable'))));
  } else if (m.waiting) {
    box.append(h('p', { class: 'hint', text: t('actions.waiting') }));
  } else if (m.paused) {
    box.append(h('p', { class: 'hint', text: t('status.paused') }));
  } else if (m.seat < 0) {
    box.append(h('p', { class: 'hint', text: t('actions.watching') }));
  } else if (!act) {
    box.append(h('p', { class: 'hint wait', text: app.show ? '' : t('actions.notYourTurn') }));
  } else if (act === 'bid') {
    renderBid(box, m);
  } else if (act === 'call') {
    renderCall(box, m);
  } else if (act === 'trump') {
    renderTrump(box, m);
  } else if (act === 'give_stock') {
    renderGiveStock(box, m);
  } else if (act === 'discard') {
    renderDiscard(box, m);
  } else if (act === 'play') {
    renderPlay(box, m);
  }
  if (act && m.table.hints !== false && !m.match_over) renderHint(box, m);
  if (focusKey) {
    const again = $('#actions [data-key="' + focusKey + '"]');
    if (again) again.focus();
  }
  if (!act) showRefusal('');
}

function actionButton(text, key, onclick, o) {
  o = o || {};
  return h('button', {
    type: 'button', class: o.cls || '', dataset: Object.assign({ key }, o.data || {}), onclick,
    disabled: o.disabled || app.pending, 'aria-label': o.label || null, title: o.title || null,
  }, text);
}

// renderHint offers the search bot's view of the options (as ? does in
// pitch play), when the table allows it.
function renderHint(box, m) {
  const hint = app.hint && app.hint.seq === m.seq ? app.hint : null;
  if (!hint) {
    box.append(h('div', { class: 'hint-row' }, actionButton(t('hint.button'), 'hint', () => { sendMsg({ type: 'hint' }); }, { title: t('hint.title') })));
    return;
  }
  const list = h('ol', { class: 'hint-list', 'aria-label': t('hint.listLabel') });
  const pts = new Intl.NumberFormat(document.documentElement.lang, { signDisplay: 'always', maximumFractionDigits: 1, minimumFractionDigits: 1 });
  const pct = new Intl.NumberFormat(document.documentElement.lang, { style: 'percent' });
  for (const o of hint.options) {
    let line = t('hint.option', { Move: describeVerb({ action: o.action, text: o.text }), Points: pts.format(o.value) });
    if (o.make != null) line += t('hint.make', { Chance: pct.format(o.make) });
    list.append(h('li', { text: line }));
  }
  box.append(h('div', { class: 'hint-box', role: 'note' }, h('p', { class: 'hint', text: t('hint.intro', { Count: hint.worlds }) }), list));
}

function renderBid(box, m) {
  const v = m.view, variant = m.table.variant;
  const forced = !m.legal.some((a) => 'pass' in a);
  const rules = t({ pawnee: 'bid.rules.pawnee', 'ten-point': 'bid.rules.ten-point', auction: 'bid.rules.auction' }[variant]);
  let lead = v.bidder >= 0 ? t('bid.high', { Bid: v.bid, Who: nameOf(v.bidder) }) : t('bid.none');
  if (forced) lead = m.legal.length === 1 ? t('bid.forcedExact', { Bid: m.legal[0].bid }) : t('bid.forced');
  box.append(h('h2', { text: t('bid.title') }), h('p', { class: 'hint', text: lead + ' ' + (forced ? '' : rules) }));
  const row = h('div', { class: 'btn-row', role: 'group', 'aria-label': t('bid.group') });
  for (const a of m.legal) {
    if ('pass' in a) {
      row.append(actionButton(t('bid.pass'), 'pass', () => send(a), { cls: 'pass', data: { pass: '' } }));
    } else {
      const moon = isMoon(a.bid);
      row.append(actionButton(moon ? t('bid.moonButton') : String(a.bid), 'bid' + a.bid, () => send(a),
        { cls: 'bid', data: { bid: a.bid }, label: t(moon ? 'bid.moonLabel' : 'bid.label', { Bid: a.bid }) }));
    }
  }
  box.append(row);
}

// renderCall picks the called card in two short steps, a suit and then a
// rank, so that it fits a phone: the legal calls come from the server.
function renderCall(box, m) {
  const opts = m.table.options || {};
  const legal = new Set(m.legal.map((a) => a.call));
  const mine = new Set(m.view.hand);
  box.append(h('h2', { text: t('call.title') }),
    h('p', { class: 'hint', text: t(opts.call_own_card === false ? 'call.hintNoOwn' : 'call.hint') }));
  const suits = h('div', { class: 'btn-row suits', role: 'group', 'aria-label': t('call.suitGroup') });
  for (const s of ['S', 'H', 'C', 'D']) {
    // Each suit says how many trumps the caller would hold with it.
    const held = m.suit_trumps ? m.suit_trumps[s] : 0;
    suits.append(actionButton([h('span', { class: 'sym', text: SUITS[s].sym }), h('span', { class: 'held', text: t('call.suitCount', { Count: held }) })], 'suit' + s, () => { app.pickSuit = s; app.picked = ''; render(); focusKeyed('rank'); },
      { cls: 'suit ' + (SUITS[s].red ? 'red' : 'black') + (app.pickSuit === s ? ' sel' : ''), data: { suit: s },
        label: t('call.suitLabel', { Suit: suitName(s), Count: held }) }));
  }
  box.append(suits);
  const grid = h('div', { id: 'call-picker', class: 'picker', role: 'group', 'aria-label': app.pickSuit ? t('call.ranksOf', { Suit: suitName(app.pickSuit) }) : t('call.suitFirst') });
  if (app.pickSuit) {
    for (const r of 'AKQJT98765432') {
      const c = r + app.pickSuit;
      const allowed = legal.has(c);
      const node = h('button', {
        type: 'button', class: 'rank' + (allowed ? ' can' : '') + (mine.has(c) ? ' mine' : '') + (app.picked === c ? ' sel' : ''),
        dataset: { card: c, key: 'rank', rove: '' }, 'aria-pressed': String(app.picked === c), 'aria-disabled': allowed ? null : 'true',
        'aria-label': cardLabel(c) + (mine.has(c) ? t('call.inHandNote') : '') + (allowed ? '' : t('call.notAllowedNote')),
        title: mine.has(c) ? t('call.inHand') : null, tabindex: '-1',
      }, (r === 'T' ? '10' : r) + SUITS[app.pickSuit].sym);
      node.addEventListener('click', () => {
        if (!allowed || app.pending) return;
        app.picked = c;
        render();
        focusKeyed('call');
      });
      grid.append(node);
    }
    roving(grid, 7);
  }
  box.append(grid);
  fixTabStop(grid);
  const p = app.picked;
  let info = t(app.pickSuit ? 'call.pickRank' : 'call.pickSuit');
  if (p) info = t(mine.has(p) ? 'call.pickedOwn' : 'call.picked', { Card: cardLabel(p) });
  box.append(h('p', { class: 'call-info', 'aria-live': 'polite', text: info }),
    actionButton(p ? t('call.buttonCard', { Card: cardText(p) }) : t('call.button'), 'call', () => send({ seat: m.seat, call: p }),
      { cls: 'primary', disabled: !p, data: { confirm: 'call' } }));
  box.lastChild.id = 'call-confirm';
}

// focusKeyed focuses the first control with data-key key, after a render.
function focusKeyed(key) {
  const el = $('#actions [data-key="' + key + '"][tabindex="0"]') || $('#actions [data-key="' + key + '"]');
  if (el) el.focus();
}

function renderTrump(box, m) {
  box.append(h('h2', { text: t('trump.title') }),
    h('p', { class: 'hint', text: t('trump.hint') }));
  const row = h('div', { class: 'btn-row', role: 'group', 'aria-label': t('trump.group') });
  for (const a of m.legal) {
    const s = SUITS[a.trump];
    const n = m.suit_trumps ? m.suit_trumps[a.trump] : 0;
    row.append(actionButton(s.sym + ' ' + suitName(a.trump) + ' (' + num(n) + ')', 'trump' + a.trump, () => send(a),
      { cls: 'suit ' + (s.red ? 'red' : 'black'), data: { trump: a.trump }, label: t('trump.label', { Suit: suitName(a.trump), Count: n }) }));
  }
  box.append(row);
}

function renderGiveStock(box, m) {
  const partner = (m.seat + 2) % 4, v = m.view;
  const drew = (v.fill_got || []).map((n, i) => nameOf(i) + ' ' + num(n)).join(', ');
  box.append(h('h2', { text: t('stock.title') }),
    h('p', { class: 'hint', text: t('stock.hint', { Drew: drew, Count: v.stock_left }) }));
  const row = h('div', { class: 'btn-row' });
  for (const a of m.legal) {
    row.append(actionButton(a.give_stock ? t('stock.give', { Who: nameOf(partner) }) : t('stock.keep'), 'give' + a.give_stock, () => send(a),
      { data: { give: String(a.give_stock) } }));
  }
  box.append(row);
}

function renderPlay(box, m) {
  const variant = m.table.variant, v = m.view;
  let rule;
  if (variant === 'auction') {
    rule = t(v.trick.length ? 'play.rule.follow' : v.trump ? 'play.rule.leadAny' : 'play.rule.leadSetsTrump');
  } else {
    rule = t(v.tricks === 0 && !v.trick.length && variant === 'pawnee' ? 'play.rule.leadCalled' : 'play.rule.trump');
  }
  box.append(h('h2', { text: t(v.trick.length ? 'play.title' : 'play.titleLead') }),
    h('p', { class: 'hint', text: rule + ' ' + t('play.how') }));
}

// discardState works out, for the discard or burn asked for, which of
// the hand's cards are forced, chosen, and still choosable.
function discardState(m) {
  const d = m.discard;
  const must = new Set(d.must), pool = new Set(d.pool);
  if (app.passMode) {
    return { pass: true, must: new Set(), pool: new Set(m.view.hand), limit: d.pass_limit, chosen: app.chosen };
  }
  return { pass: false, must, pool, limit: d.choose, chosen: app.chosen };
}

function renderDiscard(box, m) {
  const d = m.discard, v = m.view, variant = m.table.variant;
  const burn = d.kind === 'burn';
  const st = discardState(m);
  const partner = (m.seat + 2) % 4;
  box.append(h('h2', { text: t(burn ? 'discard.titleBurn' : 'discard.title') }));
  if (burn && d.pass_limit > 0) {
    const radios = h('div', { class: 'mode', role: 'radiogroup', 'aria-label': t('discard.mode') });
    const mk = (val, text) => {
      const id = 'mode-' + val;
      const input = h('input', { type: 'radio', name: 'mode', id, value: val, checked: (val === 'pass') === app.passMode });
      input.addEventListener('change', () => { app.passMode = val === 'pass'; app.chosen = new Set(); render(); });
      return h('span', { class: 'check' }, input, h('label', { for: id, text }));
    };
    radios.append(mk('burn', t('discard.modeBurn')), mk('pass', t('discard.modePass', { Count: d.pass_limit, Who: nameOf(partner) })));
    box.append(radios);
  }
  const lines = [];
  if (st.pass) {
    lines.push(t('discard.passHint', { Count: d.pass_limit, Who: nameOf(partner) }));
  } else {
    let line = t(burn ? 'discard.countBurn' : 'discard.count', { Held: v.hand.length, Count: d.count });
    if (d.must.length) line += ' ' + t('discard.must', { Count: d.must.length });
    if (d.choose > 0) line += ' ' + t(d.must.length ? 'discard.chooseMore' : 'discard.choose', { Count: d.choose });
    lines.push(line);
    if (variant === 'pawnee') {
      lines.push(t(d.over_protected ? 'discard.overProtected' : 'discard.protected'));
    } else if (burn) {
      lines.push(t('discard.burnRule'));
    }
  }
  for (const l of lines) box.append(h('p', { class: 'hint', text: l }));
  const n = st.chosen.size + st.must.size;
  const ok = st.pass ? st.chosen.size >= 1 && st.chosen.size <= st.limit : st.chosen.size === st.limit;
  $('#actions').dataset.remaining = String(st.limit - st.chosen.size);
  const row = $('#hand-actions');
  row.append(h('span', { class: 'count', 'aria-live': 'polite', text: st.pass ? t('discard.chosenPass', { N: st.chosen.size, Count: st.limit }) : t('discard.selected', { N: n, Count: d.count }) }));
  const chosen = () => Array.from(st.must).concat(Array.from(st.chosen));
  if (st.pass) {
    row.append(actionButton(t('discard.passButton', { Count: st.chosen.size, Who: nameOf(partner) }), 'pass-confirm', () => send({ seat: m.seat, pass_trumps: chosen() }),
      { cls: 'primary', disabled: !ok, data: { confirm: 'pass' } }));
  } else {
    row.append(actionButton(t(burn ? 'discard.burnButton' : 'discard.button', { Count: d.count }), 'discard-confirm',
      () => send({ seat: m.seat, discard: chosen() }), { cls: 'primary', disabled: !ok, data: { confirm: 'discard' } }));
  }
  row.append(actionButton(t('discard.clear'), 'clear', () => { app.chosen = new Set(); render(); }, { disabled: st.chosen.size === 0 }));
  row.children[1].id = st.pass ? 'pass-confirm' : 'discard-confirm';
}

// ---------- the hand ----------

function renderHand(m, act) {
  const v = m.view;
  const box = $('#hand');
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  $('#hand-area').hidden = m.seat < 0;
  box.classList.toggle('busy', app.pending || !!app.show || !app.online);
  box.classList.toggle('choosing', act === 'play' || act === 'discard');
  const widow = new Set(v.bidder === m.seat ? v.widow : []);
  const plays = new Set(act === 'play' ? m.legal.map((a) => a.play) : []);
  const st = act === 'discard' ? discardState(m) : null;
  const nodes = [];
  const trumps = new Set(v.trumps);
  for (const c of v.hand) { // sorted by the server
    const trump = trumps.has(c);
    const o = { button: true, trump, cls: '', tags: [] };
    const notes = [];
    if (widow.has(c) && v.phase !== 'play') { o.tags.push('widow'); notes.push(t('hand.fromWidow')); }
    if (m.view.called === c) notes.push(t('hand.called'));
    let can = false;
    if (act === 'play') {
      can = plays.has(c);
      if (!can) o.title = refusalText(m, c);
    } else if (st) {
      if (st.must.has(c)) {
        o.cls += ' must sel';
        o.pressed = true;
        if (!st.pass) { o.tags.push('must'); notes.push(t('hand.mustGo')); }
        o.title = t('hand.mustGoTitle');
      } else if (st.pool.has(c)) {
        const picked = st.chosen.has(c);
        o.pressed = picked;
        if (picked) o.cls += ' sel';
        can = picked || st.chosen.size < st.limit;
        if (!can) o.title = t('hand.enough');
      } else {
        o.title = discardReason(m, c);
        notes.push(t('hand.mayNotGo'));
      }
    }
    if (can) o.cls += ' can';
    o.disabled = !can || app.pending;
    o.note = notes.filter(Boolean).join(', ') || null;
    const node = cardNode(c, o);
    node.addEventListener('click', () => onCard(c, act));
    nodes.push(node);
  }
  box.replaceChildren(...nodes);
  box.setAttribute('aria-label', t(act === 'play' ? 'hand.ariaPlay' : act === 'discard' ? (st.pass ? 'hand.ariaPass' : m.discard.kind === 'burn' ? 'hand.ariaBurn' : 'hand.ariaDiscard') : 'hand.aria', { Count: v.hand.length }));
  let again = focused ? box.querySelector('[data-card="' + focused + '"]') : null;
  if (again) again.focus();
  fixTabStop(box);
  if (focused && !again) {
    // The focused card was played or thrown: keep the focus in the hand,
    // or, with no card left, on the move panel (never on the page's body).
    again = box.querySelector('[data-rove][tabindex="0"]') || $('#actions');
    again.focus({ preventScroll: true });
  }
}

// KEEP_WHY: the message for each reason the server gives for a card that
// may not be discarded or burned.
const KEEP_WHY = { called: 'hand.why.called', point: 'hand.why.point', trump: 'hand.why.trump', burn_point: 'hand.why.burnPoint' };

function discardReason(m, c) {
  return t(KEEP_WHY[(m.discard.keep || {})[c]] || 'hand.why.trump');
}

// refusalText says why card c may not be played, from the server's
// refusals (the engine's reason, in the page's language).
function refusalText(m, c) {
  const r = m.refusals && m.refusals[c];
  if (!r) return t('hand.notNow', { Card: cardLabel(c) });
  return errorText(r.code, r.params, r.message);
}

function onCard(c, act) {
  const m = app.m;
  if (!m || app.pending || app.show) return;
  if (act === 'play') {
    const a = m.legal.find((x) => x.play === c);
    if (a) { showRefusal(''); send(a); return; }
    // Not playable: say why, in the engine's words.
    showRefusal(capital(refusalText(m, c)));
    return;
  }
  if (act === 'discard') {
    const st = discardState(m);
    if (st.must.has(c)) { showRefusal(t('hand.already', { Card: cardLabel(c) })); return; }
    if (!st.pool.has(c)) { showRefusal(discardReason(m, c)); return; }
    showRefusal('');
    if (app.chosen.has(c)) app.chosen.delete(c);
    else if (app.chosen.size < st.limit) app.chosen.add(c);
    else { showRefusal(t('hand.enough')); return; }
    render();
  }
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const signed = (n) => (n > 0 ? '+' : '') + num(n);

// ---------- the side panels ----------

// renderSheet draws the score sheet: a column per seat headed by its
// number (as on its box at the table) and its name, which wraps rather
// than being cut, so that every column can be told apart at seven seats
// in any language; the bid column says the bid and whether it was made,
// and the bidder's score is framed.
function renderSheet(m) {
  const n = m.table.seats.length;
  const sheet = $('#sheet');
  const head = h('tr', {}, h('th', { scope: 'col', text: '#' }), h('th', { scope: 'col', text: t('sheet.bid') }),
    ...Array.from({ length: n }, (_, i) => h('th', { scope: 'col', class: 'who' + (i === m.seat ? ' me' : ''), title: nameOf(i) },
      h('span', { class: 's-num', text: seatNo(i) }), h('span', { class: 'nm', text: seatName(i) }))));
  const rows = m.sheet.map((r) => h('tr', { class: r.made ? 'made' : 'set' },
    h('th', { scope: 'row' }, h('a', { href: '/t/' + encodeURIComponent(app.id) + '/hands/' + r.hand, class: 'replay-link', title: t('records.replay') }, num(r.hand))),
    h('td', { title: t(r.made ? 'result.made' : 'result.set', { Who: nameOf(r.bidder), Bid: r.bid }) },
      num(r.bid) + ' ', h('span', { class: r.made ? 'ok' : 'bad', text: r.made ? '✓' : '✗' }),
      h('span', { class: 'sr-only', text: ' ' + t(r.made ? 'result.made' : 'result.set', { Who: nameOf(r.bidder), Bid: r.bid }) })),
    ...r.scores.map((s, i) => h('td', { class: (i === m.seat ? 'me' : '') + (i === r.bidder ? ' bidder' : '') }, h('span', { class: 'sc', text: num(s) }), ' ',
      h('span', { class: 'delta ' + (r.delta[i] > 0 ? 'up' : r.delta[i] < 0 ? 'down' : ''), text: '(' + signed(r.delta[i]) + ')' })))));
  const cap = h('caption', { class: 'hint', text: t(m.sheet.length ? 'sheet.caption' : 'sheet.empty') });
  sheet.replaceChildren(cap, h('thead', {}, head), h('tbody', {}, rows));
}

function shortName(i, len) {
  len = len || 8;
  const n = seatName(i);
  return n.length > len ? n.slice(0, len - 1) + '…' : n;
}

function renderLastTrick(m) {
  const v = m.view, trumps = new Set(v.trumps);
  const box = $('#last-trick');
  if (!v.last_trick.length) { box.replaceChildren(h('p', { class: 'hint', text: t('lastTrick.none') })); return; }
  box.replaceChildren(h('div', { class: 'mini-row' }, v.last_trick.map((tc) =>
    h('div', { class: 'mini' + (tc.seat === v.last_winner ? ' won' : '') },
      cardNode(tc.card, { trump: trumps.has(tc.card), cls: 'small', note: t('trick.playedBy', { Who: nameOf(tc.seat) }) }),
      h('span', { class: 'mini-name', text: shortName(tc.seat) })))),
  h('p', { class: 'hint', text: t('lastTrick.takenBy', { Who: nameOf(v.last_winner) }) }));
}

function renderOut(m) {
  const v = m.view, trumps = new Set(v.trumps);
  const parts = [];
  if (v.shown.length) {
    parts.push(h('p', { class: 'hint', text: t(m.table.variant === 'ten-point' ? 'out.burned' : 'out.shown') }),
      h('div', { class: 'mini-row' }, v.shown.map((c) => cardNode(c, { cls: 'small', trump: trumps.has(c) }))));
  }
  if (v.out.length) {
    parts.push(h('p', { class: 'hint', text: t('out.yours') }),
      h('div', { class: 'mini-row' }, v.out.map((c) => cardNode(c, { cls: 'small', trump: trumps.has(c) }))));
  }
  $('#out-panel').hidden = parts.length === 0;
  $('#out').replaceChildren(...parts);
}

function renderLog(m) {
  const log = $('#log');
  const items = m.log.map((e) => h('li', { class: e.by ? 'by-table' : '', dataset: { by: e.by || '' }, text: describe(e) }));
  if (!items.length) items.push(h('li', { class: 'hint empty', text: t('log.empty') }));
  log.replaceChildren(...items);
  log.scrollTop = log.scrollHeight;
}

function renderChat() {
  const m = app.m;
  const panel = $('#chat-panel');
  panel.hidden = !m || m.seat < 0;
  if (panel.hidden) return;
  const list = $('#chat-list');
  const items = app.chat.map((c) => h('li', {}, h('strong', { text: t('chat.who', { Who: c.seat === m.seat ? t('chat.you') : (c.name || seatName(c.seat)) }) }), ' ', h('span', { text: c.text })));
  if (!items.length) items.push(h('li', { class: 'hint empty', text: t('chat.empty') }));
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

async function renderRecords(m) {
  const n = m.sheet.length;
  if (n === app.recordsFor) return;
  app.recordsFor = n;
  const list = $('#records');
  if (n === 0) { list.replaceChildren(h('li', { class: 'hint empty', text: t('records.none') })); return; }
  try {
    const hands = await api('GET', '/api/tables/' + encodeURIComponent(app.id) + '/hands');
    list.replaceChildren(...hands.map((x) => h('li', {}, h('a', { href: x.url, download: 'pitch-' + app.id + '-hand-' + x.hand + '.json' }, t('records.hand', { N: x.hand })),
      ' · ', h('a', { href: '/t/' + encodeURIComponent(app.id) + '/hands/' + x.hand, class: 'replay-link' }, t('records.replay')))),
      h('li', {}, h('a', { href: '/api/tables/' + encodeURIComponent(app.id) + '/match', download: 'pitch-' + app.id + '-match.json' }, t('history.download'))),
      h('li', {}, h('a', { href: '/t/' + encodeURIComponent(app.id) + '/hands/' + n + '#match', class: 'review-match' }, t('review.matchButton'))));
  } catch (e) {
    app.recordsFor = -1;
  }
}

// ---------- the end of a hand ----------

function handHeadline(lh) {
  const moon = isMoon(lh.bid);
  const result = t(lh.made ? (moon ? 'result.madeMoon' : 'result.made') : (moon ? 'result.setMoon' : 'result.set'), { Who: nameOf(lh.bidder), Bid: lh.bid });
  return t('summary.headline', { N: lh.hand, Result: result });
}

function showSummary(lh) {
  const m = app.m;
  const n = m.table.seats.length;
  const variant = m.table.variant;
  const body = $('#summary-body');
  setText($('#summary-h'), handHeadline(lh));
  const parts = [];
  const trump = SUITS[lh.trump];
  const facts = [t('summary.trump', { Suit: trump ? trump.sym + ' ' + suitName(lh.trump) : t('summary.noTrump') })];
  if (variant === 'pawnee') facts.push(lh.partner == null ? t('summary.alone') : t('summary.partner', { Who: nameOf(lh.partner) }));
  if (lh.teams && lh.teams.length && (variant !== 'auction' || isTeamGame())) {
    facts.push(t('summary.sides', { Sides: lh.teams.map((side) => side.map(seatName).join(' & ')).join(' ' + t('summary.against') + ' ') }));
  }
  parts.push(h('p', { text: facts.join(' · ') }));
  if (lh.tricks != null && lh.tricks < 6) {
    parts.push(h('p', { class: 'ended', text: t('summary.early', { Count: lh.tricks }) }));
  }

  const pts = lh.points.length ? lh.points.map((p) => h('tr', {},
    h('th', { scope: 'row', text: t(POINT_KEYS[p.kind] || p.kind) }),
    h('td', { text: p.card ? cardText(p.card) : '' }),
    h('td', { text: nameOf(p.seat) }))) : [h('tr', {}, h('td', { colspan: '3', text: t('summary.noPoints') }))];
  parts.push(h('table', { class: 'points' },
    h('caption', { text: t('summary.points') }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('summary.point') }), h('th', { scope: 'col', text: t('summary.card') }), h('th', { scope: 'col', text: t('summary.takenBy') }))),
    h('tbody', {}, pts)));

  const rows = [];
  for (let i = 0; i < n; i++) {
    const d = lh.delta[i];
    rows.push(h('tr', { class: i === lh.bidder ? 'bidder' : '' },
      h('th', { scope: 'row', text: nameOf(i) }),
      h('td', { text: num(lh.taken[i]) }),
      h('td', { class: d > 0 ? 'up' : d < 0 ? 'down' : '', text: signed(d) }),
      h('td', { text: num(lh.scores[i]) })));
  }
  parts.push(h('table', { class: 'totals' },
    h('caption', { text: t('summary.scores') }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('summary.player') }), h('th', { scope: 'col', text: t('summary.took') }),
      h('th', { scope: 'col', text: t('summary.change') }), h('th', { scope: 'col', text: t('summary.score') }))),
    h('tbody', {}, rows)));
  if (lh.winner && lh.winner.length) {
    parts.push(h('p', { class: 'winner', text: t('summary.winner', { Who: lh.winner.map(nameOf).join(' & '), Count: lh.winner.length }) }));
  }
  body.replaceChildren(...parts);
  $('#summary-record').href = '/api/tables/' + encodeURIComponent(app.id) + '/hands/' + lh.hand;
  $('#summary-replay').href = '/t/' + encodeURIComponent(app.id) + '/hands/' + lh.hand;
  summaryFair($('#summary-fair'), m, app.id, lh.hand); // checked here, not taken on trust; or not provable
  const dlg = $('#summary');
  if (!dlg.open) {
    if (typeof dlg.showModal === 'function') dlg.showModal(); else dlg.setAttribute('open', '');
  }
  $('#summary-close').focus();
}
