package loadtest

import (
	"encoding/json"
	"fmt"
	"pitch"
)

// What a client reads of a table's log: whether it confirms an action
// sent, and which actions the server made for the client's seat.

// logEntry is one action of a state's log.
type logEntry struct {
	Seat   int             `json:"seat"`
	Action json.RawMessage `json:"action"`
	By     string          `json:"by"`
}

// shows reports whether st shows, at event seq, an action of seat's own
// (not a stand-in's or the timer's) that is sent (when st shows the
// action's cards). known is false when st's log no longer reaches back to
// seq. A state past seq alone does not confirm an action: another may
// have taken that place (a stand-in, the seat's own earlier action
// stored by a process that then restarted) and the action be refused.
func (st *state) shows(seq, seat int, sent json.RawMessage) (ok, known bool) {
	entries := logEntries(st.Log)
	if len(entries) == 0 && !st.Over && st.LastHand != nil {
		entries = logEntries(st.LastHand.Log) // the hand just ended; the next not begun
	}
	i := len(entries) - (st.Seq - seq)
	if i < 0 || i >= len(entries) {
		return false, false
	}
	var e logEntry
	if json.Unmarshal(entries[i], &e) != nil {
		return false, true
	}
	return e.Seat == seat && e.By == "" && (e.Action == nil || sameAction(e.Action, sent)), true
}

// madeForSeat notes the actions st's log shows made for seat by the
// server (a stand-in's, the timer's) past event number scanned, and
// returns the event number now scanned to.
func (r *run) madeForSeat(st *state, table string, seat, scanned int) int {
	if st.Seq <= scanned {
		return scanned
	}
	entries := logEntries(st.Log)
	if len(entries) == 0 && !st.Over && st.LastHand != nil {
		entries = logEntries(st.LastHand.Log) // the hand just ended; the next not begun
	}
	for i := max(0, len(entries)-(st.Seq-scanned)); i < len(entries); i++ {
		var e logEntry
		if json.Unmarshal(entries[i], &e) != nil || e.Seat != seat || e.By == "" {
			continue
		}
		r.mu.Lock()
		r.madeFor[fmt.Sprintf("%s %d %d", table, seat, st.Seq-(len(entries)-i))] = e.By
		r.mu.Unlock()
	}
	return st.Seq
}

// logEntries splits a log as sent, a JSON array, into its entries, not
// decoded (none when it is not an array).
func logEntries(log json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	if elements(log, func(e []byte) { out = append(out, e) }) != nil {
		return nil
	}
	return out
}

// sameAction reports whether two hand-record actions say the same (the
// order of a discard's cards does not matter: they are a set).
func sameAction(a, b []byte) bool {
	var x, y pitch.Action
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && x == y
}
