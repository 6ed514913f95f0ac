// Pitch: the browser UI. Plain JavaScript modules, no build step, no
// outside assets. It talks to the server by the API and WebSocket messages
// described in docs/protocol.md; the server decides everything, and the
// page only shows the state it is sent and sends the player's choices.
//
// js/i18n.js: the languages; js/util.js: cards, the games, DOM helpers;
// js/lobby.js: the lobby; js/table.js: a table; js/profile.js: a player's
// profile and the leaderboard.
import { $, h, hideError } from './js/util.js';
import { LANGS, pickLang, chooseLang, loadLang, translatePage } from './js/i18n.js';
import { initLobby } from './js/lobby.js';
import { initTable } from './js/table.js';
import { initReplay } from './js/replay.js';
import { initHistory } from './js/history.js';
import { initRules } from './js/rules.js';
import { initEvent, initEventNew } from './js/event.js';
import { initEventTable } from './js/eventtable.js';
import { initEventPrint } from './js/eventprint.js';
import { initAccount, initAccountLink } from './js/account.js';
import { initProfile, initLeaderboard } from './js/profile.js';
import { initDaily, initDeal } from './js/daily.js';

const lang = pickLang();
await loadLang(lang);
translatePage();
const picker = $('#lang');
picker.replaceChildren(...LANGS.map(([l, name]) => h('option', { value: l, lang: l, selected: l === lang }, name)));
picker.addEventListener('change', () => { chooseLang(picker.value); location.reload(); });

const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,64})\/?$/);
$('#alert-close').addEventListener('click', hideError);
initAccountLink();
const rules = new URLSearchParams(location.search).get('rules');
const hand = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,64})\/hands\/([1-9][0-9]{0,5})\/?$/);
// safeDecode is a path part decoded, or as it came when it is not valid.
function safeDecode(s) { try { return decodeURIComponent(s); } catch (e) { return s; } }
const user = location.pathname.match(/^\/u\/([^/]{1,100})\/?$/);
const ev = location.pathname.match(/^\/e\/([A-Za-z0-9_-]{1,64})(\/board)?\/?$/);
const evTable = location.pathname.match(/^\/e\/([A-Za-z0-9_-]{1,64})\/table\/([^/]{1,20})\/?$/);
const evPrint = location.pathname.match(/^\/e\/([A-Za-z0-9_-]{1,64})\/print\/(cards|standings)\/?$/);
const deal = location.pathname.match(/^\/e\/([A-Za-z0-9_-]{1,64})\/deals\/([1-9][0-9]?)\/([1-9][0-9]?)\/?$/);
if (hand) initReplay(hand[1], Number(hand[2]));
else if (deal) initDeal(deal[1], Number(deal[2]), Number(deal[3]));
else if (location.pathname === '/daily') initDaily();
else if (ev) initEvent(ev[1], !!ev[2]);
else if (evTable) initEventTable(evTable[1], safeDecode(evTable[2]));
else if (evPrint) initEventPrint(evPrint[1], evPrint[2]);
else if (location.pathname === '/events/new') initEventNew();
else if (user) initProfile(safeDecode(user[1]));
else if (location.pathname === '/leaderboard') initLeaderboard();
else if (location.pathname === '/replay') initReplay('', 0);
else if (location.pathname === '/history') initHistory();
else if (location.pathname === '/account' || location.pathname === '/reset') initAccount();
else if (match) initTable(match[1]);
else if (rules) initRules(rules);
else initLobby();
