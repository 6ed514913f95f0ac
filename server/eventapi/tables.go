package eventapi

import (
	"fmt"
	"net/http"
	"strconv"

	"pitch/event"
	"pitch/server/access"
	"pitch/server/eventview"
	"pitch/server/httpx"
)

// A table's stable address (docs/events.md, In the browser): a table's ID
// changes every round, so a card on a table carries /e/ID/table/N, and
// the page asks POST /api/events/{id}/tables/{n} which table that is now.

// maxTableNo is the highest table number an address may name: no round
// has more tables than a solo event has people.
const maxTableNo = event.MaxSolo

// tableNo reads a table number as an address writes it: a whole number
// from 1 to maxTableNo, in plain digits.
func tableNo(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxTableNo || strconv.Itoa(n) != s {
		return 0, fmt.Errorf("a table is named by its number, 1 to %d, not %q", maxTableNo, httpx.Clip(s, 20))
	}
	return n, nil
}

// tableReq is who asks which table is table N: a person's token when this
// browser joined the event (optional).
type tableReq struct {
	Token string `json:"token"`
}

// tableAnswer says which table table N of the event's round is now.
type tableAnswer struct {
	Event   string `json:"event"`
	Round   int    `json:"round"`    // the round in progress or last played (1 for the first); 0 before the first
	TableNo int    `json:"table_no"` // N
	Tables  int    `json:"tables"`   // the round's tables (0 before the first round)
	// Table is its ID (/t/ID), when the access policy lets the asker see
	// it: always to the person seated there, to others unless a duplicate
	// round is being played (access.EventTable).
	Table string `json:"table,omitempty"`
	// Seat is the asker's seat, with its token, when they sit at it.
	Seat *eventview.MySeat `json:"seat,omitempty"`
}

// handleTable answers POST /api/events/{id}/tables/{n}: which table is
// table n of the event's latest round, and the asker's seat there.
func (a *API) handleTable(w http.ResponseWriter, r *http.Request) {
	const op = "event table"
	n, err := tableNo(r.PathValue("n"))
	if err != nil {
		a.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_table", map[string]any{"Max": maxTableNo}))
		return
	}
	e, req, ok := a.tableEvent(w, r, op)
	if !ok {
		return
	}
	defer e.Unlock()
	ev := e.Event()
	out := tableAnswer{Event: e.ID(), Round: len(ev.Rounds), TableNo: n}
	if out.Round > 0 {
		out.Tables = len(ev.Rounds[out.Round-1].Tables)
	}
	if n > out.Tables {
		httpx.WriteJSON(w, 200, out)
		return
	}
	sub := access.OfEvent(ev, e.Daily(), out.Round-1)
	if i := e.EntryOf(req.Token); req.Token != "" && i >= 0 {
		if me := e.SeatOf(i); me.Round == out.Round && me.TableNo == n && me.Table != "" {
			// Their own table: they play it.
			if access.Ask(r.Context(), access.TableLive, access.Viewer{Kind: access.Seated}, sub).Allowed {
				out.Table, out.Seat = me.Table, &me
			}
			httpx.WriteJSON(w, 200, out)
			return
		}
	}
	if access.Ask(r.Context(), access.EventTable, a.viewer(r), sub).Allowed {
		out.Table = e.TableID(out.Round-1, n-1)
	}
	httpx.WriteJSON(w, 200, out)
}

// tableEvent reads a tableReq and returns the event locked, as
// eventFor does.
func (a *API) tableEvent(w http.ResponseWriter, r *http.Request, op string) (Event, tableReq, bool) {
	var req tableReq
	e, ok := a.lockedEvent(w, r, op, &req)
	return e, req, ok
}
