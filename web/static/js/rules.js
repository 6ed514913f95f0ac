// The rules page (/?rules=GAME): each game's rules as implemented, in the
// page's language, from the same catalog messages as `pitch rules`.

import { GAMES, gameName, $, h } from './util.js';
import { t } from './i18n.js';

// RULES_KEYS name each game's rules text; OPTION_KEYS each option's help.
const RULES_KEYS = { auction: 'rules.auction', 'ten-point': 'rules.ten-point', pawnee: 'rules.pawnee' };
const OPTION_KEYS = {
  target: 'rules.opt.target', players: 'rules.opt.players', partnerships: 'rules.opt.partnerships',
  low_to_holder: 'rules.opt.low_to_holder', call_own_card: 'rules.opt.call_own_card',
  pawnee_score_tricks: 'rules.opt.pawnee_score_tricks', pawnee_fail_bidder_only: 'rules.opt.pawnee_fail_bidder_only',
};

// initRules shows the rules of game (the first game when it is unknown).
export function initRules(game) {
  if (!RULES_KEYS[game]) game = 'pawnee';
  const view = $('#rules-view');
  view.hidden = false;
  document.title = t('rulesPage.title', { Game: gameName(game) });
  const nav = h('nav', { class: 'btn-row', 'aria-label': t('rulesPage.games') },
    ...Object.keys(RULES_KEYS).map((g) => h('a', { class: 'button' + (g === game ? ' primary' : ''), href: '/?rules=' + g, 'aria-current': g === game ? 'page' : null }, gameName(g))));
  const opts = [['target', String(GAMES[game].target)], ...GAMES[game].rules.filter((r) => r.key !== 'players' || game === 'auction')
    .map((r) => [r.key, String(r.def)])];
  view.replaceChildren(
    h('h1', { text: gameName(game) }), nav,
    h('section', { class: 'panel' }, h('p', { class: 'rules-text', text: t(RULES_KEYS[game]) })),
    h('section', { class: 'panel' }, h('h2', { text: t('rules.options') }),
      h('table', { class: 'options' }, h('tbody', {}, ...opts.map(([k, def]) =>
        h('tr', {}, h('th', { scope: 'row' }, h('code', { text: k })), h('td', { text: def }), h('td', { text: t(OPTION_KEYS[k]) })))))),
    h('p', {}, h('a', { href: '/' }, t('table.backToLobby'))));
}
