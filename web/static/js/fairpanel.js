// Provably fair deals (docs/fairness.md) at the table: this page's random
// value for each deal, the commitments and dealers it was shown before
// each deal (kept in localStorage), and the fair-deal panel and the hand
// summary's verdict, from the check in fairness.js. It touches the page
// only when it draws, so that Node can import it too (the tests run
// onFairState and verifyHand).

import { bytesToHex, valueHash, verifyRecord, PROBLEMS, translate as translateCheck } from './fairness.js';

const fillText = (text, p) => text.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k) => (p && k in p ? String(p[k]) : ''));

// TEXT holds every string this module shows (English); a translation may
// replace them (Object.assign(TEXT, …)) before the table is drawn.
export const TEXT = {
  title: 'Fair deal',
  nextDeal: 'Next deal',
  commitment: 'commitment:',
  dealing: 'Shuffling: waiting for the players’ random values…',
  sent: 'Your random value is in.',
  shared: 'A duplicate round’s deal: the same commitment at every table, published when the round began; no random values are taken.',
  thisHand: 'Hand in play',
  secret: 'Secret revealed:',
  copy: 'Copy',
  copied: 'Copied',
  verify: 'Verify',
  verifying: 'Verifying…',
  ok: '✓ Verified: your own random value is in this deal, and the deal is the one the commitment shown before it and the values fixed.',
  okWatched: '✓ Verified as a spectator: the deal is the one the commitment shown before it and the record’s values fixed; this page sent no value of its own, so it cannot tell whether a player’s value was left out.',
  okRecord: '✓ The record checks: its deal is the one its commitment and values give. This page did not watch the deal, so it cannot tell when the commitment was published or whether a value was left out.',
  bad: '⚠ NOT VERIFIED: ',
  hands: 'Finished hands:',
  handN: 'Hand ',
  none: 'Nothing to verify yet.',
  cannot: 'The record could not be fetched: ',
  warn: '⚠ Verified, with a warning: ',
  off: 'Not provable: this table deals without fair deals (it was made without them, or before they existed), so no deal here can be checked.',
  stopped: '⚠ NOT PROVABLE: this table dealt provably fair hands before and has stopped; its deals can no longer be checked.',
  replacedLive: '⚠ The server replaced this deal’s commitment after showing it. It showed first:',
  dealer: 'dealer:',
};

// CATALOG names each string's message in the catalogs (i18n/locales).
const CATALOG = {
  text: {
    title: 'fair.title',
    nextDeal: 'fair.nextDeal',
    commitment: 'fair.commitment',
    dealing: 'fair.dealing',
    sent: 'fair.sent',
    shared: 'fair.shared',
    thisHand: 'fair.thisHand',
    secret: 'fair.secret',
    copy: 'fair.copy',
    copied: 'fair.copied',
    verify: 'fair.verify',
    verifying: 'fair.verifying',
    ok: 'fair.ok',
    okWatched: 'fair.okWatched',
    okRecord: 'fair.okRecord',
    bad: 'fair.bad',
    hands: 'fair.hands',
    handN: 'fair.handN',
    none: 'fair.none',
    cannot: 'fair.cannot',
    warn: 'fair.warn',
    off: 'fair.off',
    stopped: 'fair.stopped',
    replacedLive: 'fair.replacedLive',
    dealer: 'fair.dealer',
  },
};

// translate replaces TEXT, and the check's PROBLEMS and WARNINGS
// (fairness.js), by their translations: t(id) gives the message id of the
// page's language.
export function translate(t) {
  for (const [k, id] of Object.entries(CATALOG.text)) TEXT[k] = t(id);
  translateCheck(t);
}

// ---------- at the table ----------

// What this page knows of each deal of a table is kept in localStorage
// (pitch.fair.TABLE): under each hand's number, the commitment it was
// shown before the deal (and any it was shown first and saw replaced),
// the dealer shown with it, and for a seated page its seat and value;
// under "table", whether the table ever dealt fairly.

const mineKey = (id) => 'pitch.fair.' + id;

function loadMine(id) {
  try { return JSON.parse(localStorage.getItem(mineKey(id))) || {}; } catch (e) { return {}; }
}

function saveMine(id, all) {
  const hands = Object.keys(all).filter((k) => /^\d+$/.test(k)).map(Number).sort((a, b) => b - a);
  for (const n of hands.slice(30)) delete all[n]; // the last 30 hands are enough
  try { localStorage.setItem(mineKey(id), JSON.stringify(all)); } catch (e) { /* private mode: kept in memory only */ }
}

const memory = {}; // table id → hand → what this page knows of its deal

function mineFor(id) {
  if (!memory[id]) memory[id] = loadMine(id);
  return memory[id];
}

// onFairState is called with every state as it arrives, seated or
// watching. It remembers, for each deal, what the page saw: the
// commitment and the dealer shown before it (never replacing a
// commitment silently), whether it watched the table before the deal
// and was never shown a commitment (neverShown) or was shown one first
// only when the deal was due though it watched the hand before
// (dueOnly); for a seated page, its own random value, sent for the
// commitment (again after a reconnection, m.fresh, when the server does
// not list it) and whether it went out, whether the server listed the
// seat before the page sent (listedFirst), the server's word that the
// deal is a duplicate round's (shared), the hand it was dealt and the
// actions it saw played. Nothing here is a time: no verdict depends on
// how fast the page, the network or the server was. send is a message
// sender that says whether the message went out.
export function onFairState(id, m, send) {
  const f = m && m.fair;
  if (!f) return; // a table without fair deals: renderFair says so
  const all = mineFor(id);
  let dirty = false;
  const entry = (n) => {
    if (!all[n]) { all[n] = {}; dirty = true; }
    return all[n];
  };
  if (!all.table) { all.table = { fair: true }; dirty = true; }
  const seat = Number.isInteger(m.seat) ? m.seat : -1;
  const inPlay = f.hand ? f.hand.hand : 0;
  const dealtUpTo = inPlay || (f.last ? f.last.hand : 0);
  // Deals made that this page watched coming and was shown no commitment for.
  for (const [k, e] of Object.entries(all)) {
    if (/^\d+$/.test(k) && Number(k) <= dealtUpTo && e.watched && !e.commitment && !e.neverShown) { e.neverShown = true; dirty = true; }
  }
  if (!m.match_over) {
    const upcoming = f.next ? f.next.hand : dealtUpTo + 1;
    const e = entry(upcoming);
    if (!e.watched) { e.watched = true; dirty = true; }
    if (seat >= 0 && !e.seated) { e.seated = true; dirty = true; } // seated before this deal
  }
  if (inPlay) {
    const e = entry(inPlay);
    if (!e.playing) { e.playing = true; dirty = true; }
    const v = m.view || {};
    if (seat >= 0 && !e.dealt && v.phase === 'bid' && Array.isArray(v.hand)) { e.dealt = v.hand.slice(); dirty = true; } // as dealt: nothing taken or thrown yet
    const log = (Array.isArray(m.log) ? m.log : []).filter((x) => x && x.action).map((x) => x.action);
    if (log.length > ((e.log && e.log.length) || 0)) { e.log = log; dirty = true; }
  }
  if (f.next) {
    const n = f.next.hand;
    const mine = entry(n);
    if (!mine.commitment) {
      mine.commitment = f.next.commitment;
      mine.seat = seat;
      // Shown first only when due, though this page watched the hand before in play.
      if (f.dealing && n >= 2 && all[n - 1] && all[n - 1].playing) mine.dueOnly = true;
      dirty = true;
    } else if (mine.commitment !== f.next.commitment) {
      // The server drew again: keep what it showed first, for the check.
      (mine.replaced = mine.replaced || []).push({ commitment: mine.commitment, afterValue: !!mine.value && mine.sent !== false });
      mine.commitment = f.next.commitment;
      for (const k of ['value', 'hash', 'acked', 'sent', 'listedFirst', 'revealed', 'revealFailed', 'frozen']) delete mine[k];
      dirty = true;
    }
    if (!Number.isInteger(f.next.dealer) || f.next.dealer < 0) { if (!mine.noDealer) { mine.noDealer = true; dirty = true; } } else if (!Number.isInteger(mine.dealer)) { mine.dealer = f.next.dealer; dirty = true; }
    if (seat >= 0 && !mine.value && mine.seat !== seat) { mine.seat = seat; dirty = true; }
    // The seats that were people's in the states this page saw before the
    // deal: only they may contribute (a value for a bot's seat is the
    // server's own, chosen when it pleased).
    const seats = (m.table && Array.isArray(m.table.seats)) ? m.table.seats : null;
    if (seats) {
      const humans = new Set(mine.humans || []);
      for (const x of seats) if (x && x.kind === 'human' && Number.isInteger(x.seat)) humans.add(x.seat);
      if (humans.size !== (mine.humans || []).length || !mine.humans) { mine.humans = [...humans].sort((a, b) => a - b); dirty = true; }
    }
    if (f.next.shared && !mine.shared) { mine.shared = { event: (m.table && m.table.event) || '' }; dirty = true; }
    const listed = Array.isArray(f.next.contributed) && f.next.contributed.includes(seat);
    // The contributors and their values' hashes, committed before any
    // value is revealed (null: a server of before, values sent at once).
    const hashes = Array.isArray(f.next.hashes) ? f.next.hashes : null;
    if (f.next.frozen && hashes && !mine.frozen) { mine.frozen = hashes.map((h) => ({ seat: h.seat, hash: h.hash })); dirty = true; }
    const mineListed = hashes ? hashes.find((h) => h.seat === seat) : null;
    const draw = () => {
      const v = new Uint8Array(32);
      crypto.getRandomValues(v);
      mine.value = bytesToHex(v);
      mine.hash = valueHash(mine.value);
    };
    if (seat < 0 || m.match_over || f.next.shared) {
      // a spectator sends nothing; a shared deal (duplicate) takes none
    } else if (!hashes) {
      if (listed) {
        if (mine.value && mine.sent !== false) { if (!mine.acked) { mine.acked = true; dirty = true; } } else if (!mine.listedFirst) { mine.listedFirst = true; dirty = true; }
      } else if (!mine.value || mine.sent === false || m.fresh) {
        if (!mine.value) draw();
        mine.sent = true;
        saveMine(id, all); // kept, as sent, before it is sent
        if (send({ type: 'contribute', commitment: mine.commitment, value: mine.value }) === false) mine.sent = false; // it did not go out
        dirty = true;
      }
    } else if ((listed || mineListed) && (!mine.value || mine.sent === false)) {
      if (!mine.listedFirst) { mine.listedFirst = true; dirty = true; } // listed before this page committed
    } else {
      // First the value's hash, while the contributors are not frozen…
      if (!f.next.frozen && !mineListed && (!mine.value || mine.sent === false || m.fresh)) {
        if (!mine.value) draw();
        mine.sent = true;
        saveMine(id, all); // kept, as sent, before it is sent
        if (send({ type: 'contribute', commitment: mine.commitment, hash: mine.hash }) === false) mine.sent = false;
        dirty = true;
      }
      if (mineListed && mineListed.hash === mine.hash && !mine.acked) { mine.acked = true; dirty = true; }
      // …then, once they are frozen with this page's hash in, the value.
      if (f.next.frozen && mineListed && mineListed.hash === mine.hash && !listed && (!mine.revealed || mine.revealFailed || m.fresh)) {
        mine.revealed = true;
        delete mine.revealFailed;
        saveMine(id, all);
        if (send({ type: 'contribute', commitment: mine.commitment, value: mine.value }) === false) mine.revealFailed = true;
        dirty = true;
      }
    }
  }
  if (dirty) saveMine(id, all);
}

// verifyHand fetches hand n's record and verifies it with what this page
// knows of its deal. token, the page's seat token at the table, shows the
// server that a player there asks: a duplicate or daily table's records
// are only its players' until the round is over.
export async function verifyHand(id, n, token) {
  const headers = { Accept: 'application/json' };
  if (token) headers['Pitch-Seat'] = token;
  const res = await fetch('/api/tables/' + encodeURIComponent(id) + '/hands/' + n, { headers });
  if (res.status === 404) {
    // The server says the finished hand has no record: that is a verdict.
    const status = res.status + ' ' + (await res.text()).slice(0, 200);
    return { ok: false, seed: '', checks: [], warnings: [], problems: [fillText(PROBLEMS.notServed, { Status: status })], scope: 'record' };
  }
  if (!res.ok) throw new Error(res.status + ' ' + (await res.text()).slice(0, 200));
  const rec = await res.json();
  const all = mineFor(id);
  const mine = all[n] ? { ...all[n] } : null;
  if (mine && mine.shared && rec && rec.fairness) mine.shared = { ...mine.shared, honoured: await publishedShared(mine.shared.event, n, rec.fairness.commitment) };
  if (mine && all[n - 1] && Number.isInteger(all[n - 1].dealer)) mine.prevDealer = all[n - 1].dealer;
  const r = await verifyRecord(rec, mine);
  r.scope = !mine || !mine.commitment ? 'record' : mine.seat >= 0 ? 'seated' : 'watched';
  return r;
}

// publishedShared reports whether event (its ID) published commitment as
// deal n of one of its rounds, as its page shows them (GET
// /api/events/ID's commitments): only then is a deal that takes no
// values a duplicate round's.
async function publishedShared(event, n, commitment) {
  if (!event) return false;
  try {
    const res = await fetch('/api/events/' + encodeURIComponent(event), { headers: { Accept: 'application/json' } });
    if (!res.ok) return false;
    const ev = await res.json();
    return (ev.commitments || []).some((round) => Array.isArray(round) && round[n - 1] === commitment);
  } catch (e) {
    return false;
  }
}

const results = {}; // "id/n" → the result shown, once verified

// showResult writes a verification's outcome into el.
function showResult(el, r) {
  const warned = r.ok && r.warnings && r.warnings.length > 0;
  el.classList.toggle('fair-ok', r.ok && !warned);
  el.classList.toggle('fair-warn', warned);
  el.classList.toggle('fair-bad', !r.ok);
  el.classList.remove('fair-off');
  const ok = r.scope === 'record' ? TEXT.okRecord : r.scope === 'watched' ? TEXT.okWatched : TEXT.ok;
  el.textContent = !r.ok ? TEXT.bad + r.problems.concat(r.warnings || []).join('; ') : warned ? TEXT.warn + r.warnings.join('; ') : ok;
  el.dataset.checks = r.checks.concat(r.seed ? ['seed ' + r.seed] : []).join('\n'); // for tools and tests: English, so not a tooltip
  el.dataset.verified = !r.ok ? 'bad' : warned ? 'warn' : 'ok';
  el.dataset.scope = r.scope || '';
}

// showOff says in el that the deals of table id cannot be checked: plainly
// at a table that never dealt fairly, as a failure at one that did.
function showOff(el, id) {
  const was = !!(mineFor(id).table || {}).fair;
  el.classList.remove('fair-ok', 'fair-warn');
  el.classList.toggle('fair-bad', was);
  el.classList.toggle('fair-off', !was);
  el.textContent = was ? TEXT.stopped : TEXT.off;
  el.title = '';
  el.dataset.verified = was ? 'bad' : 'off';
}

// summaryFair shows in the hand summary's el whether hand n's deal at
// table id (state m) checks: verified in the page, or not provable.
export function summaryFair(el, m, id, n, token) {
  el.hidden = false;
  if (m.fair) verifyInto(el, id, n, token); // the deal checked here, not taken on trust
  else showOff(el, id);
}

// verifyInto verifies hand n and shows the outcome in el.
export async function verifyInto(el, id, n, token) {
  const key = id + '/' + n;
  el.hidden = false;
  if (results[key]) { showResult(el, results[key]); return; }
  el.textContent = TEXT.verifying;
  el.dataset.verified = '';
  try {
    results[key] = await verifyHand(id, n, token);
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
// next commitment and its dealer, the hand's commitment, the last secret,
// a warning for a commitment the server replaced, and a Verify button for
// each finished hand. At a table without fair deals it says that its
// deals are not provable.
export function renderFair(box, m, id) {
  const panel = box.closest('section') || box;
  const f = m && m.fair;
  panel.hidden = false;
  const head = panel.querySelector('h2');
  if (head && head.textContent !== TEXT.title) head.textContent = TEXT.title;
  const finished = m.sheet.length;
  const all = mineFor(id);
  const key = JSON.stringify([f, finished, m.seat, !!(all.table || {}).fair]);
  if (key === drawn) return;
  drawn = key;
  if (!f) {
    const p = document.createElement('p');
    p.className = 'fair-result fair-verdict';
    showOff(p, id);
    box.replaceChildren(p);
    return;
  }
  const parts = [];
  for (const n of [f.hand && f.hand.hand, f.next && f.next.hand]) {
    const mine = n && all[n];
    for (const old of (mine && mine.replaced) || []) {
      const p = copyable(TEXT.replacedLive, old.commitment, 'replaced');
      p.classList.add('fair-result', 'fair-bad');
      parts.push(p);
    }
  }
  if (f.next) {
    const seat = m.table && m.table.seats && m.table.seats[f.next.dealer];
    const dealer = Number.isInteger(f.next.dealer) ? ' (' + TEXT.dealer + ' ' + ((seat && seat.name) || '#' + (f.next.dealer + 1)) + ')' : '';
    parts.push(copyable((f.dealing ? TEXT.handN + f.next.hand : TEXT.nextDeal) + dealer + ', ' + TEXT.commitment, f.next.commitment, 'next'));
    if (f.dealing) parts.push(Object.assign(document.createElement('p'), { className: 'hint fair-dealing', textContent: TEXT.dealing }));
    const mineNext = all[f.next.hand] || {};
    if (m.seat >= 0 && mineNext.acked && f.next.contributed.includes(m.seat)) parts.push(Object.assign(document.createElement('p'), { className: 'hint', textContent: TEXT.sent }));
    if (f.next.shared) parts.push(Object.assign(document.createElement('p'), { className: 'hint fair-shared', textContent: TEXT.shared }));
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
