// The history: the server's matches, newest first, paged and by game
// (/history; /history?tables=ID,ID for the tables this browser sat at),
// each with its hands' replays, the whole match as one file, and the
// review of the whole match.

import { t, num } from './i18n.js';
import { $, h, api, showError, gameName, GAMES, seatLabel, listCell } from './util.js';
import { matchReview } from './matchreview.js';

const H = { offset: 0, limit: 20, game: '', tables: '', review: null };

export function initHistory() {
  document.title = t('history.title') + ' · Pitch';
  const q = new URLSearchParams(location.search);
  H.tables = q.get('tables') || '';
  H.game = q.get('game') || '';
  $('#history-h').textContent = t(H.tables ? 'history.mine' : 'history.title');
  const sel = $('#history-game');
  sel.replaceChildren(h('option', { value: '' }, t('history.any')),
    ...Object.keys(GAMES).map((v) => h('option', { value: v, selected: v === H.game }, gameName(v))));
  sel.addEventListener('change', () => { H.game = sel.value; H.offset = 0; load(); });
  $('#history-newer').addEventListener('click', () => { H.offset = Math.max(0, H.offset - H.limit); load(); });
  $('#history-older').addEventListener('click', () => { H.offset += H.limit; load(); });
  // Shown with its first page: rows coming in would move the pager.
  load().finally(() => { $('#history').hidden = false; });
}

async function load() {
  const q = new URLSearchParams({ offset: String(H.offset), limit: String(H.limit) });
  if (H.game) q.set('game', H.game);
  if (H.tables) q.set('tables', H.tables);
  let page;
  try {
    page = await api('GET', '/api/history?' + q);
  } catch (e) {
    showError(e.message);
    return;
  }
  const body = $('#history-list');
  if (!page.tables.length) {
    body.replaceChildren(h('tr', {}, h('td', { colspan: '6', class: 'hint', text: t('history.none') })));
  } else {
    body.replaceChildren(...page.tables.map(row));
  }
  $('#history-page').textContent = page.total ? t('history.page', { From: page.offset + 1, To: page.offset + page.tables.length, Total: page.total }) : '';
  $('#history-newer').disabled = page.offset === 0;
  $('#history-older').disabled = page.offset + page.limit >= page.total;
}

function row(tb) {
  const names = tb.seats.map((s, i) => seatLabel(s, i));
  // A finished table with no winner is an event's round that ended
  // (after its hands, or its time) before anyone reached the target.
  let result = t(tb.closed ? 'lobby.state.closed' : tb.finished ? (tb.round ? 'history.roundOver' : 'lobby.state.over') : 'history.running');
  if (tb.winner && tb.winner.length) result = t('history.won', { Who: tb.winner.map((i) => names[i]).join(' & ') });
  if (tb.scores) result += ' · ' + tb.scores.map(num).join(', ');
  const hands = [];
  for (let n = 1; n <= tb.hands; n++) hands.push(h('a', { href: `/t/${tb.id}/hands/${n}`, class: 'hand-link' }, t('records.hand', { N: n })), ' ');
  const date = new Date(tb.created);
  return h('tr', { dataset: { id: tb.id } },
    h('td', { class: 'hist-game' }, h('a', { href: tb.url }, gameName(tb.variant))),
    listCell('history.players', {}, names.join(', ')),
    listCell('history.result', {}, result),
    listCell('history.date', {}, h('time', { datetime: tb.created, text: date.toLocaleString() })),
    listCell('history.hands', {}, num(tb.hands)),
    listCell('history.replays', {}, hands, tb.hands ? [
      h('a', { href: `/api/tables/${tb.id}/match`, download: `pitch-${tb.id}-match.json` }, t('history.download')), ' ',
      h('button', { type: 'button', class: 'linkish review-match', onclick: () => reviewMatch(tb, names) }, t('review.matchButton')),
    ] : null));
}

// reviewMatch opens the review of a match below the list and starts it
// for every seat.
function reviewMatch(tb, names) {
  const panel = $('#history-review');
  panel.hidden = false;
  $('#history-review-h').textContent = t('review.matchOf', { Game: gameName(tb.variant), Players: names.join(', ') });
  panel.dataset.id = tb.id;
  if (H.review) H.review.stop();
  H.review = matchReview($('#history-mr'), tb.id, names);
  H.review.start('');
  panel.scrollIntoView();
}
