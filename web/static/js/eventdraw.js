// What an event's page (js/event.js), its board (js/eventboard.js) and
// its print views (js/eventprint.js) draw alike from the event object the
// server sends (docs/protocol.md, Events): where the event stands, the
// standings, and the round's tables with who sits where.

import { t, num } from './i18n.js';
import { h, gameName, botName } from './util.js';

const STATES = { waiting: 'event.state.waiting', playing: 'event.state.playing', between: 'event.state.between', over: 'event.state.over' };

// gameOf is the event's game, named in the page's language.
export const gameOf = (ev) => gameName(ev.settings.variant);

// status says where the event is.
export function status(ev) {
  const p = { Round: ev.round, Rounds: ev.settings.rounds, Count: num(ev.people) };
  let text = t(STATES[ev.state], p);
  if (ev.state === 'playing' && ev.ended) text += ' ' + t('event.ended');
  else if (ev.state === 'playing' && ev.paused) text += ' ' + t('event.paused');
  return text;
}

// duplicate reports whether the event is scored by matchpoints.
export const duplicate = (ev) => ev.settings.movement === 'duplicate';

// scoreText is a standing's score: its total, or at a duplicate event its
// average matchpoint percentage.
export const scoreText = (ev, s) => (duplicate(ev) ? num(Math.round(s.percent * 10) / 10) + '%' : num(s.total));

// nameText is a standing's name, marked when they left (or the host
// withdrew them).
export const nameText = (s) => s.name + (s.left ? ' · ' + t(s.withdrawn ? 'event.withdrawn' : 'event.gone') : '');

// adjustedNotes are a standing's results the host adjusted, each with
// its reason (the director's desk).
export const adjustedNotes = (s) => (s.adjusted || []).map((a) =>
  h('span', { class: 'ev-note', text: t('event.adjusted', { Round: num(a.round), Table: num(a.table), Reason: a.reason }) }));

// drawStandings fills a table body with the first max standings of
// those sent. A phone is sent the first few (standings_count says of
// how many) and mine, its person's own line, which is added below them
// when it is not among them. The section's .ev-st-note says which
// rounds they count and how many are shown.
export function drawStandings(body, ev, max, mine) {
  const row = (s, cls) => h('tr', cls ? { class: cls } : {},
    h('td', { text: num(s.place) }),
    h('td', { class: 'ev-name' }, nameText(s), ...adjustedNotes(s)),
    h('td', { text: scoreText(ev, s) }));
  const shown = ev.standings.slice(0, max);
  const rows = shown.map((s) => row(s, mine && mine.entry === s.entry ? 'ev-mine' : ''));
  if (mine && !shown.some((s) => s.entry === mine.entry)) rows.push(row(mine, 'ev-mine ev-gap'));
  if (!rows.length) rows.push(h('tr', {}, h('td', { colspan: '3', class: 'hint', text: t('event.standings.none') })));
  body.replaceChildren(...rows);
  const sec = body.closest('section');
  const note = sec && sec.querySelector('.ev-st-note');
  if (note) {
    const parts = [];
    if (ev.state === 'playing' && !ev.settings.solo && ev.standings_after > 0) parts.push(t('event.standings.after', { Round: num(ev.standings_after) }));
    if (ev.standings_count > shown.length) parts.push(t('event.standings.top', { Shown: num(shown.length), Count: num(ev.standings_count) }));
    note.textContent = parts.join(' · ');
  }
  const head = body.closest('table').querySelector('.ev-score-h');
  if (head) head.textContent = t(duplicate(ev) ? 'event.col.percent' : 'event.col.total');
}

// teams reports whether the event's game has fixed partnerships, seated
// alternately, as the server says (ten-point, and auction played in
// partnerships): its tables are shown as their two sides. Pawnee's
// partners change every hand, so it has none.
export const teams = (ev) => !!ev.teams;

// seatName is one seat of a table: the person (or the bot), marked when a
// bot plays for them, and from the second round the table they came from.
function seatName(s, i) {
  return h('span', { class: 'ev-name' + (s.bot ? ' bot' : '') },
    (s.name || botName(s.bot_no)) + (s.bot && s.name ? ' (' + t(s.withdrawn ? 'event.withdrawn' : 'event.bot') + ')' : ''),
    s.from && s.from !== i + 1 ? h('span', { class: 'ev-from', title: t('event.from.title', { N: num(s.from) }) }, ' ' + t('event.from', { N: num(s.from) })) : '');
}

// seatList is a table's seats: one line a person, or at a game of fixed
// partnerships its two sides ("Ann & Cy v Bob & Di"), each with its
// score once the table has finished.
function seatList(ev, tab, i) {
  const score = (k) => (tab.result ? ' · ' + num(tab.result.scores[k]) : '');
  if (!teams(ev)) {
    return h('ul', {}, tab.seats.map((s, k) => h('li', { class: 'ev-seat' }, seatName(s, i), score(k))));
  }
  const sides = [0, 1].map((side) => tab.seats.map((s, k) => [s, k]).filter(([, k]) => k % 2 === side));
  // Each person's part of the line ("v Bob &") goes to the next line
  // whole when the line is full.
  return h('ul', { class: 'ev-sides' }, sides.map((side, n) => h('li', { class: 'ev-side' },
    side.map(([s], j) => [j ? ' ' : '', h('span', { class: 'ev-who' },
      n && !j ? h('span', { class: 'ev-vs' }, t('event.vs') + ' ') : '',
      seatName(s, i),
      j < side.length - 1 ? ' &' : score(side[0][1]))]).flat())));
}

// drawTables lists the latest round's tables with who sits where. On the
// board (opts.board) the tables are not links; opts.here marks table
// number here (a table card's address led to the page).
export function drawTables(list, ev, opts = {}) {
  const { board = false, here = 0 } = opts;
  const round = ev.rounds[ev.rounds.length - 1] || [];
  list.replaceChildren(...round.map((tab, i) => h('li', { class: 'ev-table' + (tab.result ? ' done' : '') + (here === i + 1 ? ' ev-here' : ''), 'aria-current': here === i + 1 ? 'location' : null },
    h(board || !tab.table ? 'div' : 'a', board || !tab.table ? { class: 'ev-table-h' } : { class: 'ev-table-h', href: '/t/' + encodeURIComponent(tab.table) + '?watch=1' },
      t('event.table', { N: i + 1 })),
    seatList(ev, tab, i))));
  if (!round.length) list.replaceChildren(h('li', { class: 'hint', text: t('event.noTables') }));
}
