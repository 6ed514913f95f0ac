// Cards, the games, and small DOM helpers shared by the lobby and the table.

import { t, has, num } from './i18n.js';

// ---------- cards ----------

// SUITS: each suit's symbol and colour; its name is a message
// (suitName), as are the ranks' (RANK_KEYS).
export const SUITS = {
  C: { key: 'suit.C', sym: '♣', red: false },
  D: { key: 'suit.D', sym: '♦', red: true },
  H: { key: 'suit.H', sym: '♥', red: true },
  S: { key: 'suit.S', sym: '♠', red: false },
};
export const suitName = (s) => t(SUITS[s].key);
export const RANK_KEYS = {
  2: 'rank.2', 3: 'rank.3', 4: 'rank.4', 5: 'rank.5', 6: 'rank.6', 7: 'rank.7', 8: 'rank.8', 9: 'rank.9',
  T: 'rank.T', J: 'rank.J', Q: 'rank.Q', K: 'rank.K', A: 'rank.A',
};

export const isJoker = (c) => c === 'BJ' || c === 'LJ';
export const suitOf = (c) => (isJoker(c) ? null : c[1]);
export const rankShown = (c) => (c[0] === 'T' ? '10' : c[0]);

// cardLabel is a card's full name in the page's language: "the queen of
// spades", "la dama di picche", "スペードのクイーン".
export function cardLabel(c) {
  if (c === 'BJ') return t('card.bigJoker');
  if (c === 'LJ') return t('card.littleJoker');
  return t('card.name', { Rank: t(RANK_KEYS[c[0]]), Suit: suitName(c[1]) });
}

// cardText is a card in running text: "10♥", "J♠", or a joker's name.
export function cardText(c) {
  if (isJoker(c)) return cardLabel(c);
  return rankShown(c) + SUITS[c[1]].sym;
}

// ---------- the games ----------

// GAMES: each game's seats, default target and house rules; their words
// are messages (name, desc, label).
export const GAMES = {
  pawnee: {
    name: 'game.pawnee', seats: 5, target: 42, desc: 'game.pawnee.desc',
    rules: [
      { key: 'call_own_card', label: 'opt.call_own_card', def: true },
      { key: 'pawnee_score_tricks', label: 'opt.pawnee_score_tricks', def: false },
      { key: 'pawnee_fail_bidder_only', label: 'opt.pawnee_fail_bidder_only', def: true },
    ],
  },
  'ten-point': {
    name: 'game.ten-point', seats: 4, target: 52, desc: 'game.ten-point.desc',
    rules: [],
  },
  auction: {
    name: 'game.auction', seats: 4, target: 7, desc: 'game.auction.desc',
    rules: [
      { key: 'players', label: 'opt.players', type: 'players', def: 4 },
      { key: 'partnerships', label: 'opt.partnerships', def: false },
      { key: 'low_to_holder', label: 'opt.low_to_holder', def: false },
    ],
  },
};
export const gameName = (v) => (GAMES[v] ? t(GAMES[v].name) : v);

export const POINT_KEYS = {
  high: 'point.high', low: 'point.low', jack: 'point.jack', off_jack: 'point.off_jack', game: 'point.game',
  big_joker: 'point.big_joker', little_joker: 'point.little_joker', ten: 'point.ten', three: 'point.three',
  two: 'point.two', ace: 'point.ace',
};
export const PHASE_KEYS = {
  bid: 'phase.bid', call: 'phase.call', trump: 'phase.trump', give_stock: 'phase.give_stock',
  pass_burn: 'phase.pass_burn', discard: 'phase.discard', play: 'phase.play', done: 'phase.done',
};
export const phaseVerb = (p) => t(PHASE_KEYS[p] || 'phase.act');
// seatNo is a seat's number as people read it, from 1 (the protocol and
// the records count seats from 0).
export const seatNo = (i) => i + 1;

// botName is the name of a table's K-th bot, "Bot K", as every page
// calls it (the server numbers them: a table's seats' bot, an event's
// seats' bot_no); a bot with no number is just "bot".
export const botName = (k) => (k ? t('seat.bot', { N: k }) : t('event.bot'));

// seatLabel names seat i of a table (s: its entry in the table's seats):
// the player's name, "Bot K" for the table's K-th bot (the server numbers
// them), else "Seat N (free)".
export function seatLabel(s, i) {
  if (s && s.kind === 'bot' && s.bot) return botName(s.bot);
  if (s && s.name) return s.name;
  return t(s && s.kind === 'human' ? 'seat.free' : 'seat.n', { N: seatNo(i) });
}

export const LEVEL_KEYS = { easy: 'level.easy', medium: 'level.medium', hard: 'level.hard', expert: 'level.expert' };
export const levelName = (l) => (LEVEL_KEYS[l] ? t(LEVEL_KEYS[l]) : l);

// ---------- small helpers ----------

export const $ = (sel, root) => (root || document).querySelector(sel);

// h builds an element. Props: class, text, on<event>, dataset, and
// attributes (true for a bare attribute; null/false to leave out).
export function h(tag, props, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const kid of kids.flat()) {
    if (kid == null || kid === false) continue;
    e.append(kid instanceof Node ? kid : String(kid));
  }
  return e;
}

// listCell is a table cell that names its column (data-label, label a
// catalog key): a table marked .as-list shows each row as a card on a
// phone, each cell under its column's name (style.css).
export function listCell(label, props, ...kids) {
  return h('td', { ...props, dataset: { label: t(label) } }, ...kids);
}

export const store = {
  get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  del(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
  keys() { try { return Object.keys(localStorage); } catch (e) { return []; } },
};

// guestID is this browser's identity for a guest (one try each at the
// daily deals; the same seat again at play now): 32 random hexadecimal
// digits kept in localStorage.
export function guestID() {
  const GUEST = 'pitch.daily.guest';
  let id = store.get(GUEST);
  if (!id || !/^[0-9a-f]{32}$/.test(id)) {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    id = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    store.set(GUEST, id);
  }
  return id;
}

export async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new Error(t('err.unreachable'));
  }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) {
    const err = new Error(data ? errorText(data.code, data.params, data.error) : res.status + ' ' + res.statusText);
    err.code = data && data.code;
    throw err;
  }
  return data;
}

// errorText is a server error in the page's language: its code's message
// when the catalog has it (with its parameters), else the server's words.
export function errorText(code, params, message) {
  const id = 'err.' + code;
  if (code && has(id)) return t(id, localParams(params));
  return message || t('err.unknown');
}

// SEAT_PARAMS: an error's parameters that are seat numbers. The protocol
// counts seats from 0, people from 1 (docs/protocol.md, "Errors").
const SEAT_PARAMS = new Set(['Seat', 'Turn', 'Other']);

// localParams turns an error's parameters into words of the page's
// language: cards by name, lists joined, seats counted from 1.
function localParams(params) {
  const out = {};
  for (const [k, v] of Object.entries(params || {})) {
    if (SEAT_PARAMS.has(k) && Number.isInteger(v)) out[k] = v + 1;
    else if (Array.isArray(v)) out[k] = v.map((x) => (/^([2-9TJQKA][CDHS]|BJ|LJ)$/.test(x) ? cardText(x) : x)).join(', ');
    else if (typeof v === 'string' && /^([2-9TJQKA][CDHS]|BJ|LJ)$/.test(v)) out[k] = cardLabel(v);
    else if (typeof v === 'string' && /^[CDHS]$/.test(v) && k === 'Suit') out[k] = suitName(v);
    else out[k] = v;
  }
  return out;
}

export let alertTimer = 0;
export function showError(msg) {
  const box = $('#alert');
  $('#alert-text').textContent = msg;
  box.hidden = false;
  clearTimeout(alertTimer);
  alertTimer = setTimeout(hideError, 12000);
}
export function hideError() { $('#alert').hidden = true; }

export function setText(node, text) { if (node.textContent !== text) node.textContent = text; }

// roving makes a group of buttons one tab stop: the arrow keys, Home and
// End move between them (cols > 0: Up and Down move by a row).
export function roving(container, cols) {
  container.addEventListener('keydown', (ev) => {
    const items = Array.from(container.querySelectorAll('[data-rove]'));
    const i = items.indexOf(document.activeElement);
    if (i < 0) return;
    let j = i;
    switch (ev.key) {
      case 'ArrowRight': j = i + 1; break;
      case 'ArrowLeft': j = i - 1; break;
      case 'ArrowDown': j = cols ? i + cols : i + 1; break;
      case 'ArrowUp': j = cols ? i - cols : i - 1; break;
      case 'Home': j = 0; break;
      case 'End': j = items.length - 1; break;
      default: return;
    }
    ev.preventDefault();
    j = Math.max(0, Math.min(items.length - 1, j));
    items.forEach((it) => it.setAttribute('tabindex', '-1'));
    items[j].setAttribute('tabindex', '0');
    items[j].focus();
  });
}

// fixTabStop leaves exactly one item of a roving group in the tab order:
// the one that has the focus, else the first that can be used.
export function fixTabStop(container) {
  const items = Array.from(container.querySelectorAll('[data-rove]'));
  if (!items.length) return;
  let pick = items.find((it) => it === document.activeElement) ||
    items.find((it) => it.classList.contains('can')) || items[0];
  items.forEach((it) => it.setAttribute('tabindex', it === pick ? '0' : '-1'));
}

const TAG_KEYS = { widow: 'card.tag.widow', must: 'card.tag.must' };

// JOKER_STAR marks the jokers' faces: a full star for the big joker, an
// open one for the little, so that they differ in more than colour.
const JOKER_STAR = { BJ: '★', LJ: '☆' };

// cardNode draws a card: a button when the player may choose it.
// o: {button, trump, cls, note, pressed, disabled, title, tags}: tags are
// short labels drawn at the foot of the card ("widow", "must").
export function cardNode(c, o) {
  o = o || {};
  const joker = isJoker(c);
  const red = joker ? c === 'BJ' : SUITS[c[1]].red;
  let cls = 'card ' + (red ? 'red' : 'black');
  if (joker) cls += ' joker';
  if (o.trump) cls += ' trump';
  if (o.cls) cls += ' ' + o.cls;
  let label = cardLabel(c);
  if (o.trump) label += t('card.trumpNote');
  if (o.note) label += ', ' + o.note;
  const kids = [
    h('span', { class: 'c-corner', 'aria-hidden': 'true' },
      h('span', { class: 'c-rank', text: joker ? JOKER_STAR[c] : rankShown(c) }),
      h('span', { class: 'c-suit', text: joker ? '' : SUITS[c[1]].sym })),
    h('span', { class: 'c-pip', 'aria-hidden': 'true', text: joker ? cardLabel(c) : SUITS[c[1]].sym }),
  ];
  // Where a joker's name cannot be printed large enough to read (a phone,
  // a small card) its face shows its star instead (style.css).
  if (joker) kids.push(h('span', { class: 'c-jstar', 'aria-hidden': 'true', text: JOKER_STAR[c] }));
  if (o.trump) kids.push(h('span', { class: 'c-tag', 'aria-hidden': 'true' }, h('span', { class: 'wide', text: t('card.trumpTag') }), h('span', { class: 'narrow', text: '★' })));
  // The labels sit together along the card's foot, clear of its rank and
  // suit in the top corner, wrapping when a language's word is long.
  if (o.tags && o.tags.length) {
    kids.push(h('span', { class: 'c-labels', 'aria-hidden': 'true' },
      o.tags.map((tag) => h('span', { class: 'c-label ' + tag, text: t(TAG_KEYS[tag]) }))));
  }
  if (o.button) {
    return h('button', {
      type: 'button', class: cls, 'aria-label': label, dataset: { card: c, rove: '' },
      'aria-pressed': o.pressed == null ? null : String(!!o.pressed),
      'aria-disabled': o.disabled ? 'true' : null, title: o.title || null, tabindex: '-1',
    }, kids);
  }
  return h('span', { class: cls, role: 'img', 'aria-label': label, dataset: { card: c }, title: o.title || null }, kids);
}

// ---------- ratings (docs/ratings.md) ----------

// ratingText is a rating as shown: its number, with "?" while provisional.
export function ratingText(r) {
  return num(r.rating) + (r.provisional ? '?' : '');
}

// profileURL is the address of the profile of the account called name.
export const profileURL = (name) => '/u/' + encodeURIComponent(name);

// ratingNode is a rating as shown (ratingText), for the page: a
// provisional rating's "?" carries its meaning as a title (the page says
// it in words too: rating.provisionalKey).
export function ratingNode(r) {
  if (!r.provisional) return document.createTextNode(ratingText(r));
  return h('span', { class: 'rating-prov', title: t('rating.provisional') }, num(r.rating), h('abbr', { title: t('rating.provisional') }, '?'));
}

// changeText is a rating change with its sign: "+12", "−7", "±0".
export function changeText(c) {
  if (c > 0) return '+' + num(c);
  if (c < 0) return '−' + num(-c);
  return '±0';
}
