package play

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"pitch"
	"pitch/event"
	"pitch/server/access"
	"pitch/server/eventview"
	"pitch/server/httpx"
	"pitch/store"
)

// Duplicate rounds (docs/events.md, Duplicate). When a duplicate round
// begins, the server draws one secret for each of its deals and commits
// to them (their SHA-256); every table of the round deals hand k from
// deal k's secret, with no values of the players (they would make the
// tables' deals differ), so every table plays the same deals in the same
// order and each hand record verifies as any fair deal does (pitch
// verify, the page's check) against the round's one commitment for that
// deal. The commitments are public from the round's start (the event's
// "commitments"); each secret is revealed in a table's hand record when
// that table's hand is over.

// storedShared is a shared deal as the event stores it.
type storedShared struct {
	Secret      string `json:"secret"`
	Commitment  string `json:"commitment"`
	CommittedAt string `json:"committed_at"`
}

// sharedDeal is a shared deal in memory.
type sharedDeal struct {
	secret [32]byte
	at     time.Time
}

// drawShared draws the secrets of n deals committed to at time at.
func drawShared(n int, at time.Time) []storedShared {
	at = at.UTC().Truncate(time.Microsecond)
	out := make([]storedShared, n)
	for i := range out {
		var s [32]byte
		_, _ = rand.Read(s[:]) // never fails (it would crash the program rather than return an error)
		c := pitch.FairCommitment(s)
		out[i] = storedShared{Secret: hex.EncodeToString(s[:]), Commitment: hex.EncodeToString(c[:]), CommittedAt: at.Format(pitch.FairTimeFormat)}
	}
	return out
}

// sharedDeals returns round r's shared deals (nil for a round of a
// movement other than duplicate). The lock must be held, or e not yet
// shared.
func (e *liveEvent) sharedDeals(r int) []sharedDeal {
	if r >= len(e.d.Deals) || e.d.Deals[r] == nil {
		return nil
	}
	out := make([]sharedDeal, 0, len(e.d.Deals[r]))
	for _, d := range e.d.Deals[r] {
		s, err := pitch.ParseHex32(d.Secret, "the secret")
		at, err2 := time.Parse(pitch.FairTimeFormat, d.CommittedAt)
		if err != nil || err2 != nil {
			return nil // cannot happen: the server wrote it
		}
		out = append(out, sharedDeal{secret: s, at: at})
	}
	return out
}

// commitments returns the commitments of round r's shared deals, in
// order (nil when it has none). The lock must be held.
func (e *liveEvent) commitments(r int) []string {
	if r >= len(e.d.Deals) {
		return nil
	}
	var out []string
	for _, d := range e.d.Deals[r] {
		out = append(out, d.Commitment)
	}
	return out
}

// sharesDeals reports whether the table deals a duplicate round's shared
// deals (a nil r, a table of no event, does not).
func (r *tableRound) sharesDeals() bool { return r != nil && r.shared != nil }

// sharedDeal returns the shared deal of hand (1 for the first), if the
// table has one.
func (r *tableRound) sharedDeal(hand int) (sharedDeal, bool) {
	if r == nil || hand < 1 || hand > len(r.shared) {
		return sharedDeal{}, false
	}
	return r.shared[hand-1], true
}

// sitSolo gives entry i of solo event e their table: made, stored with
// the event, and started. It returns where they sit. The lock must not be
// held (the table is loaded after it is released).
func (s *Server) sitSolo(ctx context.Context, e *liveEvent, i int) (eventview.MySeat, error) {
	const op = "play event"
	e.mu.Lock()
	var ti int
	var info *store.Table
	var made []string // the tables of every try, to close those of a try not stored
	err := s.change(ctx, e, op, func() error {
		ev := e.d.Event
		var err error
		if ti, err = ev.Sit(i); err != nil {
			code := "event_closed"
			if errors.Is(err, event.ErrPlayed) {
				code = "event_played"
			}
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With(code, nil)
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		if info, err = s.makeTable(ctx, e, 0, ev.Rounds[0].Tables[ti], now); err != nil {
			return err
		}
		made = append(made, info.ID)
		e.d.Tables[0] = append(e.d.Tables[0], info.ID)
		return nil
	})
	s.closeUnused(ctx, e, made)
	if err != nil {
		e.mu.Unlock()
		return eventview.MySeat{}, err
	}
	ref := e.newRef(0, ti)
	e.rounds[0] = append(e.rounds[0], ref)
	me := eventview.MySeat{Entry: i, Name: e.d.Event.Entries[i].Name, Round: 1, Table: info.ID, TableNo: ti + 1, Seat: 0,
		SeatToken: seatToken(e.d.Token[i], info.ID, 0)}
	s.ev.mu.Lock()
	s.ev.byTable[info.ID] = ref
	s.ev.mu.Unlock()
	e.mu.Unlock()
	s.startTables(ctx, e, []*store.Table{info})
	return me, nil
}

// duplicateView makes v, the public view of a duplicate event, say what
// is particular to one. A solo event is being played from the opening of
// its round until it is over (closed, its tables finished). And it takes
// out what the access policy hides from anyone (v is the view everyone
// is sent): a round's tables' IDs (access.EventTable: they lead to their
// hands and to watching them), and each table's results and the
// matchpoints by deal (access.EventResults; the standings stay). The
// lock must be held.
func (e *liveEvent) duplicateView(v *eventview.Event) {
	ev := e.d.Event
	if ev.Settings.Movement != event.Duplicate {
		return
	}
	v.Closed = ev.Closed
	if n := len(ev.Rounds); ev.Settings.Solo && n > 0 && !ev.Over() {
		v.State, v.Started = "playing", &e.d.Started[n-1]
	}
	anyone := access.Viewer{Kind: access.Anonymous}
	for r := range v.Rounds {
		sub := access.OfEvent(ev, e.d.Daily != nil, r)
		tables := access.Decide(access.EventTable, anyone, sub).Allowed
		results := access.Decide(access.EventResults, anyone, sub).Allowed
		for ti := range v.Rounds[r] {
			if !tables {
				v.Rounds[r][ti].Table = ""
			}
			if !results {
				v.Rounds[r][ti].Result, v.Rounds[r][ti].Winner = nil, nil
			}
		}
		if !results && r < len(v.MP) {
			v.MP[r] = nil
		}
	}
}
