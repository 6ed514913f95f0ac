// Cards, the games, and small DOM helpers shared by the lobby and the table.

// ---------- cards ----------

export const SUITS = {
  C: { name: 'clubs', sym: '♣', red: false },
  D: { name: 'diamonds', sym: '♦', red: true },
  H: { name: 'hearts', sym: '♥', red: true },
  S: { name: 'spades', sym: '♠', red: false },
};
export const SUIT_ORDER = ['S', 'H', 'C', 'D']; // colours alternate in a sorted hand
export const RANKS = '23456789TJQKA';
export const RANK_NAMES = {
  2: 'Two', 3: 'Three', 4: 'Four', 5: 'Five', 6: 'Six', 7: 'Seven', 8: 'Eight', 9: 'Nine',
  T: 'Ten', J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace',
};
export const OTHER_SAME_COLOUR = { C: 'S', S: 'C', D: 'H', H: 'D' };

export const isJoker = (c) => c === 'BJ' || c === 'LJ';
export const suitOf = (c) => (isJoker(c) ? null : c[1]);
export const rankShown = (c) => (c[0] === 'T' ? '10' : c[0]);

export function cardLabel(c) {
  if (c === 'BJ') return 'Big joker';
  if (c === 'LJ') return 'Little joker';
  return RANK_NAMES[c[0]] + ' of ' + SUITS[c[1]].name;
}

// cardText is a card in running text: "10♥", "J♠", "Big joker".
export function cardText(c) {
  if (isJoker(c)) return c === 'BJ' ? 'Big joker' : 'Little joker';
  return rankShown(c) + SUITS[c[1]].sym;
}

// isTrump: C-4, C-5 (jokers and the off-jack are trumps outside auction).
export function isTrump(c, trump, variant) {
  if (!trump) return false;
  if (isJoker(c)) return variant !== 'auction';
  if (c[1] === trump) return true;
  return variant !== 'auction' && c[0] === 'J' && c[1] === OTHER_SAME_COLOUR[trump];
}

// trumpStrength orders trumps as in C-5: A K Q J offJ BJ LJ T 9 … 2.
export function trumpStrength(c, trump) {
  if (c === 'BJ') return 8.5;
  if (c === 'LJ') return 8.4;
  if (c[0] === 'J') return c[1] === trump ? 8.7 : 8.6;
  return RANKS.indexOf(c[0]);
}

// isPawneePoint: a protected pawnee point card (PW-PT-1, PW-DIS-2).
export function isPawneePoint(c, trump) {
  if (isJoker(c)) return true;
  if (c[0] === 'J') return c[1] === trump || c[1] === OTHER_SAME_COLOUR[trump];
  return c[1] === trump && (c[0] === 'T' || c[0] === '3');
}

export function sortHand(cards, trump, variant) {
  const key = (c) => {
    if (isTrump(c, trump, variant)) return [0, -trumpStrength(c, trump)];
    if (isJoker(c)) return [1, c === 'BJ' ? 0 : 1];
    return [2 + SUIT_ORDER.indexOf(c[1]), -RANKS.indexOf(c[0])];
  };
  return cards.slice().sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

// ---------- the games ----------

export const GAMES = {
  pawnee: {
    name: 'Pawnee', seats: 5, target: 42,
    desc: 'Five players, ten cards each and a widow of four. The top bidder (5 to 10) calls a card: its suit is trump and whoever holds it is the secret partner. If all others pass, the dealer must bid exactly 5. A bidder who makes the bid and reaches 42 wins.',
    rules: [
      { key: 'call_own_card', label: 'The bidder may call a card from their own hand (and so plays alone)', def: true },
      { key: 'pawnee_score_tricks', label: 'Sides add the tricks they took instead of their points', def: false },
      { key: 'pawnee_fail_bidder_only', label: 'A failed bid costs only the bidder, not the partner', def: true },
    ],
  },
  'ten-point': {
    name: '10 Point Pitch', seats: 4, target: 52,
    desc: 'Four players in two teams (seats 0 and 2 against 1 and 3). Bid 4 to 9, or 10 to shoot the moon (if all others pass, the dealer must bid exactly 4); the pitcher names trump; only trumps are played.',
    rules: [],
  },
  auction: {
    name: 'Auction Pitch', seats: 4, target: 7,
    desc: 'Six cards each; bid 1 to 4 for High, Low, Jack and Game. The pitcher’s first card sets trump. The dealer may steal a bid.',
    rules: [
      { key: 'players', label: 'Players', type: 'players', def: 4 },
      { key: 'partnerships', label: 'Partnerships (4 or 6 players: seats 0, 2, 4 against 1, 3, 5)', def: false },
      { key: 'low_to_holder', label: 'Low scores for the player dealt it, not the taker', def: false },
    ],
  },
};
export const gameName = (v) => (GAMES[v] ? GAMES[v].name : v);

export const POINT_NAMES = {
  high: 'High', low: 'Low', jack: 'Jack', off_jack: 'Off-jack', game: 'Game', big_joker: 'Big joker',
  little_joker: 'Little joker', ten: 'Ten', three: 'Three (3 points)', two: 'Two', ace: 'Ace',
};
export const PHASE_VERBS = {
  bid: 'bid', call: 'call a card', trump: 'name trump', give_stock: 'decide about the stock',
  pass_burn: 'pass or burn trumps', discard: 'discard', play: 'play', done: '',
};

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

export const store = {
  get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  del(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
  keys() { try { return Object.keys(localStorage); } catch (e) { return []; } },
};

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
    throw new Error('The server cannot be reached. Check your connection and try again.');
  }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) throw new Error((data && data.error) || res.status + ' ' + res.statusText);
  return data;
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

// cardNode draws a card: a button when the player may choose it.
// o: {button, trump, cls, note, pressed, disabled, title, tags}: tags are
// short labels drawn inside the card ("widow", "must").
export function cardNode(c, o) {
  o = o || {};
  const joker = isJoker(c);
  const red = joker ? c === 'BJ' : SUITS[c[1]].red;
  let cls = 'card ' + (red ? 'red' : 'black');
  if (joker) cls += ' joker';
  if (o.trump) cls += ' trump';
  if (o.cls) cls += ' ' + o.cls;
  let label = cardLabel(c);
  if (o.trump) label += ', trump';
  if (o.note) label += ', ' + o.note;
  const kids = [
    h('span', { class: 'c-corner', 'aria-hidden': 'true' },
      h('span', { class: 'c-rank', text: joker ? '★' : rankShown(c) }),
      h('span', { class: 'c-suit', text: joker ? '' : SUITS[c[1]].sym })),
    h('span', { class: 'c-pip', 'aria-hidden': 'true', text: joker ? (c === 'BJ' ? 'BIG JOKER' : 'LITTLE JOKER') : SUITS[c[1]].sym }),
  ];
  if (o.trump) kids.push(h('span', { class: 'c-tag', 'aria-hidden': 'true' }, h('span', { class: 'wide', text: 'trump' }), h('span', { class: 'narrow', text: '★' })));
  for (const t of o.tags || []) kids.push(h('span', { class: 'c-label ' + t, 'aria-hidden': 'true', text: t }));
  if (o.button) {
    return h('button', {
      type: 'button', class: cls, 'aria-label': label, dataset: { card: c, rove: '' },
      'aria-pressed': o.pressed == null ? null : String(!!o.pressed),
      'aria-disabled': o.disabled ? 'true' : null, title: o.title || null, tabindex: '-1',
    }, kids);
  }
  return h('span', { class: cls, role: 'img', 'aria-label': label, dataset: { card: c }, title: o.title || null }, kids);
}
