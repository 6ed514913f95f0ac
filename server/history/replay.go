package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"pitch"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/server/tableinfo"
	"pitch/server/wire"
	"pitch/store"
)

// Replay, the whole match's records and the history of matches
// (docs/protocol.md). Only finished hands are replayed: nothing in them is
// secret any more.

// replayStep is the hand after one action (the first step: after the
// deal), with every hand face up.
type replayStep struct {
	Index  int             `json:"index"` // the action's place in the record; -1 for the deal
	Action json.RawMessage `json:"action,omitempty"`
	// Auto marks an action the record leaves out and the rules imply (a
	// ten-point give_stock false).
	Auto   bool           `json:"auto,omitempty"`
	Text   string         `json:"text,omitempty"`
	Hands  [][]pitch.Card `json:"hands"` // every seat's cards in hand
	View   wire.View      `json:"view"`  // the table as a spectator sees it
	Taken  []int          `json:"taken"` // points each seat's side has taken so far
	Points []wire.Point   `json:"points"`
}

// replayJSON is a whole hand's replay.
type replayJSON struct {
	Table  string            `json:"table,omitempty"`
	Hand   int               `json:"hand,omitempty"`
	Seats  []tableinfo.Seat  `json:"seats,omitempty"`
	Record json.RawMessage   `json:"record"`
	Steps  []replayStep      `json:"steps"`
	Moon   int               `json:"moon"`   // the bid that is the moon; 0 in auction
	Result *wire.HandSummary `json:"result"` // nil when the record stops before the end
}

// maxReplayBody is the largest hand record POST /api/replay takes.
const maxReplayBody = 64 << 10

// replaySteps replays rec with the engine, one step per action.
func replaySteps(rec *pitch.Record) ([]replayStep, *pitch.State, error) {
	start := *rec
	start.Actions = nil
	s, err := start.State()
	if err != nil {
		return nil, nil, err
	}
	steps := []replayStep{stepOf(&s, -1, pitch.Action{}, false)}
	for i, a := range rec.Actions {
		if s.Phase() == pitch.PhaseGiveStock && a.Kind != pitch.ActGiveStock {
			auto := pitch.GiveStock(s.Bidder(), false)
			if err := s.Apply(auto); err != nil {
				return nil, nil, &pitch.RecordError{Action: i, Message: err.Error()}
			}
			steps = append(steps, stepOf(&s, i, auto, true))
		}
		if err := s.Apply(a); err != nil {
			return nil, nil, &pitch.RecordError{Action: i, Message: err.Error()}
		}
		steps = append(steps, stepOf(&s, i, a, false))
	}
	return steps, &s, nil
}

// stepOf is the step after action i of a record (a, made by the rules
// when auto) brought the hand to s.
func stepOf(s *pitch.State, i int, a pitch.Action, auto bool) replayStep {
	v := s.View(-1)
	st := replayStep{Index: i, Auto: auto, View: wire.ToView(&v), Points: []wire.Point{}}
	if i >= 0 || auto {
		raw, _ := json.Marshal(a)
		st.Action, st.Text = raw, a.String()
	}
	for seat := range s.Seats() {
		st.Hands = append(st.Hands, pitch.SortHand(s.Hand(seat), s.Trump(), s.Game().Jokers()))
	}
	r := s.Result()
	st.Taken = r.Taken
	for _, p := range r.Points {
		pj := wire.Point{Kind: p.Kind.String(), Seat: int(p.Seat)}
		if p.Card != pitch.NoCard {
			c := p.Card
			pj.Card = &c
		}
		st.Points = append(st.Points, pj)
	}
	return st
}

// replayOf builds the replay of a record's bytes, hand n of its table
// (0 for a record without one).
func replayOf(raw []byte, n int) (*replayJSON, error) {
	rec, err := pitch.ReadRecord(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	steps, s, err := replaySteps(rec)
	if err != nil {
		return nil, err
	}
	norm, _ := json.Marshal(rec)
	out := &replayJSON{Record: norm, Steps: steps, Moon: s.Game().MoonBid()}
	if s.Terminal() {
		out.Result = wire.Summarize(n, s)
	}
	return out, nil
}

// finishedHand returns the public description of table id, how many
// seats it has, and the number and record of its finished hand n.
func (s *API) finishedHand(r *http.Request, op string) (tableinfo.Table, int, int, []byte, error) {
	info, seats, err := s.tables.PublicTable(r.Context(), r.PathValue("id"))
	if err != nil {
		return tableinfo.Table{}, 0, 0, nil, err
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		return tableinfo.Table{}, 0, 0, nil, httpx.Errorf(httpx.Invalid, op, "hand numbers start at 1, not %q", r.PathValue("n"))
	}
	hands, err := s.store.Hands(r.Context(), info.ID)
	if err != nil {
		return tableinfo.Table{}, 0, 0, nil, httpx.StoreDown(op, err)
	}
	var rec []byte
	for _, h := range hands {
		if h.N == n {
			rec = h.Record
		}
	}
	// A record has every card: the policy says when it may be read (a
	// hand with no record is not finished).
	sub := s.tables.Subject(info.ID)
	if sub.Hand = access.During; rec != nil {
		sub.Hand = access.After
	}
	if d := access.Ask(r.Context(), access.HandRecord, s.viewerAt(r, info.ID), sub); !d.Allowed {
		if d.Reason == access.NotFinished {
			return tableinfo.Table{}, 0, 0, nil, httpx.Errorf(httpx.NotFound, op, "hand %d is not finished (finished hands: %d)", n, len(hands))
		}
		return tableinfo.Table{}, 0, 0, nil, httpx.Refused(op, d)
	}
	return info, seats, n, rec, nil
}

// handleHands serves GET /api/tables/{id}/hands: where each finished
// hand's record is.
func (s *API) handleHands(w http.ResponseWriter, r *http.Request) {
	info, _, err := s.tables.PublicTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, "hands", access.HandList, info.ID, access.After) {
		return
	}
	hands, err := s.store.Hands(r.Context(), info.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown("hands", err))
		return
	}
	out := []map[string]any{}
	for _, h := range hands {
		out = append(out, map[string]any{"hand": h.N, "url": fmt.Sprintf("/api/tables/%s/hands/%d", info.ID, h.N)})
	}
	httpx.WriteJSON(w, 200, out)
}

// handleHand serves a finished hand's record; a hand in progress has none.
func (s *API) handleHand(w http.ResponseWriter, r *http.Request) {
	const op = "hand record"
	info, _, n, raw, err := s.finishedHand(r, op)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="pitch-%s-hand-%d.json"`, info.ID, n))
	_, _ = w.Write(raw)
}

// handleReplay serves GET /api/tables/{id}/hands/{n}/replay.
func (s *API) handleReplay(w http.ResponseWriter, r *http.Request) {
	const op = "replay"
	info, _, n, raw, err := s.finishedHand(r, op)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := replayOf(raw, n)
	if err != nil {
		s.writeError(w, r, httpx.Unexpected(op, err)) // a stored record the engine refuses
		return
	}
	out.Table, out.Hand = info.ID, n
	out.Seats = tableinfo.HeldAt(info.Seats, n) // who played each seat in this hand
	httpx.WriteJSON(w, 200, out)
}

// handlePostReplay serves POST /api/replay: the replay of a hand record
// sent as the body, without a table.
func (s *API) handlePostReplay(w http.ResponseWriter, r *http.Request) {
	const op = "replay"
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxReplayBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "the hand record is over %d bytes", maxReplayBody).With("record_large", map[string]any{"Max": maxReplayBody}))
			return
		}
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "the request body could not be read: %v", err))
		return
	}
	out, err := replayOf(raw, 0)
	if err != nil {
		s.writeError(w, r, recordError(op, err))
		return
	}
	httpx.WriteJSON(w, 200, out)
}

// recordError is a 400 carrying the engine's words and the action at
// fault (code bad_record, params Message and Action).
func recordError(op string, err error) *httpx.Error {
	var re *pitch.RecordError
	if !errors.As(err, &re) {
		re = &pitch.RecordError{Action: -1, Message: err.Error()}
	}
	params := map[string]any{"Message": re.Message}
	if re.Action >= 0 {
		params["Action"] = re.Action
	}
	return httpx.Errorf(httpx.Invalid, op, "%s", re.Error()).With("bad_record", params)
}

// matchJSON is a whole match's hand records, one file.
type matchJSON struct {
	Table tableinfo.Table   `json:"table"`
	Hands []json.RawMessage `json:"hands"` // the hand records, in order
}

// handleMatch serves GET /api/tables/{id}/match: every finished hand's
// record in one file.
func (s *API) handleMatch(w http.ResponseWriter, r *http.Request) {
	const op = "match records"
	info, _, err := s.tables.PublicTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, op, access.MatchRecords, info.ID, access.After) {
		return
	}
	hands, err := s.store.Hands(r.Context(), info.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	out := matchJSON{Table: info, Hands: []json.RawMessage{}}
	for _, h := range hands {
		out.Hands = append(out.Hands, h.Record)
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="pitch-%s-match.json"`, info.ID))
	httpx.WriteJSON(w, 200, out)
}

// historyEntry is one table on the history page.
type historyEntry struct {
	tableinfo.Table
	Hands  int   `json:"hands"`            // finished hands
	Scores []int `json:"scores,omitempty"` // the scores after the last finished hand
	Winner []int `json:"winner,omitempty"` // the match's winners, once it is over
	// Round: the table played an event's round (docs/events.md), which
	// may end, after its hands or its time, with no winner.
	Round bool `json:"round,omitempty"`
}

// maxHistoryIDs is the most table ids /api/history?tables= takes.
const maxHistoryIDs = 100

// handleHistory serves GET /api/history.
func (s *API) handleHistory(w http.ResponseWriter, r *http.Request) {
	const op = "history"
	q := store.HistoryQuery{Limit: 20}
	for k, vs := range r.URL.Query() {
		v := vs[0]
		switch k {
		case "game":
			vr, err := pitch.ParseVariant(v)
			if err != nil {
				s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_game", map[string]any{"Game": v}))
				return
			}
			q.Variant = vr.String()
		case "offset", "limit":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || k == "offset" && n > 1_000_000 || k == "limit" && (n < 1 || n > 100) {
				s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%s must be a number (offset 0 or more, limit 1 to 100), not %q", k, v).With("bad_page", map[string]any{"Name": k}))
				return
			}
			if k == "offset" {
				q.Offset = n
			} else {
				q.Limit = n
			}
		case "tables":
			ids := strings.Split(v, ",")
			if len(ids) > maxHistoryIDs {
				s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "tables lists %d ids: it takes at most %d, comma-separated", len(ids), maxHistoryIDs).With("bad_tables", map[string]any{"Max": maxHistoryIDs}))
				return
			}
			for _, id := range ids {
				if !httpx.ValidID(id) {
					s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "tables holds %q, not a table id: ids are 1 to 64 letters, digits, - and _, comma-separated, at most %d", httpx.Clip(id, 70), maxHistoryIDs).With("bad_tables", map[string]any{"Max": maxHistoryIDs}))
					return
				}
			}
			q.IDs = ids
		default:
			s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "unknown parameter %q: the history takes game, tables, offset and limit", k).With("bad_query", map[string]any{"Name": k}))
			return
		}
	}
	page, total, err := s.store.History(r.Context(), q)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	v := s.viewer(r)
	out := struct {
		Tables []historyEntry `json:"tables"`
		Total  int            `json:"total"`
		Offset int            `json:"offset"`
		Limit  int            `json:"limit"`
		Game   string         `json:"game,omitempty"`
	}{Tables: []historyEntry{}, Total: total, Offset: q.Offset, Limit: q.Limit, Game: q.Variant}
	for _, p := range page {
		sub := s.tables.Subject(p.Table.ID)
		if !access.Ask(r.Context(), access.HistoryEntry, v, sub).Allowed {
			continue
		}
		g, _ := tableinfo.Game(p.Table) // checked when the table was made
		e := historyEntry{Table: tableinfo.Public(p.Table, g), Hands: p.Hands, Round: sub.Event}
		if p.Last != nil {
			if rec, err := pitch.ReadRecord(bytes.NewReader(p.Last)); err == nil {
				if st, err := rec.State(); err == nil && st.Terminal() {
					res := st.Result()
					e.Scores = res.Scores
					if p.Table.Finished {
						e.Winner = res.Winner
					}
				}
			}
		}
		out.Tables = append(out.Tables, e)
	}
	httpx.WriteJSON(w, 200, out)
}
