// Duplicate results and daily deals (docs/events.md): the page of a
// duplicate deal (/e/ID/deals/R/N: how everyone who held each seat's
// cards did, with their replays once the round is over), the daily deals
// (/daily: today's events, one a game, their standings, the past days,
// each deal's page once a day is over) and a player's daily results on
// their profile. The server computes every matchpoint; the page shows
// what it says.

import { t, num, currentLang } from './i18n.js';
import { $, h, api, store, showError, gameName, botName, guestID } from './util.js';

const pct = (p) => num(Math.round(p * 10) / 10) + '%';

// dayText is a day the server names (2026-03-01, a UTC day) in the
// page's language: "1 March 2026", "2026年3月1日".
export function dayText(day) {
  const d = new Date(day + 'T00:00:00Z');
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat(currentLang(), { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}

// standingsTable is a table of standings by average percentage.
function standingsTable(st) {
  return h('div', { class: 'table-scroll' }, h('table', { class: 'ev-standings' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', text: t('event.col.place') }),
      h('th', { scope: 'col', text: t('event.col.name') }),
      h('th', { scope: 'col', text: t('event.col.percent') }))),
    h('tbody', {}, st.map((s) => h('tr', {},
      h('td', { text: num(s.place) }),
      h('td', { class: 'ev-name', text: s.name }),
      h('td', { text: pct(s.percent) }))))));
}

// dealLinks lists links to each deal's page of round 1 of event id.
function dealLinks(id, deals) {
  const links = [];
  for (let n = 1; n <= deals; n++) {
    links.push(h('li', {}, h('a', { href: '/e/' + encodeURIComponent(id) + '/deals/1/' + n, text: t('event.deal.n', { N: num(n) }) })));
  }
  return h('ul', { class: 'dl-deals' }, links);
}

// initDaily shows the daily deals of today, or of the day in ?day=.
export async function initDaily() {
  $('#daily').hidden = false;
  document.title = t('daily.title') + ' · Pitch';
  const day = new URLSearchParams(location.search).get('day') || '';
  let d, account = null;
  try {
    d = await api('GET', '/api/daily' + (day ? '?day=' + encodeURIComponent(day) : ''));
    account = (await api('GET', '/api/account')).account;
  } catch (e) {
    showError(e.message);
    return;
  }
  const today = !day;
  const closes = new Date(d.closes);
  // The day and the time it closes, both in the page's language.
  $('#dl-day').textContent = t(today ? 'daily.today' : 'daily.day', { Day: dayText(d.day), Time: new Intl.DateTimeFormat(currentLang(), { dateStyle: 'long', timeStyle: 'short' }).format(closes) });
  $('#dl-guest').hidden = !today || !!account;
  // The server says whether a guest plays unranked; the page says so.
  $('#dl-unranked').hidden = !!account || !d.guests_unranked;
  $('#dl-unranked').textContent = t('daily.unranked');
  $('#dl-name').value = store.get('pitch.name') || '';
  // Today, this person's part of each game, asked at once; the page is
  // drawn only when every answer is in, so nothing moves under a finger
  // (the past days' list below the games included).
  const guest = account ? '' : guestID();
  const mine = await Promise.all(d.games.map((g) => !today ? null
    : api('POST', '/api/daily/' + g.variant + '/me', account ? {} : { guest }).catch((e) => {
      showError(e.message);
      return null;
    })));
  $('#dl-games').replaceChildren(...(d.games.length ? d.games.map((g, i) => gameSection(g, mine[i], today, guest))
    : [h('p', { class: 'hint', text: t('daily.none') })]));
  $('#dl-past').replaceChildren(...(today ? d.past || [] : []).map((p) => h('li', {}, h('a', { href: '/daily?day=' + p, text: dayText(p) }))));
  // No past day to list: no panel at all (not an empty box).
  $('#dl-past-sec').hidden = !today || !(d.past || []).length;
  $('#dl-back').hidden = today;
}

// gameSection is one game's daily event: who played, this person's part,
// the standings, and each deal's page or when it opens.
function gameSection(g, me, today, guest) {
  const sec = h('section', { class: 'panel dl-game', 'aria-labelledby': 'dl-h-' + g.variant },
    h('h2', { id: 'dl-h-' + g.variant, text: gameName(g.variant) }),
    h('p', { class: 'hint', text: t('daily.about', { Count: g.deals, Level: t('level.' + g.bots) }) }),
    h('p', { text: g.players ? t('daily.players', { Count: g.players }) : t('daily.nobody') }));
  if (today && me) {
    if (me.seat) {
      // How far through the day's deals they are.
      if (me.deal) sec.append(h('p', { class: 'dl-you dl-progress', text: t('daily.progress', { N: num(me.deal), Of: num(me.deals) }) }));
      sec.append(h('p', {}, h('a', { class: 'button primary', href: '/t/' + encodeURIComponent(me.seat.table), text: t('daily.continue'),
        onclick: () => keepSeat(me.seat) })));
    } else if (me.played) {
      sec.append(h('p', { class: 'dl-you', text: me.standing ? t('daily.played', { Percent: pct(me.standing.percent), Place: num(me.standing.place), Of: num(g.standings.length) }) : t('daily.playedWait') }));
    } else {
      sec.append(h('p', {}, h('button', { type: 'button', class: 'primary dl-play', dataset: { game: g.variant }, text: t('daily.play'),
        onclick: () => play(g.variant, guest) })));
    }
  }
  if (g.standings.length) sec.append(h('h3', { text: t('event.standings') }), standingsTable(g.standings));
  sec.append(h('h3', { text: t('event.deals') }));
  sec.append(g.over ? dealLinks(g.event, g.deals) : h('p', { class: 'hint', text: t('daily.later') }));
  sec.append(h('details', { class: 'dl-commit' }, h('summary', { text: t('daily.commitments') }),
    h('ol', {}, g.commitments.map((c) => h('li', {}, h('code', { text: c }))))));
  return sec;
}

// keepSeat puts a seat's token where the table page looks for it.
function keepSeat(seat) {
  store.set('pitch.seat.' + seat.table, JSON.stringify({ seat: seat.seat, token: seat.seat_token, name: seat.name }));
}

async function play(game, guest) {
  const name = $('#dl-name').value.trim();
  if (guest && !name) {
    showError(t('join.err.name'));
    $('#dl-name').focus();
    return;
  }
  try {
    // Signed in, the browser's identity still goes along: a browser that
    // played the deals as a guest has seen them (the server refuses a
    // ranked try after it).
    const me = await api('POST', '/api/daily/' + game + '/play', guest ? { guest, name } : { guest: guestID() });
    if (guest) store.set('pitch.name', name);
    keepSeat(me.seat);
    location.assign('/t/' + encodeURIComponent(me.seat.table));
  } catch (e) {
    showError(e.message);
  }
}

// initDeal shows deal n of round r of event id.
export async function initDeal(id, r, n) {
  $('#deal').hidden = false;
  let d;
  try {
    d = await api('GET', '/api/events/' + encodeURIComponent(id) + '/deals/' + r + '/' + n);
  } catch (e) {
    showError(e.message);
    return;
  }
  const title = t('deal.title', { Deal: num(d.deal), Deals: num(d.deals), Game: gameName(d.variant) });
  document.title = title + ' · Pitch';
  $('#dd-title').textContent = title;
  const daily = /^daily-(\d{4})(\d{2})(\d{2})-/.exec(id);
  const back = $('#dd-back');
  back.href = daily ? '/daily?day=' + daily[1] + '-' + daily[2] + '-' + daily[3] : '/e/' + encodeURIComponent(id);
  back.textContent = t(daily ? 'daily.title' : 'deal.back');
  const base = '/e/' + encodeURIComponent(id) + '/deals/' + r + '/';
  $('#dd-prev').hidden = d.deal <= 1;
  $('#dd-prev').href = base + (d.deal - 1);
  $('#dd-next').hidden = d.deal >= d.deals;
  $('#dd-next').href = base + (d.deal + 1);
  $('#dd-commit').textContent = d.commitment || '';
  $('#dd-later').hidden = d.over;
  const out = $('#dd-seats');
  out.replaceChildren();
  for (const g of d.groups) {
    for (const row of g.rows) {
      out.append(h('section', { class: 'panel dd-seat' },
        h('h2', { text: t('seat.n', { N: num(row.seat + 1) }) + (d.groups.length > 1 ? ' · ' + t('deal.size', { N: num(g.seats) }) : '') }),
        h('div', { class: 'table-scroll' }, h('table', { class: 'ev-standings dd-table' },
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', text: t('event.col.name') }),
            h('th', { scope: 'col', text: t('deal.col.score') }),
            h('th', { scope: 'col', text: t('deal.col.mp') }),
            h('th', { scope: 'col', text: t('deal.col.replay') }))),
          h('tbody', {}, row.results.map((x) => h('tr', {},
            h('td', { class: 'ev-name' + (x.bot ? ' bot' : ''), text: x.name || botName(x.bot_no) }),
            h('td', { text: (x.result > 0 ? '+' : '') + num(x.result) }),
            h('td', {}, h('span', { text: num(x.points) + '/' + num(x.max) }), ' ', h('span', { text: '(' + pct(x.percent) + ')' })),
            h('td', {}, x.replay ? h('a', { href: x.replay, text: t('deal.replay') }) : '–'))))))));
    }
  }
  if (!d.groups.length) out.append(h('p', { class: 'panel hint', text: t('deal.none') }));
}

// drawDailyResults shows a player's daily results on their profile.
export async function drawDailyResults(name) {
  let list;
  try {
    list = await api('GET', '/api/users/' + encodeURIComponent(name) + '/daily');
  } catch (e) {
    return; // the profile itself says what went wrong
  }
  $('#profile-daily').hidden = list.length === 0;
  $('#profile-daily-list').replaceChildren(...list.map((x) => h('li', {},
    h('a', { href: '/daily?day=' + x.day, text: dayText(x.day) }), ' · ' + gameName(x.variant) + ': ',
    t('daily.result', { Percent: pct(x.percent), Place: num(x.place), Of: num(x.of) }))));
}
