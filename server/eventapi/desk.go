package eventapi

import (
	"errors"
	"net/http"
	"time"

	"pitch/event"
	"pitch/server/eventview"
	"pitch/server/httpx"
)

// The director's desk (docs/events.md, The director's desk): the host's
// hand on the event — a late entry, renaming, merging a double entry,
// withdrawing a no-show, adjusting a table's result with a reason — and
// the log of it. Each is a POST with the host's token, refused to anyone
// else (403 not_host), made by the event's versioned update (Change), so
// it is stored, survives a restart and reaches every process; the event
// package checks it and logs it, and the server stamps the log's time.

// deskReq is a desk request: the host's token and what the action needs.
type deskReq struct {
	Token  string `json:"token"`
	Entry  *int   `json:"entry,omitempty"`  // rename, merge (the entry merged away), withdraw
	Into   *int   `json:"into,omitempty"`   // merge: the entry it is merged into
	Name   string `json:"name,omitempty"`   // add, rename
	Round  int    `json:"round,omitempty"`  // adjust: the round, 1 for the first
	Table  int    `json:"table,omitempty"`  // adjust: the table, 1 for the head table
	Scores []int  `json:"scores,omitempty"` // adjust: each seat's corrected score
	Reason string `json:"reason,omitempty"` // adjust: why, shown on the standings
}

// deskAnswer is what every desk action answers: the event as anyone sees
// it and the desk's log; a late entry's token and link, shown once.
type deskAnswer struct {
	Event eventview.Event  `json:"event"`
	Log   []event.LogEntry `json:"log"`
	Entry *int             `json:"entry,omitempty"` // add: the new entry
	Token string           `json:"token,omitempty"` // add: the new entry's token, shown once
	Link  string           `json:"link,omitempty"`  // add: /e/ID#me=TOKEN, the page that takes it
}

// deskFor reads a desk request and returns its event locked, once the
// access policy lets the event be seen and the token is the host's; else
// it answers and returns false. The caller must unlock the event.
func (a *API) deskFor(w http.ResponseWriter, r *http.Request, op string) (Event, deskReq, bool) {
	var req deskReq
	e, ok := a.lockedEvent(w, r, op, &req)
	if !ok {
		return nil, req, false
	}
	if !e.IsHost(req.Token) {
		e.Unlock()
		a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may use the director's desk: send the host's token").With("not_host", nil))
		return nil, req, false
	}
	if e.Daily() {
		e.Unlock()
		a.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "a daily event has no director: it runs itself").With("event_daily", nil))
		return nil, req, false
	}
	return e, req, true
}

// deskError is a refusal of the event package as the client's error:
// 400 for input that can never be right, 409 for what the event's state
// refuses; nil for nil.
func deskError(op string, err error) error {
	if err == nil {
		return nil
	}
	var ref *event.Refusal
	if !errors.As(err, &ref) {
		return httpx.Errorf(httpx.Conflict, op, "%v", err).With("desk_refused", nil)
	}
	kind, ok := deskCodes[ref.Code]
	if !ok {
		kind = httpx.Conflict
	}
	return httpx.Errorf(kind, op, "%v", err).With(ref.Code, ref.Params)
}

// deskCodes are the codes of the desk's refusals (event.Refusal), each
// with its status: 400 for a request that can never be right, 409 for
// what the event's state refuses.
var deskCodes = map[string]httpx.Kind{
	"bad_reason":            httpx.Invalid,
	"desk_scores":           httpx.Invalid,
	"desk_no_entry":         httpx.Invalid,
	"desk_no_table":         httpx.Invalid,
	"desk_merge_self":       httpx.Invalid,
	"desk_merged":           httpx.Conflict,
	"desk_same_name":        httpx.Conflict,
	"desk_merge_kind":       httpx.Conflict,
	"desk_merge_same_round": httpx.Conflict,
	"desk_merge_bot":        httpx.Conflict,
	"desk_merge_playing":    httpx.Conflict,
	"desk_left":             httpx.Conflict,
	"desk_duplicate":        httpx.Conflict,
	"desk_not_finished":     httpx.Conflict,
}

// deskChange makes fn's change to e (locked) by the versioned update,
// on the event as stored, and stamps the log entry it made with the
// time; it answers the host.
func (a *API) deskChange(w http.ResponseWriter, r *http.Request, e Event, op string, fn func(ev *event.Event) error, ans *deskAnswer) {
	// A refusal (an entry unknown here, say) must come from the event as
	// stored, not from a copy another process has changed since.
	if err := e.Fresh(r.Context()); err != nil {
		a.writeError(w, r, err)
		return
	}
	err := e.Change(r.Context(), op, func() error {
		ev := e.Event()
		n := len(ev.Log)
		if err := fn(ev); err != nil {
			return err
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		for i := n; i < len(ev.Log); i++ {
			ev.Log[i].At = now
		}
		return nil
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ans.Event, ans.Log = e.View(), deskLog(e.Event())
	httpx.WriteJSON(w, 200, ans)
}

// deskLog is the event's desk log, never nil.
func deskLog(ev *event.Event) []event.LogEntry {
	if ev.Log == nil {
		return []event.LogEntry{}
	}
	return ev.Log
}

// needEntry is the request's entry (field), or a 400 saying it is missing.
func needEntry(op, field string, p *int) (int, error) {
	if p == nil {
		return 0, httpx.Errorf(httpx.Invalid, op, "say which entry: %q is its number (from 0)", field).With("desk_no_entry", nil)
	}
	return *p, nil
}

// handleDesk answers POST /api/events/{id}/desk: the desk's log, for the
// host.
func (a *API) handleDesk(w http.ResponseWriter, r *http.Request) {
	e, _, ok := a.deskFor(w, r, "director's desk")
	if !ok {
		return
	}
	defer e.Unlock()
	httpx.WriteJSON(w, 200, deskAnswer{Event: e.View(), Log: deskLog(e.Event())})
}

// handleDeskAdd adds a late entry by the host's hand: the person plays
// from the next round; the answer holds their token and a link that
// hands it to their page, shown once.
func (a *API) handleDeskAdd(w http.ResponseWriter, r *http.Request) {
	const op = "add an entry"
	e, req, ok := a.deskFor(w, r, op)
	if !ok {
		return
	}
	defer e.Unlock()
	name, err := httpx.CleanName(req.Name)
	if err != nil {
		a.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_name", nil))
		return
	}
	token := httpx.RandomString(32)
	var i int
	a.deskChange(w, r, e, op, func(ev *event.Event) error {
		var err error
		if i, err = ev.AddLate(name); err != nil {
			code := "event_closed"
			switch {
			case errors.Is(err, event.ErrFull):
				code = "event_full"
			case errors.Is(err, event.ErrEnded):
				code = "event_ended"
			}
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With(code, map[string]any{"Max": event.MaxPlayers})
		}
		e.AddToken(token)
		return nil
	}, &deskAnswer{Entry: &i, Token: token, Link: "/e/" + e.ID() + "#me=" + token})
}

// handleDeskRename renames an entry.
func (a *API) handleDeskRename(w http.ResponseWriter, r *http.Request) {
	const op = "rename an entry"
	e, req, ok := a.deskFor(w, r, op)
	if !ok {
		return
	}
	defer e.Unlock()
	i, err := needEntry(op, "entry", req.Entry)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	name, err := httpx.CleanName(req.Name)
	if err != nil {
		a.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_name", nil))
		return
	}
	a.deskChange(w, r, e, op, func(ev *event.Event) error { return deskError(op, ev.Rename(i, name)) }, &deskAnswer{})
}

// handleDeskMerge merges entry into into: the same person joined twice.
func (a *API) handleDeskMerge(w http.ResponseWriter, r *http.Request) {
	const op = "merge entries"
	e, req, ok := a.deskFor(w, r, op)
	if !ok {
		return
	}
	defer e.Unlock()
	i, err := needEntry(op, "entry", req.Entry)
	if err == nil {
		var into int
		if into, err = needEntry(op, "into", req.Into); err == nil {
			a.deskChange(w, r, e, op, func(ev *event.Event) error { return deskError(op, ev.Merge(i, into)) }, &deskAnswer{})
			return
		}
	}
	a.writeError(w, r, err)
}

// handleDeskWithdraw withdraws a no-show.
func (a *API) handleDeskWithdraw(w http.ResponseWriter, r *http.Request) {
	const op = "withdraw an entry"
	e, req, ok := a.deskFor(w, r, op)
	if !ok {
		return
	}
	defer e.Unlock()
	i, err := needEntry(op, "entry", req.Entry)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.deskChange(w, r, e, op, func(ev *event.Event) error {
		_, err := ev.Withdraw(i)
		return deskError(op, err)
	}, &deskAnswer{})
}

// handleDeskAdjust corrects a finished table's result, with a reason.
func (a *API) handleDeskAdjust(w http.ResponseWriter, r *http.Request) {
	const op = "adjust a result"
	e, req, ok := a.deskFor(w, r, op)
	if !ok {
		return
	}
	defer e.Unlock()
	a.deskChange(w, r, e, op, func(ev *event.Event) error {
		return deskError(op, ev.Adjust(req.Round-1, req.Table-1, req.Scores, req.Reason))
	}, &deskAnswer{})
}
