// Provably fair deals (docs/fairness.md), in the browser: this page's
// random value for each deal, the commitments on screen, and a verifier
// of finished hands that trusts nothing the server says about them. It
// recomputes, with Web Crypto, the SHA-256 of the revealed secret, the
// seed, the shuffle and the deal, and compares them with the hand record.
// It imports nothing, so that Node can run the same code in the tests.

// TEXT holds every string this module shows (English); a translation may
// replace them (Object.assign(TEXT, …)) before the table is drawn.
export const TEXT = {
  title: 'Fair deal',
  nextDeal: 'Next deal',
  commitment: 'commitment:',
  dealing: 'Shuffling: waiting for the players’ random values…',
  sent: 'Your random value is in.',
  thisHand: 'Hand in play',
  secret: 'Secret revealed:',
  copy: 'Copy',
  copied: 'Copied',
  verify: 'Verify',
  verifying: 'Verifying…',
  ok: '✓ Verified: this deal is the one the commitment and the players’ values fixed.',
  bad: '⚠ NOT VERIFIED: ',
  hands: 'Finished hands:',
  handN: 'Hand ',
  none: 'Nothing to verify yet.',
  cannot: 'The record could not be fetched: ',
};

// PROBLEMS are what the verifier may find wrong, with their parameters
// written {{.Name}}; a translation may replace them, like TEXT.
export const PROBLEMS = {
  noFairness: 'the record has no fairness object',
  algorithm: 'the algorithm is {{.Algorithm}} version {{.Version}}; this verifier knows {{.Known}} version {{.KnownVersion}}',
  noDeal: 'the record has no variant, dealer or hands to check',
  badSecret: 'the secret is not 64 hexadecimal digits',
  badCommitment: 'the commitment is not 64 hexadecimal digits',
  mismatch: 'the secret does not match the commitment: SHA-256 of the secret is {{.Hash}}, the commitment is {{.Commitment}}',
  shownOther: 'the commitment this page was shown before the deal ({{.Shown}}) is not the record’s ({{.Commitment}})',
  committedAt: 'committed_at is not a time',
  dealtAt: 'dealt_at is not a time',
  dealBefore: 'the deal is dated before the commitment was published',
  badSeat: 'a contribution is from seat {{.Seat}}; the seats are 0 to {{.Last}}',
  badTime: 'seat {{.Seat}}’s contribution time is not a time',
  early: 'seat {{.Seat}}’s contribution is dated before the commitment was published',
  late: 'seat {{.Seat}}’s contribution is dated after the deal',
  notMine: 'your random value ({{.Value}}) is not the one in the record',
  hand: 'seat {{.Seat}}’s hand: the record has {{.Got}}; the deal gives {{.Want}}',
  widow: 'the widow: the record has {{.Got}}; the deal gives {{.Want}}',
  stock: 'the stock, card {{.N}} from the top: the record has {{.Got}}, the deal gives {{.Want}}',
  undealt: 'the undealt cards: the record has {{.Got}}; the deal leaves {{.Want}}',
};

// say fills in problem key with p.
function say(key, p) {
  return PROBLEMS[key].replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k) => (p && k in p ? String(p[k]) : ''));
}

// ---------- the algorithm (docs/fairness.md) ----------

export const ALGORITHM = 'pitch-fair-sha256';
export const VERSION = 1;
const DOMAIN = 'pitch fair deal v1\u0000';

// GAMES gives each variant's hand size, dealing packet and whether the
// jokers are in the deck.
const GAMES = {
  auction: { hand: 6, packet: 3, jokers: false },
  'ten-point': { hand: 9, packet: 3, jokers: true },
  pawnee: { hand: 10, packet: 5, jokers: true },
};

// cardNumber is a card's number: suit×13 + rank (C, D, H, S; 2 … A), then
// BJ 52 and LJ 53; -1 for anything else.
export function cardNumber(s) {
  s = String(s).toUpperCase();
  if (s === 'BJ') return 52;
  if (s === 'LJ') return 53;
  if (s.length === 3 && s.startsWith('10')) s = 'T' + s[2];
  if (s.length !== 2) return -1;
  const r = '23456789TJQKA'.indexOf(s[0]), su = 'CDHS'.indexOf(s[1]);
  return r < 0 || su < 0 ? -1 : su * 13 + r;
}

// cardName writes a card number as the hand records do.
export function cardName(n) {
  if (n === 52) return 'BJ';
  if (n === 53) return 'LJ';
  return '23456789TJQKA'[n % 13] + 'CDHS'[Math.floor(n / 13)];
}

export function hexToBytes(h) {
  if (typeof h !== 'string' || !/^[0-9a-fA-F]{64}$/.test(h)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(h.substr(2 * i, 2), 16);
  return out;
}

export function bytesToHex(b) {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let k = 0;
  for (const p of parts) { out.set(p, k); k += p.length; }
  return out;
}

// fairSeed is SHA-256(DOMAIN, secret, then per contribution in seat order:
// its seat as a byte and its 32 bytes), or throws what is wrong.
export async function fairSeed(secretHex, contributions) {
  const secret = hexToBytes(secretHex);
  if (!secret) throw new Error('the secret is not 64 hexadecimal digits');
  const parts = [new TextEncoder().encode(DOMAIN), secret];
  const cs = (contributions || []).slice().sort((a, b) => a.seat - b.seat);
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i];
    if (!Number.isInteger(c.seat) || c.seat < 0 || c.seat > 255) throw new Error('a contribution has no seat');
    if (i > 0 && cs[i - 1].seat === c.seat) throw new Error('seat ' + c.seat + ' contributes twice');
    const v = hexToBytes(c.value);
    if (!v) throw new Error('seat ' + c.seat + '’s value is not 64 hexadecimal digits');
    parts.push(new Uint8Array([c.seat]), v);
  }
  return sha256(concat(parts));
}

// fairDeck shuffles the size cards 0 … size-1 (top first) from seed: the
// stream is SHA-256(seed, counter as 8 bytes big-endian) block after block,
// read as 32-bit big-endian words; below(n) takes the first word x under
// 2^32 - 2^32 mod n and gives x mod n; Fisher–Yates swaps card i with card
// i + below(size - i) for i from 0 to size - 2.
export async function fairDeck(seed, size) {
  let block = null, used = 32, ctr = 0;
  const word = async () => {
    if (used === 32) {
      const input = new Uint8Array(40);
      input.set(seed);
      new DataView(input.buffer).setBigUint64(32, BigInt(ctr++));
      block = await sha256(input);
      used = 0;
    }
    const w = new DataView(block.buffer).getUint32(used);
    used += 4;
    return w;
  };
  const below = async (n) => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const x = await word();
      if (x < limit) return x % n;
    }
  };
  const deck = Array.from({ length: size }, (_, i) => i);
  for (let i = 0; i < size - 1; i++) {
    const j = i + await below(size - i);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

// dealOut hands deck out as the game deals: card k of the first
// seats×hand goes to seat (dealer + 1 + floor(k / packet)) mod seats; the
// rest is the widow, the stock (top first) or the undealt cards.
export function dealOut(deck, variant, seats, dealer) {
  const g = GAMES[variant];
  const hands = Array.from({ length: seats }, () => []);
  const n = seats * g.hand;
  for (let k = 0; k < n; k++) hands[(dealer + 1 + Math.floor(k / g.packet)) % seats].push(deck[k]);
  return { hands, rest: deck.slice(n) };
}

// micros reads a time as written in a fairness object (UTC, with Z) as
// microseconds since 1970, or null.
function micros(s) {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(String(s));
  if (!m) return null;
  const base = Date.parse(m[1] + 'Z');
  return isNaN(base) ? null : base * 1000 + Number(((m[2] || '') + '000000').slice(0, 6));
}

const setText = (list) => list.map(cardNumber).sort((a, b) => a - b).map(cardName).join(' ');

// verifyRecord checks a hand record's fairness object by itself; mine is
// what this page knows of the deal, when it was at the table: the
// commitment it was shown before the deal, and its own value and seat
// (acked: the server said it had the value before the deal). It returns
// {ok, seed, checks, problems}.
export async function verifyRecord(rec, mine) {
  const checks = [], problems = [];
  const out = () => ({ ok: problems.length === 0 && checks.length > 0, seed, checks, problems });
  let seed = '';
  const f = rec && rec.fairness;
  if (!f || typeof f !== 'object') {
    problems.push(say('noFairness'));
    return out();
  }
  if (f.algorithm !== ALGORITHM || f.version !== VERSION) {
    problems.push(say('algorithm', { Algorithm: f.algorithm, Version: f.version, Known: ALGORITHM, KnownVersion: VERSION }));
    return out();
  }
  const g = GAMES[String(rec.variant).toLowerCase()];
  const hands = rec.deal && rec.deal.hands;
  if (!g || !Array.isArray(hands) || !Number.isInteger(rec.dealer)) {
    problems.push(say('noDeal'));
    return out();
  }
  const secret = hexToBytes(f.secret), commitment = hexToBytes(f.commitment);
  if (!secret) problems.push(say('badSecret'));
  if (!commitment) problems.push(say('badCommitment'));
  if (secret && commitment) {
    const h = bytesToHex(await sha256(secret));
    if (h !== f.commitment.toLowerCase()) problems.push(say('mismatch', { Hash: h, Commitment: f.commitment }));
    else checks.push('the commitment is the SHA-256 of the revealed secret');
  }
  if (mine && mine.commitment) {
    if (mine.commitment.toLowerCase() !== String(f.commitment).toLowerCase()) {
      problems.push(say('shownOther', { Shown: mine.commitment, Commitment: f.commitment }));
    } else {
      checks.push('the commitment is the one this page was shown before the deal');
    }
  }
  // The order: commitment, then contributions, then the deal.
  const cs = Array.isArray(f.contributions) ? f.contributions : [];
  const committed = micros(f.committed_at), dealt = micros(f.dealt_at);
  let order = committed !== null && dealt !== null;
  if (committed === null) problems.push(say('committedAt'));
  if (dealt === null) problems.push(say('dealtAt'));
  if (order && dealt < committed) { problems.push(say('dealBefore')); order = false; }
  for (const c of cs) {
    if (!Number.isInteger(c.seat) || c.seat < 0 || c.seat >= hands.length) {
      problems.push(say('badSeat', { Seat: c.seat, Last: hands.length - 1 }));
      order = false;
      continue;
    }
    const at = micros(c.at);
    if (at === null) { problems.push(say('badTime', { Seat: c.seat })); order = false; continue; }
    if (committed !== null && at < committed) {
      problems.push(say('early', { Seat: c.seat }));
      order = false;
    }
    if (dealt !== null && at > dealt) { problems.push(say('late', { Seat: c.seat })); order = false; }
  }
  if (order) checks.push('the commitment was published before the contributions, and the deal made after them');
  if (mine && mine.value) {
    const found = cs.find((c) => c.seat === mine.seat);
    if (found && String(found.value).toLowerCase() === mine.value.toLowerCase()) checks.push('your own random value is in the deal');
    else if (mine.acked || found) problems.push(say('notMine', { Value: mine.value }));
    else checks.push('your random value came after the deal and was not used');
  }
  if (!secret) return out();
  let seedBytes;
  try {
    seedBytes = await fairSeed(f.secret, cs);
  } catch (e) {
    problems.push(e.message);
    return out();
  }
  seed = bytesToHex(seedBytes);
  const size = g.jokers ? 54 : 52;
  const deal = dealOut(await fairDeck(seedBytes, size), String(rec.variant).toLowerCase(), hands.length, rec.dealer);
  const before = problems.length;
  deal.hands.forEach((h, i) => {
    const want = setText(h.map(cardName)), got = setText(hands[i] || []);
    if (want !== got) problems.push(say('hand', { Seat: i, Got: got, Want: want }));
  });
  const variant = String(rec.variant).toLowerCase();
  if (variant === 'pawnee') {
    const want = setText(deal.rest.map(cardName)), got = setText(rec.deal.widow || []);
    if (want !== got) problems.push(say('widow', { Got: got, Want: want }));
  } else if (variant === 'ten-point') {
    const stock = rec.deal.stock || [];
    deal.rest.forEach((c, k) => {
      if (cardNumber(stock[k]) !== c) problems.push(say('stock', { N: k + 1, Got: stock[k], Want: cardName(c) }));
    });
  } else if (rec.deal.stock && rec.deal.stock.length) {
    const want = setText(deal.rest.map(cardName)), got = setText(rec.deal.stock);
    if (want !== got) problems.push(say('undealt', { Got: got, Want: want }));
  }
  if (problems.length === before) checks.push('re-dealing the seed gives exactly the record’s deal');
  return out();
}

// ---------- at the table ----------

const mineKey = (id) => 'pitch.fair.' + id;

function loadMine(id) {
  try { return JSON.parse(localStorage.getItem(mineKey(id))) || {}; } catch (e) { return {}; }
}

function saveMine(id, all) {
  const hands = Object.keys(all).map(Number).sort((a, b) => b - a);
  for (const n of hands.slice(30)) delete all[n]; // the last 30 hands are enough
  try { localStorage.setItem(mineKey(id), JSON.stringify(all)); } catch (e) { /* private mode: kept in memory only */ }
}

const memory = {}; // table id → hand → what this page knows of its deal

function mineFor(id) {
  if (!memory[id]) memory[id] = loadMine(id);
  return memory[id];
}

// onFairState is called with every state as it arrives: it remembers the
// commitment shown before each deal and, for a seated player, sends the
// page's own random value for a new commitment (send: a message sender).
export function onFairState(id, m, send) {
  const f = m && m.fair;
  if (!f || !f.next) return;
  const all = mineFor(id);
  const n = f.next.hand;
  let mine = all[n];
  if (!mine || mine.commitment !== f.next.commitment) {
    mine = all[n] = { commitment: f.next.commitment, seat: m.seat };
  }
  if (m.seat >= 0 && f.next.contributed.includes(m.seat)) {
    if (mine.value && !mine.acked) { mine.acked = true; saveMine(id, all); }
    return;
  }
  if (m.seat >= 0 && !mine.value && !m.match_over) {
    const v = new Uint8Array(32);
    crypto.getRandomValues(v);
    mine.value = bytesToHex(v);
    mine.seat = m.seat;
    saveMine(id, all);
    send({ type: 'contribute', commitment: mine.commitment, value: mine.value });
  } else {
    saveMine(id, all);
  }
}

// verifyHand fetches hand n's record and verifies it with what this page
// knows of its deal.
export async function verifyHand(id, n) {
  const res = await fetch('/api/tables/' + encodeURIComponent(id) + '/hands/' + n, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(res.status + ' ' + (await res.text()).slice(0, 200));
  const rec = await res.json();
  return verifyRecord(rec, mineFor(id)[n]);
}

const results = {}; // "id/n" → the result shown, once verified

// showResult writes a verification's outcome into el.
function showResult(el, r) {
  el.classList.toggle('fair-ok', r.ok);
  el.classList.toggle('fair-bad', !r.ok);
  el.textContent = r.ok ? TEXT.ok : TEXT.bad + r.problems.join('; ');
  el.title = r.checks.concat(r.seed ? ['seed ' + r.seed] : []).join('\n');
  el.dataset.verified = r.ok ? 'ok' : 'bad';
}

// verifyInto verifies hand n and shows the outcome in el.
export async function verifyInto(el, id, n) {
  const key = id + '/' + n;
  el.hidden = false;
  if (results[key]) { showResult(el, results[key]); return; }
  el.textContent = TEXT.verifying;
  el.dataset.verified = '';
  try {
    results[key] = await verifyHand(id, n);
    showResult(el, results[key]);
  } catch (e) {
    el.textContent = TEXT.cannot + e.message;
    el.dataset.verified = 'error';
  }
}

function copyable(label, value, testid) {
  const code = document.createElement('code');
  code.className = 'fair-hex';
  code.textContent = value;
  code.dataset.fair = testid;
  const btn = document.createElement('button');
  btn.type = 'button';
  btn.className = 'fair-copy';
  btn.textContent = TEXT.copy;
  btn.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(value); btn.textContent = TEXT.copied; } catch (e) {
      const r = document.createRange();
      r.selectNodeContents(code);
      getSelection().removeAllRanges();
      getSelection().addRange(r);
    }
    setTimeout(() => { btn.textContent = TEXT.copy; }, 2000);
  });
  const p = document.createElement('p');
  p.className = 'fair-line';
  p.append(label + ' ', code, ' ', btn);
  return p;
}

let drawn = ''; // what renderFair last drew, to keep its buttons while nothing changed

// renderFair draws the fair-deal panel (box) for state m of table id: the
// next commitment, the hand's commitment, the last secret, and a Verify
// button for each finished hand. The panel is hidden at tables without
// fair deals.
export function renderFair(box, m, id) {
  const panel = box.closest('section') || box;
  const f = m && m.fair;
  panel.hidden = !f;
  if (!f) return;
  const head = panel.querySelector('h2');
  if (head && head.textContent !== TEXT.title) head.textContent = TEXT.title;
  const finished = m.sheet.length;
  const key = JSON.stringify([f, finished, m.seat]);
  if (key === drawn) return;
  drawn = key;
  const parts = [];
  if (f.next) {
    parts.push(copyable((f.dealing ? TEXT.handN + f.next.hand : TEXT.nextDeal) + ', ' + TEXT.commitment, f.next.commitment, 'next'));
    if (f.dealing) parts.push(Object.assign(document.createElement('p'), { className: 'hint fair-dealing', textContent: TEXT.dealing }));
    if (m.seat >= 0 && f.next.contributed.includes(m.seat)) parts.push(Object.assign(document.createElement('p'), { className: 'hint', textContent: TEXT.sent }));
  }
  if (f.hand) parts.push(copyable(TEXT.thisHand + ' (' + TEXT.handN.toLowerCase() + f.hand.hand + '), ' + TEXT.commitment, f.hand.commitment, 'hand'));
  if (f.last) parts.push(copyable(TEXT.handN + f.last.hand + ' · ' + TEXT.secret, f.last.secret, 'secret'));
  const list = document.createElement('ul');
  list.className = 'fair-hands';
  for (let n = Math.max(1, finished - 9); n <= finished; n++) {
    const li = document.createElement('li');
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.textContent = TEXT.verify + ' ' + TEXT.handN.toLowerCase() + n;
    btn.dataset.hand = String(n);
    const res = document.createElement('span');
    res.className = 'fair-result';
    res.hidden = true;
    btn.addEventListener('click', () => verifyInto(res, id, n));
    if (results[id + '/' + n]) { res.hidden = false; showResult(res, results[id + '/' + n]); }
    li.append(btn, ' ', res);
    list.append(li);
  }
  if (finished) parts.push(Object.assign(document.createElement('p'), { className: 'hint', textContent: TEXT.hands }), list);
  else parts.push(Object.assign(document.createElement('p'), { className: 'hint', textContent: TEXT.none }));
  box.replaceChildren(...parts);
}
