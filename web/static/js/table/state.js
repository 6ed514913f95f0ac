// The table's state: what the page holds (app: the state on screen, the
// newest the server sent, the queue of states still to play out, the
// player's choices in progress), the pace of play, this browser's seat at
// the table (kept in localStorage), and the words for seats and moves.

import { SUITS, suitName, cardText, seatLabel, store } from '../util.js';
import { t, num } from '../i18n.js';
import { holderAt } from '../playnow.js';

// ---------- state ----------

// app holds the page's state. m is the state on screen; latest the newest
// the server sent (they differ while queued states are played out).
export const app = {
  id: '', token: '', saved: null, ws: null, attempt: 0, retryTimer: 0,
  m: null, latest: null, latestAt: 0, queue: [], playing: false, show: null,
  pending: false, picked: '', pickSuit: '', chosen: new Set(), discardKey: '', passMode: false,
  seenHand: null, recordsFor: -1, watch: false, status: '', restarting: false,
  focusNext: false, hint: null, chat: [], justConnected: false, followed: false, online: false,
  // The end of a hand (endhand.js): when the table stops waiting for this
  // seat's summary ({hand, at}: performance.now() time, 0 once over), the
  // summary on screen (its hand, and whether it opened by itself), and
  // the last hand this connection said ready for.
  readBy: null, summaryHand: 0, summaryAuto: false, readySent: 0,
  // The next match (invite.js): this person chose to stay here for now.
  stayed: false,
  // held: the newest state as the server sent it, with its version v,
  // to which its deltas apply (protocol 2, statedelta.js); resyncing:
  // the whole state was asked for, after a delta that did not apply.
  held: null, resyncing: false,
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
export const speed = () => (PACE[store.get('pitch.speed')] ? store.get('pitch.speed') : 'normal');
export const reducedMotion = () => !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function pace() {
  // A long queue (a slow device, a tab in the background) catches up fast.
  return app.queue.length > 4 ? PACE.fast : PACE[speed()];
}

export function seatKey() { return 'pitch.seat.' + app.id; }
export function seenKey() { return 'pitch.seen.' + app.id; }

export function loadSeat() {
  try { app.saved = JSON.parse(store.get(seatKey())); } catch (e) { app.saved = null; }
  app.token = app.saved && app.saved.token ? app.saved.token : '';
}
export function forgetSeat() { store.del(seatKey()); app.saved = null; app.token = ''; }

// ---------- naming seats ----------

export function seatName(i) {
  return seatLabel(app.m && app.m.table.seats[i], i);
}
export function nameOf(i) { return app.m && i === app.m.seat ? t('seat.you', { Name: seatName(i) }) : seatName(i); }
// nameAt names seat i as held in hand n: a play-now seat that changed
// hands names who held it then (the server's holders), else as nameOf.
export function nameAt(i, n) {
  const held = holderAt(app.m && app.m.table.seats[i], i, n);
  return held === seatName(i) ? nameOf(i) : held;
}
// isTeamGame: partnerships are fixed for the match (the server sends
// each seat's team).
export function isTeamGame() {
  return !!(app.m.table.teams && app.m.table.teams.length);
}

// isMoon: the server names the bid that is the moon (none in auction).
export function isMoon(bid) {
  return !!app.m.table.moon && bid === app.m.table.moon;
}

// describeVerb is an action without its actor: "plays 10♦".
// It is also the move the table made for an absent player.
export function describeVerb(e) {
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
export function describe(e) {
  const line = t('move.line', { Who: nameOf(e.seat), Move: describeVerb(e) });
  if (e.by === 'timer') return t('move.byTimer', { Line: line });
  if (e.by === 'stand-in') return t('move.byStandIn', { Line: line });
  return line;
}

// myAction says what the server asks of this seat now: "" for nothing.
export function myAction(m) {
  if (!m || m.match_over || m.seat < 0 || m.view.turn !== m.seat) return '';
  if (m.discard) return 'discard';
  if (!m.legal || !m.legal.length) return '';
  const k = Object.keys(m.legal[0]).find((x) => x !== 'seat');
  return k === 'pass' ? 'bid' : k;
}

export function isMyTurn(m) { return myAction(m) !== ''; }

export const signed = (n) => (n > 0 ? '+' : '') + num(n);
