// A table: the connection, the state the server sends, and what it shows.

import { SUITS, SUIT_ORDER, cardLabel, cardText, isTrump, isPawneePoint, sortHand, gameName, POINT_NAMES, PHASE_VERBS, $, h, store, api, showError, hideError, setText, roving, fixTabStop, cardNode } from './util.js';

// ---------- a table ----------

const app = {
  id: '', token: '', saved: null, ws: null, attempt: 0, retryTimer: 0,
  m: null, pending: false, picked: '', chosen: new Set(), discardKey: '', passMode: false,
  seenHand: null, recordsFor: -1, watch: false, status: '', restarting: false,
};

function seatKey() { return 'pitch.seat.' + app.id; }
function seenKey() { return 'pitch.seen.' + app.id; }

function loadSeat() {
  try { app.saved = JSON.parse(store.get(seatKey())); } catch (e) { app.saved = null; }
  app.token = app.saved && app.saved.token ? app.saved.token : '';
}
function forgetSeat() { store.del(seatKey()); app.saved = null; app.token = ''; }

export async function initTable(id) {
  app.id = id;
  $('#table-view').hidden = false;
  $('#invite').value = location.origin + '/t/' + id;
  app.watch = new URLSearchParams(location.search).has('watch');
  loadSeat();
  $('#join-name').value = store.get('pitch.name') || '';

  $('#copy').addEventListener('click', copyInvite);
  $('#join-form').addEventListener('submit', join);
  $('#show-join').addEventListener('click', () => { app.watch = false; render(); $('#join-name').focus(); });
  $('#summary-close').addEventListener('click', () => $('#summary').close());
  $('#show-last').addEventListener('click', () => { if (app.m && app.m.last_hand) showSummary(app.m.last_hand); });
  roving($('#hand'), 0);
  window.addEventListener('online', () => { if (!app.ws) reconnectNow(); });
  document.addEventListener('visibilitychange', () => { if (!document.hidden && !app.ws) reconnectNow(); });

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
      onState(msg);
    } else if (msg.type === 'error') {
      app.pending = false;
      showError(msg.message);
      render();
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

function send(action) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    showError('Not connected: your move was not sent. Reconnecting…');
    return;
  }
  app.pending = true;
  app.ws.send(JSON.stringify({ type: 'action', action }));
  render();
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

function onState(m) {
  const prev = app.m;
  app.m = m;
  app.pending = false;
  if (!prev || prev.seq !== m.seq || prev.view.turn !== m.view.turn) {
    // A new decision: forget choices made for an old one.
    const key = m.discard ? m.seq + ':' + m.view.turn : '';
    if (key !== app.discardKey) { app.discardKey = key; app.chosen = new Set(); app.passMode = false; }
    if (m.view.phase !== 'call') app.picked = '';
  }
  if (app.seenHand === null) {
    const stored = Number(store.get(seenKey()));
    app.seenHand = stored > 0 ? stored : (m.last_hand ? m.last_hand.hand : 0);
  }
  render();
  if (m.last_hand && m.last_hand.hand > app.seenHand) {
    app.seenHand = m.last_hand.hand;
    store.set(seenKey(), String(app.seenHand));
    showSummary(m.last_hand);
  }
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

function describe(e) {
  const a = e.action;
  const who = nameOf(e.seat);
  if (!a) return e.text.replace(/^seat \d+/, who);
  if ('bid' in a) return who + ' bids ' + a.bid + (a.bid === 10 && app.m.table.variant !== 'auction' ? ' (the moon)' : '');
  if ('pass' in a) return who + ' passes';
  if ('call' in a) return who + ' calls ' + cardText(a.call);
  if ('trump' in a) return who + ' names trump ' + SUITS[a.trump].sym + ' ' + SUITS[a.trump].name;
  if ('give_stock' in a) return who + (a.give_stock ? ' gives the stock to the partner' : ' keeps the stock');
  if ('pass_trumps' in a) return who + ' passes ' + a.pass_trumps.map(cardText).join(' ') + ' to the partner';
  if ('discard' in a) {
    const verb = app.m.table.variant === 'ten-point' ? ' burns ' : ' discards ';
    return who + verb + a.discard.map(cardText).join(' ');
  }
  if ('play' in a) return who + ' plays ' + cardText(a.play);
  return e.text;
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
  const act = myAction(m);
  const tv = $('#table-view');
  Object.assign(tv.dataset, {
    phase: v.phase, act, seq: String(m.seq), hand: String(m.hand_no), rows: String(m.sheet.length), seat: String(m.seat),
    turn: String(v.turn), over: String(m.match_over), pending: String(app.pending),
  });
  const opts = m.table.options || {};
  setText($('#t-title'), gameName(m.table.variant) + ' · target ' + opts.target + ' · hand ' + m.hand_no);
  document.title = (act ? '(Your turn) ' : '') + 'Pitch: ' + gameName(m.table.variant);

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
  $('#show-last').hidden = !m.last_hand;
  renderStatus(m, act);
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
  items.push(['Dealer', nameOf(v.dealer)]);
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
  if (m.table.turn_timer) items.push(['Turn timer', m.table.turn_timer + ' s']);
  const box = $('#table-info');
  box.replaceChildren(...items.map(([k, val, cls]) =>
    h('span', { class: 'info-item' }, h('span', { class: 'info-k', text: k + ': ' }), h('span', { class: 'info-v ' + (cls || ''), text: val }))));
}

function renderFelt(m) {
  const v = m.view, n = m.table.seats.length;
  const base = m.seat >= 0 ? m.seat : 0;
  const rel = (i) => (i - base + n) % n;
  const felt = $('#felt');
  felt.className = 'felt n' + n;
  const seats = [];
  for (let i = 0; i < n; i++) {
    const s = m.table.seats[i];
    const badges = [];
    if (v.dealer === i) badges.push(h('span', { class: 'badge dealer', title: 'Dealer' }, 'Dealer'));
    if (v.bidder === i) badges.push(h('span', { class: 'badge bidder' }, (v.phase === 'bid' ? 'High ' : 'Bid ') + v.bid));
    if (v.partner_known && v.partner === i && i !== v.bidder) badges.push(h('span', { class: 'badge partner' }, 'Partner'));
    if (v.phase === 'bid' && v.passed.includes(i)) badges.push(h('span', { class: 'badge passed' }, 'Passed'));
    if (isTeamGame()) badges.push(h('span', { class: 'badge team' }, i % 2 === 0 ? 'Team A' : 'Team B'));
    if (m.away && m.away[i]) badges.push(h('span', { class: 'badge away', title: 'Away: a bot plays for them' }, 'Away'));
    if (s.kind === 'human' && !s.taken) badges.push(h('span', { class: 'badge free' }, 'Free seat'));
    const turn = v.turn === i && !m.match_over && !m.waiting;
    const score = 'Score ' + v.scores[i];
    const held = v.counts[i] + (v.counts[i] === 1 ? ' card' : ' cards') +
      (v.phase === 'play' || v.tricks > 0 ? ' · ' + v.trick_wins[i] + (v.trick_wins[i] === 1 ? ' trick' : ' tricks') : '');
    const stats = score + ' · ' + held;
    const label = nameOf(i) + ', seat ' + i + (s.kind === 'bot' ? ', bot ' + s.level : '') + '. ' + stats +
      (badges.length ? '. ' + badges.map((b) => b.textContent).join(', ') : '') + (turn ? '. To act.' : '');
    seats.push(h('div', { class: 'seat r' + rel(i) + (turn ? ' turn' : '') + (i === m.seat ? ' me' : ''), role: 'group', 'aria-label': label, dataset: { seat: i } },
      h('div', { class: 's-name' }, h('span', { class: 's-num', text: i }), ' ', seatName(i), i === m.seat ? h('span', { class: 'you', text: ' (you)' }) : null,
        s.kind === 'bot' ? h('span', { class: 'bot', text: ' · ' + s.level }) : null),
      h('div', { class: 's-badges' }, badges),
      h('div', { class: 's-stats' }, h('span', { text: score }), ' · ', h('span', { text: held })),
      turn ? h('div', { class: 's-turn', 'aria-hidden': 'true', text: i === m.seat ? 'Your turn' : 'To ' + (PHASE_VERBS[v.phase] || 'act') } ) : null));
  }
  $('#seats').replaceChildren(...seats);

  const trick = $('#trick');
  let cards = v.trick, faded = false;
  if (!cards.length && v.phase === 'play' && v.last_trick.length) { cards = v.last_trick; faded = true; }
  const trumpOf = (c) => isTrump(c, v.trump, m.table.variant);
  trick.replaceChildren(...cards.map((tc) => {
    const node = cardNode(tc.card, { trump: trumpOf(tc.card), note: 'played by ' + nameOf(tc.seat) });
    node.classList.add('tcard', 'r' + rel(tc.seat));
    if (faded) node.classList.add('faded');
    return node;
  }));
  if (faded) trick.append(h('span', { class: 'trick-note', text: 'Last trick: ' + nameOf(v.last_winner) }));
  trick.setAttribute('aria-label', faded ? 'The last trick, taken by ' + nameOf(v.last_winner) : 'The current trick');
}

function renderStatus(m, act) {
  const v = m.view;
  let text;
  if (m.match_over) text = 'The match is over.';
  else if (m.waiting) text = 'Waiting for players to join.';
  else if (app.pending) text = 'Sending…';
  else if (act) text = 'Your turn: ' + (act === 'discard' ? (m.discard.kind === 'burn' ? 'burn trumps' : 'discard') : PHASE_VERBS[v.phase] || act) + '.';
  else if (v.turn >= 0) text = 'Waiting for ' + nameOf(v.turn) + ' to ' + (PHASE_VERBS[v.phase] || 'act') + '.';
  else text = '';
  if (text !== app.status) { app.status = text; setText($('#status'), text); }
  $('#status').className = 'status' + (act ? ' mine' : '');
}

// ---------- the action panel ----------

function renderActions(m, act) {
  const box = $('#actions');
  const focusKey = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  box.replaceChildren();
  delete box.dataset.remaining;
  box.className = 'actions' + (app.pending ? ' busy' : '') + (act ? ' mine' : '');
  const v = m.view;
  if (m.match_over) {
    box.append(h('p', {}, 'The match is over. ', h('a', { href: '/' }, 'Start a new one'), '.'));
  } else if (m.waiting) {
    box.append(h('p', { text: 'Play starts when every person’s seat is taken.' }));
  } else if (m.seat < 0) {
    box.append(h('p', { text: 'You are watching: you see what every player may see, but no hand.' }));
  } else if (!act) {
    box.append(h('p', { class: 'wait', text: v.turn >= 0 ? 'Waiting for ' + nameOf(v.turn) + ' to ' + (PHASE_VERBS[v.phase] || 'act') + '…' : '' }));
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
  if (focusKey) {
    const again = box.querySelector('[data-key="' + focusKey + '"]');
    if (again) again.focus();
  }
}

function actionButton(text, key, onclick, o) {
  o = o || {};
  return h('button', {
    type: 'button', class: o.cls || '', dataset: Object.assign({ key }, o.data || {}), onclick,
    disabled: o.disabled || app.pending, 'aria-label': o.label || null, title: o.title || null,
  }, text);
}

function renderBid(box, m) {
  const v = m.view, variant = m.table.variant;
  const rules = {
    pawnee: 'Bids run 5 to 10 (10 is the moon); each bid tops the last, and a pass is final. A seat below 0 may not bid 10.',
    'ten-point': 'Bid 4 to 9, or 10 to shoot the moon (you must then take all ten points). Each bid tops the last.',
    auction: 'Bid 1 to 4 (4 is a pitch and ends the bidding). The dealer may steal by matching the high bid.',
  }[variant];
  box.append(h('h2', { text: 'Your bid' }),
    h('p', { class: 'hint', text: (v.bidder >= 0 ? 'High bid: ' + v.bid + ' by ' + nameOf(v.bidder) + '. ' : 'No bid yet. ') + rules }));
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

function renderCall(box, m) {
  const opts = m.table.options || {};
  const legal = new Set(m.legal.map((a) => a.call));
  const mine = new Set(m.view.hand);
  box.append(h('h2', { text: 'Call a card' }),
    h('p', { class: 'hint' },
      'Name any card but a joker. Its suit becomes trump, and whoever holds it becomes your secret partner; ' +
      'nobody else knows who until it is played (its holder leads it to the first trick). If it lies in the widow, you play alone. ' +
      (opts.call_own_card === false ? 'At this table you may not call a card from your own hand.' : 'You may call a card from your own hand: then you play alone.') +
      ' After the call you take the widow, and everyone discards down to 6. Shaded cards are in your hand.'));
  const grid = h('div', { id: 'call-picker', class: 'picker', role: 'group', 'aria-label': 'The 52 cards: pick one to call' });
  for (const s of SUIT_ORDER) {
    for (const r of 'AKQJT98765432') {
      const c = r + s;
      const allowed = legal.has(c);
      const note = (mine.has(c) ? 'in your hand' : '') + (allowed ? '' : (mine.has(c) ? ', ' : '') + 'may not be called');
      const node = cardNode(c, {
        button: true, cls: 'small' + (allowed ? ' can' : '') + (mine.has(c) ? ' mine' : '') + (app.picked === c ? ' sel' : ''),
        pressed: app.picked === c, disabled: !allowed, note: note || null,
        title: mine.has(c) ? 'In your hand' : null,
      });
      node.addEventListener('click', () => {
        if (!allowed || app.pending) return;
        app.picked = c;
        render();
        const again = $('#call-picker [data-card="' + c + '"]');
        if (again) again.focus();
      });
      grid.append(node);
    }
  }
  roving(grid, 13);
  box.append(grid);
  fixTabStop(grid);
  const p = app.picked;
  let info = 'Pick a card above.';
  if (p) {
    const t = p[1];
    const held = m.view.hand.filter((c) => isTrump(c, t, 'pawnee')).length;
    info = cardLabel(p) + ': trump would be ' + SUITS[t].name + ' ' + SUITS[t].sym + '; you hold ' + held + (held === 1 ? ' trump' : ' trumps') + ' in that suit' +
      (mine.has(p) ? '. It is in your hand, so you would play alone.' : '.');
  }
  box.append(h('p', { class: 'call-info', 'aria-live': 'polite', text: info }),
    actionButton(p ? 'Call ' + cardText(p) : 'Call', 'call', () => send({ seat: m.seat, call: p }),
      { cls: 'primary', disabled: !p, data: { confirm: 'call' } }));
  box.lastChild.id = 'call-confirm';
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
    rule = v.trick.length ? 'Follow the suit led or play a trump; with none of the suit led, play anything.' : (v.trump ? 'Lead any card.' : 'Lead any card: its suit becomes trump.');
  } else {
    rule = v.tricks === 0 && !v.trick.length && variant === 'pawnee' ? 'You hold the called card: lead it.' : 'Play a trump.';
  }
  box.append(h('h2', { text: v.trick.length ? 'Your play' : 'Your lead' }),
    h('p', { class: 'hint', text: rule + ' The cards you may play are raised; choose one with a click, or with the arrow keys and Enter.' }));
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
    lines.push('Choose 1 to ' + d.pass_limit + ' trumps to pass to ' + nameOf(partner) + ' (your partner holds fewer than 6). Passing is optional; if you still hold more than 6 you burn next.');
  } else {
    lines.push((burn ? 'You hold ' + v.hand.length + ' trumps: burn ' : 'You hold ' + v.hand.length + ' cards: discard ') + d.count + ' to keep 6.');
    if (d.must.length) lines.push((d.must.length === 1 ? 'This card must go' : 'These ' + d.must.length + ' must go') + ' (marked “must”): ' + d.must.map(cardText).join(' ') + '.');
    if (d.choose > 0) lines.push('Choose ' + d.choose + (d.must.length ? ' more' : '') + ' from the raised cards' + (d.must.length ? ': ' + d.pool.map(cardText).join(' ') : '') + '.');
    if (variant === 'pawnee') {
      const overProtected = d.must.length && d.pool.length && d.pool.every((c) => isPawneePoint(c, v.trump));
      lines.push(overProtected
        ? 'You hold more than 6 protected cards: all the others go, plus point cards of your choice (never the called card). Those are shown to all and count for no one (PW-DIS-3).'
        : 'Non-trumps may always go. The called card and the trump point cards (J, off-jack, jokers, 10, 3) are protected; other trumps may go only when you have too few non-trumps (PW-DIS-2).');
    } else if (burn) {
      lines.push('Burned cards are shown to everyone. A point card (A, J, off-jack, jokers, 10, 3, 2) may be burned only together with all your other trumps (TP-TR-5).');
    }
  }
  for (const l of lines) box.append(h('p', { class: 'hint', text: l }));
  if (!st.pass) box.append(h('p', { class: 'rule' }, 'Rule: ', h('code', { text: d.rule })));
  const n = st.chosen.size + st.must.size;
  const need = st.pass ? null : d.count;
  const ok = st.pass ? st.chosen.size >= 1 && st.chosen.size <= st.limit : st.chosen.size === st.limit;
  box.dataset.remaining = String(st.pass ? st.limit - st.chosen.size : st.limit - st.chosen.size);
  box.append(h('p', { class: 'count', 'aria-live': 'polite', text: st.pass ? 'Chosen: ' + st.chosen.size + ' (1 to ' + st.limit + ')' : 'Selected ' + n + ' of ' + need }));
  const row = h('div', { class: 'btn-row' });
  const chosen = () => Array.from(st.must).concat(Array.from(st.chosen));
  if (st.pass) {
    row.append(actionButton('Pass ' + st.chosen.size + ' to ' + nameOf(partner), 'pass-confirm', () => send({ seat: m.seat, pass_trumps: chosen() }),
      { cls: 'primary', disabled: !ok, data: { confirm: 'pass' } }));
  } else {
    row.append(actionButton((burn ? 'Burn ' : 'Discard ') + (d.count === 1 ? 'this card' : ok ? 'these ' + d.count : d.count + ' cards'), 'discard-confirm',
      () => send({ seat: m.seat, discard: chosen() }), { cls: 'primary', disabled: !ok, data: { confirm: 'discard' } }));
  }
  row.append(actionButton('Clear', 'clear', () => { app.chosen = new Set(); render(); }, { disabled: st.chosen.size === 0 }));
  row.firstChild.id = st.pass ? 'pass-confirm' : 'discard-confirm';
  box.append(row);
}

// ---------- the hand ----------

function renderHand(m, act) {
  const v = m.view, variant = m.table.variant;
  const box = $('#hand');
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  $('#hand-area').hidden = m.seat < 0;
  box.classList.toggle('busy', app.pending);
  box.classList.toggle('choosing', act === 'play' || act === 'discard');
  const widow = new Set(v.bidder === m.seat ? v.widow : []);
  const plays = new Set(act === 'play' ? m.legal.map((a) => a.play) : []);
  const st = act === 'discard' ? discardState(m) : null;
  const nodes = [];
  for (const c of sortHand(v.hand, v.trump, variant)) {
    const trump = isTrump(c, v.trump, variant);
    const o = { button: true, trump, cls: '' };
    const notes = [];
    if (widow.has(c) && v.phase !== 'play') { o.cls += ' widow'; notes.push('from the widow'); }
    if (m.view.called === c) notes.push('the called card');
    let can = false;
    if (act === 'play') {
      can = plays.has(c);
      if (!can) o.title = variant === 'auction' ? 'You must follow suit or trump' : 'Not playable now';
    } else if (st) {
      if (st.must.has(c)) {
        o.cls += ' must sel';
        o.pressed = true;
        notes.push(st.pass ? '' : 'must go');
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
  if (!m || app.pending) return;
  if (act === 'play') {
    const a = m.legal.find((x) => x.play === c);
    if (a) send(a);
    return;
  }
  if (act === 'discard') {
    const st = discardState(m);
    if (st.must.has(c) || !st.pool.has(c)) return;
    if (app.chosen.has(c)) app.chosen.delete(c);
    else if (app.chosen.size < st.limit) app.chosen.add(c);
    else return;
    render();
  }
}

// ---------- the side panels ----------

function renderSheet(m) {
  const n = m.table.seats.length;
  const t = $('#sheet');
  const head = h('tr', {}, h('th', { scope: 'col', text: 'Hand' }), h('th', { scope: 'col', text: 'Bid' }),
    ...Array.from({ length: n }, (_, i) => h('th', { scope: 'col', class: i === m.seat ? 'me' : '', title: nameOf(i) }, seatName(i))));
  const rows = m.sheet.map((r) => h('tr', { class: r.made ? 'made' : 'set' },
    h('th', { scope: 'row', text: String(r.hand) }),
    h('td', { title: nameOf(r.bidder) + (r.made ? ' made ' : ' was set on ') + r.bid },
      r.bid + ' ' + shortName(r.bidder) + ' ', h('span', { class: r.made ? 'ok' : 'bad', text: r.made ? '✓' : '✗' }),
      h('span', { class: 'sr-only', text: r.made ? ' made' : ' set' })),
    ...r.scores.map((s, i) => h('td', { class: i === m.seat ? 'me' : '' }, String(s), ' ',
      h('span', { class: 'delta ' + (r.delta[i] > 0 ? 'up' : r.delta[i] < 0 ? 'down' : ''), text: '(' + (r.delta[i] > 0 ? '+' : '') + r.delta[i] + ')' })))));
  const cap = h('caption', { class: 'hint', text: m.sheet.length ? 'Scores after each hand, the change in brackets.' : 'No hand finished yet.' });
  t.replaceChildren(cap, h('thead', {}, head), h('tbody', {}, rows));
}

function shortName(i) {
  const n = seatName(i);
  return n.length > 8 ? n.slice(0, 7) + '…' : n;
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
  const items = m.log.map((e) => h('li', { text: describe(e) }));
  if (!items.length) items.push(h('li', { class: 'hint empty', text: 'Nothing yet.' }));
  log.replaceChildren(...items);
  log.scrollTop = log.scrollHeight;
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

function showSummary(lh) {
  const m = app.m;
  const n = m.table.seats.length;
  const variant = m.table.variant;
  const body = $('#summary-body');
  const moon = lh.bid === 10 && variant !== 'auction';
  setText($('#summary-h'), 'Hand ' + lh.hand + ': ' + nameOf(lh.bidder) + (lh.made ? ' made ' : ' was set on ') + lh.bid + (moon ? ' (moon)' : ''));
  const parts = [];
  const trump = SUITS[lh.trump];
  const facts = ['Trump: ' + (trump ? trump.sym + ' ' + trump.name : 'none')];
  if (variant === 'pawnee') facts.push(lh.partner == null ? 'The bidder played alone' : 'Partner: ' + nameOf(lh.partner));
  if (lh.teams && lh.teams.length && (variant !== 'auction' || isTeamGame())) {
    facts.push('Sides: ' + lh.teams.map((t) => t.map(seatName).join(' & ')).join(' against '));
  }
  parts.push(h('p', { text: facts.join(' · ') }));

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
