// The next match, offered: when another person at this finished table has
// started it (next_table, next_by in the state), this page invites its
// person rather than moving them: "Amy wants a new match", with Join
// (they accept: the rematch request answers the same table, and the page
// goes there) and Stay (the invitation goes; the summary, the final score
// sheet and the replay stay, and the move panel keeps a button to join
// later). The invitation shows in the summary, when it is open, and in
// the move panel.

import { $, h } from '../util.js';
import { t } from '../i18n.js';
import { app, seatName } from './state.js';
import { playAgain } from './connection.js';
import { render } from './render.js';

// invitation is the seat whose next match this page's person is invited
// to (-1 when the server does not say who started it), or null for none.
export function invitation(m) {
  if (!m || !m.match_over || !m.next_table || m.seat < 0 || m.next_by === m.seat) return null;
  return m.next_by == null ? -1 : m.next_by;
}

// inviteNodes are the invitation's words and its two buttons.
export function inviteNodes(m, by) {
  const button = (text, key, onclick, cls) => h('button', { type: 'button', class: cls, dataset: { key }, onclick }, text);
  return [
    h('p', { class: 'invite-text', text: by >= 0 ? t('again.invite', { Who: seatName(by) }) : t('again.inviteNone') }),
    h('div', { class: 'btn-row' },
      button(t('again.join'), 'join-next', playAgain, 'primary'),
      button(t('again.stay'), 'stay', stay, '')),
  ];
}

// stay keeps this person here: the invitation goes, the rest stays.
function stay() {
  app.stayed = true;
  render();
  if ($('#summary').open) $('#summary-close').focus();
}

// renderSummaryInvite shows the invitation in the summary, if any.
export function renderSummaryInvite(m) {
  const box = $('#summary-invite');
  const by = invitation(m);
  const show = by !== null && !app.stayed;
  const key = show ? m.next_table + ':' + by : '';
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...(show ? inviteNodes(m, by) : []));
  }
  box.hidden = !show;
}
