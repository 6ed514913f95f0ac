package play

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"pitch/event"
	"pitch/server/eventview"
	"pitch/server/httpx"
	"pitch/store"
)

// Events of many tables (docs/events.md). The package event decides the
// seating, the movement and the standings; this file stores an event
// (store.Tournament, its whole state as eventData), makes each round's
// tables with the table machinery of the rest of the server, and records
// a table's result when its round ends there (table.act calls
// roundResult). An event's lock is never held while a table's is taken:
// a table calls in with its own lock held.

// eventData is an event as stored.
type eventData struct {
	Event *event.Event `json:"event"`
	Host  []byte       `json:"host"`   // SHA-256 of the host's token
	Token [][]byte     `json:"tokens"` // per entry: SHA-256 of their token
	// Tables holds, per round and table, the table's ID; Started when
	// each round was started; EndsAt, at rounds on the clock, when time
	// is up (the host may extend it).
	Tables  [][]string  `json:"tables"`
	Started []time.Time `json:"started"`
	EndsAt  []time.Time `json:"ends_at"`
	// Deals holds, per round of a duplicate event, the deals every table
	// of the round plays: secrets drawn and committed to when the round
	// began (duplicate.go). Never sent to a client.
	Deals [][]storedShared `json:"deals,omitempty"`
	// Daily: a daily event's day and who each entry is (daily.go).
	Daily *dailyData `json:"daily,omitempty"`
	// Paused: the host paused the round in play; its tables stand still.
	// Held, at a round on the clock, is the time its clock had left when
	// it was paused (EndsAt is set again from it on resuming).
	Paused bool          `json:"paused,omitempty"`
	Held   time.Duration `json:"held,omitempty"`
}

// liveEvent is an event in memory. mu guards rec and d.
type liveEvent struct {
	mu  sync.Mutex
	id  string
	rec *store.Tournament // the stored row: its version
	d   eventData
	// rounds holds the tables' references per round (each table's clock
	// is shared by its round).
	rounds [][]*tableRound
	// subs are the connections following the event (eventws.go);
	// pushDue: a push to them is on its way.
	subs    map[*eventSub]struct{}
	pushDue bool
	// sent is what the followers were last sent (eventws.go), a
	// phone's part of the event and the whole.
	sent [2]eventStream
	// refused are the last connections a limit refused, for the host
	// (eventrefused.go).
	refused []eventview.Refusal
}

// tableRound is a table's place in an event: which round and table it
// is, and when its round ends.
type tableRound struct {
	ev           *liveEvent
	round, index int
	hands        int          // the round ends after this many hands (0: not by hands)
	endsAt       atomic.Int64 // Unix nanoseconds when the round's time is up (0: no clock)
	shared       []sharedDeal // a duplicate round's deals, by hand (nil: the table draws its own)
	paused       atomic.Bool  // the host paused the event: nobody plays
}

// held reports whether the table's event is paused (false for a table of
// no event).
func (r *tableRound) held() bool { return r != nil && r.paused.Load() }

// ends reports whether the round ends at a table with hands finished
// hands, now (nil: a table of no event never does).
func (r *tableRound) ends(hands int) bool {
	if r == nil {
		return false
	}
	if r.hands > 0 && hands >= r.hands {
		return true
	}
	at := r.endsAt.Load()
	return at != 0 && time.Now().UnixNano() >= at
}

// eventSet is the server's events: the live ones by ID, and each event
// table's round by table ID.
type eventSet struct {
	mu      sync.Mutex
	byID    map[string]*liveEvent
	byTable map[string]*tableRound
}

// roundOf returns table id's place in an event, or nil.
func (s *Server) roundOf(id string) *tableRound {
	s.ev.mu.Lock()
	defer s.ev.mu.Unlock()
	return s.ev.byTable[id]
}

// register makes e live and records its tables' rounds.
func (s *Server) register(e *liveEvent) {
	s.ev.mu.Lock()
	defer s.ev.mu.Unlock()
	if s.ev.byID == nil {
		s.ev.byID, s.ev.byTable = map[string]*liveEvent{}, map[string]*tableRound{}
	}
	s.ev.byID[e.id] = e
	for _, rs := range e.rounds {
		for _, r := range rs {
			s.ev.byTable[e.d.Tables[r.round][r.index]] = r
		}
	}
}

// addRound makes round r's table references from the stored data. The
// event's lock must be held (or e not yet shared).
func (e *liveEvent) addRound(r int) []*tableRound {
	var refs []*tableRound
	for i := range e.d.Tables[r] {
		refs = append(refs, e.newRef(r, i))
	}
	e.rounds = append(e.rounds, refs)
	return refs
}

// newRef makes the reference of table i of round r. The lock must be
// held (or e not yet shared).
func (e *liveEvent) newRef(r, i int) *tableRound {
	ref := &tableRound{ev: e, round: r, index: i}
	if e.d.Event.Settings.End == event.EndHands {
		ref.hands = e.d.Event.Settings.Hands
	}
	if r < len(e.d.EndsAt) && !e.d.EndsAt[r].IsZero() {
		ref.endsAt.Store(e.d.EndsAt[r].UnixNano())
	}
	ref.shared = e.sharedDeals(r)
	ref.paused.Store(e.d.Paused && r == len(e.d.Tables)-1)
	return ref
}

// loadEvents makes every unfinished stored event live (before the tables
// load, so that each of their tables knows its round).
func (s *Server) loadEvents(ctx context.Context) error {
	recs, err := s.store.Tournaments(ctx, true)
	if err != nil {
		return fmt.Errorf("loading events: %w", err)
	}
	for _, rec := range recs {
		e, err := liveFrom(rec)
		if err != nil {
			s.log.Error("cannot resume event", "event", rec.ID, "err", err.Error())
			continue
		}
		s.register(e)
	}
	return nil
}

// liveFrom rebuilds a live event from its stored row.
func liveFrom(rec *store.Tournament) (*liveEvent, error) {
	e := &liveEvent{id: rec.ID, rec: rec}
	if err := json.Unmarshal(rec.Data, &e.d); err != nil {
		return nil, err
	}
	if e.d.Event == nil || len(e.d.Tables) != len(e.d.Event.Rounds) {
		return nil, errors.New("the stored event is not whole")
	}
	for r := range e.d.Tables {
		e.addRound(r)
	}
	return e, nil
}

// settleEvents records the results of event tables that finished while
// their event did not hear of it (the server stopped in between): after
// a restart, once the tables are loaded.
func (s *Server) settleEvents(ctx context.Context) {
	s.ev.mu.Lock()
	var evs []*liveEvent
	for _, e := range s.ev.byID {
		evs = append(evs, e)
	}
	s.ev.mu.Unlock()
	for _, e := range evs {
		e.mu.Lock()
		var todo []*tableRound
		if n := len(e.rounds); n > 0 {
			for i, ref := range e.rounds[n-1] {
				if e.d.Event.Rounds[n-1].Tables[i].Result == nil {
					todo = append(todo, ref)
				}
			}
		}
		e.mu.Unlock()
		for _, ref := range todo {
			id := e.tableID(ref)
			info, err := s.store.Table(ctx, id)
			if err != nil || !info.Finished {
				continue // still playing (or gone): it reports when it ends
			}
			t, err := s.table(ctx, id)
			if err != nil {
				s.log.Error("event: cannot load a finished table", "event", e.id, "table", id, "err", err.Error())
				continue
			}
			t.mu.Lock()
			res := t.result()
			t.mu.Unlock()
			s.roundResult(ref, res)
		}
	}
}

// tableID is the ID of ref's table.
func (e *liveEvent) tableID(ref *tableRound) string { return e.d.Tables[ref.round][ref.index] }

// result is how the table's round came out, for its event: the final
// scores, each hand's changes, the match's winners. The lock must be held.
func (t *table) result() event.Result {
	n := t.game.Seats()
	res := event.Result{Scores: make([]int, n), Winner: t.match.Winner()}
	for _, row := range t.sheet {
		res.Hands = append(res.Hands, append([]int(nil), row.Delta...))
		copy(res.Scores, row.Scores)
	}
	return res
}

// roundResult records the result of ref's table and stores the event
// (once: a result recorded already, here or at another process, is left
// as it is).
func (s *Server) roundResult(ref *tableRound, res event.Result) {
	e := ref.ev
	e.mu.Lock()
	defer e.mu.Unlock()
	var refused error
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	err := s.change(ctx, e, "event result", func() error {
		if e.d.Event.Rounds[ref.round].Tables[ref.index].Result != nil {
			return errUnchanged
		}
		refused = e.d.Event.Record(ref.round, ref.index, res)
		return refused
	})
	switch {
	case err == nil, errors.Is(err, errUnchanged):
	case refused != nil:
		s.log.Error("event: a table's result is refused", "event", e.id, "table", e.tableID(ref), "err", refused.Error())
	case !s.closing():
		// The table is stored as finished: the next start settles it, or
		// another process (settleLater).
		s.log.Warn("event: storing a table's result", "event", e.id, "table", e.tableID(ref), "err", err.Error())
	}
}

// errUnchanged: a change finds it is made already (at another process,
// say): nothing to store.
var errUnchanged = errors.New("made already")

// snapshot is the event's state as JSON, to restore if storing fails.
// The lock must be held.
func (e *liveEvent) snapshot() []byte {
	b, _ := json.Marshal(e.d)
	return b
}

// restore puts back a snapshot. The lock must be held.
func (e *liveEvent) restore(b []byte) {
	var d eventData
	if err := json.Unmarshal(b, &d); err == nil {
		e.d = d
	}
}

// save stores the event at its current version. The lock must be held.
func (e *liveEvent) save(ctx context.Context, st store.Store) error {
	data, err := json.Marshal(e.d)
	if err != nil {
		return err
	}
	rec := *e.rec
	rec.Data, rec.Finished = data, e.d.Event.Over()
	if err := st.UpdateTournament(ctx, &rec); err != nil {
		return err
	}
	e.rec = &rec
	e.changed() // every stored change goes to the event's followers
	return nil
}

// event returns the live event id, or a NotFound error.
func (s *Server) event(ctx context.Context, id string) (*liveEvent, error) {
	const op = "server.event"
	s.ev.mu.Lock()
	e, ok := s.ev.byID[id]
	s.ev.mu.Unlock()
	if ok {
		return e, nil
	}
	if !httpx.ValidID(id) {
		return nil, httpx.Errorf(httpx.NotFound, op, "no event %q", id).With("no_event", nil)
	}
	rec, err := s.store.Tournament(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpx.Errorf(httpx.NotFound, op, "no event %q", id).With("no_event", nil)
	}
	if err != nil {
		return nil, httpx.StoreDown(op, err)
	}
	e, err = s.adoptRec(ctx, rec)
	if err != nil {
		return nil, httpx.Unexpected(op, err)
	}
	return e, nil
}

// tokenHash is the SHA-256 of a token.
func tokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// isHost reports whether token is the host's. The lock must be held.
func (e *liveEvent) isHost(token string) bool {
	return token != "" && subtle.ConstantTimeCompare(tokenHash(token), e.d.Host) == 1
}

// entryOf returns the entry whose token this is, or -1: the entry it was
// merged into, if the host merged it (the director's desk). The lock must
// be held.
func (e *liveEvent) entryOf(token string) int {
	if token == "" {
		return -1
	}
	h := tokenHash(token)
	who := -1
	for i, th := range e.d.Token {
		if subtle.ConstantTimeCompare(h, th) == 1 {
			who = i
		}
	}
	if who >= 0 {
		who = e.d.Event.Resolve(who) // an entry merged into another is that one
	}
	return who
}

// seatToken is the token of an entry's seat at an event table: an HMAC
// of the table and seat keyed by the hash of the entry's token, so the
// server can give it to the entry again without storing it, and it
// cannot be worked out without the store.
func seatToken(entryHash []byte, table string, seat int) string {
	m := hmac.New(sha256.New, entryHash)
	m.Write([]byte(table + "/" + strconv.Itoa(seat)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// makeTable stores the table tab of round r, made at now. The lock must
// be held.
func (s *Server) makeTable(ctx context.Context, e *liveEvent, r int, tab event.Table, now time.Time) (*store.Table, error) {
	const op = "event table"
	ev := e.d.Event
	g, err := ev.Settings.Game(len(tab.Seats))
	if err != nil {
		return nil, httpx.Unexpected(op, err)
	}
	optJSON, _ := json.Marshal(g.OptionMap())
	info := &store.Table{ID: httpx.RandomString(12), Variant: g.Variant.String(), Options: optJSON, Seed: newSeed(), FairDeals: true,
		Created: now}
	if ev.Settings.Movement == event.Duplicate {
		// The same first dealer at every table of this size; the same
		// deals in the same order from the round's shared commitments
		// (duplicate.go).
		info.Seed = ev.DealSeed(r, len(tab.Seats))
	}
	for seat, id := range tab.Seats {
		st := store.Seat{Seat: seat, Kind: "bot", Level: ev.Settings.Bots}
		if id != event.Bot {
			st.Name = ev.Entries[id].Name
			if !ev.BotPlays(id, r) {
				st.Kind, st.Level = "human", ""
				st.TokenHash = tokenHash(seatToken(e.d.Token[id], info.ID, seat))
			}
		}
		info.Seats = append(info.Seats, st)
	}
	if err := s.store.CreateTable(ctx, info); err != nil {
		return nil, httpx.StoreDown(op, err)
	}
	return info, nil
}

// startRound seats the event's next round and makes its tables. The
// lock must be held; the tables are loaded after it is released
// (startTables, Event.StartTables), since loading takes each table's
// lock.
func (s *Server) startRound(ctx context.Context, e *liveEvent) ([]*store.Table, []*tableRound, error) {
	const op = "event start"
	var infos []*store.Table
	var made []string // the tables of every try, to close those of a try not stored
	err := s.change(ctx, e, op, func() error {
		infos = nil
		ev := e.d.Event
		round, err := ev.NextRound()
		if err != nil {
			code := "event_round_open"
			switch {
			case errors.Is(err, event.ErrEnded):
				code = "event_ended"
			case errors.Is(err, event.ErrOver):
				code = "event_over"
			case errors.Is(err, event.ErrNoPlayers):
				code = "event_no_players"
			case errors.Is(err, event.ErrTooFew):
				code = "event_too_few"
			}
			var params map[string]any
			if ref := (*event.Refusal)(nil); errors.As(err, &ref) {
				params = ref.Params // how many are present and needed
			}
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With(code, params)
		}
		r := len(ev.Rounds) - 1
		now := time.Now().UTC().Truncate(time.Millisecond)
		if ev.Settings.Movement == event.Duplicate {
			// Committed to before any table of the round exists.
			for len(e.d.Deals) < r {
				e.d.Deals = append(e.d.Deals, nil)
			}
			e.d.Deals = append(e.d.Deals, drawShared(ev.Settings.Hands, now))
		}
		ids := []string{}
		for _, tab := range round.Tables {
			info, err := s.makeTable(ctx, e, r, tab, now)
			if err != nil {
				return err
			}
			infos = append(infos, info)
			ids = append(ids, info.ID)
			made = append(made, info.ID)
		}
		e.d.Tables = append(e.d.Tables, ids)
		e.d.Started = append(e.d.Started, now)
		var ends time.Time
		if ev.Settings.End == event.EndClock {
			ends = now.Add(time.Duration(ev.Settings.Minutes) * s.minute())
		}
		e.d.EndsAt = append(e.d.EndsAt, ends)
		return nil
	})
	s.closeUnused(ctx, e, made)
	if err != nil {
		return nil, nil, err
	}
	r := len(e.d.Tables) - 1
	refs := e.addRound(r)
	s.register(e)
	return infos, refs, nil
}

// startTables starts the tables of a round just started at e: loads
// them, or gives those loaded already (on their notes, before the round
// was known) their round. No event lock may be held.
func (s *Server) startTables(ctx context.Context, e *liveEvent, infos []*store.Table) {
	var held []string
	for _, info := range infos {
		if s.inMemory(info.ID) != nil {
			held = append(held, info.ID)
			continue
		}
		if _, err := s.load(ctx, info); err != nil {
			s.log.Error("event: cannot start a table", "event", e.id, "table", info.ID, "err", err.Error())
		}
	}
	s.bindRounds(ctx, held)
}

// closeUnused closes the tables of made that e (locked) does not hold:
// made for a change that was not stored.
func (s *Server) closeUnused(ctx context.Context, e *liveEvent, made []string) {
	used := map[string]bool{}
	for _, round := range e.d.Tables {
		for _, id := range round {
			used[id] = true
		}
	}
	for _, id := range made {
		if !used[id] {
			if err := s.store.CloseTable(context.WithoutCancel(ctx), id); err != nil {
				s.log.Warn("event: closing a table made for nothing", "event", e.id, "table", id, "err", err.Error())
			}
		}
	}
}
