// A table: the connection, the states the server sends (played out at a
// pace people can follow), and what they show. The server decides
// everything; these modules only draw the state they are sent and send
// the player's choices. This one opens the page (initTable); the rest is
// in table/: state.js the page's state, the pace and the words for seats
// and moves; connection.js the WebSocket, joining and the next match;
// pacing.js the queue of states played out, and notices; render.js
// render() and the banner, facts and status; seats.js the felt (seat
// boxes, the trick, the countdown); controls.js the action panel and the
// hand; panels.js the score sheet, the side panels and the chat;
// endhand.js a hand's summary (and its countdown to the next hand);
// invite.js the invitation to a next match another person started;
// alert.js the turn told in a hidden tab (title, icon, vibration) and the
// sound button.

import { gameName, $, h, store, api, showError, roving } from './util.js';
import { translate as translateFair } from './fairpanel.js';
import { t } from './i18n.js';
import { whoami } from './account.js';
import { app, speed, loadSeat } from './table/state.js';
import { connect, reconnectNow, copyInvite, join } from './table/connection.js';
import { render, setHeading } from './table/render.js';
import { placeSeats, tick } from './table/seats.js';
import { sendChat } from './table/panels.js';
import { summaryClosed, showSummary, summaryTick } from './table/endhand.js';
import { initSound } from './table/alert.js';
import { initLeave } from './playnow.js';

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
  initLeave(id, () => app.token); // play now: the seat back to a bot
  $('#join-form').addEventListener('submit', join);
  $('#show-join').addEventListener('click', () => { app.watch = false; render(); $('#join-name').focus(); });
  $('#summary-close').addEventListener('click', () => $('#summary').close());
  $('#summary').addEventListener('close', summaryClosed);
  $('#show-last').addEventListener('click', () => { if (app.m && app.m.last_hand) showSummary(app.m.last_hand, true); });
  const sp = $('#speed');
  sp.value = speed();
  sp.addEventListener('change', () => store.set('pitch.speed', sp.value));
  initSound();
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
  setInterval(() => { tick(); summaryTick(); }, 250);

  try {
    const info = await api('GET', '/api/tables/' + encodeURIComponent(id));
    setHeading(gameName(info.variant) + (info.deals ? '' : ' · ' + t('table.target', { Target: info.options && info.options.target })), '');
  } catch (e) {
    setHeading(t('table.none'), '');
    showError(t('table.err.open', { Why: e.message }));
    $('#main').append(h('p', { class: 'panel' }, h('a', { href: '/' }, t('table.backToLobby'))));
    return;
  }
  connect();
}

