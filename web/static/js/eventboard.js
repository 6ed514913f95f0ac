// An event's board (/e/ID/board): the projector page, 1920×1080, read
// from across a room. It shows the round and its clock, the join address
// and its QR code, every table of the round with who sits there (at a
// game of fixed partnerships, its two sides), and every standing, a page
// at a time: each page holds as many rows as the space below the QR code
// fits, and the pages turn every few seconds ("page 2 of 5"), or at a
// press of → or ← on the board's keyboard. It draws what js/event.js
// receives over the event's WebSocket (drawBoard), and asks the server
// nothing else but the QR code.

import { t, num } from './i18n.js';
import { $ } from './util.js';
import { status, gameOf, drawTables, drawStandings } from './eventdraw.js';

// TURN is how long a page of the standings stays, unless the address says
// otherwise (?every=S, in seconds, 2 to 3600).
const TURN = 10000;

const B = { id: '', every: TURN, page: 0, pages: [], timer: 0 };

// initBoard shows the board of event id: the page's frame, the QR code,
// the pages' turning. Its content comes with each drawBoard.
export function initBoard(id) {
  B.id = id;
  document.body.classList.add('board-page');
  $('#board').hidden = false;
  const every = Number(new URLSearchParams(location.search).get('every'));
  if (Number.isInteger(every) && every >= 2 && every <= 3600) B.every = every * 1000;
  $('#bd-qr').src = '/api/events/' + encodeURIComponent(id) + '/qr.svg?origin=' + encodeURIComponent(location.origin);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight' || e.key === 'PageDown' || e.key === ' ') turn(1);
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') turn(-1);
    else return;
    e.preventDefault();
  });
  // The rows a page holds change with the space: the window's size, the
  // fonts once loaded, the tables' column beside.
  new ResizeObserver(() => paginate()).observe($('#bd-st-page'));
  if (document.fonts) document.fonts.ready.then(() => paginate());
  restart();
}

// drawBoard shows the event ev, as the server sent it.
export function drawBoard(ev) {
  document.title = t('event.title', { Game: gameOf(ev) }) + ' · Pitch';
  $('#bd-title').textContent = t('event.title', { Game: gameOf(ev) });
  $('#bd-status').textContent = status(ev);
  $('#bd-join').textContent = t('event.board.join', { Link: location.host + '/e/' + B.id });
  // Nobody joins an event that is over or ended: its QR code gives way
  // to the standings.
  const open = !(ev.state === 'over' || ev.ended || ev.closed);
  $('#bd-qr-box').hidden = !open;
  drawTables($('#bd-tables'), ev, { board: true });
  drawStandings($('#bd-standings'), ev, Infinity);
  paginate();
}

// restart turns the page every B.every from now.
function restart() {
  clearInterval(B.timer);
  B.timer = setInterval(() => turn(1, true), B.every);
}

// turn shows the next page (by = 1) or the one before (-1), round to
// the first after the last; a press restarts the wait.
function turn(by, auto) {
  if (B.pages.length > 1) {
    B.page = (B.page + by + B.pages.length) % B.pages.length;
    show();
  }
  if (!auto) restart();
}

// paginate splits the standings into pages, each as many whole rows as
// the space holds (a long name may take two lines), and shows the page
// that was shown, or the last if there are fewer now.
function paginate() {
  const box = $('#bd-st-page');
  const body = $('#bd-standings');
  const rows = [...body.rows];
  for (const r of rows) r.hidden = false;
  B.pages = [];
  if (rows.length) {
    const top = body.getBoundingClientRect().top;
    const room = box.getBoundingClientRect().bottom - top - 1;
    const at = rows.map((r) => { const b = r.getBoundingClientRect(); return [b.top - top, b.bottom - top]; });
    let start = 0;
    while (start < rows.length) {
      let end = start + 1; // at least one row a page, however tall
      while (end < rows.length && at[end][1] - at[start][0] <= room) end++;
      B.pages.push([start, end]);
      start = end;
    }
  }
  B.page = Math.min(B.page, Math.max(0, B.pages.length - 1));
  show();
}

// show shows the current page of the standings and says which it is.
function show() {
  const rows = $('#bd-standings').rows;
  const [start, end] = B.pages[B.page] || [0, 0];
  for (let i = 0; i < rows.length; i++) rows[i].hidden = i < start || i >= end;
  // The line keeps its height when empty: the rows' space stays the same.
  $('#bd-st-pages').textContent = B.pages.length > 1 ? t('event.board.page', { N: num(B.page + 1), Count: num(B.pages.length) }) : '';
}
