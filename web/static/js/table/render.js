// Drawing the table: render() puts the state on screen (app.m) by calling
// each part's drawing, and draws the parts of its own: the join form, the
// banner, the table's facts and the status line.

import {
  SUITS, suitName, cardText, gameName, phaseVerb, seatNo, $, h, setText, ratingText, changeText, profileURL,
} from '../util.js';
import { renderFair } from '../fairpanel.js';
import { matchItem } from '../playnow.js';
import { t } from '../i18n.js';
import { app, seatName, nameOf, isMoon, myAction } from './state.js';
import { renderFelt, tick } from './seats.js';
import { renderActions, renderHand } from './controls.js';
import { renderSheet, renderLastTrick, renderOut, renderLog, renderChat, renderRecords } from './panels.js';
import { setTitle } from './alert.js';
import { renderSummaryInvite } from './invite.js';

// ---------- rendering ----------

export function render() {
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
  // The table appears whole with the first state: nothing drawn empty
  // first and moved when the state fills it (style.css).
  tv.classList.add('ready');
  const opts = m.table.options || {};
  // A table dealing a duplicate round's deals (a daily deal) plays them
  // to the end whatever the target: its hand is the round's deal.
  setHeading(gameName(m.table.variant) + (m.table.deals ? '' : ' · ' + t('table.target', { Target: opts.target })),
    m.table.deals ? t('table.dealOf', { Deal: m.hand_no, Deals: m.table.deals }) : t('table.handNo', { N: m.hand_no }));
  setTitle(t(act ? 'title.yourTurn' : 'title.table', { Game: gameName(m.table.variant) }));

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
  renderSummaryInvite(m);
  $('#show-last').hidden = !m.last_hand;
  renderStatus(m, act);
  tick();
  if (app.focusNext && !app.pending && m === app.latest && !app.show) {
    app.focusNext = false;
    focusNext(act);
  } else if (!app.loadFocused && m === app.latest && !app.show) {
    // The page has just loaded: a decision of the player's waiting in
    // the move panel (a bid pending) takes the focus, so the keyboard
    // starts there. Cards to play or discard wait for the player.
    app.loadFocused = true;
    if (act && act !== 'play' && act !== 'discard') focusNext(act);
  }
}

// setHeading shows the table's title: game, the game and its target, which
// a narrow screen shortens (an ellipsis, the whole in its tooltip); hand,
// the hand's (or deal's) number, which stays whole and in view (style.css).
export function setHeading(game, hand) {
  const g = $('#t-game');
  setText(g, game);
  g.title = game;
  setText($('#t-hand'), hand || '');
}

// focusNext moves the focus, after the player's move, to the next thing
// they will want: the first control of a new decision, or the panel.
export function focusNext(act) {
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
  } else if (m.invited && m.invited.length) { // a new match waits for those invited to it
    text = t('again.waitingFor', { Who: m.invited.map(nameOf).join(', ') });
    cls += ' waiting';
  } else if (m.waiting) {
    const free = freeSeats(m).map((s) => t('seat.n', { N: seatNo(s.seat) }));
    text = t('banner.waiting', { Seats: free.join(', '), Count: free.length });
    cls += ' waiting';
  }
  b.hidden = !text;
  b.className = cls;
  setText(b, text);
  // A rated match, once rated: each signed-in seat's new rating and change.
  // Each line links to the player's profile; a provisional rating's "?"
  // is explained by the line's title and, in words, after the lines.
  const r = $('#rating-changes');
  const ratings = m.match_over && m.ratings ? m.ratings : [];
  // A rated table's match played unrated (docs/ratings.md): say why, all along.
  const UNRATED = { pair_limit: 'table.unrated.pair_limit' };
  const unrated = m.table.rated && UNRATED[m.table.unrated] ? t(UNRATED[m.table.unrated]) : '';
  r.hidden = !ratings.length && !unrated;
  const key = JSON.stringify([unrated, m.table.rated, ratings, m.seat]);
  if (r.dataset.key === key) return;
  r.dataset.key = key;
  if (unrated) { r.replaceChildren(unrated); return; }
  const lines = ratings.map((c) => {
    const seat = m.table.seats[c.seat] || {};
    const text = t('table.ratingChange', { Name: seatName(c.seat), Rating: ratingText(c), Change: changeText(c.change) });
    return [' ', seat.name ? h('a', { href: profileURL(seat.name), class: c.seat === m.seat ? 'mine' : null, title: c.provisional ? t('rating.provisional') : null }, text) : text];
  });
  r.replaceChildren(m.table.rated ? t('table.rated') + ':' : '', ...lines.flat(),
    ratings.some((c) => c.provisional) ? h('span', { class: 'rating-key', text: ' ' + t('rating.provisionalKey', { Mark: '?' }) }) : '');
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
  // The server says when the expert's help is off for a competition.
  if (m.table.advice_off === 'competition') items.push([t('info.advice'), t('info.adviceOff')]);
  const match = matchItem(m); // a play-now table says whether it is rated
  if (match) items.push(match);
  const box = $('#table-info');
  box.replaceChildren(...items.map(([k, val, cls]) =>
    h('span', { class: 'info-item' }, h('span', { class: 'info-k', text: t('info.label', { Label: k }) }), h('span', { class: 'info-v ' + (cls || ''), text: val }))));
}

function renderStatus(m, act) {
  const v = m.view;
  let text;
  const reading = (m.reading || []).filter((s) => s !== m.seat);
  if (!app.online) text = t('status.offline');
  else if (m.match_over) text = m.table.event ? t('event.tableOver') : t('status.over');
  else if (m.waiting) text = t('status.waiting');
  else if (m.paused) text = t('status.paused');
  else if (app.show) text = ''; // the trick's note by the felt says who takes it: not twice
  else if (app.pending) text = t('status.sending');
  else if (reading.length && !act) text = t('status.reading', { Who: reading.map(nameOf).join(', '), Count: reading.length });
  else if (act) text = t('status.yourTurn', { What: act === 'discard' ? t(m.discard.kind === 'burn' ? 'phase.burn' : 'phase.discard') : phaseVerb(v.phase) });
  else if (v.turn >= 0 && v.phase !== 'done') text = t('status.waitingFor', { Who: nameOf(v.turn), What: phaseVerb(v.phase) });
  else text = '';
  if (text !== app.status) { app.status = text; setText($('#status'), text); }
  $('#status').className = 'status' + (act ? ' mine' : '') + (app.online ? '' : ' offline');
}
