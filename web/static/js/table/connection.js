// The table's connection: the WebSocket (and its reconnections), sending
// messages and moves, the invite link, joining a seat, and moving on to
// the next match with the same seats.

import { $, store, api, showError, hideError, setText, errorText } from '../util.js';
import { t } from '../i18n.js';
import { app, seatKey, forgetSeat, seatName } from './state.js';
import { onState } from './pacing.js';
import { render } from './render.js';
import { renderChat } from './panels.js';
import { OPS, PROTOCOL, applyDelta } from './statedelta.js';

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
export function connect() {
  clearTimeout(app.retryTimer);
  const ws = new WebSocket(wsURL());
  app.ws = ws;
  setConn('connecting');
  ws.onopen = () => {
    app.justConnected = true;
    app.held = null; // a new connection starts from a whole state
    app.resyncing = false;
    app.readySent = 0; // a new connection: say ready again (pacing.js)
    // summary: this page shows each hand's summary and says when it is
    // closed, so that the table waits for it (see sayReady).
    // protocol 2: after the whole state, only what changed (statedelta.js).
    const hello = { type: 'hello', summary: true, fair: true, protocol: PROTOCOL, ops: OPS }; // fair: it sends a random value for each commitment (fairpanel.js)
    if (app.token) hello.token = app.token;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => {
    if (ws !== app.ws) return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === 'delta') {
      // What changed since the state held; out of step (a delta from
      // another version), the page asks for the whole state again.
      const next = applyDelta(app.held, msg);
      if (!next) {
        app.held = null;
        if (!app.resyncing && ws.readyState === WebSocket.OPEN) { // once, until the whole state comes
          app.resyncing = true;
          ws.send(JSON.stringify({ type: 'resync' }));
        }
        return;
      }
      msg = next;
    }
    if (msg.type === 'state') {
      app.held = msg;
      app.resyncing = false;
      msg = Object.assign({}, msg); // the page's own marks (fresh) stay out of what is held
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
    } else if ((ev.code === 1013 || ev.code === 1008) && ev.reason && !/token/i.test(ev.reason)) {
      // a limit, or a table hidden until its round is over: say which (it
      // is tried again, and opens once the round is over)
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

export function reconnectNow() {
  const old = app.ws;
  app.ws = null;
  if (old) old.close();
  app.attempt = 0;
  connect();
}

export function sendMsg(msg) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    showError(t('conn.notSent'));
    return false;
  }
  app.ws.send(JSON.stringify(msg));
  return true;
}

export function send(action) {
  if (!sendMsg({ type: 'action', action })) return;
  app.pending = true;
  app.focusNext = true;
  app.hint = null;
  render();
}

export async function copyInvite() {
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

export async function join(ev) {
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

// playAgain asks the server for a new match with the same seats, and goes
// there; the others are invited to it (invite.js). Once another person
// has started it, the same request accepts their invitation.
export async function playAgain() {
  const m = app.m;
  let by = m ? m.seat : -1;
  if (m && m.next_table) by = m.next_by == null ? -1 : m.next_by;
  try {
    const res = await api('POST', '/api/tables/' + encodeURIComponent(app.id) + '/rematch', { token: app.token });
    follow(res.id, by);
  } catch (e) {
    showError(t('again.err', { Why: e.message }));
  }
}

// follow moves to the next match of this table, keeping this browser's
// seat; the new table's page says who started it (by: a seat, or -1 when
// the server does not say).
export function follow(id, by) {
  if (app.saved) store.set('pitch.seat.' + id, JSON.stringify(app.saved));
  const m = app.m;
  let text = t('again.startedNone');
  if (m && by === m.seat && by >= 0) text = t('again.startedYou');
  else if (m && by >= 0) text = t('again.started', { Who: seatName(by) });
  try { sessionStorage.setItem('pitch.moved.' + id, text); } catch (e) { /* no storage: no notice */ }
  location.assign('/t/' + encodeURIComponent(id) + (app.m && app.m.seat < 0 ? '?watch=1' : ''));
}
