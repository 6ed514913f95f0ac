package play

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"pitch"
	"pitch/event"
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
func (s *Server) sitSolo(ctx context.Context, e *liveEvent, i int) (mySeatJSON, error) {
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
		return mySeatJSON{}, err
	}
	ref := e.newRef(0, ti)
	e.rounds[0] = append(e.rounds[0], ref)
	me := mySeatJSON{Entry: i, Name: e.d.Event.Entries[i].Name, Round: 1, Table: info.ID, TableNo: ti + 1, Seat: 0,
		SeatToken: seatToken(e.d.Token[i], info.ID, 0)}
	s.ev.mu.Lock()
	s.ev.byTable[info.ID] = ref
	s.ev.mu.Unlock()
	e.mu.Unlock()
	s.startTables(ctx, e, []*store.Table{info})
	return me, nil
}

func (s *Server) handleEventPlay(w http.ResponseWriter, r *http.Request) {
	const op = "play event"
	e, req, ok := s.eventFor(w, r)
	if !ok {
		return
	}
	i := e.entryOf(req.Token)
	daily := e.d.Daily != nil
	e.mu.Unlock()
	if daily {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "a daily event is played from /daily, once a person").With("event_daily", nil))
		return
	}
	if i < 0 {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this token is no one's in this event: join first").With("not_in_event", nil))
		return
	}
	me, err := s.sitSolo(r.Context(), e, i)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, me)
}

func (s *Server) handleEventClose(w http.ResponseWriter, r *http.Request) {
	const op = "close event"
	e, req, ok := s.eventFor(w, r)
	if !ok {
		return
	}
	defer e.mu.Unlock()
	if !e.isHost(req.Token) {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may close the event: send the host's token").With("not_host", nil))
		return
	}
	err := s.change(r.Context(), e, op, func() error {
		if err := e.d.Event.Close(); err != nil {
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With("event_not_solo", nil)
		}
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, e.view())
}

// duplicateView makes v, the public view of a duplicate event, say what
// is particular to one. A solo event is being played from the opening of
// its round until it is over (closed, its tables finished). And it takes
// out what would show a duplicate round's cards to someone still to play
// them: until round r is over, its tables' IDs (which lead to their hands
// and to watching them); at a solo event, also each table's results and
// the matchpoints by deal (the standings stay). The lock must be held.
func (e *liveEvent) duplicateView(v *eventJSON) {
	ev := e.d.Event
	if ev.Settings.Movement != event.Duplicate {
		return
	}
	v.Closed = ev.Closed
	if n := len(ev.Rounds); ev.Settings.Solo && n > 0 && !ev.Over() {
		v.State, v.Started = "playing", &e.d.Started[n-1]
	}
	for r := range v.Rounds {
		if ev.RoundOver(r) {
			continue
		}
		for ti := range v.Rounds[r] {
			v.Rounds[r][ti].Table = ""
			if ev.Settings.Solo {
				v.Rounds[r][ti].Result, v.Rounds[r][ti].Winner = nil, nil
			}
		}
		if ev.Settings.Solo && r < len(v.MP) {
			v.MP[r] = nil
		}
	}
}

// dealJSON is a deal of a duplicate round: how everyone who held each
// seat's cards did (GET /api/events/{id}/deals/{round}/{deal}).
type dealJSON struct {
	Event      string `json:"event"`
	Variant    string `json:"variant"`
	Round      int    `json:"round"` // from 1
	Deal       int    `json:"deal"`  // from 1
	Deals      int    `json:"deals"` // the round's deals
	Over       bool   `json:"over"`  // the round is over: the replays are linked
	Commitment string `json:"commitment,omitempty"`
	// Groups: one per table size (auction may have several), each seat's
	// results, best first.
	Groups []dealGroupJSON `json:"groups"`
}

type dealGroupJSON struct {
	Seats int           `json:"seats"`
	Rows  []dealSeatRow `json:"rows"`
}

type dealSeatRow struct {
	Seat    int              `json:"seat"`
	Results []dealResultJSON `json:"results"`
}

type dealResultJSON struct {
	Table   int     `json:"table"` // from 1
	Entry   int     `json:"entry"` // -1 for a bot
	Name    string  `json:"name"`
	Bot     bool    `json:"bot"`
	Result  int     `json:"result"` // the seat's change of score on the deal
	Points  int     `json:"points"`
	Max     int     `json:"max"`
	Percent float64 `json:"percent"`
	Replay  string  `json:"replay,omitempty"` // the hand's page, once the round is over
}

// deal is deal d (from 0) of round r, as dealJSON. The lock must be held.
func (e *liveEvent) deal(r, d int) dealJSON {
	ev := e.d.Event
	out := dealJSON{Event: e.id, Variant: ev.Settings.Variant, Round: r + 1, Deal: d + 1, Deals: ev.Settings.Hands, Over: ev.RoundOver(r),
		Groups: []dealGroupJSON{}}
	if cs := e.commitments(r); d < len(cs) {
		out.Commitment = cs[d]
	}
	bySize := map[int]*dealGroupJSON{}
	for _, m := range ev.Matchpoints(r) {
		if m.Deal != d {
			continue
		}
		tab := ev.Rounds[r].Tables[m.Table]
		g := bySize[len(tab.Seats)]
		if g == nil {
			g = &dealGroupJSON{Seats: len(tab.Seats)}
			for seat := range len(tab.Seats) {
				g.Rows = append(g.Rows, dealSeatRow{Seat: seat})
			}
			bySize[len(tab.Seats)] = g
		}
		x := dealResultJSON{Table: m.Table + 1, Entry: m.Entry, Name: "", Bot: m.Entry == event.Bot, Result: m.Result, Points: m.Points, Max: m.Max,
			Percent: m.Percent}
		if m.Entry != event.Bot {
			x.Name, x.Bot = ev.Entries[m.Entry].Name, ev.BotPlays(m.Entry, r)
		}
		if out.Over {
			x.Replay = "/t/" + e.d.Tables[r][m.Table] + "/hands/" + strconv.Itoa(d+1)
		}
		g.Rows[m.Seat].Results = append(g.Rows[m.Seat].Results, x)
	}
	sizes := make([]int, 0, len(bySize))
	for n := range bySize {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	for _, n := range sizes {
		g := bySize[n]
		var rows []dealSeatRow
		for _, row := range g.Rows {
			if ev.Settings.Solo && !slices.ContainsFunc(row.Results, func(x dealResultJSON) bool { return x.Entry != event.Bot }) {
				continue // a solo event's bots' seats
			}
			slices.SortStableFunc(row.Results, func(a, b dealResultJSON) int { return b.Points - a.Points })
			rows = append(rows, row)
		}
		g.Rows = rows
		out.Groups = append(out.Groups, *g)
	}
	return out
}

func (s *Server) handleEventDeal(w http.ResponseWriter, r *http.Request) {
	const op = "event deal"
	e, err := s.event(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	ev := e.d.Event
	if ev.Settings.Movement != event.Duplicate {
		s.writeError(w, r, httpx.Errorf(httpx.NotFound, op, "this event is not duplicate: its deals are not compared").With("no_deal", nil))
		return
	}
	round, err1 := strconv.Atoi(r.PathValue("round"))
	d, err2 := strconv.Atoi(r.PathValue("deal"))
	if err1 != nil || err2 != nil || round < 1 || round > len(ev.Rounds) || d < 1 || d > ev.Settings.Hands {
		s.writeError(w, r, httpx.Errorf(httpx.NotFound, op, "no deal %q of round %q: rounds played are 1 to %d, deals 1 to %d", r.PathValue("deal"), r.PathValue("round"),
			len(ev.Rounds), ev.Settings.Hands).With("no_deal", nil))
		return
	}
	if ev.Settings.Solo && !ev.RoundOver(round-1) {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "each deal's results are shown once the event is over, so that no one still to play it learns anything of it").
			With("deal_not_over", nil))
		return
	}
	httpx.WriteJSON(w, 200, e.deal(round-1, d-1))
}
