// An event's print views, linked from the host's part of its page:
// /e/ID/print/cards, a card for each table (its number, large, and a QR
// code of the table's address /e/ID/table/N, which stays table N's all
// night: js/eventtable.js), 2 or 4 to a sheet; and /e/ID/print/standings,
// every standing on one page (place, name, total or matchpoints, tables
// won). Each reads the event once (GET /api/events/ID); the print style
// sheet (style.css, @media print) leaves out the page's navigation and
// breaks the pages between sheets of cards.

import { t, num } from './i18n.js';
import { $, h, api, showError } from './util.js';
import { status, gameOf, duplicate, scoreText, nameText, adjustedNotes } from './eventdraw.js';

// MAX_CARDS is the most cards the page makes (a round of 400 people has
// at most 134 tables).
const MAX_CARDS = 200;

// initEventPrint shows event id's print view: 'cards' or 'standings'.
export async function initEventPrint(id, kind) {
  document.body.classList.add('print-page');
  $('#print').hidden = false;
  $('#pr-back').href = '/e/' + encodeURIComponent(id);
  $('#pr-print').addEventListener('click', () => window.print());
  let ev;
  try {
    ev = await api('GET', '/api/events/' + encodeURIComponent(id));
  } catch (e) {
    showError(e.message);
    return;
  }
  if (kind === 'cards') initCards(ev);
  else drawFinal(ev);
}

// tableCount is how many cards to make at first: the latest round's
// tables, or before the first round as many as those who joined fill,
// as the server counts them (the host may change it).
function tableCount(ev) {
  return Math.max(1, ev.tables || 0);
}

function initCards(ev) {
  document.title = t('event.print.cards') + ' · ' + t('event.title', { Game: gameOf(ev) }) + ' · Pitch';
  $('#pr-card-opts').hidden = false;
  const count = $('#pr-count');
  count.max = String(MAX_CARDS);
  count.value = String(Math.min(MAX_CARDS, tableCount(ev)));
  const draw = () => {
    const n = Math.max(1, Math.min(MAX_CARDS, Math.floor(Number(count.value)) || 1));
    drawCards(ev, n, Number($('#pr-per').value) === 2 ? 2 : 4);
  };
  count.addEventListener('change', draw);
  $('#pr-per').addEventListener('change', draw);
  draw();
}

// drawCards makes n table cards, per to a printed sheet.
function drawCards(ev, n, per) {
  const box = $('#pr-cards');
  box.hidden = false;
  box.className = 'pr-cards per-' + per;
  const game = t('event.title', { Game: gameOf(ev) });
  const cards = Array.from({ length: n }, (_, i) => {
    const no = i + 1;
    const addr = location.host + '/e/' + ev.id + '/table/' + no;
    return h('article', { class: 'pr-card', dataset: { table: no } },
      h('p', { class: 'pr-card-ev', text: game }),
      h('p', { class: 'pr-card-label', text: t('event.card.table') }),
      h('p', { class: 'pr-card-no', text: num(no) }),
      h('img', {
        class: 'pr-qr', alt: t('event.card.qr', { N: num(no) }),
        dataset: { src: '/api/events/' + encodeURIComponent(ev.id) + '/qr.svg?origin=' + encodeURIComponent(location.origin) + '&table=' + no },
      }),
      h('p', { class: 'pr-card-scan', text: t('event.card.scan') }),
      h('p', { class: 'pr-card-url', text: addr }));
  });
  const sheets = [];
  for (let i = 0; i < cards.length; i += per) sheets.push(h('div', { class: 'pr-sheet' }, cards.slice(i, i + per)));
  box.replaceChildren(...sheets);
  loadAll([...box.querySelectorAll('img.pr-qr')]);
}

// loadAll loads the QR codes a few at a time, each again after a while
// if refused (a server limits the requests of one address a second).
async function loadAll(imgs) {
  const queue = imgs.slice();
  const load = (img) => new Promise((done) => {
    let tries = 0;
    const go = () => {
      img.onload = () => done();
      img.onerror = () => {
        if (++tries > 5 || !img.isConnected) return done();
        img.removeAttribute('src');
        setTimeout(go, 1000 * tries);
      };
      img.src = img.dataset.src;
    };
    go();
  });
  const worker = async () => {
    for (let img = queue.shift(); img; img = queue.shift()) await load(img);
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

// drawFinal shows every standing: place, name, total (or matchpoints) and
// tables won (or, at a duplicate event, the results compared).
function drawFinal(ev) {
  const title = t('event.title', { Game: gameOf(ev) });
  document.title = t('event.print.standings') + ' · ' + title + ' · Pitch';
  $('#pr-standings').hidden = false;
  $('#pr-title').textContent = title;
  $('#pr-status').textContent = status(ev);
  const dup = duplicate(ev);
  $('#pr-score-h').textContent = t(dup ? 'event.col.percent' : 'event.col.total');
  $('#pr-won-h').textContent = t(dup ? 'event.col.results' : 'event.col.won');
  $('#pr-rows').replaceChildren(...ev.standings.map((s) => h('tr', {},
    h('td', { text: num(s.place) }),
    h('td', { class: 'ev-name' }, nameText(s), ...adjustedNotes(s)),
    h('td', { text: scoreText(ev, s) }),
    h('td', { text: num(dup ? s.boards : s.won) }))));
  if (!ev.standings.length) $('#pr-rows').replaceChildren(h('tr', {}, h('td', { colspan: 4, class: 'hint', text: t('event.print.none') })));
}
