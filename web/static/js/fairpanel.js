// Provably fair deals (docs/fairness.md) at the table: this page's random
// value for each deal, the commitments and dealers it was shown before
// each deal (kept in localStorage), and the fair-deal panel and the hand
// summary's verdict, from the check in fairness.js. It touches the page
// only when it draws, so that Node can import it too (the tests run
// onFairState and verifyHand).

import { bytesToHex, verifyRecord, translate as translateCheck } from './fairness.js';

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
  ok: '✓ Verified: this deal is the one the commitment and the players’ values fixed.',
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

// LATE_MS: a value sent this long before the page saw the deal reached
// the server before the deal, whatever the server says.
const LATE_MS = 1500;

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
// watching: it remembers the commitment and the dealer shown before each
// deal — never replacing a commitment silently — and, for a seated page,
// sends the page's own random value for the commitment (again after a
// reconnection, m.fresh, when the server does not list it). send is a
// message sender that says whether the message went out.
export function onFairState(id, m, send) {
  const f = m && m.fair;
  if (!f) return; // a table without fair deals: renderFair says so
  const all = mineFor(id);
  let dirty = false;
  if (!all.table) { all.table = { fair: true }; dirty = true; }
  // Deals this page now sees made: a value it sent well before is early.
  const dealtUpTo = f.next ? f.next.hand - 1 : f.last ? f.last.hand : 0;
  for (const [k, e] of Object.entries(all)) {
    if (!/^\d+$/.test(k) || Number(k) > dealtUpTo || e.seenDealt) continue;
    e.seenDealt = Date.now();
    if (e.sentAt && e.seenDealt - e.sentAt > LATE_MS) e.early = true;
    dirty = true;
  }
  if (f.next) {
    const n = f.next.hand;
    let mine = all[n];
    if (!mine) {
      mine = all[n] = { commitment: f.next.commitment, seat: m.seat };
      dirty = true;
    } else if (mine.commitment !== f.next.commitment) {
      // The server drew again: keep what it showed first, for the check.
      (mine.replaced = mine.replaced || []).push({ commitment: mine.commitment });
      mine.commitment = f.next.commitment;
      for (const k of ['value', 'acked', 'early', 'sentAt']) delete mine[k];
      dirty = true;
    }
    if (Number.isInteger(f.next.dealer) && !Number.isInteger(mine.dealer)) { mine.dealer = f.next.dealer; dirty = true; }
    if (m.seat >= 0 && !mine.value && mine.seat !== m.seat) { mine.seat = m.seat; dirty = true; }
    if (m.seat >= 0 && f.next.contributed.includes(m.seat)) {
      if (mine.value && !mine.acked) { mine.acked = true; dirty = true; }
    } else if (m.seat >= 0 && !m.match_over && !f.next.shared && (!mine.value || m.fresh)) { // a shared deal (duplicate) takes none
      if (!mine.value) {
        const v = new Uint8Array(32);
        crypto.getRandomValues(v);
        mine.value = bytesToHex(v);
        dirty = true;
      }
      saveMine(id, all); // kept before it is sent
      if (send({ type: 'contribute', commitment: mine.commitment, value: mine.value }) !== false) {
        if (!f.dealing) mine.early = true; // sent before the deal fell due
        if (!mine.sentAt) mine.sentAt = Date.now();
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
  if (!res.ok) throw new Error(res.status + ' ' + (await res.text()).slice(0, 200));
  const rec = await res.json();
  return verifyRecord(rec, mineFor(id)[n]);
}

const results = {}; // "id/n" → the result shown, once verified

// showResult writes a verification's outcome into el.
function showResult(el, r) {
  const warned = r.ok && r.warnings && r.warnings.length > 0;
  el.classList.toggle('fair-ok', r.ok && !warned);
  el.classList.toggle('fair-warn', warned);
  el.classList.toggle('fair-bad', !r.ok);
  el.classList.remove('fair-off');
  el.textContent = !r.ok ? TEXT.bad + r.problems.concat(r.warnings || []).join('; ') : warned ? TEXT.warn + r.warnings.join('; ') : TEXT.ok;
  el.dataset.checks = r.checks.concat(r.seed ? ['seed ' + r.seed] : []).join('\n'); // for tools and tests: English, so not a tooltip
  el.dataset.verified = !r.ok ? 'bad' : warned ? 'warn' : 'ok';
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
    const dealer = Number.isInteger(f.next.dealer) ? ' (' + TEXT.dealer + ' ' + ((seat && seat.name) || '#' + f.next.dealer) + ')' : '';
    parts.push(copyable((f.dealing ? TEXT.handN + f.next.hand : TEXT.nextDeal) + dealer + ', ' + TEXT.commitment, f.next.commitment, 'next'));
    if (f.dealing) parts.push(Object.assign(document.createElement('p'), { className: 'hint fair-dealing', textContent: TEXT.dealing }));
    if (m.seat >= 0 && f.next.contributed.includes(m.seat)) parts.push(Object.assign(document.createElement('p'), { className: 'hint', textContent: TEXT.sent }));
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
