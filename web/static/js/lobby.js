// The lobby: create a table, list the open ones, your seats.

import { GAMES, gameName, seatNo, seatLabel, levelName, $, h, store, api, showError } from './util.js';
import { t, num } from './i18n.js';
import { whoami } from './account.js';
import { initPlayNow, playAt, showPlaying } from './playnow.js';

// ---------- the lobby ----------

export function initLobby() {
  document.title = t('lobby.title');
  // Shown once Play now's buttons, the open tables and this person's own
  // are in (each comes from the server): drawn in pieces, the lobby would
  // move a button down under a finger.
  const ready = [initPlayNow()];
  const game = $('#game');
  const seatChoices = []; // kept across changes of the number of seats

  function seatsFor(variant) {
    if (variant !== 'auction') return GAMES[variant].seats;
    const p = $('#opt-players');
    return p ? Number(p.value) : 4;
  }

  function renderRules() {
    const g = GAMES[game.value];
    $('#game-desc').textContent = t(g.desc);
    $('#game-rules').href = '/?rules=' + encodeURIComponent(game.value);
    $('#target').value = g.target;
    const list = $('#rules-list');
    list.replaceChildren();
    for (const r of g.rules) {
      if (r.type === 'players') {
        const sel = h('select', { id: 'opt-players' });
        for (let n = 2; n <= 7; n++) sel.append(h('option', { value: n, selected: n === r.def }, String(n)));
        sel.addEventListener('change', () => { renderSeats(); fixPartnerships(); });
        list.append(h('div', { class: 'field inline' }, h('label', { for: 'opt-players', text: t(r.label) }), sel));
        continue;
      }
      const id = 'opt-' + r.key;
      list.append(h('div', { class: 'check' },
        h('input', { type: 'checkbox', id, checked: r.def, dataset: { opt: r.key } }),
        h('label', { for: id, text: t(r.label) })));
    }
    $('#house-rules').hidden = g.rules.length === 0;
    fixPartnerships();
    renderSeats();
  }

  function fixPartnerships() {
    const box = $('#opt-partnerships');
    if (!box) return;
    const n = seatsFor('auction');
    box.disabled = n !== 4 && n !== 6;
    if (box.disabled) box.checked = false;
  }

  function renderSeats() {
    const n = seatsFor(game.value);
    const list = $('#seat-list');
    list.replaceChildren();
    for (let i = 0; i < n; i++) {
      const cur = seatChoices[i] || (i === 0 ? 'human' : 'bot:medium');
      const sel = h('select', { id: 'seat-' + i, dataset: { seat: i } },
        h('option', { value: 'human', selected: cur === 'human' }, t('lobby.seat.person')),
        ...BOT_LEVELS.map(([level, key]) => h('option', { value: 'bot:' + level, selected: cur === 'bot:' + level }, botLabel(game.value, level, key))));
      sel.addEventListener('change', () => { seatChoices[i] = sel.value; });
      list.append(h('li', {}, h('label', { for: 'seat-' + i, text: t('lobby.seat.n', { N: seatNo(i) }) }), sel));
    }
  }

  game.addEventListener('change', renderRules);
  renderRules();
  // A rated match plays to the game's standard target (docs/ratings.md).
  const rated = $('#rated');
  const fixTarget = () => {
    if (rated.checked) $('#target').value = GAMES[game.value].target;
    $('#target').disabled = rated.checked;
  };
  rated.addEventListener('change', fixTarget);
  game.addEventListener('change', fixTarget);
  fixTarget();
  // The bots' fixed ratings (docs/ratings.md), beside each level.
  api('GET', '/api/ratings/bots').then((r) => { botRatings = r; renderSeats(); }).catch(() => {});

  $('#create-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const variant = game.value;
    const target = Number($('#target').value);
    if (!Number.isInteger(target) || target < 1 || target > 10000) {
      showError(t('lobby.err.target'));
      $('#target').focus();
      return;
    }
    const options = { target };
    for (const box of document.querySelectorAll('#rules-list input[type=checkbox]')) {
      if (!box.disabled) options[box.dataset.opt] = box.checked;
    }
    if (variant === 'auction') options.players = seatsFor('auction');
    const seats = Array.from(document.querySelectorAll('#seat-list select')).map((s) => {
      const [kind, level] = s.value.split(':');
      return level ? { kind, level } : { kind };
    });
    const btn = $('#create');
    btn.disabled = true;
    try {
      const info = await api('POST', '/api/tables', { variant, options, seats, turn_timer: Number($('#timer').value), hints: $('#hints').checked, rated: $('#rated').checked });
      location.assign(info.url);
    } catch (e) {
      showError(t('lobby.err.create', { Why: e.message }));
      btn.disabled = false;
    }
  });

  $('#refresh').addEventListener('click', loadOpen);
  $('#open-game').addEventListener('change', () => { lobbyPage.offset = 0; loadOpen(); });
  $('#open-prev').addEventListener('click', () => { lobbyPage.offset = Math.max(0, lobbyPage.offset - PAGE); loadOpen(); });
  $('#open-next').addEventListener('click', () => { lobbyPage.offset += PAGE; loadOpen(); });
  ready.push(loadOpen(), listMine());
  Promise.allSettled(ready).then(() => { $('#lobby').hidden = false; });
  setInterval(() => { if (!document.hidden) loadOpen(); }, 5000);
}

// botRatings are the bots' fixed ratings by game and level
// (GET /api/ratings/bots), once they have come.
let botRatings = {};

// botLabel is a bot level's name in the seat list, with its rating in
// the game when known.
function botLabel(variant, level, key) {
  const r = botRatings[variant] && botRatings[variant][level];
  return r ? t('lobby.botRating', { Bot: t(key), Rating: num(r.rating) }) : t(key);
}

// BOT_LEVELS are the bot levels offered, with their messages.
const BOT_LEVELS = [['easy', 'lobby.bot.easy'], ['medium', 'lobby.bot.medium'], ['hard', 'lobby.bot.hard'], ['expert', 'lobby.bot.expert']];

function describeSeats(tb) {
  return tb.seats.map((s) => seatNo(s.seat) + ': ' + (s.kind === 'bot' ? t('lobby.botSeat', { Name: seatLabel(s, s.seat), Level: levelName(s.level) }) : s.taken ? s.name : t('lobby.free'))).join(' · ');
}

// The open tables come a page at a time (GET /api/tables?game=&offset=&limit=).
const PAGE = 20;
const lobbyPage = { offset: 0 };

async function loadOpen() {
  const game = $('#open-game').value;
  let page;
  try {
    page = await api('GET', '/api/tables?limit=' + PAGE + '&offset=' + lobbyPage.offset +
      (game ? '&game=' + encodeURIComponent(game) : ''));
  } catch (e) {
    showError(t('lobby.err.list', { Why: e.message }));
    return;
  }
  if (page.tables.length === 0 && page.offset > 0 && page.total > 0) { // the last page emptied: step back
    lobbyPage.offset = Math.max(0, Math.floor((page.total - 1) / PAGE) * PAGE);
    return loadOpen();
  }
  showPlaying(page.playing);
  const tables = page.tables;
  const list = $('#open-tables');
  list.replaceChildren();
  $('#open-empty').hidden = tables.length > 0;
  $('#open-count').textContent = page.total === 0 ? '' :
    t('lobby.range', { From: page.offset + 1, To: page.offset + tables.length, Count: page.total });
  $('#open-prev').disabled = page.offset === 0;
  $('#open-next').disabled = page.offset + tables.length >= page.total;
  for (const tb of tables) {
    const free = tb.seats.filter((s) => s.kind === 'human' && !s.taken).length;
    const target = tb.options && tb.options.target;
    // A play-now table: Play takes over a bot's seat there.
    const join = tb.play_now ? h('button', { type: 'button', class: 'primary', 'aria-label': t('lobby.joinLabel', { Game: gameName(tb.variant), ID: tb.id }) }, t('playnow.playHere')) :
      h('a', { class: 'button primary', href: tb.url, 'aria-label': t('lobby.joinLabel', { Game: gameName(tb.variant), ID: tb.id }) }, t('lobby.join'));
    if (tb.play_now) join.addEventListener('click', () => playAt(tb, join));
    list.append(h('li', { class: 'table-item' },
      h('div', {},
        h('strong', { text: gameName(tb.variant) }),
        ' · ' + t('lobby.target', { Target: target }) + ' · ' + (tb.play_now ? t('playnow.title') : t('lobby.freeSeats', { Count: free })) +
          (tb.rated ? ' · ' + t('table.rated') : '') +
        (tb.turn_timer ? ' · ' + t('lobby.turnTimer', { Count: tb.turn_timer }) : ''),
        h('div', { class: 'hint', text: describeSeats(tb) })),
      h('div', { class: 'item-actions' },
        join,
        h('a', { class: 'button', href: tb.url + '?watch=1', 'aria-label': t('lobby.watchLabel', { Game: gameName(tb.variant), ID: tb.id }) }, t('lobby.watch')))));
  }
}

// listMine shows the tables this browser holds a seat at: the game, who
// plays, and whether the match goes on; a table the server no longer has
// is forgotten.
async function listMine() {
  const ids = store.keys().filter((k) => k.startsWith('pitch.seat.')).map((k) => k.slice('pitch.seat.'.length));
  // A signed-in person's seats come from the account too: those taken on
  // another device are here as well.
  const me = await whoami();
  const theirs = {};
  if (me) {
    const seats = await api('GET', '/api/account/seats').then((r) => r.seats).catch(() => []);
    for (const s of seats) {
      theirs[s.table] = { seat: s.seat, name: me.name };
      if (!ids.includes(s.table)) ids.unshift(s.table);
    }
  }
  $('#mine').hidden = ids.length === 0;
  $('#mine-history').href = '/history?tables=' + ids.slice(0, 100).map(encodeURIComponent).join(',');
  // Each table asked at once; the list is drawn when every answer is in.
  const items = await Promise.all(ids.slice(0, 20).map(async (id) => {
    let saved = {};
    try { saved = JSON.parse(store.get('pitch.seat.' + id)) || theirs[id] || {}; } catch (e) { /* ignore */ }
    const me = t('lobby.mySeat', { N: seatNo(Number(saved.seat) || 0), Name: saved.name || '?' });
    let about;
    try {
      const tb = await api('GET', '/api/tables/' + encodeURIComponent(id));
      const state = t(tb.closed ? 'lobby.state.closed' : tb.finished ? 'lobby.state.over' : tb.seats.some((s) => !s.taken) ? 'lobby.state.waiting' : 'lobby.state.playing');
      about = h('div', {}, h('strong', { text: gameName(tb.variant) + ' · ' + me + ' · ' + state }), h('div', { class: 'hint', text: describeSeats(tb) }));
    } catch (e) {
      if (e.code === 'not_found') { // the server no longer has it: forgotten
        store.del('pitch.seat.' + id);
        return null;
      }
      about = h('div', {}, h('strong', { text: me }), h('div', { class: 'hint', text: t('lobby.err.mine', { Why: e.message }) }));
    }
    return h('li', { class: 'table-item' }, about,
      h('div', { class: 'item-actions' }, h('a', { class: 'button', href: '/t/' + id, 'aria-label': t('lobby.openLabel', { ID: id }) }, t('lobby.open'))));
  }));
  $('#my-tables').replaceChildren(...items.filter(Boolean));
}
