// The server's states, played out: the queue of states from the server,
// shown one step at a time (every card flies in, a finished trick is held
// and gathered to its winner), and what each new state tells the player
// (the live region, notices, the turn tone).

import { $, store, setText } from '../util.js';
import { onFairState } from '../fairpanel.js';
import { t } from '../i18n.js';
import { app, reducedMotion, sleep, pace, seenKey, describeVerb, describe, isMyTurn } from './state.js';
import { sendMsg, follow } from './connection.js';
import { render } from './render.js';
import { sayReady, endOfHand, readingFrom } from './endhand.js';
import { turnCame, onNewest } from './alert.js';

// ---------- pacing: the server's states, played out ----------

// onState queues a state from the server. The queue is played out one
// step at a time, so that every card played is seen and a finished trick
// stays on the table for a moment; the server never waits for it.
export function onState(m) {
  onFairState(app.id, m, sendMsg); // this page's random value for a new deal, at once
  app.latest = m;
  app.latestAt = performance.now();
  onNewest(m); // a turn in a hidden tab is told at once
  readingFrom(m);
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
  // This person started the next match (on another page): go there. The
  // others are invited instead (invite.js).
  if (m.next_table && m.seat >= 0 && m.next_by === m.seat && !app.followed) {
    app.followed = true;
    follow(m.next_table, m.next_by == null ? -1 : m.next_by);
    return;
  }
  if (m === app.latest) app.pending = false;
  for (const e of fresh) announce(describe(e));
  tellAway(m, fresh);
  render();
  if (isMyTurn(m) && !(prev && isMyTurn(prev) && prev.seq === m.seq)) turnCame(m);
  if (app.moved && !m.ended) { notice(app.moved); app.moved = ''; }
  // The last hand's summary has been read (or this page shows none): say
  // ready once a connection, so that the server waits for this seat no
  // longer, nor holds its clock after the wait's bound.
  const lh = m.last_hand;
  if (!m.ended && !m.match_over && lh && m.seat >= 0 && lh.hand <= app.seenHand && !$('#summary').open && app.readySent !== lh.hand) sayReady(lh.hand);
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

// announce says a move to screen readers (the live region).
function announce(text) {
  if (!text) return;
  const r = $('#announce');
  r.textContent = text;
}

// notice shows a short message that is not an error.
let noticeTimer = 0;
export function notice(text) {
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
