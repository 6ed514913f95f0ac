// Play now (README.md "Play now"): the home page's buttons, one a game,
// that seat the person at once (POST /api/play), and at a play-now table
// the seats' marks (taken over from a bot, a takeover pending) and the
// button that gives the person's seat back to a bot.

import { $, h, api, store, showError, gameName, guestID, seatLabel, GAMES } from './util.js';
import { t, num } from './i18n.js';
import { whoami } from './account.js';

const ORDER = ['pawnee', 'ten-point', 'auction'];

// initPlayNow fills the home page's Play now panel.
export async function initPlayNow() {
  const name = $('#pn-name');
  name.value = store.get('pitch.name') || '';
  const pace = $('#pn-pace');
  pace.value = store.get('pitch.pace') || 'normal';
  const [me, pop] = await Promise.all([whoami(), api('GET', '/api/play').catch(() => ({ popular: [] }))]);
  $('#pn-name-field').hidden = !!me; // an account plays under its name
  // Each game's button, and beside it one for the house rules most
  // played here lately when the server names some (GET /api/play).
  const buttons = [];
  for (const variant of ORDER) {
    const b = h('button', { type: 'button', class: 'primary', dataset: { variant }, text: t('playnow.play', { Game: gameName(variant) }) });
    b.addEventListener('click', () => play(variant, me, buttons));
    buttons.push(b);
    const p = (pop.popular || []).find((x) => x.variant === variant);
    if (p) {
      const rb = h('button', { type: 'button', class: 'pn-rules', dataset: { variant, rules: 'popular' }, title: t('playnow.rulesHint'),
        text: t('playnow.playRules', { Game: gameName(variant), Rules: rulesText(p.differs) }) });
      rb.addEventListener('click', () => play(variant, me, buttons, { options: p.options }));
      buttons.push(rb);
    }
  }
  $('#pn-games').replaceChildren(...buttons);
}

// RULES names the house rules a button names, in its order.
const RULES = {
  target: 'playnow.rule.target', players: 'playnow.rule.players', partnerships: 'playnow.rule.partnerships',
  low_to_holder: 'playnow.rule.low_to_holder', call_own_card: 'playnow.rule.call_own_card',
  pawnee_score_tricks: 'playnow.rule.pawnee_score_tricks', pawnee_fail_bidder_only: 'playnow.rule.pawnee_fail_bidder_only',
};

// rulesText names the house rules that differ from a game's defaults.
function rulesText(differs) {
  return Object.keys(RULES).filter((k) => differs && k in differs).map((k) => {
    const v = differs[k];
    if (typeof v === 'boolean') return v ? t(RULES[k]) : t('playnow.rule.off', { Rule: t(RULES[k]) });
    return t(RULES[k], { Value: num(v) });
  }).join(', ');
}

// matchItem is the table information's line of a play-now table: its
// match rated or casual, as the server says.
export function matchItem(m) {
  if (!m.table.play_now) return null;
  return [t('playnow.match'), t(m.table.rated ? 'playnow.rated' : 'playnow.casual')];
}

// holderAt is the name of who held play-now seat s (seat i) in hand n,
// as the server lists its holders; the seat's name when it never
// changed hands.
export function holderAt(s, i, n) {
  let who = s;
  for (const hd of (s && s.holders) || []) if (hd.hand <= n) who = hd;
  return seatLabel(who, i);
}

// handovers are the score sheet's rows that say, before sheet row r,
// which seats changed hands since the hand before (cols: the row's
// width in cells).
export function handovers(m, r, cols) {
  if (r.hand <= 1) return [];
  return m.table.seats.map((s, i) => [holderAt(s, i, r.hand - 1), holderAt(s, i, r.hand)])
    .filter(([was, now]) => was !== now)
    .map(([was, now]) => h('tr', { class: 'handover' }, h('td', { colspan: String(cols), class: 'hint', text: t('playnow.sheetChange', { Hand: num(r.hand), Name: now, Was: was }) })));
}

// playAt presses Play at lobby table tb (its game, house rules, pace
// and whether it is rated), from the lobby's list.
export async function playAt(tb, button) {
  play(tb.variant, await whoami(), [button], { table: tb.id, options: tb.options, pace: tb.pace, rated: !!tb.rated });
}

// showPlaying says how many people play each game now (the lobby's
// "playing").
export function showPlaying(playing) {
  const parts = Object.keys(GAMES).filter((v) => playing && playing[v] !== undefined).map((v) => gameName(v) + ' ' + num(playing[v]));
  $('#pn-playing').textContent = parts.length ? t('playnow.playing', { List: parts.join(' · ') }) : '';
}

// play presses Play for variant (extra: the lobby's table, its options
// and pace), then opens the table with the seat kept as a joined seat is
// (pitch.seat.ID).
async function play(variant, me, buttons, extra) {
  const body = { variant, pace: $('#pn-pace').value, ...extra };
  if (!me) {
    body.name = $('#pn-name').value.trim();
    body.guest = guestID();
    if (!body.name) {
      showError(t('playnow.err.name'));
      $('#pn-name').focus();
      return;
    }
  }
  for (const b of buttons) b.disabled = true;
  try {
    const res = await api('POST', '/api/play', body);
    if (body.name) store.set('pitch.name', body.name);
    if (!extra) store.set('pitch.pace', body.pace);
    const key = 'pitch.seat.' + res.table.id;
    if (res.token) store.set(key, JSON.stringify({ seat: res.seat, token: res.token, name: body.name || me.name }));
    location.assign(res.table.url);
  } catch (e) {
    showError(t('playnow.err', { Why: e.message }));
    for (const b of buttons) b.disabled = false;
  }
}

// seatBadges are the marks of a play-now seat s for its box on the felt:
// who took it over from which bot, and at what score; who takes it over
// when the hand ends.
export function seatBadges(s) {
  const out = [];
  if (s.took_over) {
    const p = { Bot: t('seat.bot', { N: s.took_over.bot }), Score: s.took_over.score };
    out.push(h('span', { class: 'badge tookover', title: t('playnow.tookOver', p) }, t('playnow.tookOverShort', p)));
  }
  if (s.pending) {
    out.push(h('span', { class: 'badge pending', title: t('playnow.pending', { Name: s.pending }) }, t('playnow.pendingShort', { Name: s.pending })));
  }
  return out;
}

// showLeave offers the seated person of a play-now table to leave it
// (state m).
export function showLeave(m) {
  $('#pn-leave').hidden = !(m && m.table.play_now && m.seat >= 0);
}

// initLeave wires the leave button of table id: the seat goes back to a
// bot, the page forgets it and goes home. token is the seat's (a
// function: it may change).
export function initLeave(id, token) {
  $('#pn-leave').addEventListener('click', async () => {
    try {
      await api('POST', '/api/tables/' + encodeURIComponent(id) + '/leave', { token: token() || undefined });
      store.del('pitch.seat.' + id);
      location.assign('/');
    } catch (e) {
      showError(t('playnow.leaveErr', { Why: e.message }));
    }
  });
}
