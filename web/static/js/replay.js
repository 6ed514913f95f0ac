// The replay of a finished hand, step by step with every hand face up,
// and its review: /t/ID/hands/N for a table's hand, /replay for a hand
// record file. The server replays the record with the engine and sends
// every step (docs/protocol.md); this page only shows them.

import { t, num } from './i18n.js';
import { $, h, api, errorText, showError, cardNode, cardText, suitName, SUITS, gameName, POINT_KEYS, seatLabel, seatNo } from './util.js';
import { matchReview } from './matchreview.js';

const R = { data: null, k: 0, id: '', n: 0, reviews: {} };

export function initReplay(id, n) {
  R.id = id || '';
  R.n = n || 0;
  $('#replay').hidden = false;
  document.title = t('replay.title') + ' · Pitch';
  $('#rp-first').addEventListener('click', () => go(0));
  $('#rp-prev').addEventListener('click', () => go(R.k - 1));
  $('#rp-next').addEventListener('click', () => go(R.k + 1));
  $('#rp-last').addEventListener('click', () => go(R.data ? R.data.steps.length - 1 : 0));
  document.addEventListener('keydown', (e) => {
    if (!R.data || e.target.closest('input, select, textarea')) return;
    const to = { ArrowLeft: R.k - 1, ArrowRight: R.k + 1, Home: 0, End: R.data.steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  $('#rp-review-go').addEventListener('click', () => review(Number($('#rp-review-seat').value)));
  if (id) {
    $('#rp-drop').hidden = true;
    $('#rp-back').href = '/t/' + encodeURIComponent(id);
    $('#rp-back').hidden = false;
    api('GET', `/api/tables/${encodeURIComponent(id)}/hands/${n}/replay`).then(show).catch((e) => showError(t('replay.err', { Why: e.message })));
  } else {
    $('#rp-back').hidden = true;
    const input = $('#rp-file');
    input.addEventListener('change', () => input.files[0] && load(input.files[0]));
    const zone = $('#rp-drop');
    zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('over'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('over');
      if (e.dataTransfer.files[0]) load(e.dataTransfer.files[0]);
    });
  }
}

// load replays a hand record file through POST /api/replay.
async function load(file) {
  R.file = await file.text();
  try {
    const res = await fetch('/api/replay', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: R.file });
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new Error(data ? errorText(data.code, data.params, data.error) : String(res.status));
    show(data);
  } catch (e) {
    showError(t('replay.err', { Why: e.message }));
  }
}

// nameOf names a seat: as the table did, or "Seat N" for a record loaded
// from a file (it holds no names).
function nameOf(seat) {
  const s = R.data && R.data.seats && R.data.seats[seat];
  return s ? seatLabel(s, seat) : t('seat.n', { N: seatNo(seat) });
}

// verb is an action without its actor; the server says which bid is the
// moon.
function verb(a) {
  if ('bid' in a) return t(R.data.moon && a.bid === R.data.moon ? 'move.moon' : 'move.bid', { Bid: a.bid });
  if ('pass' in a) return t('move.pass');
  if ('call' in a) return t('move.call', { Card: cardText(a.call) });
  if ('trump' in a) return t('move.trump', { Suit: SUITS[a.trump].sym + ' ' + suitName(a.trump) });
  if ('give_stock' in a) return t(a.give_stock ? 'move.giveStock' : 'move.keepStock');
  if ('pass_trumps' in a) return t('move.passTrumps', { Cards: a.pass_trumps.map(cardText).join(' ') });
  if ('discard' in a) return t(R.variant === 'ten-point' ? 'move.burn' : 'move.discard', { Cards: a.discard.map(cardText).join(' ') });
  if ('play' in a) return t('move.play', { Card: cardText(a.play) });
  return '';
}

function show(data) {
  R.data = data;
  R.rec = JSON.parse(JSON.stringify(data.record));
  R.variant = data.record.variant;
  const seats = data.record.deal.hands.length;
  $('#rp-title').textContent = gameName(R.variant) + (R.n ? ' · ' + t('records.hand', { N: R.n }) : '');
  $('#rp-review-seat').replaceChildren(...Array.from({ length: seats }, (_, i) => h('option', { value: String(i) }, nameOf(i))));
  $('#rp-main').hidden = false;
  $('#rp-review').hidden = false;
  $('#rp-all').hidden = !R.id;
  $('#rp-match').hidden = !R.id;
  if (R.id) {
    $('#rp-all').onclick = () => { for (let i = 0; i < seats; i++) review(i, true); };
    R.match = matchReview($('#rp-match'), R.id, Array.from({ length: seats }, (_, i) => nameOf(i)), handSummary);
    // The table page's "Review the match" link comes here with #match.
    if (location.hash === '#match') {
      $('#rp-match').scrollIntoView();
      R.match.start('');
    }
  }
  go(0);
}

function go(k) {
  const steps = R.data.steps;
  R.k = Math.max(0, Math.min(steps.length - 1, k));
  const st = steps[R.k];
  const v = st.view;
  $('#rp-step').textContent = t('replay.step', { N: R.k, Total: steps.length - 1 });
  let line = t('replay.deal');
  if (st.action) {
    line = t('move.line', { Who: nameOf(st.action.seat), Move: verb(st.action) });
    if (st.auto) line = t('replay.auto', { Line: line });
  }
  $('#rp-action').textContent = line;
  $('#rp-first').disabled = $('#rp-prev').disabled = R.k === 0;
  $('#rp-next').disabled = $('#rp-last').disabled = R.k === steps.length - 1;
  const trumps = new Set(v.trumps);
  const rows = st.hands.map((cards, seat) => h('li', { class: 'rp-seat' + (v.turn === seat ? ' to-act' : ''), dataset: { seat: String(seat) } },
    h('div', { class: 'rp-who' }, h('strong', { text: nameOf(seat) }),
      h('span', { class: 'hint', text: ' ' + t('replay.taken', { Points: st.taken[seat] }) })),
    h('div', { class: 'rp-cards', dataset: { cards: cards.join(' ') } },
      cards.map((c) => cardNode(c, { trump: trumps.has(c) }))))); // sorted by the server
  showTrick(st, trumps);
  $('#rp-seats').replaceChildren(...rows);
  const pts = st.points.map((p) => t(POINT_KEYS[p.kind] || p.kind) + (p.card ? ' ' + cardText(p.card) : '') + ' → ' + nameOf(p.seat));
  $('#rp-points').textContent = pts.length ? pts.join(' · ') : '';
  const end = R.k === steps.length - 1 && R.data.result;
  $('#rp-result').hidden = !end;
  if (end) {
    const r = R.data.result;
    $('#rp-result').textContent = t(r.made ? 'replay.made' : 'replay.set', { Who: nameOf(r.bidder), Bid: r.bid }) + ' ' +
      t('replay.scores', { Scores: r.scores.map((s, i) => nameOf(i) + ' ' + num(s)).join(', ') });
  }
  markDecision();
}

// showTrick draws the trick on the table in its own area, each card with
// the name of the one who played it: the trick being played, or, just
// after its last card, the trick completed and who takes it.
function showTrick(st, trumps) {
  const v = st.view;
  const done = !v.trick.length && R.k > 0 && st.action && 'play' in st.action;
  const trick = v.trick.length ? v.trick : done ? v.last_trick : [];
  $('#rp-trick-cards').replaceChildren(...trick.map((x) => h('li', { class: 'rp-tcard' + (done && x.seat === v.last_winner ? ' wins' : ''), dataset: { seat: String(x.seat), card: x.card } },
    cardNode(x.card, { trump: trumps.has(x.card), note: t('trick.playedBy', { Who: nameOf(x.seat) }) }),
    h('span', { class: 'rp-tname', 'aria-hidden': 'true', text: nameOf(x.seat) }))));
  $('#rp-trick-note').textContent = !trick.length ? t('replay.trickNone') : done ? t('trick.takes', { Who: nameOf(v.last_winner) }) : '';
}

// review asks for the review of seat (polling while it is queued) and
// shows it.
async function review(seat, quiet) {
  const out = $('#rp-review-out');
  if (!quiet) out.replaceChildren(h('p', { class: 'hint', text: t('review.pending') }));
  try {
    let r;
    if (R.id) {
      for (let i = 0; i < 600; i++) {
        const res = await fetch(`/api/tables/${encodeURIComponent(R.id)}/hands/${R.n}/review?seat=${seat}`);
        const data = await res.json().catch(() => null);
        if (res.status === 200) { r = data.review; break; }
        if (res.status !== 202) throw new Error(data ? errorText(data.code, data.params, data.error) : String(res.status));
        await new Promise((ok) => setTimeout(ok, 1000));
      }
      if (!r) throw new Error(t('review.slow'));
      summary();
    } else {
      const res = await fetch('/api/review?seat=' + seat, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: R.file });
      const data = await res.json().catch(() => null);
      if (!res.ok) throw new Error(data ? errorText(data.code, data.params, data.error) : String(res.status));
      r = data.review;
    }
    R.reviews[seat] = r;
    if (!quiet || Number($('#rp-review-seat').value) === seat) renderReview(r);
  } catch (e) {
    out.replaceChildren(h('p', { class: 'error', text: t('review.err', { Why: e.message }) }));
  }
}

function renderReview(r) {
  R.review = r;
  const out = $('#rp-review-out');
  const head = h('p', { text: t('review.count', { Who: nameOf(r.seat), Mistakes: r.mistakes, Blunders: r.blunders, Loss: r.loss.toFixed(2) }) });
  if (!r.decisions.length) { out.replaceChildren(head, h('p', { class: 'hint', text: t('review.none') })); return; }
  const items = r.decisions.map((d) => {
    const verdict = t({ mistake: 'review.mistake', blunder: 'review.blunder' }[d.verdict] || 'review.ok');
    const opts = d.options.map((o) => h('li', { class: o.action.seat === d.played.seat && JSON.stringify(o.action) === JSON.stringify(d.played) ? 'played' : '' },
      verb(o.action) + ': ' + (o.value >= 0 ? '+' : '') + o.value.toFixed(2) +
      (o.made != null ? ' · ' + t('review.made', { P: Math.round(o.made * 100) }) : '') +
      (JSON.stringify(o.action) === JSON.stringify(d.played) ? ' · ' + t('review.played') : '')));
    const kids = [
      h('button', { type: 'button', class: 'linkish', onclick: () => { go(stepBefore(d.index)); showBoard(); } },
        t('review.line', { N: d.index + 1, Move: verb(d.played), Verdict: verdict })),
    ];
    if (d.loss > 0) kids.push(h('div', { class: 'hint', text: t('review.loss', { Loss: d.loss.toFixed(2), Best: verb(d.best) }) }));
    kids.push(h('ul', { class: 'rp-options' }, opts));
    if (d.hindsight) kids.push(h('div', { class: 'hint', text: t('review.hindsight', { Best: verb(d.hindsight.best) }) }));
    return h('li', { class: 'rp-decision ' + (d.verdict || 'ok'), dataset: { index: String(d.index) } }, kids);
  });
  out.replaceChildren(head, h('ol', { class: 'rp-decisions' }, items));
  markDecision();
}

// showBoard brings the board (the step's line, the trick and the hands)
// into view when a decision is chosen in the review below it.
function showBoard() {
  const line = $('#rp-action').getBoundingClientRect(), trick = $('#rp-trick').getBoundingClientRect();
  if (line.top >= 0 && trick.bottom <= innerHeight) return;
  $('#rp-main').scrollIntoView({ block: 'start' });
}

// stepBefore is the step at which the decision of action i was taken.
function stepBefore(i) {
  const steps = R.data.steps;
  let k = 0;
  while (k + 1 < steps.length && steps[k + 1].index < i) k++;
  while (k + 1 < steps.length && steps[k + 1].index === i && steps[k + 1].auto) k++;
  return k;
}

function markDecision() {
  if (!R.data || !R.review) return;
  const next = R.data.steps[R.k + 1];
  for (const li of document.querySelectorAll('.rp-decision')) {
    li.classList.toggle('current', !!next && Number(li.dataset.index) === next.index && !next.auto);
  }
}

// summary shows the reviews made so far again: the match's, and the
// hand's by handSummary.
function summary() {
  if (R.match) R.match.refresh();
}

// handSummary shows the hand's reviews made so far, by seat, from what
// GET or POST …/reviews answered.
function handSummary(all) {
  const mine = all.reviews.filter((x) => x.hand === R.n).sort((a, b) => a.seat - b.seat);
  $('#rp-summary').replaceChildren(
    h('p', { class: 'hint', text: t('review.handSummary') }),
    h('ul', {}, mine.map((x) => h('li', { dataset: { seat: String(x.seat) }, text: t('review.count', { Who: nameOf(x.seat), Mistakes: x.mistakes, Blunders: x.blunders, Loss: x.loss.toFixed(2) }) }))));
}
