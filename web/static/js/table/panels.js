// The side panels: the score sheet, the last trick, the cards out of
// play, the log, the hand records and the chat.

import { seatNo, $, h, api, cardNode } from '../util.js';
import { t, num } from '../i18n.js';
import { app, seatName, nameOf, nameAt, describe, signed } from './state.js';
import { sendMsg } from './connection.js';
import { handovers } from '../playnow.js';

// ---------- the side panels ----------

// renderSheet draws the score sheet: a column per seat headed by its
// number (as on its box at the table) and its name, which wraps rather
// than being cut, so that every column can be told apart at seven seats
// in any language; the bid column says the bid and whether it was made,
// and the bidder's score is framed.
export function renderSheet(m) {
  const n = m.table.seats.length;
  const sheet = $('#sheet');
  sheet.classList.toggle('many', n >= 6); // narrow columns (style.css)
  const head = h('tr', {}, h('th', { scope: 'col', text: '#' }), h('th', { scope: 'col', text: t('sheet.bid') }),
    ...Array.from({ length: n }, (_, i) => h('th', { scope: 'col', class: 'who' + (i === m.seat ? ' me' : ''), title: nameOf(i) },
      h('span', { class: 's-num', text: seatNo(i) }), h('span', { class: 'nm', text: seatName(i) }))));
  // Each hand names the seats' holders then: a play-now seat taken over
  // or left says so above the first hand of its new holder.
  const who = nameAt;
  const rows = m.sheet.flatMap((r) => [...handovers(m, r, n + 2), h('tr', { class: r.made ? 'made' : 'set' },
    h('th', { scope: 'row' }, h('a', { href: '/t/' + encodeURIComponent(app.id) + '/hands/' + r.hand, class: 'replay-link', title: t('records.replay') }, num(r.hand))),
    h('td', { title: t(r.made ? 'result.made' : 'result.set', { Who: who(r.bidder, r.hand), Bid: r.bid }) },
      num(r.bid) + ' ', h('span', { class: r.made ? 'ok' : 'bad', text: r.made ? '✓' : '✗' }),
      h('span', { class: 'sr-only', text: ' ' + t(r.made ? 'result.made' : 'result.set', { Who: who(r.bidder, r.hand), Bid: r.bid }) })),
    ...r.scores.map((s, i) => h('td', { class: (i === m.seat ? 'me' : '') + (i === r.bidder ? ' bidder' : ''), title: who(i, r.hand) }, h('span', { class: 'sc', text: num(s) }), ' ',
      h('span', { class: 'delta ' + (r.delta[i] > 0 ? 'up' : r.delta[i] < 0 ? 'down' : ''), text: '(' + signed(r.delta[i]) + ')' }))))]);
  const cap = h('caption', { class: 'hint', text: t(m.sheet.length ? 'sheet.caption' : 'sheet.empty') });
  sheet.replaceChildren(cap, h('thead', {}, head), h('tbody', {}, rows));
}

function shortName(i, len) {
  len = len || 8;
  const n = seatName(i);
  return n.length > len ? n.slice(0, len - 1) + '…' : n;
}

export function renderLastTrick(m) {
  const v = m.view, trumps = new Set(v.trumps);
  const box = $('#last-trick');
  if (!v.last_trick.length) { box.replaceChildren(h('p', { class: 'hint', text: t('lastTrick.none') })); return; }
  box.replaceChildren(h('div', { class: 'mini-row' }, v.last_trick.map((tc) =>
    h('div', { class: 'mini' + (tc.seat === v.last_winner ? ' won' : '') },
      cardNode(tc.card, { trump: trumps.has(tc.card), cls: 'small', note: t('trick.playedBy', { Who: nameOf(tc.seat) }) }),
      h('span', { class: 'mini-name', text: shortName(tc.seat) })))),
  h('p', { class: 'hint', text: t('lastTrick.takenBy', { Who: nameOf(v.last_winner) }) }));
}

export function renderOut(m) {
  const v = m.view, trumps = new Set(v.trumps);
  const parts = [];
  if (v.shown.length) {
    parts.push(h('p', { class: 'hint', text: t(m.table.variant === 'ten-point' ? 'out.burned' : 'out.shown') }),
      h('div', { class: 'mini-row' }, v.shown.map((c) => cardNode(c, { cls: 'small', trump: trumps.has(c) }))));
  }
  if (v.out.length) {
    parts.push(h('p', { class: 'hint', text: t('out.yours') }),
      h('div', { class: 'mini-row' }, v.out.map((c) => cardNode(c, { cls: 'small', trump: trumps.has(c) }))));
  }
  $('#out-panel').hidden = parts.length === 0;
  $('#out').replaceChildren(...parts);
}

export function renderLog(m) {
  const log = $('#log');
  const items = m.log.map((e) => h('li', { class: e.by ? 'by-table' : '', dataset: { by: e.by || '' }, text: describe(e) }));
  if (!items.length) items.push(h('li', { class: 'hint empty', text: t('log.empty') }));
  log.replaceChildren(...items);
  log.scrollTop = log.scrollHeight;
}

export function renderChat() {
  const m = app.m;
  const panel = $('#chat-panel');
  panel.hidden = !m || m.seat < 0;
  if (panel.hidden) return;
  const list = $('#chat-list');
  const items = app.chat.map((c) => h('li', {}, h('strong', { text: t('chat.who', { Who: c.seat === m.seat ? t('chat.you') : (c.name || seatName(c.seat)) }) }), ' ', h('span', { text: c.text })));
  if (!items.length) items.push(h('li', { class: 'hint empty', text: t('chat.empty') }));
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

export function sendChat(text) {
  text = (text || '').trim();
  if (!text) return;
  if (sendMsg({ type: 'chat', text })) $('#chat-text').value = '';
}

export async function renderRecords(m) {
  const n = m.sheet.length;
  if (n === app.recordsFor) return;
  app.recordsFor = n;
  const list = $('#records');
  if (n === 0) { list.replaceChildren(h('li', { class: 'hint empty', text: t('records.none') })); return; }
  if (m.table.records_hidden) { // the server says: until the round is over
    list.replaceChildren(h('li', { class: 'hint empty', text: t('records.hidden') }));
    app.recordsFor = -1; // fetched once they open
    return;
  }
  try {
    const hands = await api('GET', '/api/tables/' + encodeURIComponent(app.id) + '/hands');
    list.replaceChildren(...hands.map((x) => h('li', {}, h('a', { href: x.url, download: 'pitch-' + app.id + '-hand-' + x.hand + '.json' }, t('records.hand', { N: x.hand })),
      ' · ', h('a', { href: '/t/' + encodeURIComponent(app.id) + '/hands/' + x.hand, class: 'replay-link' }, t('records.replay')))),
      h('li', {}, h('a', { href: '/api/tables/' + encodeURIComponent(app.id) + '/match', download: 'pitch-' + app.id + '-match.json' }, t('history.download'))),
      h('li', {}, h('a', { href: '/t/' + encodeURIComponent(app.id) + '/hands/' + n + '#match', class: 'review-match' }, t('review.matchButton'))));
  } catch (e) {
    app.recordsFor = -1;
  }
}
