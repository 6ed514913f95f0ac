// The player's controls: the action panel (bid, call, trump, stock,
// discard and play, the hint) and the hand of cards, with the keyboard
// (a roving focus over the cards), and why a card may not go.

import {
  SUITS, suitName, cardLabel, cardText, $, h, setText, roving, fixTabStop, cardNode, errorText,
} from '../util.js';
import { t, num } from '../i18n.js';
import { app, nameOf, isMoon, describeVerb } from './state.js';
import { sendMsg, send, playAgain } from './connection.js';
import { invitation, inviteNodes } from './invite.js';
import { render } from './render.js';

// ---------- the action panel ----------

export function renderActions(m, act) {
  const box = $('#action-body');
  const focusKey = document.activeElement && $('#actions').contains(document.activeElement) ? document.activeElement.dataset.key : null;
  box.replaceChildren();
  $('#hand-actions').replaceChildren();
  delete $('#actions').dataset.remaining;
  $('#actions').className = 'actions' + (app.pending ? ' busy' : '') + (act ? ' mine' : '');
  if (!app.online) {
    box.append(h('p', { class: 'hint offline', text: t('actions.offline') }));
  } else if (m.match_over && m.table.event) {
    // An event's round: the host starts the next one; the event's page
    // shows where each person plays it. No next match here.
    box.append(h('p', {}, h('a', { href: '/e/' + encodeURIComponent(m.table.event), 'data-key': 'event' }, t('event.back'))));
  } else if (m.match_over) {
    // The status line above says the match is over: not twice.
    const by = invitation(m);
    if (by !== null && !app.stayed) box.append(...inviteNodes(m, by));
    else if (by !== null) box.append(actionButton(t('again.joinNew'), 'join-next', playAgain, { cls: 'primary' }));
    else if (m.seat >= 0) box.append(actionButton(t('again.button'), 'again', playAgain, { cls: 'primary', title: t('again.title') }));
    else box.append(h('p', {}, h('a', { href: '/' }, t('again.newTable'))));
  } else if (m.waiting) {
    box.append(h('p', { class: 'hint', text: t('actions.waiting') }));
  } else if (m.paused) {
    box.append(h('p', { class: 'hint', text: t('status.paused') }));
  } else if (m.seat < 0) {
    box.append(h('p', { class: 'hint', text: t('actions.watching') }));
  } else if (!act) {
    box.append(h('p', { class: 'hint wait', text: app.show ? '' : t('actions.notYourTurn') }));
  } else if (act === 'bid') {
    renderBid(box, m);
  } else if (act === 'call') {
    renderCall(box, m);
  } else if (act === 'trump') {
    renderTrump(box, m);
  } else if (act === 'give_stock') {
    renderGiveStock(box, m);
  } else if (act === 'discard') {
    renderDiscard(box, m);
  } else if (act === 'play') {
    renderPlay(box, m);
  }
  if (act && m.table.hints !== false && !m.match_over) renderHint(box, m, act);
  if (focusKey) {
    const again = $('#actions [data-key="' + focusKey + '"]');
    if (again) again.focus();
  }
  if (!act) showRefusal('');
}

function actionButton(text, key, onclick, o) {
  o = o || {};
  return h('button', {
    type: 'button', class: o.cls || '', dataset: Object.assign({ key }, o.data || {}), onclick,
    disabled: o.disabled || app.pending, 'aria-label': o.label || null, title: o.title || null,
  }, text);
}

// renderHint offers the search bot's view of the options (as ? does in
// pitch play), when the table allows it.
function renderHint(box, m, act) {
  const hint = app.hint && app.hint.seq === m.seq ? app.hint : null;
  if (!hint) {
    const button = actionButton(t('hint.button'), 'hint', () => { sendMsg({ type: 'hint' }); }, { title: t('hint.title') });
    // A discard's buttons are in the row under the hand, and its panel is
    // full with what may be kept: the Hint button goes beside them.
    if (act === 'discard' && $('#hand-actions').childElementCount) $('#hand-actions').append(h('span', { class: 'hint-row' }, button));
    else box.append(h('div', { class: 'hint-row' }, button));
    return;
  }
  const list = h('ol', { class: 'hint-list', 'aria-label': t('hint.listLabel') });
  const pts = new Intl.NumberFormat(document.documentElement.lang, { signDisplay: 'always', maximumFractionDigits: 1, minimumFractionDigits: 1 });
  const pct = new Intl.NumberFormat(document.documentElement.lang, { style: 'percent' });
  for (const o of hint.options) {
    let line = t('hint.option', { Move: describeVerb({ action: o.action, text: o.text }), Points: pts.format(o.value) });
    if (o.make != null) line += t('hint.make', { Chance: pct.format(o.make) });
    list.append(h('li', { text: line }));
  }
  box.append(h('div', { class: 'hint-box', role: 'note' }, h('p', { class: 'hint', text: t('hint.intro', { Count: hint.worlds }) }), list));
}

function renderBid(box, m) {
  const v = m.view, variant = m.table.variant;
  const forced = !m.legal.some((a) => 'pass' in a);
  const rules = t({ pawnee: 'bid.rules.pawnee', 'ten-point': 'bid.rules.ten-point', auction: 'bid.rules.auction' }[variant]);
  let lead = v.bidder >= 0 ? t('bid.high', { Bid: v.bid, Who: nameOf(v.bidder) }) : t('bid.none');
  if (forced) lead = m.legal.length === 1 ? t('bid.forcedExact', { Bid: m.legal[0].bid }) : t('bid.forced');
  box.append(h('h2', { text: t('bid.title') }), h('p', { class: 'hint', text: lead + ' ' + (forced ? '' : rules) }));
  const row = h('div', { class: 'btn-row', role: 'group', 'aria-label': t('bid.group') });
  for (const a of m.legal) {
    if ('pass' in a) {
      row.append(actionButton(t('bid.pass'), 'pass', () => send(a), { cls: 'pass', data: { pass: '' } }));
    } else {
      const moon = isMoon(a.bid);
      row.append(actionButton(moon ? t('bid.moonButton') : String(a.bid), 'bid' + a.bid, () => send(a),
        { cls: 'bid', data: { bid: a.bid }, label: t(moon ? 'bid.moonLabel' : 'bid.label', { Bid: a.bid }) }));
    }
  }
  box.append(row);
}

// renderCall picks the called card in two short steps, a suit and then a
// rank, so that it fits a phone: the legal calls come from the server.
function renderCall(box, m) {
  const opts = m.table.options || {};
  const legal = new Set(m.legal.map((a) => a.call));
  const mine = new Set(m.view.hand);
  box.append(h('h2', { text: t('call.title') }),
    h('p', { class: 'hint', text: t(opts.call_own_card === false ? 'call.hintNoOwn' : 'call.hint') }));
  const suits = h('div', { class: 'btn-row suits', role: 'group', 'aria-label': t('call.suitGroup') });
  for (const s of ['S', 'H', 'C', 'D']) {
    // Each suit says how many trumps the caller would hold with it.
    const held = m.suit_trumps ? m.suit_trumps[s] : 0;
    suits.append(actionButton([h('span', { class: 'sym', text: SUITS[s].sym }), h('span', { class: 'held', text: t('call.suitCount', { Count: held }) })], 'suit' + s, () => { app.pickSuit = s; app.picked = ''; render(); focusKeyed('rank'); },
      { cls: 'suit ' + (SUITS[s].red ? 'red' : 'black') + (app.pickSuit === s ? ' sel' : ''), data: { suit: s },
        label: t('call.suitLabel', { Suit: suitName(s), Count: held }) }));
  }
  box.append(suits);
  const grid = h('div', { id: 'call-picker', class: 'picker', role: 'group', 'aria-label': app.pickSuit ? t('call.ranksOf', { Suit: suitName(app.pickSuit) }) : t('call.suitFirst') });
  if (app.pickSuit) {
    for (const r of 'AKQJT98765432') {
      const c = r + app.pickSuit;
      const allowed = legal.has(c);
      const node = h('button', {
        type: 'button', class: 'rank' + (allowed ? ' can' : '') + (mine.has(c) ? ' mine' : '') + (app.picked === c ? ' sel' : ''),
        dataset: { card: c, key: 'rank', rove: '' }, 'aria-pressed': String(app.picked === c), 'aria-disabled': allowed ? null : 'true',
        'aria-label': cardLabel(c) + (mine.has(c) ? t('call.inHandNote') : '') + (allowed ? '' : t('call.notAllowedNote')),
        title: mine.has(c) ? t('call.inHand') : null, tabindex: '-1',
      }, (r === 'T' ? '10' : r) + SUITS[app.pickSuit].sym);
      node.addEventListener('click', () => {
        if (!allowed || app.pending) return;
        app.picked = c;
        render();
        focusKeyed('call');
      });
      grid.append(node);
    }
    roving(grid, 7);
  }
  box.append(grid);
  fixTabStop(grid);
  const p = app.picked;
  let info = t(app.pickSuit ? 'call.pickRank' : 'call.pickSuit');
  if (p) info = t(mine.has(p) ? 'call.pickedOwn' : 'call.picked', { Card: cardLabel(p) });
  box.append(h('p', { class: 'call-info', 'aria-live': 'polite', text: info }),
    actionButton(p ? t('call.buttonCard', { Card: cardText(p) }) : t('call.button'), 'call', () => send({ seat: m.seat, call: p }),
      { cls: 'primary', disabled: !p, data: { confirm: 'call' } }));
  box.lastChild.id = 'call-confirm';
}

// focusKeyed focuses the first control with data-key key, after a render.
function focusKeyed(key) {
  const el = $('#actions [data-key="' + key + '"][tabindex="0"]') || $('#actions [data-key="' + key + '"]');
  if (el) el.focus();
}

function renderTrump(box, m) {
  box.append(h('h2', { text: t('trump.title') }),
    h('p', { class: 'hint', text: t('trump.hint') }));
  const row = h('div', { class: 'btn-row', role: 'group', 'aria-label': t('trump.group') });
  for (const a of m.legal) {
    const s = SUITS[a.trump];
    const n = m.suit_trumps ? m.suit_trumps[a.trump] : 0;
    row.append(actionButton(s.sym + ' ' + suitName(a.trump) + ' (' + num(n) + ')', 'trump' + a.trump, () => send(a),
      { cls: 'suit ' + (s.red ? 'red' : 'black'), data: { trump: a.trump }, label: t('trump.label', { Suit: suitName(a.trump), Count: n }) }));
  }
  box.append(row);
}

function renderGiveStock(box, m) {
  const partner = (m.seat + 2) % 4, v = m.view;
  const drew = (v.fill_got || []).map((n, i) => nameOf(i) + ' ' + num(n)).join(', ');
  box.append(h('h2', { text: t('stock.title') }),
    h('p', { class: 'hint', text: t('stock.hint', { Drew: drew, Count: v.stock_left }) }));
  const row = h('div', { class: 'btn-row' });
  for (const a of m.legal) {
    row.append(actionButton(a.give_stock ? t('stock.give', { Who: nameOf(partner) }) : t('stock.keep'), 'give' + a.give_stock, () => send(a),
      { data: { give: String(a.give_stock) } }));
  }
  box.append(row);
}

function renderPlay(box, m) {
  const variant = m.table.variant, v = m.view;
  let rule;
  if (variant === 'auction') {
    rule = t(v.trick.length ? 'play.rule.follow' : v.trump ? 'play.rule.leadAny' : 'play.rule.leadSetsTrump');
  } else {
    rule = t(v.tricks === 0 && !v.trick.length && variant === 'pawnee' ? 'play.rule.leadCalled' : 'play.rule.trump');
  }
  box.append(h('h2', { text: t(v.trick.length ? 'play.title' : 'play.titleLead') }),
    h('p', { class: 'hint', text: rule + ' ' + t('play.how') }));
}

// discardState works out, for the discard or burn asked for, which of
// the hand's cards are forced, chosen, and still choosable.
function discardState(m) {
  const d = m.discard;
  const must = new Set(d.must), pool = new Set(d.pool);
  if (app.passMode) {
    return { pass: true, must: new Set(), pool: new Set(m.view.hand), limit: d.pass_limit, chosen: app.chosen };
  }
  return { pass: false, must, pool, limit: d.choose, chosen: app.chosen };
}

function renderDiscard(box, m) {
  const d = m.discard, v = m.view, variant = m.table.variant;
  const burn = d.kind === 'burn';
  const st = discardState(m);
  const partner = (m.seat + 2) % 4;
  box.append(h('h2', { text: t(burn ? 'discard.titleBurn' : 'discard.title') }));
  if (burn && d.pass_limit > 0) {
    const radios = h('div', { class: 'mode', role: 'radiogroup', 'aria-label': t('discard.mode') });
    const mk = (val, text) => {
      const id = 'mode-' + val;
      const input = h('input', { type: 'radio', name: 'mode', id, value: val, checked: (val === 'pass') === app.passMode });
      input.addEventListener('change', () => { app.passMode = val === 'pass'; app.chosen = new Set(); render(); });
      return h('span', { class: 'check' }, input, h('label', { for: id, text }));
    };
    radios.append(mk('burn', t('discard.modeBurn')), mk('pass', t('discard.modePass', { Count: d.pass_limit, Who: nameOf(partner) })));
    box.append(radios);
  }
  const lines = [];
  if (st.pass) {
    lines.push(t('discard.passHint', { Count: d.pass_limit, Who: nameOf(partner) }));
  } else {
    let line = t(burn ? 'discard.countBurn' : 'discard.count', { Held: v.hand.length, Count: d.count });
    if (d.must.length) line += ' ' + t('discard.must', { Count: d.must.length });
    if (d.choose > 0) line += ' ' + t(d.must.length ? 'discard.chooseMore' : 'discard.choose', { Count: d.choose });
    lines.push(line);
    if (variant === 'pawnee') {
      lines.push(t(d.over_protected ? 'discard.overProtected' : 'discard.protected'));
    } else if (burn) {
      lines.push(t('discard.burnRule'));
    }
  }
  for (const l of lines) box.append(h('p', { class: 'hint', text: l }));
  const n = st.chosen.size + st.must.size;
  const ok = st.pass ? st.chosen.size >= 1 && st.chosen.size <= st.limit : st.chosen.size === st.limit;
  $('#actions').dataset.remaining = String(st.limit - st.chosen.size);
  const row = $('#hand-actions');
  row.append(h('span', { class: 'count', 'aria-live': 'polite', text: st.pass ? t('discard.chosenPass', { N: st.chosen.size, Count: st.limit }) : t('discard.selected', { N: n, Count: d.count }) }));
  const chosen = () => Array.from(st.must).concat(Array.from(st.chosen));
  if (st.pass) {
    row.append(actionButton(t('discard.passButton', { Count: st.chosen.size, Who: nameOf(partner) }), 'pass-confirm', () => send({ seat: m.seat, pass_trumps: chosen() }),
      { cls: 'primary', disabled: !ok, data: { confirm: 'pass' } }));
  } else {
    row.append(actionButton(t(burn ? 'discard.burnButton' : 'discard.button', { Count: d.count }), 'discard-confirm',
      () => send({ seat: m.seat, discard: chosen() }), { cls: 'primary', disabled: !ok, data: { confirm: 'discard' } }));
  }
  row.append(actionButton(t('discard.clear'), 'clear', () => { app.chosen = new Set(); render(); }, { disabled: st.chosen.size === 0 }));
  row.children[1].id = st.pass ? 'pass-confirm' : 'discard-confirm';
}

// ---------- the hand ----------

export function renderHand(m, act) {
  const v = m.view;
  const box = $('#hand');
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  $('#hand-area').hidden = m.seat < 0;
  box.classList.toggle('busy', app.pending || !!app.show || !app.online);
  box.classList.toggle('choosing', act === 'play' || act === 'discard');
  const widow = new Set(v.bidder === m.seat ? v.widow : []);
  const plays = new Set(act === 'play' ? m.legal.map((a) => a.play) : []);
  const st = act === 'discard' ? discardState(m) : null;
  const nodes = [];
  const trumps = new Set(v.trumps);
  for (const c of v.hand) { // sorted by the server
    const trump = trumps.has(c);
    const o = { button: true, trump, cls: '', tags: [] };
    const notes = [];
    if (widow.has(c) && v.phase !== 'play') { o.tags.push('widow'); notes.push(t('hand.fromWidow')); }
    if (m.view.called === c) notes.push(t('hand.called'));
    let can = false;
    if (act === 'play') {
      can = plays.has(c);
      if (!can) o.title = refusalText(m, c);
    } else if (st) {
      if (st.must.has(c)) {
        o.cls += ' must sel';
        o.pressed = true;
        if (!st.pass) { o.tags.push('must'); notes.push(t('hand.mustGo')); }
        o.title = t('hand.mustGoTitle');
      } else if (st.pool.has(c)) {
        const picked = st.chosen.has(c);
        o.pressed = picked;
        if (picked) o.cls += ' sel';
        can = picked || st.chosen.size < st.limit;
        if (!can) o.title = t('hand.enough');
      } else {
        o.title = discardReason(m, c);
        notes.push(t('hand.mayNotGo'));
      }
    }
    if (can) o.cls += ' can';
    o.disabled = !can || app.pending;
    o.note = notes.filter(Boolean).join(', ') || null;
    const node = cardNode(c, o);
    node.addEventListener('click', () => onCard(c, act));
    nodes.push(node);
  }
  box.replaceChildren(...nodes);
  box.setAttribute('aria-label', t(act === 'play' ? 'hand.ariaPlay' : act === 'discard' ? (st.pass ? 'hand.ariaPass' : m.discard.kind === 'burn' ? 'hand.ariaBurn' : 'hand.ariaDiscard') : 'hand.aria', { Count: v.hand.length }));
  let again = focused ? box.querySelector('[data-card="' + focused + '"]') : null;
  if (again) again.focus();
  fixTabStop(box);
  if (focused && !again) {
    // The focused card was played or thrown: keep the focus in the hand,
    // or, with no card left, on the move panel (never on the page's body).
    again = box.querySelector('[data-rove][tabindex="0"]') || $('#actions');
    again.focus({ preventScroll: true });
  }
}

// KEEP_WHY: the message for each reason the server gives for a card that
// may not be discarded or burned.
const KEEP_WHY = { called: 'hand.why.called', point: 'hand.why.point', trump: 'hand.why.trump', burn_point: 'hand.why.burnPoint' };

function discardReason(m, c) {
  return t(KEEP_WHY[(m.discard.keep || {})[c]] || 'hand.why.trump');
}

// refusalText says why card c may not be played, from the server's
// refusals (the engine's reason, in the page's language): each names the
// cards it refuses, its parameters all but the card, which is c.
function refusalText(m, c) {
  const r = (m.refusals || []).find((x) => x.cards.includes(c));
  if (!r) return t('hand.notNow', { Card: cardLabel(c) });
  return errorText(r.code, Object.assign({}, r.params, { Card: c }), r.message);
}

function onCard(c, act) {
  const m = app.m;
  if (!m || app.pending || app.show) return;
  if (act === 'play') {
    const a = m.legal.find((x) => x.play === c);
    if (a) { showRefusal(''); send(a); return; }
    // Not playable: say why, in the engine's words.
    showRefusal(capital(refusalText(m, c)));
    return;
  }
  if (act === 'discard') {
    const st = discardState(m);
    if (st.must.has(c)) { showRefusal(t('hand.already', { Card: cardLabel(c) })); return; }
    if (!st.pool.has(c)) { showRefusal(discardReason(m, c)); return; }
    showRefusal('');
    if (app.chosen.has(c)) app.chosen.delete(c);
    else if (app.chosen.size < st.limit) app.chosen.add(c);
    else { showRefusal(t('hand.enough')); return; }
    render();
  }
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function showRefusal(text) {
  const r = $('#refusal');
  setText(r, text);
  r.hidden = !text;
}
