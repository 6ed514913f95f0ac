// The review of a whole match: every finished hand's review for one seat
// or every seat, asked of the server (POST /api/tables/{id}/reviews), which
// queues them a few at a time; this page asks again as it is told until
// all are made, and shows the mistakes and blunders counted by seat as
// they come in. Used by the replay page and the history.

import { t, num } from './i18n.js';
import { h, errorText } from './util.js';

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// matchReview fills box (an element with an id) with the match review of
// table id: the seats to review, the button, the progress and the summary
// by seat. names are the seats' names; onShow, if given, is told each
// answer of the server (GET or POST …/reviews) shown. It returns
// { start(seat), refresh(), stop() }: start reviews the match for seat (''
// for every seat); refresh shows the reviews made so far again; stop
// stops asking.
export function matchReview(box, id, names, onShow) {
  const M = { running: false, stopped: false, last: null };
  const base = '/api/tables/' + encodeURIComponent(id) + '/reviews';
  const sel = h('select', { id: box.id + '-seat' },
    h('option', { value: '' }, t('review.everySeat')),
    names.map((n, i) => h('option', { value: String(i) }, n)));
  const go = h('button', { type: 'button', class: 'mr-go' }, t('review.matchButton'));
  const progress = h('p', { class: 'mr-progress', 'aria-live': 'polite' });
  const list = h('ul', { class: 'mr-seats' });
  box.replaceChildren(
    h('h3', { text: t('review.matchTitle') }),
    h('div', { class: 'mr-ask' }, h('label', { for: sel.id, text: t('review.matchSeats') }), ' ', sel, ' ', go),
    progress,
    h('p', { class: 'hint', text: t('review.matchSummary') }),
    list);
  go.addEventListener('click', () => start(sel.value));
  sel.addEventListener('change', () => { if (M.last && !M.running) show(M.last, ''); });

  // show draws the counts: data is what GET or POST …/reviews answers.
  function show(data, note) {
    M.last = data;
    if (onShow) onShow(data);
    const seats = sel.value === '' ? names.map((_, i) => i) : [Number(sel.value)];
    const made = new Set(data.reviews.map((x) => x.hand + '/' + x.seat));
    let whole = 0;
    for (let n = 1; n <= data.hands; n++) if (seats.every((s) => made.has(n + '/' + s))) whole++;
    // One count of hands reviewed: each seat's, on its line below. This
    // line says only what is going on (working, busy, failed); its data
    // keeps the hands reviewed for every seat asked for.
    progress.textContent = note || '';
    progress.dataset.done = String(whole);
    progress.dataset.total = String(data.hands);
    list.replaceChildren(...names.map((name, seat) => {
      const mine = data.reviews.filter((x) => x.seat === seat).sort((a, b) => a.hand - b.hand);
      const sum = (k) => mine.reduce((a, x) => a + x[k], 0);
      const bad = mine.filter((x) => x.mistakes + x.blunders > 0);
      const kids = [t('review.matchCount', { Who: name, Mistakes: sum('mistakes'), Blunders: sum('blunders') }) +
        ' · ' + t('review.matchHands', { N: num(mine.length), Total: num(data.hands) })];
      if (bad.length) {
        kids.push(' · ' + t('review.matchWhere') + ' ');
        for (const x of bad) kids.push(h('a', { href: `/t/${encodeURIComponent(id)}/hands/${x.hand}`, class: 'hand-link' }, t('records.hand', { N: x.hand })), ' ');
      }
      return h('li', { dataset: { seat: String(seat), mistakes: String(sum('mistakes')), blunders: String(sum('blunders')), hands: String(mine.length) } }, kids);
    }));
  }

  async function refresh() {
    try {
      const res = await fetch(base);
      const data = await res.json().catch(() => null);
      if (res.ok && data) show(data, M.running ? t('review.pending') : '');
    } catch (e) { /* the summary is an extra */ }
  }

  // start asks the server for the match's reviews until all are made:
  // a full queue only makes it wait, as the server says.
  async function start(seat) {
    if (M.running) return;
    M.running = true;
    go.disabled = true;
    sel.value = seat;
    try {
      while (!M.stopped) {
        let res, data;
        try {
          res = await fetch(base + (seat === '' ? '' : '?seat=' + seat), { method: 'POST' });
          data = await res.json().catch(() => null);
        } catch (e) {
          throw new Error(t('err.unreachable'));
        }
        const wait = 1000 * (Number(res.headers.get('Retry-After')) || 1);
        if (res.status === 429 || res.status === 503) { // too many requests, or the store is away a moment
          if (M.last) show(M.last, t('review.matchBusy'));
          await sleep(Math.max(wait, 2000));
          continue;
        }
        if (!data || (res.status !== 200 && res.status !== 202)) throw new Error(data ? errorText(data.code, data.params, data.error) : String(res.status));
        if (res.status === 200) { show(data, data.failed ? t('review.matchFailed', { N: data.failed }) : ''); break; }
        show(data, data.busy ? t('review.matchBusy') : t('review.pending'));
        await sleep(wait);
      }
    } catch (e) {
      progress.textContent = t('review.err', { Why: e.message });
    } finally {
      M.running = false;
      go.disabled = false;
    }
  }

  refresh();
  return { start, refresh, stop() { M.stopped = true; } };
}
