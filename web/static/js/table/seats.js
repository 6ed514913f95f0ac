// The felt: the seat boxes round its edge and the trick on it, placed by
// the geometry of ../felt.js, and the turn countdown in the seat boxes.

import { levelName, seatNo, $, h, setText, cardNode } from '../util.js';
import { t } from '../i18n.js';
import { layoutFelt, feltHeight } from '../felt.js';
import { app, seatName, nameOf, isTeamGame } from './state.js';
import { seatBadges, showLeave } from '../playnow.js';

// ---------- the felt ----------

// relSeat is where seat i sits round the table counted from the player
// (who sits at the bottom, 0; the others clockwise, C-1).
function relSeat(m, i) {
  const n = m.table.seats.length;
  return (i - (m.seat >= 0 ? m.seat : 0) + n) % n;
}

export function renderFelt(m) {
  const v = m.view, n = m.table.seats.length;
  const felt = $('#felt');
  felt.className = 'felt n' + n;
  // A crowded table (6 or 7 seats) lays the page out otherwise on a wide
  // screen: the felt the whole width, the move panel beside the hand.
  felt.closest('.play-area').classList.toggle('crowded', n >= 6);
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
    badges.push(...seatBadges(s)); // play now: taken over from a bot, or a takeover pending
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
    h('div', { class: 's-name', title: nameOf(i) + (s.kind === 'bot' ? ' · ' + levelName(s.level) : '') + (s.account ? ' · ' + t('seat.account') : '') },
      h('span', { class: 's-num', text: seatNo(i) }), ' ', seatName(i), i === m.seat ? h('span', { class: 'you', text: ' ' + t('seat.youMark') }) : null),
    h('div', { class: 's-stats', title: stats }, h('span', { text: t('seat.points', { Count: scores[i] }) }), ' · ', h('span', { text: held })),
    badges.length || turn ? h('div', { class: 's-badges' }, badges,
      turn && m.timer && m.timer.seat === i ? h('span', { class: 'badge countdown', role: 'timer' }) : null) : null));
  }
  $('#seats').replaceChildren(...seats);
  showLeave(m);

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
  // The note's line stays when it says nothing (style.css): the felt and
  // the move panel below it do not move as tricks come and go.
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
export function placeSeats() {
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

// timeLeft is what is left of the turn timer of the newest state, in ms,
// or null when no timer runs.
function timeLeft() {
  const t = app.latest && app.latest.timer;
  if (!t || app.m !== app.latest || !app.online) return null;
  return Math.max(0, t.left_ms - (performance.now() - app.latestAt));
}

// tick updates the turn countdown four times a second.
export function tick() {
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
