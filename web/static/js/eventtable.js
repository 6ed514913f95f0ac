// A table card's address, /e/ID/table/N (js/eventprint.js prints it as a
// QR code): the table numbered N of the round being played, whichever
// table that is this round. The server says which (POST
// /api/events/ID/tables/N): to the person seated there, whose token this
// browser keeps (pitch.event.me.ID), their seat, and the page takes them
// to it; anyone else goes to the event's page with table N marked, where
// the table's name links to watching it when the access policy lets
// them (never a duplicate round's table while the round is played).

import { api, store, showError } from './util.js';
import { initEvent } from './event.js';

// initEventTable goes where table n (as the address wrote it) of event id
// leads this browser.
export async function initEventTable(id, n) {
  let me = null;
  try { me = JSON.parse(store.get('pitch.event.me.' + id)); } catch (e) { me = null; }
  const path = '/e/' + encodeURIComponent(id);
  try {
    const res = await api('POST', '/api/events/' + encodeURIComponent(id) + '/tables/' + encodeURIComponent(n), me && me.token ? { token: me.token } : {});
    if (res.seat && res.table) {
      store.set('pitch.seat.' + res.table, JSON.stringify({ seat: res.seat.seat, token: res.seat.seat_token, name: me.name }));
      location.replace('/t/' + encodeURIComponent(res.table));
      return;
    }
    location.replace(path + '?table=' + res.table_no);
  } catch (e) {
    // No such event, or not a table's number: the event's page, with why.
    history.replaceState(null, '', path);
    initEvent(id, false);
    showError(e.message);
  }
}
