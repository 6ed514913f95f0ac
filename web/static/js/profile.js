// A player's profile (/u/NAME: the rating per game with a chart of its
// history, the record, the recent rated matches, the events joined) and the leaderboard
// (/leaderboard?game=…), from GET /api/users/{name} and GET
// /api/leaderboard (docs/protocol.md). The server works out every number;
// the page shows them. The chart is uPlot 1.6.32 (vendor/uplot).

import { t, num, currentLang } from './i18n.js';
import { drawDailyResults } from './daily.js';
import { $, h, api, showError, gameName, GAMES, ratingText, changeText } from './util.js';
import uPlot from '../vendor/uplot/uPlot.esm.js';

const dateFmt = () => new Intl.DateTimeFormat(currentLang(), { dateStyle: 'medium' });

export async function initProfile(name) {
  $('#profile').hidden = false;
  document.title = t('profile.title', { Name: name }) + ' · Pitch';
  $('#profile-h').textContent = t('profile.title', { Name: name });
  let p;
  try {
    p = await api('GET', '/api/users/' + encodeURIComponent(name));
  } catch (e) {
    showError(e.message);
    return;
  }
  $('#profile-h').textContent = t('profile.title', { Name: p.name });
  document.title = t('profile.title', { Name: p.name }) + ' · Pitch';
  const games = $('#profile-games');
  games.replaceChildren();
  if (!p.ratings.length) games.append(h('p', { text: t('profile.none') }));
  for (const g of p.ratings) games.append(gameSection(g));
  const body = $('#profile-recent');
  body.replaceChildren(...p.recent.map((m) => h('tr', {},
    h('td', { text: gameName(m.game) }),
    h('td', { text: dateFmt().format(new Date(m.at)) }),
    h('td', { text: m.won ? t('profile.won') : num(m.place) }),
    h('td', { text: ratingText(m) }),
    h('td', { class: m.change < 0 ? 'down' : 'up', text: changeText(m.change) }),
    h('td', {}, h('a', { href: '/t/' + encodeURIComponent(m.table), text: t('profile.replay') })))));
  $('#profile-recent-none').hidden = p.recent.length > 0;
  // Charts last: their width is the width their section was given.
  for (const g of p.ratings) drawChart(g);
  drawDailyResults(p.name);
  drawEvents(p.name);
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
  const stat = (key, value) => [h('dt', { text: t(key) }), h('dd', { text: value })];
  return h('section', { class: 'profile-game', id: 'profile-' + g.game },
    h('h2', { text: gameName(g.game) }),
    h('p', { class: 'profile-rating' },
      h('span', { class: 'profile-number', text: ratingText(g) }),
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

// drawChart draws a game's rating after each rated match (x: the match's
// number, y: the rating).
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
    axes: [{ label: t('profile.matchNo') }, { size: 56 }],
    series: [{}, { label: t('profile.rating'), stroke: '#1b6b3a', width: 2, points: { show: ys.length < 40 } }],
  }, [xs, ys], box);
}

// ---------- the leaderboard ----------

const L = { game: 'pawnee', offset: 0, limit: 50 };

export function initLeaderboard() {
  $('#leaderboard').hidden = false;
  document.title = t('leaderboard.title') + ' · Pitch';
  const q = new URLSearchParams(location.search);
  if (GAMES[q.get('game')]) L.game = q.get('game');
  L.offset = Math.max(0, Number(q.get('offset')) || 0);
  const sel = $('#leaderboard-game');
  sel.replaceChildren(...Object.keys(GAMES).map((v) => h('option', { value: v, selected: v === L.game }, gameName(v))));
  sel.addEventListener('change', () => { L.game = sel.value; L.offset = 0; loadBoard(); });
  $('#leaderboard-prev').addEventListener('click', () => { L.offset = Math.max(0, L.offset - L.limit); loadBoard(); });
  $('#leaderboard-next').addEventListener('click', () => { L.offset += L.limit; loadBoard(); });
  loadBoard();
}

async function loadBoard() {
  history.replaceState(null, '', '/leaderboard?' + new URLSearchParams({ game: L.game, ...(L.offset ? { offset: String(L.offset) } : {}) }));
  let page;
  try {
    page = await api('GET', '/api/leaderboard?' + new URLSearchParams({ game: L.game, offset: String(L.offset), limit: String(L.limit) }));
  } catch (e) {
    showError(e.message);
    return;
  }
  $('#leaderboard-list').replaceChildren(...page.rows.map((r) => h('tr', {},
    h('td', { text: num(r.rank) }),
    h('td', {}, h('a', { href: '/u/' + encodeURIComponent(r.name), text: r.name })),
    h('td', { text: num(r.rating) }),
    h('td', { text: num(r.matches) }))));
  $('#leaderboard-none').hidden = page.rows.length > 0;
  $('#leaderboard-prev').disabled = L.offset === 0;
  $('#leaderboard-next').disabled = !page.more;
}
