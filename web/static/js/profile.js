// A player's profile (/u/NAME: the rating per game with a chart of its
// history, the record, the recent rated matches, the events joined) and the leaderboard
// (/leaderboard?game=…), from GET /api/users/{name} and GET
// /api/leaderboard (docs/protocol.md). The server works out every number;
// the page shows them. The chart is uPlot 1.6.32 (vendor/uplot).

import { t, num, currentLang } from './i18n.js';
import { drawDailyResults } from './daily.js';
import { $, h, api, showError, gameName, GAMES, ratingNode, changeText, listCell, profileURL } from './util.js';
import { whoami } from './account.js';
import uPlot from '../vendor/uplot/uPlot.esm.js';

const dateFmt = () => new Intl.DateTimeFormat(currentLang(), { dateStyle: 'medium' });

export async function initProfile(name) {
  document.title = t('profile.title', { Name: name }) + ' · Pitch';
  $('#profile-h').textContent = t('profile.title', { Name: name });
  let p, me;
  try {
    // Who is looking too, so that the link to their own account (above
    // the rest) is there from the first drawing: nothing moves down.
    [p, me] = await Promise.all([api('GET', '/api/users/' + encodeURIComponent(name)), whoami()]);
  } catch (e) {
    $('#profile').hidden = false;
    showError(e.message);
    return;
  }
  $('#profile-h').textContent = t('profile.title', { Name: p.name });
  document.title = t('profile.title', { Name: p.name }) + ' · Pitch';
  const games = $('#profile-games');
  games.replaceChildren();
  if (!p.ratings.length) games.append(h('p', { text: t('profile.none') }));
  for (const g of p.ratings) games.append(gameSection(g));
  // A table on a wide screen; on a phone a list, each cell under its
  // column's name (style.css, .as-list).
  const body = $('#profile-recent');
  body.replaceChildren(...p.recent.map((m) => h('tr', { dataset: { id: m.table } },
    h('td', { class: 'hist-game', text: gameName(m.game) }),
    listCell('history.date', { text: dateFmt().format(new Date(m.at)) }),
    listCell('profile.place', { text: m.won ? t('profile.won') : num(m.place) }),
    listCell('profile.rating', {}, ratingNode(m)),
    listCell('profile.change', { class: m.change < 0 ? 'down' : 'up', text: changeText(m.change) }),
    listCell('history.replays', {}, h('a', { href: '/t/' + encodeURIComponent(m.table), text: t('profile.replay') })))));
  $('#profile-recent-none').hidden = p.recent.length > 0;
  // The "?" of a provisional rating, said in words under the list.
  const legend = $('#profile-recent-legend');
  legend.hidden = !p.recent.some((m) => m.provisional);
  legend.textContent = t('rating.provisionalKey', { Mark: '?' });
  $('#profile-account').hidden = !me || me.name !== p.name;
  // The events and daily results below too, before the page shows: one
  // coming in after the other would move it.
  await Promise.all([drawDailyResults(p.name), drawEvents(p.name)]);
  $('#profile').hidden = false;
  // Charts last: their width is the width their section was given.
  for (const g of p.ratings) drawChart(g);
}

// drawEvents lists the events the player joined while signed in: each
// a link to its page, with their place and score as the server says.
async function drawEvents(name) {
  let list;
  try {
    list = await api('GET', '/api/users/' + encodeURIComponent(name) + '/events');
  } catch (e) {
    showError(e.message);
    return;
  }
  $('#profile-events').hidden = list.length === 0;
  $('#profile-events-list').replaceChildren(...list.map((ev) => {
    const score = ev.movement === 'duplicate' ? num(Math.round(ev.percent * 10) / 10) + '%' : t('profile.event.total', { Total: num(ev.total) });
    const facts = [ev.place ? t('profile.event.place', { Place: num(ev.place), Of: num(ev.of) }) : '', ev.place ? score : '',
      ev.state === 'over' ? '' : t('profile.event.playing'), ev.left ? t('event.gone') : ''].filter(Boolean);
    return h('li', { class: 'pf-event' },
      h('a', { href: '/e/' + encodeURIComponent(ev.event), text: gameName(ev.variant) + ' · ' + dateFmt().format(new Date(ev.joined)) }),
      facts.length ? ' · ' + facts.join(' · ') : '');
  }));
}

// gameSection is one game's rating and record.
function gameSection(g) {
  // Each figure is a pair (its name above it) in a cell of the grid, so
  // that a name and its figure stay together at every width.
  const stat = (key, value) => [h('div', { class: 'profile-stat' }, h('dt', { text: t(key) }), h('dd', { text: value }))];
  return h('section', { class: 'profile-game', id: 'profile-' + g.game },
    h('h2', { text: gameName(g.game) }),
    h('p', { class: 'profile-rating' },
      h('span', { class: 'profile-number' }, ratingNode(g)),
      g.provisional ? h('span', { class: 'hint', text: ' ' + t('profile.provisional') }) : ''),
    h('dl', { class: 'profile-stats' },
      ...stat('profile.matches', num(g.matches)),
      ...stat('profile.wins', num(g.wins)),
      ...stat('profile.bidsMade', num(g.bids - g.sets)),
      ...stat('profile.bidsSet', num(g.sets)),
      ...stat('profile.moons', num(g.moons)),
      ...stat('profile.pointsPerHand', g.hands ? (g.points / g.hands).toLocaleString(currentLang(), { maximumFractionDigits: 2 }) : '–')),
    h('div', { class: 'profile-chart', id: 'chart-' + g.game, role: 'img', 'aria-label': t('profile.chart', { Game: gameName(g.game) }) }));
}

// wholeSteps are the steps between the chart's x-axis ticks: matches are
// counted in whole numbers (1, 2, 5, 10, …), never 1.1 or 1.2.
const wholeSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

// drawChart draws a game's rating after each rated match (x: the match's
// number, y: the rating). The x-axis's labels, as drawn, are kept in the
// chart's data-x-ticks (for the tests).
function drawChart(g) {
  const box = $('#chart-' + g.game);
  if (!box || !g.history.length) return;
  const xs = g.history.map((_, i) => i + 1);
  const ys = g.history.map((p) => p.rating);
  const width = Math.max(200, Math.min(box.clientWidth || 300, 720));
  new uPlot({
    width, height: 200,
    legend: { show: false },
    cursor: { show: false },
    scales: { x: { time: false } },
    axes: [{
      label: t('profile.matchNo'), incrs: wholeSteps,
      values: (u, ticks) => {
        const out = ticks.map((v) => (Number.isInteger(v) ? num(v) : ''));
        box.dataset.xTicks = out.filter(Boolean).join('|');
        return out;
      },
    }, { size: 56, values: (u, ticks) => ticks.map((v) => num(v)) }],
    series: [{}, { label: t('profile.rating'), stroke: '#1b6b3a', width: 2, points: { show: ys.length < 40 } }],
  }, [xs, ys], box);
}

// ---------- the leaderboard ----------

// The leaderboard pages by place, not by offset (docs/ratings.md): a page
// is the first, the one after or before a cursor the server gave (a
// page's next and prev), or the last. The URL keeps the page, so a link
// or a reload shows it again.
const L = { game: 'pawnee', limit: 50, place: {} };
let board = null; // the page shown

export function initLeaderboard() {
  document.title = t('leaderboard.title') + ' · Pitch';
  const q = new URLSearchParams(location.search);
  if (GAMES[q.get('game')]) L.game = q.get('game');
  const limit = Number(q.get('limit'));
  if (Number.isInteger(limit) && limit >= 1 && limit <= 100) L.limit = limit;
  for (const k of ['after', 'before', 'last']) if (q.has(k)) { L.place = { [k]: q.get(k) }; break; }
  const sel = $('#leaderboard-game');
  sel.replaceChildren(...Object.keys(GAMES).map((v) => h('option', { value: v, selected: v === L.game }, gameName(v))));
  sel.addEventListener('change', () => { L.game = sel.value; go({}); });
  $('#leaderboard-top').addEventListener('click', () => go({}));
  $('#leaderboard-prev').addEventListener('click', () => go({ before: board.prev }));
  $('#leaderboard-next').addEventListener('click', () => go({ after: board.next }));
  $('#leaderboard-bottom').addEventListener('click', () => go({ last: '1' }));
  // Shown with its first page: rows coming in would move the pager.
  loadBoard().finally(() => { $('#leaderboard').hidden = false; });
}

function go(place) {
  L.place = place;
  return loadBoard();
}

async function loadBoard() {
  const q = { game: L.game, ...(L.limit !== 50 ? { limit: String(L.limit) } : {}), ...L.place };
  history.replaceState(null, '', '/leaderboard?' + new URLSearchParams(q));
  let page;
  try {
    page = await api('GET', '/api/leaderboard?' + new URLSearchParams({ ...q, limit: String(L.limit) }));
  } catch (e) {
    showError(e.message);
    // A link with a place the server does not take: show the first page.
    if (e.code === 'bad_page' && Object.keys(L.place).length) return go({});
    return;
  }
  board = page;
  $('#leaderboard-list').replaceChildren(...page.rows.map((r) => h('tr', {},
    h('td', { text: num(r.rank) }),
    h('td', {}, h('a', { href: profileURL(r.name), text: r.name })),
    h('td', { text: num(r.rating) }),
    h('td', { text: num(r.floor) }),
    h('td', { text: num(r.matches) }))));
  $('#leaderboard-none').hidden = page.rows.length > 0;
  $('#leaderboard-top').disabled = $('#leaderboard-prev').disabled = !page.prev;
  $('#leaderboard-next').disabled = $('#leaderboard-bottom').disabled = !page.next;
}
