// Telling a person it is their turn when they look elsewhere: when their
// turn comes while the tab is hidden, the title and the icon say so
// (until the tab is seen again, or the turn has passed), and a phone
// vibrates where the browser allows (navigator.vibrate); a short tone
// plays on each turn when the person has turned sound on (the table's
// sound button: off by default, remembered in localStorage pitch.sound).
// Each at most once a turn. For the tests, #table-view counts what was
// done: data-alerts (title and icon), data-sounds and data-vibrations.

import { $, store } from '../util.js';
import { t } from '../i18n.js';
import { app, isMyTurn } from './state.js';

const ICON = '/favicon.svg';
const ALERT_ICON = '/favicon-turn.svg';
let told = ''; // the turn (table and seq) already told
let flagged = false; // the title and the icon say "your turn"
let plain = ''; // the page's title when not flagged
const counts = { alerts: 0, sounds: 0, vibrations: 0 };

export const soundOn = () => store.get('pitch.sound') === 'on';

// setTitle sets the page's title (render's), unless the alert holds it.
export function setTitle(title) {
  plain = title;
  if (!flagged) document.title = title;
}

// turnCame tells this person that m asks them to act: once a turn.
export function turnCame(m) {
  if (!isMyTurn(m)) return;
  const key = app.id + ':' + m.seq;
  if (key === told) return;
  told = key;
  if (soundOn()) tone();
  if (document.hidden) {
    flagged = true;
    counts.alerts++;
    document.title = t('title.alert');
    setIcon(ALERT_ICON);
    // Only once the person has touched the page: before, browsers refuse
    // (and complain).
    const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    try {
      if (touched && navigator.vibrate && navigator.vibrate(200)) counts.vibrations++;
    } catch (e) { /* not allowed here */ }
  }
  mark();
}

// onNewest follows the newest state from the server: a turn that comes in
// a hidden tab is told at once (the queue of states is played out slowly
// there), and the alert ends once the turn has passed.
export function onNewest(m) {
  if (document.hidden) turnCame(m);
  if (!isMyTurn(m)) unflag();
}

// unflag puts the title and the icon back.
export function unflag() {
  if (!flagged) return;
  flagged = false;
  document.title = plain;
  setIcon(ICON);
}

// initSound wires the table's sound button, and the alert's end when the
// tab is seen again.
export function initSound() {
  const b = $('#sound');
  const draw = () => {
    const on = soundOn();
    b.setAttribute('aria-pressed', String(on)); // the CSS shows its icon
    b.title = t(on ? 'table.soundOn' : 'table.soundOff');
  };
  draw();
  b.addEventListener('click', () => {
    store.set('pitch.sound', soundOn() ? 'off' : 'on');
    draw();
  });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) unflag(); });
  mark();
}

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link) link.href = href;
}

function mark() {
  const tv = $('#table-view');
  tv.dataset.alerts = String(counts.alerts);
  tv.dataset.sounds = String(counts.sounds);
  tv.dataset.vibrations = String(counts.vibrations);
}

// tone plays a short beep.
function tone() {
  counts.sounds++;
  try {
    const ctx = tone.ctx || (tone.ctx = new AudioContext());
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.08, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.26);
  } catch (e) { /* no audio here */ }
}
