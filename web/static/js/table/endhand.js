// The end of a hand: its summary (headline, points, scores, the fair-deal
// verdict), opened for players once its last trick has been held, and
// saying ready to the server when it has been read.

import { SUITS, suitName, cardText, POINT_KEYS, $, h, store, setText } from '../util.js';
import { summaryFair } from '../fairpanel.js';
import { t, num } from '../i18n.js';
import { app, seenKey, nameOf, nameAt, isTeamGame, isMoon, myAction, signed } from './state.js';
import { notice } from './pacing.js';
import { focusNext } from './render.js';
import { renderSummaryInvite } from './invite.js';

// ---------- the end of a hand ----------

// sayReady tells the server that this person has closed the summary of
// hand n, so that play goes on (the server waits for it, up to a bound).
export function sayReady(n) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) {
    app.ws.send(JSON.stringify({ type: 'ready', hand: n }));
    app.readySent = n;
  }
}

// readingFrom follows the newest state's wait for this seat's summary:
// while the table waits for it, the moment the wait ends (reading_left_ms
// from the state's arrival: no clocks compared); once the table waits no
// longer, the summary that showed the countdown closes (summaryTick).
export function readingFrom(m) {
  const lh = m.last_hand;
  if (m.seat >= 0 && lh && m.reading && m.reading.includes(m.seat) && m.reading_left_ms > 0) {
    app.readBy = { hand: lh.hand, at: performance.now() + m.reading_left_ms };
  } else if (app.readBy) {
    app.readBy.at = 0;
  }
  summaryTick();
}

// summaryTick shows, on a summary that opened by itself, how long is left
// before the table goes on ("Next hand in 12 s"), and closes it when that
// has run out, so that the person sees the table and their own turn timer
// (closing it says ready: the server starts this seat's clock then).
export function summaryTick() {
  const dlg = $('#summary'), line = $('#summary-next');
  const rb = app.readBy;
  if (!rb || !dlg.open || !app.summaryAuto || app.summaryHand !== rb.hand) {
    line.hidden = true;
    return;
  }
  const left = rb.at - performance.now();
  if (left <= 0) {
    app.readBy = null;
    line.hidden = true;
    dlg.close();
    return;
  }
  setText(line, t('summary.nextIn', { Count: Math.ceil(left / 1000) }));
  line.hidden = false;
}

// summaryClosed: the person has read the summary. Play goes on, and the
// focus goes to the table's controls (never to the page's body).
export function summaryClosed() {
  const m = app.m;
  if (!m) return;
  if (m.last_hand) sayReady(m.last_hand.hand);
  if (!app.show) focusNext(myAction(m));
}

// endOfHand opens the hand's summary for players; spectators get a line
// they may open it from.
export function endOfHand(m) {
  const lh = m.last_hand;
  if (!lh || lh.hand <= app.seenHand) return;
  app.seenHand = lh.hand;
  store.set(seenKey(), String(app.seenHand));
  if (m.seat >= 0) showSummary(lh);
  else notice(handHeadline(lh));
}

function handHeadline(lh) {
  const moon = isMoon(lh.bid);
  const result = t(lh.made ? (moon ? 'result.madeMoon' : 'result.made') : (moon ? 'result.setMoon' : 'result.set'), { Who: nameAt(lh.bidder, lh.hand), Bid: lh.bid });
  return t('summary.headline', { N: lh.hand, Result: result });
}

// showSummary opens the summary of finished hand lh: by itself at the end
// of a hand, or when the person asks (manual: the score sheet's "Last
// hand"), which shows no countdown and never closes by itself.
export function showSummary(lh, manual) {
  const m = app.m;
  app.summaryHand = lh.hand;
  app.summaryAuto = !manual;
  // The wait ended before the summary could open (a page shown late): it
  // stays open, and the server holds this seat's clock until it closes.
  if (!manual && app.readBy && app.readBy.hand === lh.hand && app.readBy.at <= performance.now()) app.readBy = null;
  const n = m.table.seats.length;
  const variant = m.table.variant;
  const body = $('#summary-body');
  setText($('#summary-h'), handHeadline(lh));
  const parts = [];
  const trump = SUITS[lh.trump];
  const facts = [t('summary.trump', { Suit: trump ? trump.sym + ' ' + suitName(lh.trump) : t('summary.noTrump') })];
  if (variant === 'pawnee') facts.push(lh.partner == null ? t('summary.alone') : t('summary.partner', { Who: nameAt(lh.partner, lh.hand) }));
  if (lh.teams && lh.teams.length && (variant !== 'auction' || isTeamGame())) {
    facts.push(t('summary.sides', { Sides: lh.teams.map((side) => side.map((i) => nameAt(i, lh.hand)).join(' & ')).join(' ' + t('summary.against') + ' ') }));
  }
  parts.push(h('p', { text: facts.join(' · ') }));
  if (lh.tricks != null && lh.tricks < 6) {
    parts.push(h('p', { class: 'ended', text: t('summary.early', { Count: lh.tricks }) }));
  }

  const pts = lh.points.length ? lh.points.map((p) => h('tr', {},
    h('th', { scope: 'row', text: t(POINT_KEYS[p.kind] || p.kind) }),
    h('td', { text: p.card ? cardText(p.card) : '' }),
    h('td', { text: nameAt(p.seat, lh.hand) }))) : [h('tr', {}, h('td', { colspan: '3', text: t('summary.noPoints') }))];
  parts.push(h('table', { class: 'points' },
    h('caption', { text: t('summary.points') }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('summary.point') }), h('th', { scope: 'col', text: t('summary.card') }), h('th', { scope: 'col', text: t('summary.takenBy') }))),
    h('tbody', {}, pts)));

  const rows = [];
  for (let i = 0; i < n; i++) {
    const d = lh.delta[i];
    rows.push(h('tr', { class: i === lh.bidder ? 'bidder' : '' },
      h('th', { scope: 'row', text: nameAt(i, lh.hand) }),
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
  // Hidden until the round is over (the server says when): no links.
  $('#summary-record').hidden = $('#summary-replay').hidden = !!m.table.records_hidden;
  summaryFair($('#summary-fair'), m, app.id, lh.hand, app.token); // checked here, not taken on trust; or not provable
  renderSummaryInvite(m);
  const dlg = $('#summary');
  if (!dlg.open) {
    if (typeof dlg.showModal === 'function') dlg.showModal(); else dlg.setAttribute('open', '');
  }
  summaryTick();
  $('#summary-close').focus();
}
