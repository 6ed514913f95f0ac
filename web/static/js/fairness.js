// The fair-deal check (docs/fairness.md): a verifier of finished hands
// that trusts nothing the server says about them. It recomputes, with Web
// Crypto, the SHA-256 of the revealed secret, the seed, the shuffle and the
// deal, and compares them with the hand record. It draws nothing and
// imports nothing, so that Node can run the same code in the tests; this
// page's side of a fair deal (its random values, the commitments it was
// shown, the panel) is fairpanel.js.

// PROBLEMS are what the verifier may find wrong, with their parameters
// written {{.Name}}; a translation may replace them, like TEXT (fairpanel.js).
// Seats are numbered from 1, as the page shows them (a record's seat 0 is
// seat 1 here).
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
  badSeat: 'a contribution is from seat {{.Seat}}; the seats are 1 to {{.Last}}',
  badTime: 'seat {{.Seat}}’s contribution time is not a time',
  early: 'seat {{.Seat}}’s contribution is dated before the commitment was published',
  late: 'seat {{.Seat}}’s contribution is dated after the deal',
  notMine: 'your random value ({{.Value}}) is not the one in the record',
  hand: 'seat {{.Seat}}’s hand: the record has {{.Got}}; the deal gives {{.Want}}',
  widow: 'the widow: the record has {{.Got}}; the deal gives {{.Want}}',
  stock: 'the stock, card {{.N}} from the top: the record has {{.Got}}, the deal gives {{.Want}}',
  undealt: 'the undealt cards: the record has {{.Got}}; the deal leaves {{.Want}}',
  unknownField: 'the fairness object has a field {{.Field}} that this verifier does not know: it has algorithm, version, commitment, secret, committed_at, contributions, dealt_at, and perhaps dealer and abandoned',
  missingField: 'the fairness object lacks {{.Field}}',
  typeString: '{{.Field}} is the string {{.Value}}: a number belongs there',
  notNumber: '{{.Field}} is {{.Value}}: a whole number belongs there',
  notString: '{{.Field}} is {{.Value}}: a string belongs there',
  notList: '{{.Field}} is {{.Value}}: a list belongs there',
  upperHex: '{{.Field}} is written in upper-case hexadecimal digits; a record writes them in lower case (0-9, a-f)',
  order: 'the contributions must be listed once a seat, in ascending seat order: seat {{.Seat}} comes after seat {{.Prev}}',
  badValue: 'seat {{.Seat}}’s value is not 64 hexadecimal digits',
  dealer: 'the dealer named with the commitment is seat {{.Named}}, but the record’s dealer is seat {{.Dealer}}',
  dealerShown: 'this page was shown seat {{.Shown}} as the dealer before the deal; the record’s dealer is seat {{.Dealer}}',
  ignored: 'your random value ({{.Value}}) was sent to the server and the record does not have it: the server dealt without it',
  unsent: 'this page could not send its random value before the deal (its connection was down), so no value of yours is in this deal: the server alone may have chosen it',
  noValue: 'you were seated and this page sent no random value for this deal, so no value of yours is in it: the server alone may have chosen it',
  listedFirst: 'the server listed your seat’s value as in before this page sent one: no value of yours is in this deal',
  neverShown: 'this page was at the table before this deal and was never shown its commitment: the server dealt without publishing one first',
  dueOnly: 'this deal’s commitment was first shown only when the deal was to be made, not while the hand before was played: it must be published a hand ahead',
  redrawn: 'the server replaced this hand’s commitment {{.Old}} after this page sent its value for it: it drew the secret it dealt from after seeing your value',
  sharedNoEvent: 'the server said this deal is a duplicate round’s, taking no values, but this table belongs to no event',
  sharedNotPublished: 'the server said this deal is a duplicate round’s, taking no values, but the event has not published its commitment for it',
  notServed: 'the server does not give out the record of this finished hand ({{.Status}}): a finished hand’s record must be open to its players',
  handDiffers: 'the record deals you {{.Got}}; this page was dealt {{.Want}}',
  logDiffers: 'the record’s actions are not those this page saw played: {{.Action}} is not in the record in the order it was played',
  notCommitted: 'the record has a value for seat {{.Seat}} that was not among the values committed to when the contributors were frozen, as this page saw them: it could have been chosen after the others were revealed',
  notHuman: 'the record has a value for seat {{.Seat}}, which was not a person’s seat in anything this page saw before the deal: the server chose it',
  noDealerShown: 'the server did not name the dealer with this deal’s commitment before the deal',
  noDealerRecord: 'the record does not name the dealer with its commitment',
  rotation: 'the record’s dealer is seat {{.Dealer}}, but the deal passes to the left: after seat {{.Prev}} it is seat {{.Want}}’s',
  replaced: 'the server replaced this hand’s commitment before the deal: this page was shown {{.Old}} first, and the record does not list it as abandoned',
  stockSize: 'the stock: the record has {{.Got}} cards; the deal gives {{.Want}}',
  badAbandoned: 'abandoned commitment {{.Commitment}}: its secret does not give it, or its time is not before the deal’s commitment',
};

// WARNINGS are what the verifier reports although the deal checks; a
// translation may replace them, like PROBLEMS.
export const WARNINGS = {
  abandoned: 'the server dropped commitment {{.Commitment}} and drew again before this deal',
  replacedListed: 'the server replaced the commitment this page was shown first ({{.Old}}) before the deal; the record lists it as abandoned',
  noValue: 'no player value: the server chose this deal',
};

// CATALOG names each string's message in the catalogs (i18n/locales).
const CATALOG = {
  problems: {
    noFairness: 'fair.problem.noFairness',
    algorithm: 'fair.problem.algorithm',
    noDeal: 'fair.problem.noDeal',
    badSecret: 'fair.problem.badSecret',
    badCommitment: 'fair.problem.badCommitment',
    mismatch: 'fair.problem.mismatch',
    shownOther: 'fair.problem.shownOther',
    committedAt: 'fair.problem.committedAt',
    dealtAt: 'fair.problem.dealtAt',
    dealBefore: 'fair.problem.dealBefore',
    badSeat: 'fair.problem.badSeat',
    badTime: 'fair.problem.badTime',
    early: 'fair.problem.early',
    late: 'fair.problem.late',
    notMine: 'fair.problem.notMine',
    hand: 'fair.problem.hand',
    widow: 'fair.problem.widow',
    stock: 'fair.problem.stock',
    undealt: 'fair.problem.undealt',
    unknownField: 'fair.problem.unknownField',
    missingField: 'fair.problem.missingField',
    typeString: 'fair.problem.typeString',
    notNumber: 'fair.problem.notNumber',
    notString: 'fair.problem.notString',
    notList: 'fair.problem.notList',
    upperHex: 'fair.problem.upperHex',
    order: 'fair.problem.order',
    badValue: 'fair.problem.badValue',
    dealer: 'fair.problem.dealer',
    dealerShown: 'fair.problem.dealerShown',
    ignored: 'fair.problem.ignored',
    unsent: 'fair.problem.unsent',
    noValue: 'fair.problem.noValue',
    listedFirst: 'fair.problem.listedFirst',
    neverShown: 'fair.problem.neverShown',
    dueOnly: 'fair.problem.dueOnly',
    redrawn: 'fair.problem.redrawn',
    sharedNoEvent: 'fair.problem.sharedNoEvent',
    sharedNotPublished: 'fair.problem.sharedNotPublished',
    notServed: 'fair.problem.notServed',
    handDiffers: 'fair.problem.handDiffers',
    logDiffers: 'fair.problem.logDiffers',
    notCommitted: 'fair.problem.notCommitted',
    notHuman: 'fair.problem.notHuman',
    noDealerShown: 'fair.problem.noDealerShown',
    noDealerRecord: 'fair.problem.noDealerRecord',
    rotation: 'fair.problem.rotation',
    replaced: 'fair.problem.replaced',
    stockSize: 'fair.problem.stockSize',
    badAbandoned: 'fair.problem.badAbandoned',
  },
  warnings: {
    abandoned: 'fair.warning.abandoned',
    replacedListed: 'fair.warning.replacedListed',
    noValue: 'fair.warning.noValue',
  },
};

// translate replaces PROBLEMS and WARNINGS by their translations: t(id)
// gives the message id of the page's language (fairpanel.js's translate
// does TEXT too).
export function translate(t) {
  for (const [k, id] of Object.entries(CATALOG.problems)) PROBLEMS[k] = t(id);
  for (const [k, id] of Object.entries(CATALOG.warnings)) WARNINGS[k] = t(id);
}

// say fills in problem key with p.
function say(key, p) { return fill(PROBLEMS[key], p); }

// warn fills in warning key with p.
function warn(key, p) { return fill(WARNINGS[key], p); }

function fill(text, p) {
  return text.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k) => (p && k in p ? String(p[k]) : ''));
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

// K are SHA-256's round constants.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// sha256Sync is SHA-256 of bytes, computed at once (no promise), for the
// page's commitment to its own value as it sends it, and for checking a
// record against the hashes it saw frozen.
export function sha256Sync(bytes) {
  const n = bytes.length, total = Math.ceil((n + 9) / 64) * 64;
  const m = new Uint8Array(total);
  m.set(bytes);
  m[n] = 0x80;
  const dv = new DataView(m.buffer);
  dv.setUint32(total - 8, Math.floor(n / 0x20000000));
  dv.setUint32(total - 4, (n * 8) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, r) => (x >>> r) | (x << (32 - r));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(4 * i, h[i]);
  return out;
}

// valueHash is SHA-256 of a value written as 64 hexadecimal digits, in
// hex, as the states list a contributor's commitment; '' for no value.
export function valueHash(valueHex) {
  const b = hexToBytes(valueHex);
  return b ? bytesToHex(sha256Sync(b)) : '';
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

// micros reads a time as written in a fairness object — exactly
// 2026-01-02T15:04:05.000000Z: UTC, six digits after the second — as
// microseconds since 1970, or null.
function micros(s) {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z$/.exec(typeof s === 'string' ? s : '');
  if (!m) return null;
  const base = Date.parse(m[1] + 'Z');
  if (isNaN(base) || new Date(base).toISOString().slice(0, 19) !== m[1]) return null;
  return base * 1000 + Number(m[2]);
}

const setText = (list) => list.map(cardNumber).sort((a, b) => a - b).map(cardName).join(' ');

// FIELDS are the fields of a fairness object (version 1), of a
// contribution and of an abandoned commitment, each with its type and
// whether it must be present; nothing else is allowed.
const FIELDS = {
  fairness: { algorithm: ['string', true], version: ['int', true], commitment: ['string', true], secret: ['string', true],
    committed_at: ['string', true], contributions: ['list', true], dealt_at: ['string', true], dealer: ['int', false], abandoned: ['list', false] },
  contribution: { seat: ['int', true], name: ['string', false], value: ['string', true], at: ['string', true] },
  abandoned: { commitment: ['string', true], secret: ['string', true], committed_at: ['string', true] },
};

// shapeProblem says what is wrong with the fields of o (a kind of
// FIELDS) named path, or '' when nothing is.
function shapeProblem(o, kind, path) {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return say('missingField', { Field: path });
  const spec = FIELDS[kind];
  for (const k of Object.keys(o)) if (!(k in spec)) return say('unknownField', { Field: path === 'fairness' ? k : path + '.' + k });
  for (const [k, [type, required]] of Object.entries(spec)) {
    const v = o[k], field = path === 'fairness' ? k : path + '.' + k;
    if (v === undefined || v === null || v === '' || (k === 'version' && v === 0)) {
      if (required) return say('missingField', { Field: field });
      continue;
    }
    if (type === 'int' && !Number.isInteger(v)) return say(typeof v === 'string' ? 'typeString' : 'notNumber', { Field: field, Value: JSON.stringify(v) });
    if (type === 'string' && typeof v !== 'string') return say('notString', { Field: field, Value: JSON.stringify(v) });
    if (type === 'list') {
      if (!Array.isArray(v)) return say('notList', { Field: field, Value: JSON.stringify(v) });
      const inner = k === 'contributions' ? 'contribution' : 'abandoned';
      for (let i = 0; i < v.length; i++) {
        const p = shapeProblem(v[i], inner, k + '[' + i + ']');
        if (p) return p;
      }
    }
  }
  return '';
}

// recordHex reads 32 bytes as a record writes them (64 lower-case hex
// digits), or pushes what is wrong (field: its name; key: the problem for
// anything but upper case) and gives null.
function recordHex(h, field, key, p, problems) {
  if (typeof h === 'string' && /^[0-9a-f]*[A-F][0-9a-fA-F]*$/.test(h) && h.length === 64) {
    problems.push(say('upperHex', { Field: field }));
    return null;
  }
  const b = /^[0-9a-f]{64}$/.test(h) ? hexToBytes(h) : null;
  if (!b) problems.push(say(key, p));
  return b;
}

// pageChecks adds to checks and problems what this page's own memory of
// the deal (mine, see verifyRecord) says of record rec (fairness object
// f). None of it depends on how fast anything was: only on what the page
// saw, sent and was dealt.
function pageChecks(rec, f, mine, checks, problems) {
  const cs = f.contributions;
  if (mine.neverShown) problems.push(say('neverShown'));
  if (mine.dueOnly) problems.push(say('dueOnly'));
  if (mine.noDealer) problems.push(say('noDealerShown'));
  if (Array.isArray(mine.frozen)) {
    const before = problems.length;
    for (const c of cs) {
      const e = mine.frozen.find((x) => x.seat === c.seat);
      if (!e || e.hash !== valueHash(String(c.value).toLowerCase())) problems.push(say('notCommitted', { Seat: c.seat + 1 }));
    }
    if (problems.length === before) checks.push('every value in the record was committed to before any was revealed, as this page saw the contributors frozen');
  }
  if (Array.isArray(mine.humans) && mine.commitment) {
    for (const c of cs) if (!mine.humans.includes(c.seat)) problems.push(say('notHuman', { Seat: c.seat + 1 }));
  }
  if (mine.commitment && !Number.isInteger(f.dealer)) problems.push(say('noDealerRecord'));
  const seats = rec.deal.hands.length;
  if (Number.isInteger(mine.prevDealer) && mine.commitment) {
    const want = (mine.prevDealer + 1) % seats;
    if (rec.dealer !== want) problems.push(say('rotation', { Dealer: rec.dealer + 1, Prev: mine.prevDealer + 1, Want: want + 1 }));
    else checks.push('the dealer is the one the rotation gives');
  }
  const seated = Number.isInteger(mine.seat) && mine.seat >= 0;
  if (seated && mine.commitment) {
    const shared = mine.shared; // the server said the deal is a duplicate round's
    const found = cs.find((c) => c.seat === mine.seat);
    if (shared && !shared.honoured) {
      problems.push(say(shared.event ? 'sharedNotPublished' : 'sharedNoEvent'));
    } else if (shared) {
      checks.push('the commitment is one the event published for this deal before the round');
      if (found) problems.push(say('notMine', { Value: found.value }));
    } else if (mine.listedFirst && !mine.value) {
      problems.push(say('listedFirst'));
    } else if (!mine.value) {
      problems.push(say('noValue'));
    } else if (found && String(found.value).toLowerCase() === mine.value.toLowerCase()) {
      if (mine.sent === false) problems.push(say('unsent')); // it never went out: not this page's doing
      else checks.push('your own random value is in the deal');
    } else if (found) {
      problems.push(say('notMine', { Value: mine.value }));
    } else if (mine.sent === false || mine.revealFailed) {
      problems.push(say('unsent'));
    } else {
      problems.push(say('ignored', { Value: mine.value }));
    }
  }
  if (seated && Array.isArray(mine.dealt) && Array.isArray(rec.deal.hands[mine.seat])) {
    const want = setText(mine.dealt), got = setText(rec.deal.hands[mine.seat]);
    if (want !== got) problems.push(say('handDiffers', { Got: got, Want: want }));
    else checks.push('the record deals you the hand this page was dealt');
  }
  if (Array.isArray(mine.log)) {
    const acts = (Array.isArray(rec.actions) ? rec.actions : []).map(actionKey);
    let k = 0, bad = '';
    for (const a of mine.log) {
      const key = actionKey(a);
      while (k < acts.length && acts[k] !== key) k++;
      if (k === acts.length) { bad = key; break; }
      k++;
    }
    if (bad) problems.push(say('logDiffers', { Action: bad }));
    else if (mine.log.length) checks.push('the record has every action this page saw played, in order');
  }
}

// actionKey writes a hand-record action as text that does not depend on
// the order of its fields or the case of its cards.
function actionKey(a) {
  if (!a || typeof a !== 'object') return String(a);
  const out = {};
  for (const k of Object.keys(a).sort()) {
    const v = a[k];
    out[k] = typeof v === 'string' ? (cardNumber(v) >= 0 && k !== 'trump' ? cardName(cardNumber(v)) : v.toUpperCase())
      : Array.isArray(v) ? v.map((c) => (cardNumber(c) >= 0 ? cardName(cardNumber(c)) : c)).sort() : v;
  }
  return JSON.stringify(out);
}

// verifyRecord checks a hand record's fairness object by itself
// (docs/fairness.md, "Checking a hand"); mine is what this page knows of
// the deal, when it watched the table: the commitment it was shown before
// the deal (and any it was shown first, replaced — afterValue: after it
// had sent its value for it), the dealer shown with it, whether it was
// never shown one (neverShown) or shown one first only when the deal was
// due (dueOnly), and, when seated, its seat, its value (sent: false when
// the page knows the value never went out), whether the server listed the
// seat before the page sent (listedFirst), the contributors and their
// values' hashes as it saw them frozen (frozen), the seats that were people's
// in the states it saw before the deal (humans), the server's claim that the
// deal is a duplicate round's (shared: {event, honoured}), the hand it was
// dealt (dealt) and the actions it saw (log). It returns {ok, seed,
// checks, problems, warnings}.
export async function verifyRecord(rec, mine) {
  const checks = [], problems = [], warnings = [];
  const out = () => ({ ok: problems.length === 0 && checks.length > 0, seed, checks, problems, warnings });
  let seed = '';
  const f = rec && rec.fairness;
  if (!f || typeof f !== 'object') {
    problems.push(say('noFairness'));
    return out();
  }
  const shape = shapeProblem(f, 'fairness', 'fairness');
  if (shape) {
    problems.push(shape);
    return out();
  }
  if (f.algorithm !== ALGORITHM || f.version !== VERSION) {
    problems.push(say('algorithm', { Algorithm: f.algorithm, Version: f.version, Known: ALGORITHM, KnownVersion: VERSION }));
    return out();
  }
  const variant = String(rec.variant).toLowerCase();
  const g = GAMES[variant];
  const hands = rec.deal && rec.deal.hands;
  if (!g || !Array.isArray(hands) || !Number.isInteger(rec.dealer)) {
    problems.push(say('noDeal'));
    return out();
  }
  const seats = hands.length; // the record's hands, one a seat
  const secret = recordHex(f.secret, 'secret', 'badSecret', {}, problems);
  const commitment = recordHex(f.commitment, 'commitment', 'badCommitment', {}, problems);
  if (secret && commitment) {
    const h = bytesToHex(await sha256(secret));
    if (h !== f.commitment) problems.push(say('mismatch', { Hash: h, Commitment: f.commitment }));
    else checks.push('the commitment is the SHA-256 of the revealed secret');
  }
  if (f.dealer !== undefined && f.dealer !== null) {
    if (f.dealer !== rec.dealer) problems.push(say('dealer', { Named: f.dealer + 1, Dealer: rec.dealer + 1 }));
    else checks.push('the dealer is the one named with the commitment');
  }
  if (mine && mine.commitment) {
    if (mine.commitment.toLowerCase() !== f.commitment.toLowerCase()) {
      problems.push(say('shownOther', { Shown: mine.commitment, Commitment: f.commitment }));
    } else {
      checks.push('the commitment is the one this page was shown before the deal');
    }
  }
  if (mine && Number.isInteger(mine.dealer)) {
    if (mine.dealer !== rec.dealer) problems.push(say('dealerShown', { Shown: mine.dealer + 1, Dealer: rec.dealer + 1 }));
    else checks.push('the dealer is the one this page was shown before the deal');
  }
  // The order: commitment, then contributions, then the deal.
  const cs = f.contributions;
  const committed = micros(f.committed_at), dealt = micros(f.dealt_at);
  let order = committed !== null && dealt !== null, valid = !!secret;
  if (committed === null) problems.push(say('committedAt'));
  if (dealt === null) problems.push(say('dealtAt'));
  if (order && dealt < committed) { problems.push(say('dealBefore')); order = false; }
  cs.forEach((c, i) => {
    if (c.seat < 0 || c.seat >= seats) {
      problems.push(say('badSeat', { Seat: c.seat + 1, Last: seats }));
      valid = order = false;
      return;
    }
    if (i > 0 && cs[i - 1].seat >= c.seat) {
      problems.push(say('order', { Seat: c.seat + 1, Prev: cs[i - 1].seat + 1 }));
      valid = false;
    }
    if (!recordHex(c.value, 'contributions[' + i + '].value', 'badValue', { Seat: c.seat + 1 }, problems)) valid = false;
    const at = micros(c.at);
    if (at === null) { problems.push(say('badTime', { Seat: c.seat + 1 })); order = false; return; }
    if (committed !== null && at < committed) {
      problems.push(say('early', { Seat: c.seat + 1 }));
      order = false;
    }
    if (dealt !== null && at > dealt) { problems.push(say('late', { Seat: c.seat + 1 })); order = false; }
  });
  if (order) checks.push('the commitment was published before the contributions, and the deal made after them');
  const abandoned = f.abandoned || [];
  for (let i = 0; i < abandoned.length; i++) {
    const a = abandoned[i], p = problems.length;
    const s = recordHex(a.secret, 'abandoned[' + i + '].secret', 'badAbandoned', { Commitment: a.commitment }, problems);
    const c = s && recordHex(a.commitment, 'abandoned[' + i + '].commitment', 'badAbandoned', { Commitment: a.commitment }, problems);
    const at = micros(a.committed_at);
    if (problems.length > p) continue;
    if (bytesToHex(await sha256(s)) !== a.commitment || at === null || (committed !== null && at > committed)) {
      problems.push(say('badAbandoned', { Commitment: a.commitment }));
    } else if (c) {
      warnings.push(warn('abandoned', { Commitment: a.commitment }));
    }
  }
  for (const old of (mine && mine.replaced) || []) {
    if (old.afterValue) problems.push(say('redrawn', { Old: old.commitment }));
    else if (abandoned.some((a) => a.commitment === String(old.commitment).toLowerCase())) warnings.push(warn('replacedListed', { Old: old.commitment }));
    else problems.push(say('replaced', { Old: old.commitment }));
  }
  if (mine) pageChecks(rec, f, mine, checks, problems);
  if (cs.length === 0) warnings.push(warn('noValue'));
  if (!valid) return out();
  let seedBytes;
  try {
    seedBytes = await fairSeed(f.secret, cs);
  } catch (e) {
    problems.push(e.message);
    return out();
  }
  seed = bytesToHex(seedBytes);
  const size = g.jokers ? 54 : 52;
  const deal = dealOut(await fairDeck(seedBytes, size), variant, seats, rec.dealer);
  const before = problems.length;
  deal.hands.forEach((h, i) => {
    const want = setText(h.map(cardName)), got = setText(hands[i] || []);
    if (want !== got) problems.push(say('hand', { Seat: i + 1, Got: got, Want: want }));
  });
  if (variant === 'pawnee') {
    const want = setText(deal.rest.map(cardName)), got = setText(rec.deal.widow || []);
    if (want !== got) problems.push(say('widow', { Got: got, Want: want }));
  } else if (variant === 'ten-point') {
    const stock = rec.deal.stock || [];
    if (stock.length !== deal.rest.length) problems.push(say('stockSize', { Got: stock.length, Want: deal.rest.length }));
    deal.rest.forEach((c, k) => {
      if (k < stock.length && cardNumber(stock[k]) !== c) problems.push(say('stock', { N: k + 1, Got: stock[k], Want: cardName(c) }));
    });
  } else if (rec.deal.stock && rec.deal.stock.length) {
    const want = setText(deal.rest.map(cardName)), got = setText(rec.deal.stock);
    if (want !== got) problems.push(say('undealt', { Got: got, Want: want }));
  }
  if (problems.length === before) checks.push('re-dealing the seed gives exactly the record’s deal');
  return out();
}
