// A table: the connection, the states the server sends (played out at a
// pace people can follow), and what they show. The server decides
// everything; this module only draws the state it is sent and sends the
// player's choices.

import {
  SUITS, cardLabel, cardText, isTrump, isPawneePoint, sortHand, gameName, POINT_NAMES, PHASE_VERBS,
  $, h, store, api, showError, hideError, setText, roving, fixTabStop, cardNode,
} from './util.js';

// ---------- state ----------

// app holds the page's state. m is the state on screen; latest the newest
// the server sent (they differ while queued states are played out).
const app = {
  id: '', token: '', saved: null, ws: null, attempt: 0, retryTimer: 0,
  m: null, latest: null, latestAt: 0, queue: [], playing: false, show: null,
  pending: false, picked: '', pickSuit: '', chosen: new Set(), discardKey: '', passMode: false,
  seenHand: null, recordsFor: -1, watch: false, status: '', restarting: false,
  focusNext: false, hint: null, chat: [], refusal: '', justConnected: false, followed: false,
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

  $('#copy').addEventListener('click', copyInvite);
  $('#join-form').addEventListener('submit', join);
  $('#show-join').addEventListener('click', () => { app.watch = false; render(); $('#join-name').focus(); });
  $('#summary-close').addEventListener('click', () => $('#summary').close());
  $('#show-last').addEventListener('click', () => { if (app.m && app.m.last_hand) showSummary(app.m.last_hand, true); });
  const sp = $('#speed');
  sp.value = speed();
  sp.addEventListener('change', () => store.set('pitch.speed', sp.value));
  const snd = $('#sound');
  snd.checked = store.get('pitch.sound') === 'on';
  snd.addEventListener('change', () => store.set('pitch.sound', snd.checked ? 'on' : 'off'));
  $('#chat-form').addEventListener('submit', (ev) => { ev.preventDefault(); sendChat($('#chat-text').value); });
  for (const b of document.querySelectorAll('#chat-quick button')) b.addEventListener('click', () => sendChat(b.textContent));
  roving($('#hand'), 0);
  window.addEventListener('online', () => { if (!app.ws) reconnectNow(); });
  document.addEventListener('visibilitychange', () => { if (!document.hidden && !app.ws) reconnectNow(); });
  new ResizeObserver(() => placeSeats()).observe($('#felt'));
  window.addEventListener('resize', () => placeSeats()); // seat boxes change size with the screen too
  setInterval(tick, 250);

  try {
    const info = await api('GET', '/api/tables/' + encodeURIComponent(id));
    setText($('#t-title'), gameName(info.variant) + ' · target ' + (info.options && info.options.target));
  } catch (e) {
    setText($('#t-title'), 'No such table');
    showError('This table cannot be opened: ' + e.message);
    $('#main').append(h('p', { class: 'panel' }, h('a', { href: '/' }, 'Back to the lobby')));
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
  if (what === 'online') setText(c, 'Connected');
  else if (app.restarting) setText(c, 'The server is restarting; reconnecting…');
  else if (what === 'connecting') setText(c, 'Connecting…');
  else setText(c, 'Offline: retrying in ' + Math.ceil(delay / 1000) + ' s');
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
    const hello = { type: 'hello' };
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
      setConn('online');
      if (app.justConnected) { msg.fresh = true; app.justConnected = false; }
      onState(msg);
    } else if (msg.type === 'error') {
      app.pending = false;
      if (app.refusal) { showRefusal(msg.message); app.refusal = ''; } else showError(msg.message);
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
      showError('Your saved seat is not valid at this table (' + ev.reason + '). You are watching.');
    }
    if (ev.code === 1012) { // the server is restarting (a graceful shutdown): back soon, try at once
      app.restarting = true;
      app.attempt = 0;
    } else if (ev.code === 1013 && ev.reason) { // a limit: say which
      showError('The server closed the connection: ' + ev.reason + '.');
    }
    const delay = Math.min(15000, 500 * Math.pow(2, app.attempt)) * (0.8 + Math.random() * 0.4);
    app.attempt++;
    setConn('offline', delay);
    app.retryTimer = setTimeout(connect, delay);
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
    showError('Not connected: it was not sent. Reconnecting…');
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
    setText($('#copy'), 'Copied');
  } catch (e) {
    input.select();
    setText($('#copy'), 'Press Ctrl+C');
  }
  setTimeout(() => setText($('#copy'), 'Copy'), 2500);
}

async function join(ev) {
  ev.preventDefault();
  const name = $('#join-name').value.trim();
  if (!name) {
    showError('Enter your name (1 to 24 characters) to take a seat.');
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
    showError('You could not join: ' + e.message);
  } finally {
    $('#join-btn').disabled = false;
  }
}

// playAgain asks the server for a new match with the same seats; every
// seated player follows to it (next_table in the state).
async function playAgain() {
  try {
    const res = await api('POST', '/api/tables/' + encodeURIComponent(app.id) + '/rematch', { token: app.token });
    follow(res.id);
  } catch (e) {
    showError('A new match could not be started: ' + e.message);
  }
}

// follow moves to the next match of this table, keeping this browser's seat.
function follow(id) {
  if (app.saved) store.set('pitch.seat.' + id, JSON.stringify(app.saved));
  location.assign('/t/' + encodeURIComponent(id) + (app.m && app.m.seat < 0 ? '?watch=1' : ''));
}

// ---------- pacing: the server's states, played out ----------

// onState queues a state from the server. The queue is played out one
// step at a time, so that every card played is seen and a finished trick
// stays on the table for a moment; the server never waits for it.
function onState(m) {
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
  if (!prev || prev.hand_no !== m.hand_no || prev.match_over !== m.match_over) return prev ? m.log : [];
  return m.log.slice(prev.log.length);
}

// step shows m after prev: the card just played moves in from its seat; a
// trick just completed (and the last trick of a hand) stays whole for a
// hold, then goes to its winner; then the summary, if a hand ended.
async function step(prev, m) {
  const handDone = !!(prev && m.last_hand && (!prev.last_hand || m.last_hand.hand > prev.last_hand.hand));
  const trickDone = !!(prev && !handDone && prev.hand_no === m.hand_no && m.view.tricks > prev.view.tricks);
  const fresh = newEntries(prev, m);
  let done = null; // the trick to hold: {cards, winner}
  if (handDone && m.last_hand.last_trick && m.last_hand.last_trick.length) {
    done = { cards: m.last_hand.last_trick, winner: m.last_hand.last_winner };
  } else if (trickDone) {
    done = { cards: m.view.last_trick, winner: m.view.last_winner };
  }
  const before = prev ? new Set(prev.view.trick.map((t) => t.card)) : new Set();
  const moved = (done ? done.cards : m.view.trick).filter((t) => !before.has(t.card));
  const mine = fresh.length > 0 && fresh[fresh.length - 1].seat === m.seat;
  show(m, fresh, done);
  if (moved.length && prev) await flyIn(moved, mine);
  if (done) {
    await sleep(pace().hold);
    await gather(done.winner);
    app.show = null;
    render();
  } else if (prev && fresh.length && !mine && app.queue.length) {
    await sleep(pace().step); // give a person time to see a move before the next
  }
  if (handDone) endOfHand(m);
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
    follow(m.next_table);
    return;
  }
  if (app.seenHand === null) {
    const stored = Number(store.get(seenKey()));
    app.seenHand = stored > 0 ? stored : (m.last_hand ? m.last_hand.hand : 0);
  }
  if (m === app.latest) app.pending = false;
  for (const e of fresh) announce(describe(e));
  tellAway(m, fresh);
  render();
  if (isMyTurn(m) && !(prev && isMyTurn(prev) && prev.seq === m.seq)) yourTurn();
}

// endOfHand opens the hand's summary for players; spectators get a line
// they may open it from.
function endOfHand(m) {
  const lh = m.last_hand;
  if (!lh || lh.hand <= app.seenHand) return;
  app.seenHand = lh.hand;
  store.set(seenKey(), String(app.seenHand));
  if (m.seat >= 0) showSummary(lh);
  else notice(handHeadline(lh) + '.');
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
  if (!t || app.m !== app.latest) return null;
  return Math.max(0, t.left_ms - (performance.now() - app.latestAt));
}

// tick updates the turn countdown four times a second.
function tick() {
  const felt = $('#felt');
  if (felt.clientWidth + 'x' + felt.clientHeight + ':' + window.innerWidth !== placedFor) placeSeats();
  const left = timeLeft();
  const box = $('#seats .countdown');
  if (!box) return;
  if (left == null) { box.hidden = true; return; }
  box.hidden = false;
  const s = Math.ceil(left / 1000);
  setText(box, s + ' s');
  box.classList.toggle('warn', s <= 5);
  box.setAttribute('aria-label', s + ' seconds left');
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
    notice((e.by === 'timer' ? 'Time ran out: the table ' : 'While you were away, the table ') + describeVerb(e) + ' for you.');
    return;
  }
  if (m.fresh) { // the first state after (re)connecting: what was done while away
    const made = m.log.filter((e) => e.seat === m.seat && e.by);
    if (made.length) notice('The table made ' + made.length + (made.length === 1 ? ' move' : ' moves') + ' for you this hand; they are marked in the log.');
  }
}

function showRefusal(text) {
  const r = $('#refusal');
  setText(r, text);
  r.hidden = !text;
}

// ---------- naming seats ----------

function seatName(i) {
  const m = app.m;
  const s = m && m.table.seats[i];
  if (!s) return 'Seat ' + i;
  if (s.kind === 'bot' && (!s.name || /^Bot \(\w+\)$/.test(s.name))) return 'Bot ' + i;
  if (s.name) return s.name;
  return s.kind === 'human' ? 'Seat ' + i + ' (free)' : 'Bot';
}
function nameOf(i) { return seatName(i) + (app.m && i === app.m.seat ? ' (you)' : ''); }
function isTeamGame() {
  const m = app.m;
  return m.table.variant === 'ten-point' || (m.table.variant === 'auction' && m.table.options && m.table.options.partnerships);
}

// describeVerb is an action without its actor: "plays 10♦".
function describeVerb(e) {
  const a = e.action;
  if (!a) return e.text.replace(/^seat \d+ /, '');
  if ('bid' in a) return 'bids ' + a.bid + (a.bid === 10 && app.m.table.variant !== 'auction' ? ' (the moon)' : '');
  if ('pass' in a) return 'passes';
  if ('call' in a) return 'calls ' + cardText(a.call);
  if ('trump' in a) return 'names trump ' + SUITS[a.trump].sym + ' ' + SUITS[a.trump].name;
  if ('give_stock' in a) return a.give_stock ? 'gives the stock to the partner' : 'keeps the stock';
  if ('pass_trumps' in a) return 'passes ' + a.pass_trumps.map(cardText).join(' ') + ' to the partner';
  if ('discard' in a) return (app.m.table.variant === 'ten-point' ? 'burns ' : 'discards ') + a.discard.map(cardText).join(' ');
  if ('play' in a) return 'plays ' + cardText(a.play);
  return e.text;
}

// describe is a log line: who did what, and who did it for an absent player.
function describe(e) {
  let s = nameOf(e.seat) + ' ' + describeVerb(e);
  if (e.by === 'timer') s += ' (time ran out: played by the table)';
  else if (e.by === 'stand-in') s += ' (away: played by the table)';
  return s;
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
  const act = app.show ? '' : myAction(m); // no move while a trick is held
  const tv = $('#table-view');
  Object.assign(tv.dataset, {
    phase: v.phase, act, seq: String(m.seq), hand: String(m.hand_no), rows: String(m.sheet.length), seat: String(m.seat),
    turn: String(v.turn), over: String(m.match_over), pending: String(app.pending), held: String(!!app.show),
    queued: String(app.queue.length),
  });
  const opts = m.table.options || {};
  setText($('#t-title'), gameName(m.table.variant) + ' · target ' + opts.target + ' · hand ' + m.hand_no);
  document.title = (myAction(m) ? '(Your turn) ' : '') + 'Pitch: ' + gameName(m.table.variant);

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
    sel.replaceChildren(h('option', { value: '' }, 'First free seat'),
      ...free.map((s) => h('option', { value: s.seat }, 'Seat ' + s.seat)));
  }
}

function renderBanner(m) {
  const b = $('#banner');
  let text = '', cls = 'banner';
  if (m.match_over) {
    const w = (m.winner || []).map(nameOf);
    text = 'Match over: ' + (w.length ? w.join(' & ') + (w.length > 1 ? ' win' : ' wins') : 'no winner') + '.';
    if (m.winner && m.winner.includes(m.seat)) text += ' Well played!';
    cls += ' over';
  } else if (m.waiting) {
    const free = freeSeats(m).map((s) => 'seat ' + s.seat);
    text = 'Waiting for players: ' + free.join(', ') + ' still free. Send them the invite link; play starts when every seat is taken.';
    cls += ' waiting';
  }
  b.hidden = !text;
  b.className = cls;
  setText(b, text);
}

function renderInfo(m) {
  const v = m.view, variant = m.table.variant;
  const items = [];
  if (v.bidder >= 0) items.push([v.phase === 'bid' ? 'High bid' : 'Bid', v.bid + (v.bid === 10 && variant !== 'auction' ? ' (moon)' : '') + ' by ' + nameOf(v.bidder)]);
  else if (v.phase === 'bid') items.push(['High bid', 'none yet']);
  if (v.trump) items.push(['Trump', SUITS[v.trump].sym + ' ' + SUITS[v.trump].name, SUITS[v.trump].red ? 'red' : 'black']);
  else items.push(['Trump', variant === 'auction' ? 'set by the first card' : 'not yet']);
  if (variant === 'pawnee' && v.called) {
    items.push(['Called', cardText(v.called), SUITS[v.called[1]].red ? 'red' : 'black']);
    if (v.partner_known) items.push(['Partner', v.partner == null ? 'none: the bidder plays alone' : nameOf(v.partner)]);
    else items.push(['Partner', 'secret']);
  }
  if (variant === 'ten-point' && v.phase !== 'bid' && v.phase !== 'play' && v.stock_left > 0) items.push(['Stock', v.stock_left + ' cards']);
  if (v.phase === 'play') items.push(['Trick', Math.min(v.tricks + 1, 6) + ' of 6']);
  if (m.table.turn_timer) items.push(['Timer', m.table.turn_timer + ' s a turn']);
  const box = $('#table-info');
  box.replaceChildren(...items.map(([k, val, cls]) =>
    h('span', { class: 'info-item' }, h('span', { class: 'info-k', text: k + ': ' }), h('span', { class: 'info-v ' + (cls || ''), text: val }))));
}

// angle is where seat i sits round the table, seen from the player (who
// sits at the bottom; the others go clockwise, C-1), as a unit vector.
function angle(m, i) {
  const n = m.table.seats.length;
  const base = m.seat >= 0 ? m.seat : 0;
  const r = (i - base + n) % n;
  const t = Math.PI / 2 + (r * 2 * Math.PI) / n;
  return { x: Math.cos(t), y: Math.sin(t) };
}

function renderFelt(m) {
  const v = m.view, n = m.table.seats.length;
  const felt = $('#felt');
  felt.className = 'felt n' + n;
  const seats = [];
  const acting = !m.match_over && !m.waiting && v.turn >= 0 && v.phase !== 'done';
  for (let i = 0; i < n; i++) {
    const s = m.table.seats[i];
    const badges = [];
    if (v.dealer === i) badges.push(h('span', { class: 'badge dealer', title: 'Dealer' }, 'Dealer'));
    if (v.bidder === i) badges.push(h('span', { class: 'badge bidder' }, (v.phase === 'bid' ? 'High ' : 'Bid ') + v.bid));
    if (v.partner_known && v.partner === i && i !== v.bidder) badges.push(h('span', { class: 'badge partner' }, 'Partner'));
    if (v.phase === 'bid' && v.passed.includes(i)) badges.push(h('span', { class: 'badge passed' }, 'Passed'));
    if (isTeamGame()) badges.push(h('span', { class: 'badge team', title: 'Team ' + (i % 2 === 0 ? 'A' : 'B') }, h('span', { class: 'wide', text: 'Team ' }), i % 2 === 0 ? 'A' : 'B'));
    if (m.away && m.away[i]) badges.push(h('span', { class: 'badge away', title: 'Away: the table plays for them' }, 'Away'));
    if (s.kind === 'human' && !s.taken) badges.push(h('span', { class: 'badge free' }, 'Free seat'));
    const turn = acting && v.turn === i && !app.show;
    const held = v.counts[i] + (v.counts[i] === 1 ? ' card' : ' cards') +
      (v.phase === 'play' || v.tricks > 0 ? ' · ' + v.trick_wins[i] + (v.trick_wins[i] === 1 ? ' trick' : ' tricks') : '');
    const stats = 'Score ' + v.scores[i] + ' · ' + held;
    const label = nameOf(i) + ', seat ' + i + (s.kind === 'bot' ? ', bot ' + s.level : '') + '. ' + stats +
      (badges.length ? '. ' + badges.map((b) => b.textContent).join(', ') : '') + (turn ? '. To act.' : '');
    const a = angle(m, i);
    seats.push(h('div', {
      class: 'seat' + (turn ? ' turn' : '') + (i === m.seat ? ' me' : ''), role: 'group', 'aria-label': label,
      dataset: { seat: i, ax: a.x.toFixed(4), ay: a.y.toFixed(4) },
    },
    h('div', { class: 's-name', title: nameOf(i) + (s.kind === 'bot' ? ' · ' + s.level : '') },
      h('span', { class: 's-num', text: i }), ' ', seatName(i), i === m.seat ? h('span', { class: 'you', text: ' (you)' }) : null),
    h('div', { class: 's-stats', title: stats }, h('span', { text: v.scores[i] + ' pts' }), ' · ', h('span', { text: held })),
    badges.length || turn ? h('div', { class: 's-badges' }, badges,
      turn && m.timer && m.timer.seat === i ? h('span', { class: 'badge countdown', role: 'timer' }) : null) : null));
  }
  $('#seats').replaceChildren(...seats);
  placeSeats();

  const trick = $('#trick');
  let cards = v.trick, faded = false, held = false, winner = -1;
  if (app.show) { cards = app.show.cards; held = true; winner = app.show.winner; } else if (!cards.length && v.phase === 'play' && v.last_trick.length) {
    cards = v.last_trick; faded = true; winner = v.last_winner;
  }
  const trumpOf = (c) => isTrump(c, v.trump || (app.show && m.last_hand && m.last_hand.trump), m.table.variant);
  trick.replaceChildren(...cards.map((tc) => {
    const a = angle(m, tc.seat);
    const node = cardNode(tc.card, { trump: trumpOf(tc.card), note: 'played by ' + nameOf(tc.seat) + (tc.seat === winner && held ? ', takes the trick' : '') });
    node.classList.add('tcard');
    if (faded) node.classList.add('faded');
    if (held && tc.seat === winner) node.classList.add('wins');
    node.style.setProperty('--dx', a.x.toFixed(4));
    node.style.setProperty('--dy', a.y.toFixed(4));
    node.dataset.seat = tc.seat;
    return node;
  }));
  let note = '';
  if (held) note = nameOf(winner) + ' takes the trick';
  else if (faded) note = 'Last trick: ' + nameOf(winner);
  $('#trick-note').hidden = !note;
  setText($('#trick-note'), note);
  trick.setAttribute('aria-label', held ? 'The trick just completed, taken by ' + nameOf(winner) : faded ? 'The last trick, taken by ' + nameOf(v.last_winner) : 'The current trick');
}

// placeSeats puts the seat boxes round the felt, each wholly inside it.
// It runs on every render, when the felt or the window changes size, and
// (if the felt's size changed unseen) from tick.
let placedFor = '';
function placeSeats() {
  const felt = $('#felt');
  const W = felt.clientWidth, H = felt.clientHeight;
  placedFor = W + 'x' + H + ':' + window.innerWidth;
  for (const s of document.querySelectorAll('#seats .seat')) {
    const w = s.offsetWidth, hh = s.offsetHeight;
    const x = W / 2 + Number(s.dataset.ax) * (W / 2 - w / 2 - 6);
    const y = H / 2 + Number(s.dataset.ay) * (H / 2 - hh / 2 - 6);
    s.style.left = Math.round(x - w / 2) + 'px';
    s.style.top = Math.round(y - hh / 2) + 'px';
  }
}

function renderStatus(m, act) {
  const v = m.view;
  let text;
  if (m.match_over) text = 'The match is over.';
  else if (m.waiting) text = 'Waiting for players to join.';
  else if (app.show) text = nameOf(app.show.winner) + ' takes the trick.';
  else if (app.pending) text = 'Sending…';
  else if (act) text = 'Your turn: ' + (act === 'discard' ? (m.discard.kind === 'burn' ? 'burn trumps' : 'discard') : PHASE_VERBS[v.phase] || act) + '.';
  else if (v.turn >= 0 && v.phase !== 'done') text = 'Waiting for ' + nameOf(v.turn) + ' to ' + (PHASE_VERBS[v.phase] || 'act') + '.';
  else text = '';
  if (text !== app.status) { app.status = text; setText($('#status'), text); }
  $('#status').className = 'status' + (act ? ' mine' : '');
}

// ---------- the action panel ----------

function renderActions(m, act) {
  const box = $('#action-body');
  const focusKey = document.activeElement && $('#actions').contains(document.activeElement) ? document.activeElement.dataset.key : null;
  box.replaceChildren();
  $('#hand-actions').replaceChildren();
  delete $('#actions').dataset.remaining;
  $('#actions').className = 'actions' + (app.pending ? ' busy' : '') + (act ? ' mine' : '');
  if (m.match_over) {
    box.append(h('p', {}, 'The match is over.'));
    if (m.seat >= 0) box.append(actionButton('Play again', 'again', playAgain, { cls: 'primary', title: 'A new match at this table, with the same seats' }));
    else box.append(h('p', {}, h('a', { href: '/' }, 'Start a new table'), '.'));
  } else if (m.waiting) {
    box.append(h('p', { class: 'hint', text: 'Play starts when every person’s seat is taken.' }));
  } else if (m.seat < 0) {
    box.append(h('p', { class: 'hint', text: 'You are watching: you see what every player may see, but no hand.' }));
  } else if (!act) {
    box.append(h('p', { class: 'hint wait', text: app.show ? '' : 'Your cards are below; you will be asked when it is your turn.' }));
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
    box.append(h('div', { class: 'hint-row' }, actionButton('Hint', 'hint', () => { sendMsg({ type: 'hint' }); }, { title: 'What a strong player would weigh here' })));
    return;
  }
  const list = h('ol', { class: 'hint-list', 'aria-label': 'The options, best first' });
  for (const o of hint.options) {
    let t = o.text + ': ' + (o.value >= 0 ? '+' : '') + o.value.toFixed(1) + ' points';
    if (o.make != null) t += ', makes it ' + Math.round(o.make * 100) + '%';
    list.append(h('li', { text: t }));
  }
  box.append(h('div', { class: 'hint-box', role: 'note' }, h('p', { class: 'hint', text: 'Hint (expected points for your side this hand, from ' + hint.worlds + ' deals consistent with what you know):' }), list));
}

function renderBid(box, m) {
  const v = m.view, variant = m.table.variant;
  const forced = !m.legal.some((a) => 'pass' in a);
  const rules = {
    pawnee: 'Bids run 5 to 10 (10 is the moon); each bid tops the last, and a pass is final.',
    'ten-point': 'Bid 4 to 9, or 10 to shoot the moon (you must then take all ten points). Each bid tops the last.',
    auction: 'Bid 1 to 4 (4 is a pitch and ends the bidding). The dealer may steal by matching the high bid.',
  }[variant];
  let lead = v.bidder >= 0 ? 'High bid: ' + v.bid + ' by ' + nameOf(v.bidder) + '. ' : 'No bid yet. ';
  if (forced) lead = 'Everyone else passed: as the dealer you must bid' + (m.legal.length === 1 ? ' ' + m.legal[0].bid + '. ' : '. ');
  box.append(h('h2', { text: 'Your bid' }), h('p', { class: 'hint', text: lead + (forced ? '' : rules) }));
  const row = h('div', { class: 'btn-row', role: 'group', 'aria-label': 'Bids' });
  for (const a of m.legal) {
    if ('pass' in a) {
      row.append(actionButton('Pass', 'pass', () => send(a), { cls: 'pass', data: { pass: '' } }));
    } else {
      const moon = a.bid === 10 && variant !== 'auction';
      row.append(actionButton(moon ? '10 · moon' : String(a.bid), 'bid' + a.bid, () => send(a),
        { cls: 'bid', data: { bid: a.bid }, label: 'Bid ' + a.bid + (moon ? ', the moon' : '') }));
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
  box.append(h('h2', { text: 'Call a card' }),
    h('p', { class: 'hint' },
      'Its suit becomes trump; whoever holds it is your secret partner (in the widow or your own hand: you play alone' +
      (opts.call_own_card === false ? '; here you may not call your own card' : '') + '). Then you take the widow and all discard to 6.'));
  const suits = h('div', { class: 'btn-row', role: 'group', 'aria-label': 'Suit of the card to call' });
  for (const s of ['S', 'H', 'C', 'D']) {
    const held = m.view.hand.filter((c) => isTrump(c, s, 'pawnee')).length;
    suits.append(actionButton(SUITS[s].sym + ' ' + held, 'suit' + s, () => { app.pickSuit = s; app.picked = ''; render(); focusKeyed('rank'); },
      { cls: 'suit ' + (SUITS[s].red ? 'red' : 'black') + (app.pickSuit === s ? ' sel' : ''), data: { suit: s },
        label: SUITS[s].name + ': you would hold ' + held + (held === 1 ? ' trump' : ' trumps') }));
  }
  box.append(suits);
  const grid = h('div', { id: 'call-picker', class: 'picker', role: 'group', 'aria-label': app.pickSuit ? 'Ranks of ' + SUITS[app.pickSuit].name : 'Pick a suit first' });
  if (app.pickSuit) {
    for (const r of 'AKQJT98765432') {
      const c = r + app.pickSuit;
      const allowed = legal.has(c);
      const node = h('button', {
        type: 'button', class: 'rank' + (allowed ? ' can' : '') + (mine.has(c) ? ' mine' : '') + (app.picked === c ? ' sel' : ''),
        dataset: { card: c, key: 'rank', rove: '' }, 'aria-pressed': String(app.picked === c), 'aria-disabled': allowed ? null : 'true',
        'aria-label': cardLabel(c) + (mine.has(c) ? ', in your hand' : '') + (allowed ? '' : ', may not be called'),
        title: mine.has(c) ? 'In your hand' : null, tabindex: '-1',
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
  let info = app.pickSuit ? 'Pick a rank (shaded: in your hand).' : 'Pick the suit, then the rank.';
  if (p) info = cardLabel(p) + (mine.has(p) ? ': in your hand, so you would play alone.' : '.');
  box.append(h('p', { class: 'call-info', 'aria-live': 'polite', text: info }),
    actionButton(p ? 'Call ' + cardText(p) : 'Call', 'call', () => send({ seat: m.seat, call: p }),
      { cls: 'primary', disabled: !p, data: { confirm: 'call' } }));
  box.lastChild.id = 'call-confirm';
}

// focusKeyed focuses the first control with data-key key, after a render.
function focusKeyed(key) {
  const el = $('#actions [data-key="' + key + '"][tabindex="0"]') || $('#actions [data-key="' + key + '"]');
  if (el) el.focus();
}

function renderTrump(box, m) {
  box.append(h('h2', { text: 'Name trump' }),
    h('p', { class: 'hint', text: 'Trump is the suit you name plus the other jack of its colour and both jokers. Everyone then keeps only trumps.' }));
  const row = h('div', { class: 'btn-row', role: 'group', 'aria-label': 'Suits' });
  for (const a of m.legal) {
    const s = SUITS[a.trump];
    const n = m.view.hand.filter((c) => isTrump(c, a.trump, 'ten-point')).length;
    row.append(actionButton(s.sym + ' ' + s.name + ' (' + n + ')', 'trump' + a.trump, () => send(a),
      { cls: 'suit ' + (s.red ? 'red' : 'black'), data: { trump: a.trump }, label: 'Trump ' + s.name + ': you hold ' + n + ' of its trumps' }));
  }
  box.append(row);
}

function renderGiveStock(box, m) {
  const partner = (m.seat + 2) % 4, v = m.view;
  const drew = (v.fill_got || []).map((n, i) => nameOf(i) + ' ' + n).join(', ');
  box.append(h('h2', { text: 'The stock' }),
    h('p', { class: 'hint', text: 'The fill is done. Cards drawn: ' + drew + '. ' + v.stock_left + ' cards are left in the stock (unseen): they go to you, or to your partner if you give them. Whoever gets them keeps their trumps.' }));
  const row = h('div', { class: 'btn-row' });
  for (const a of m.legal) {
    row.append(actionButton(a.give_stock ? 'Give it to ' + nameOf(partner) : 'Keep it', 'give' + a.give_stock, () => send(a),
      { data: { give: String(a.give_stock) } }));
  }
  box.append(row);
}

function renderPlay(box, m) {
  const variant = m.table.variant, v = m.view;
  let rule;
  if (variant === 'auction') {
    rule = v.trick.length ? 'Follow the suit led or play a trump; with none of the suit led, play anything.' : (v.trump ? 'Lead any card.' : 'Lead any card: the pitcher’s first card sets trump.');
  } else {
    rule = v.tricks === 0 && !v.trick.length && variant === 'pawnee' ? 'You hold the called card: lead it.' : 'Play a trump.';
  }
  box.append(h('h2', { text: v.trick.length ? 'Your play' : 'Your lead' }),
    h('p', { class: 'hint', text: rule + ' Playable cards are raised: click one, or use the arrow keys and Enter.' }));
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
  box.append(h('h2', { text: burn ? 'Burn trumps' : 'Discard' }));
  if (burn && d.pass_limit > 0) {
    const radios = h('div', { class: 'mode', role: 'radiogroup', 'aria-label': 'Pass or burn' });
    const mk = (val, text) => {
      const id = 'mode-' + val;
      const input = h('input', { type: 'radio', name: 'mode', id, value: val, checked: (val === 'pass') === app.passMode });
      input.addEventListener('change', () => { app.passMode = val === 'pass'; app.chosen = new Set(); render(); });
      return h('span', { class: 'check' }, input, h('label', { for: id, text }));
    };
    radios.append(mk('burn', 'Burn'), mk('pass', 'First pass up to ' + d.pass_limit + ' to ' + nameOf(partner)));
    box.append(radios);
  }
  const lines = [];
  if (st.pass) {
    lines.push('Choose 1 to ' + d.pass_limit + ' trumps to pass to ' + nameOf(partner) + '. If you still hold more than 6, you burn next.');
  } else {
    lines.push((burn ? 'You hold ' + v.hand.length + ' trumps: burn ' : 'You hold ' + v.hand.length + ' cards: discard ') + d.count + ' to keep 6' +
      (d.must.length ? '; ' + d.must.length + ' must go (marked)' : '') + (d.choose > 0 ? '; choose ' + d.choose + (d.must.length ? ' more' : '') + ' from the raised cards' : '') + '.');
    if (variant === 'pawnee') {
      const overProtected = d.must.length && d.pool.length && d.pool.every((c) => isPawneePoint(c, v.trump));
      lines.push(overProtected
        ? 'Over 6 protected cards: the extra point cards you choose are shown and count for no one (PW-DIS-3).'
        : 'The called card and trump point cards are protected; other trumps go only when non-trumps run short (PW-DIS-2).');
    } else if (burn) {
      lines.push('Burned cards are shown. A point card burns only with all your other trumps (TP-TR-5).');
    }
  }
  for (const l of lines) box.append(h('p', { class: 'hint', text: l }));
  const n = st.chosen.size + st.must.size;
  const ok = st.pass ? st.chosen.size >= 1 && st.chosen.size <= st.limit : st.chosen.size === st.limit;
  $('#actions').dataset.remaining = String(st.limit - st.chosen.size);
  const row = $('#hand-actions');
  row.append(h('span', { class: 'count', 'aria-live': 'polite', text: st.pass ? 'Chosen ' + st.chosen.size + ' (1 to ' + st.limit + ')' : 'Selected ' + n + ' of ' + d.count }));
  const chosen = () => Array.from(st.must).concat(Array.from(st.chosen));
  if (st.pass) {
    row.append(actionButton('Pass ' + st.chosen.size + ' to ' + nameOf(partner), 'pass-confirm', () => send({ seat: m.seat, pass_trumps: chosen() }),
      { cls: 'primary', disabled: !ok, data: { confirm: 'pass' } }));
  } else {
    row.append(actionButton((burn ? 'Burn ' : 'Discard ') + (d.count === 1 ? 'this card' : ok ? 'these ' + d.count : d.count + ' cards'), 'discard-confirm',
      () => send({ seat: m.seat, discard: chosen() }), { cls: 'primary', disabled: !ok, data: { confirm: 'discard' } }));
  }
  row.append(actionButton('Clear', 'clear', () => { app.chosen = new Set(); render(); }, { disabled: st.chosen.size === 0 }));
  row.children[1].id = st.pass ? 'pass-confirm' : 'discard-confirm';
}

// ---------- the hand ----------

function renderHand(m, act) {
  const v = m.view, variant = m.table.variant;
  const box = $('#hand');
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  $('#hand-area').hidden = m.seat < 0;
  box.classList.toggle('busy', app.pending || !!app.show);
  box.classList.toggle('choosing', act === 'play' || act === 'discard');
  const widow = new Set(v.bidder === m.seat ? v.widow : []);
  const plays = new Set(act === 'play' ? m.legal.map((a) => a.play) : []);
  const st = act === 'discard' ? discardState(m) : null;
  const nodes = [];
  for (const c of sortHand(v.hand, v.trump, variant)) {
    const trump = isTrump(c, v.trump, variant);
    const o = { button: true, trump, cls: '', tags: [] };
    const notes = [];
    if (widow.has(c) && v.phase !== 'play') { o.tags.push('widow'); notes.push('from the widow'); }
    if (m.view.called === c) notes.push('the called card');
    let can = false;
    if (act === 'play') {
      can = plays.has(c);
      if (!can) o.title = (m.refusals && m.refusals[c]) || 'Not playable now';
    } else if (st) {
      if (st.must.has(c)) {
        o.cls += ' must sel';
        o.pressed = true;
        if (!st.pass) { o.tags.push('must'); notes.push('must go'); }
        o.title = 'This card must go';
      } else if (st.pool.has(c)) {
        const picked = st.chosen.has(c);
        o.pressed = picked;
        if (picked) o.cls += ' sel';
        can = picked || st.chosen.size < st.limit;
        if (!can) o.title = 'You have chosen enough: unselect one first';
      } else {
        o.title = discardReason(m, c);
        notes.push('may not go');
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
  box.setAttribute('aria-label', 'Your hand, ' + v.hand.length + ' cards' + (act === 'play' ? ': choose a card to play' : act === 'discard' ? ': choose the cards to ' + (st.pass ? 'pass' : m.discard.kind) : ''));
  let again = focused ? box.querySelector('[data-card="' + focused + '"]') : null;
  if (again) again.focus();
  fixTabStop(box);
  if (focused && !again) {
    // The focused card was played or thrown: keep the focus in the hand.
    again = box.querySelector('[data-rove][tabindex="0"]');
    if (again) again.focus({ preventScroll: true });
  }
}

function discardReason(m, c) {
  const v = m.view;
  if (m.table.variant === 'pawnee') {
    if (c === v.called) return 'The called card is protected';
    if (isPawneePoint(c, v.trump)) return 'A trump point card is protected';
    return 'Trumps may go only when you have too few non-trumps';
  }
  return 'Point cards burn only with all your other trumps';
}

function onCard(c, act) {
  const m = app.m;
  if (!m || app.pending || app.show) return;
  if (act === 'play') {
    const a = m.legal.find((x) => x.play === c);
    if (a) { showRefusal(''); send(a); return; }
    // Not playable: say why, in the engine's words.
    const why = m.refusals && m.refusals[c];
    showRefusal(why ? capital(why) + '.' : cardLabel(c) + ' may not be played now.');
    return;
  }
  if (act === 'discard') {
    const st = discardState(m);
    if (st.must.has(c)) { showRefusal(cardLabel(c) + ' must go: it is already chosen.'); return; }
    if (!st.pool.has(c)) { showRefusal(discardReason(m, c) + '.'); return; }
    showRefusal('');
    if (app.chosen.has(c)) app.chosen.delete(c);
    else if (app.chosen.size < st.limit) app.chosen.add(c);
    else { showRefusal('You have chosen enough: unselect one first.'); return; }
    render();
  }
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---------- the side panels ----------

function renderSheet(m) {
  const n = m.table.seats.length;
  const t = $('#sheet');
  const head = h('tr', {}, h('th', { scope: 'col', text: '#' }), h('th', { scope: 'col', text: 'Bid' }),
    ...Array.from({ length: n }, (_, i) => h('th', { scope: 'col', class: i === m.seat ? 'me' : '', title: nameOf(i) }, shortName(i, 5))));
  const rows = m.sheet.map((r) => h('tr', { class: r.made ? 'made' : 'set' },
    h('th', { scope: 'row', text: String(r.hand) }),
    h('td', { title: nameOf(r.bidder) + (r.made ? ' made ' : ' was set on ') + r.bid },
      r.bid + ' #' + r.bidder, h('span', { class: r.made ? 'ok' : 'bad', text: r.made ? '✓' : '✗' }),
      h('span', { class: 'sr-only', text: r.made ? ' made' : ' set' })),
    ...r.scores.map((s, i) => h('td', { class: i === m.seat ? 'me' : '' }, h('span', { class: 'sc', text: String(s) }), ' ',
      h('span', { class: 'delta ' + (r.delta[i] > 0 ? 'up' : r.delta[i] < 0 ? 'down' : ''), text: '(' + (r.delta[i] > 0 ? '+' : '') + r.delta[i] + ')' })))));
  const cap = h('caption', { class: 'hint', text: m.sheet.length ? 'Score after each hand, the change below it. Bid: the bid and the bidder’s seat.' : 'No hand finished yet.' });
  t.replaceChildren(cap, h('thead', {}, head), h('tbody', {}, rows));
}

function shortName(i, len) {
  len = len || 8;
  const n = seatName(i);
  return n.length > len ? n.slice(0, len - 1) + '…' : n;
}

function renderLastTrick(m) {
  const v = m.view;
  const box = $('#last-trick');
  if (!v.last_trick.length) { box.replaceChildren(h('p', { class: 'hint', text: 'None yet this hand.' })); return; }
  box.replaceChildren(h('div', { class: 'mini-row' }, v.last_trick.map((tc) =>
    h('div', { class: 'mini' + (tc.seat === v.last_winner ? ' won' : '') },
      cardNode(tc.card, { trump: isTrump(tc.card, v.trump, m.table.variant), cls: 'small', note: 'played by ' + nameOf(tc.seat) }),
      h('span', { class: 'mini-name', text: shortName(tc.seat) })))),
  h('p', { class: 'hint', text: 'Taken by ' + nameOf(v.last_winner) + '.' }));
}

function renderOut(m) {
  const v = m.view;
  const parts = [];
  if (v.shown.length) {
    parts.push(h('p', { class: 'hint', text: m.table.variant === 'ten-point' ? 'Burned (face up):' : 'Discarded trumps (face up):' }),
      h('div', { class: 'mini-row' }, v.shown.map((c) => cardNode(c, { cls: 'small', trump: isTrump(c, v.trump, m.table.variant) }))));
  }
  if (v.out.length) {
    parts.push(h('p', { class: 'hint', text: 'Your cards out of play:' }),
      h('div', { class: 'mini-row' }, v.out.map((c) => cardNode(c, { cls: 'small', trump: isTrump(c, v.trump, m.table.variant) }))));
  }
  $('#out-panel').hidden = parts.length === 0;
  $('#out').replaceChildren(...parts);
}

function renderLog(m) {
  const log = $('#log');
  const items = m.log.map((e) => h('li', { class: e.by ? 'by-table' : '', dataset: { by: e.by || '' }, text: describe(e) }));
  if (!items.length) items.push(h('li', { class: 'hint empty', text: 'Nothing yet.' }));
  log.replaceChildren(...items);
  log.scrollTop = log.scrollHeight;
}

function renderChat() {
  const m = app.m;
  const panel = $('#chat-panel');
  panel.hidden = !m || m.seat < 0;
  if (panel.hidden) return;
  const list = $('#chat-list');
  const items = app.chat.map((c) => h('li', {}, h('strong', { text: (c.seat === m.seat ? 'You' : (c.name || seatName(c.seat))) + ': ' }), h('span', { text: c.text })));
  if (!items.length) items.push(h('li', { class: 'hint empty', text: 'Say hello to the table.' }));
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

async function renderRecords(m) {
  const n = m.sheet.length;
  if (n === app.recordsFor) return;
  app.recordsFor = n;
  const list = $('#records');
  if (n === 0) { list.replaceChildren(h('li', { class: 'hint empty', text: 'None yet.' })); return; }
  try {
    const hands = await api('GET', '/api/tables/' + encodeURIComponent(app.id) + '/hands');
    list.replaceChildren(...hands.map((x) => h('li', {}, h('a', { href: x.url, download: 'pitch-' + app.id + '-hand-' + x.hand + '.json' }, 'Hand ' + x.hand))));
  } catch (e) {
    app.recordsFor = -1;
  }
}

// ---------- the end of a hand ----------

function handHeadline(lh) {
  const moon = lh.bid === 10 && app.m.table.variant !== 'auction';
  return 'Hand ' + lh.hand + ': ' + nameOf(lh.bidder) + (lh.made ? ' made ' : ' was set on ') + lh.bid + (moon ? ' (moon)' : '');
}

function showSummary(lh) {
  const m = app.m;
  const n = m.table.seats.length;
  const variant = m.table.variant;
  const body = $('#summary-body');
  setText($('#summary-h'), handHeadline(lh));
  const parts = [];
  const trump = SUITS[lh.trump];
  const facts = ['Trump: ' + (trump ? trump.sym + ' ' + trump.name : 'none')];
  if (variant === 'pawnee') facts.push(lh.partner == null ? 'The bidder played alone' : 'Partner: ' + nameOf(lh.partner));
  if (lh.teams && lh.teams.length && (variant !== 'auction' || isTeamGame())) {
    facts.push('Sides: ' + lh.teams.map((t) => t.map(seatName).join(' & ')).join(' against '));
  }
  parts.push(h('p', { text: facts.join(' · ') }));
  if (lh.tricks != null && lh.tricks < 6) {
    parts.push(h('p', { class: 'ended', text: 'The hand ended after ' + lh.tricks + (lh.tricks === 1 ? ' trick' : ' tricks') + ': nobody held a trump any more.' }));
  }

  const pts = lh.points.length ? lh.points.map((p) => h('tr', {},
    h('th', { scope: 'row', text: POINT_NAMES[p.kind] || p.kind }),
    h('td', { text: p.card ? cardText(p.card) : '' }),
    h('td', { text: nameOf(p.seat) }))) : [h('tr', {}, h('td', { colspan: '3', text: 'No points were scored.' }))];
  parts.push(h('table', { class: 'points' },
    h('caption', { text: 'Points by category' }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Point' }), h('th', { scope: 'col', text: 'Card' }), h('th', { scope: 'col', text: 'Taken by' }))),
    h('tbody', {}, pts)));

  const rows = [];
  for (let i = 0; i < n; i++) {
    const d = lh.delta[i];
    rows.push(h('tr', { class: i === lh.bidder ? 'bidder' : '' },
      h('th', { scope: 'row', text: nameOf(i) }),
      h('td', { text: String(lh.taken[i]) }),
      h('td', { class: d > 0 ? 'up' : d < 0 ? 'down' : '', text: (d > 0 ? '+' : '') + d }),
      h('td', { text: String(lh.scores[i]) })));
  }
  parts.push(h('table', { class: 'totals' },
    h('caption', { text: 'Scores' }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Player' }), h('th', { scope: 'col', text: 'Side took' }),
      h('th', { scope: 'col', text: 'Change' }), h('th', { scope: 'col', text: 'Score' }))),
    h('tbody', {}, rows)));
  if (lh.winner && lh.winner.length) {
    parts.push(h('p', { class: 'winner', text: lh.winner.map(nameOf).join(' & ') + (lh.winner.length > 1 ? ' win' : ' wins') + ' the match!' }));
  }
  body.replaceChildren(...parts);
  $('#summary-record').href = '/api/tables/' + encodeURIComponent(app.id) + '/hands/' + lh.hand;
  const dlg = $('#summary');
  if (!dlg.open) {
    if (typeof dlg.showModal === 'function') dlg.showModal(); else dlg.setAttribute('open', '');
  }
  $('#summary-close').focus();
}
