package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"pitch/server/httpx"
	"pitch/store"
)

// Events on several processes (docs/deploy.md, Events). Every process
// holds every unfinished event in memory, as it holds every unfinished
// table. The store is the event's truth: each change is stored at the
// event's next version (store.UpdateTournament refuses a stale one) and
// sends a note (store.NoteTournament) in the same transaction. Every
// process reads the newer version on the note (syncEvent), makes it its
// event's state (adopt: new rounds' tables, the clock, the pause), and
// pushes it to its own followers. A change made from a stale copy (the
// note not yet here) is refused by the store: the process reads the
// event again and makes the change afresh (change), so that each change
// is made once, whichever process makes it.
//
// An event has no timer of its own: its clock is a time stored with it,
// which the table that finishes a hand after it reads (tableRound.ends),
// and its tables' bots and turn timers are their drivers' (cluster.go).
// A table's result is recorded by the process that stores its last
// action, and, should that process stop between the two, by every other
// process holding the table once a lease time has passed (settleLater):
// the event's version makes only the first of them count.

// eventTries is how many times a change is made afresh after another
// process changed the event first.
const eventTries = 4

// errEventBusy: the event kept changing at other processes.
var errEventBusy = errors.New("the event was changed at another server at the same moment, several times")

// minute is how long one minute of an event round's clock lasts
// (Options.EventMinute).
func (s *Server) minute() time.Duration {
	if s.opts.EventMinute > 0 {
		return s.opts.EventMinute
	}
	return time.Minute
}

// change makes a change to e (locked) and stores it: fn changes e.d, or
// returns an error to refuse (nothing stored, e.d as it was). When
// another process has stored a newer version meanwhile, e is read again
// and fn called again on it. A store error comes back as an unavailable
// error of op.
func (s *Server) change(ctx context.Context, e *liveEvent, op string, fn func() error) error {
	for try := 1; ; try++ {
		old := e.snapshot()
		if err := fn(); err != nil {
			e.restore(old)
			return err
		}
		err := e.save(ctx, s.store)
		if err == nil {
			return nil
		}
		e.restore(old)
		if !errors.Is(err, store.ErrConflict) {
			return httpx.StoreDown(op, err)
		}
		if try == eventTries {
			return &httpx.Error{Kind: httpx.Conflict, Op: op, Msg: "the event was changed by others at the same moment: try again", Err: errEventBusy}
		}
		if err := s.reload(ctx, e); err != nil {
			return httpx.StoreDown(op, err)
		}
	}
}

// reload reads e (locked) from the store and makes it e's state. The
// tables held here are told afterwards, in the background (the lock is
// held).
func (s *Server) reload(ctx context.Context, e *liveEvent) error {
	rctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	rec, err := s.store.Tournament(rctx, e.id)
	if err != nil {
		return err
	}
	if rec.Version <= e.rec.Version {
		return nil
	}
	fix, err := s.adopt(e, rec)
	if err != nil {
		return err
	}
	go s.applyFix(context.WithoutCancel(ctx), fix)
	return nil
}

// eventFix is what the tables held here need after their event changed
// at another process: the tables of rounds new here, to bind to their
// round (bindRounds), and those whose pause changed, to hold or let go.
type eventFix struct {
	bind   []string
	hold   []string
	paused bool
}

// adopt makes rec, a newer stored version of e (locked), its state: the
// rounds and tables new here, the clock and the pause of every table's
// reference. Its followers here are sent it.
func (s *Server) adopt(e *liveEvent, rec *store.Tournament) (eventFix, error) {
	var d eventData
	if err := json.Unmarshal(rec.Data, &d); err != nil {
		return eventFix{}, fmt.Errorf("event %s: %w", rec.ID, err)
	}
	if d.Event == nil || len(d.Tables) != len(d.Event.Rounds) || len(d.Tables) < len(e.rounds) {
		return eventFix{}, fmt.Errorf("event %s: the stored event is not whole", rec.ID)
	}
	e.d, e.rec = d, rec
	var fix eventFix
	byTable := map[string]*tableRound{}
	for r := range d.Tables {
		if r == len(e.rounds) {
			e.rounds = append(e.rounds, nil)
		}
		for i := len(e.rounds[r]); i < len(d.Tables[r]); i++ { // a new round's, or a solo event's new table
			ref := e.newRef(r, i)
			e.rounds[r] = append(e.rounds[r], ref)
			byTable[d.Tables[r][i]] = ref
			fix.bind = append(fix.bind, d.Tables[r][i])
		}
	}
	if len(byTable) > 0 {
		s.ev.mu.Lock()
		for id, ref := range byTable {
			s.ev.byTable[id] = ref
		}
		s.ev.mu.Unlock()
	}
	fix.hold, fix.paused = e.syncRefs()
	e.changed()
	return fix, nil
}

// syncRefs sets every table reference's clock and pause from the event's
// data, and returns the tables whose pause changed and whether the event
// is now paused. The lock must be held.
func (e *liveEvent) syncRefs() ([]string, bool) {
	var changed []string
	last := len(e.d.Tables) - 1
	for r, refs := range e.rounds {
		var at int64
		if r < len(e.d.EndsAt) && !e.d.EndsAt[r].IsZero() {
			at = e.d.EndsAt[r].UnixNano()
		}
		paused := e.d.Paused && r == last
		for _, ref := range refs {
			ref.endsAt.Store(at)
			if ref.paused.Swap(paused) != paused {
				changed = append(changed, e.tableID(ref))
			}
		}
	}
	return changed, e.d.Paused
}

// applyFix does for the tables held here what their event's change asks
// (adopt). No event lock may be held.
func (s *Server) applyFix(ctx context.Context, fix eventFix) {
	s.bindRounds(ctx, fix.bind)
	s.holdTables(fix.hold, fix.paused)
}

// bindRounds gives the tables ids their event round, loading those not
// held here: a round's tables are stored before their event is, so a
// process (this one too) may have loaded one on its note before it knew
// the round. No event lock may be held.
func (s *Server) bindRounds(ctx context.Context, ids []string) {
	for _, id := range ids {
		t := s.inMemory(id)
		if t == nil {
			lctx, cancel := context.WithTimeout(ctx, storeTimeout)
			_, err := s.table(lctx, id) // load sets its round
			cancel()
			if err != nil && ctx.Err() == nil {
				s.log.Warn("event: cannot load a table of a round", "table", id, "err", err.Error())
			}
			continue
		}
		t.mu.Lock()
		if t.round == nil && t.joinRound(s.roundOf(id)) {
			t.schedule(0)
			t.broadcast()
		}
		t.mu.Unlock()
	}
}

// joinRound makes r the table's event round, if it has none yet, and
// reports whether it did. A duplicate round's table whose driver drew a
// deal of its own meanwhile draws the round's shared deal instead. The
// lock must be held.
func (t *table) joinRound(r *tableRound) bool {
	if r == nil || t.round != nil {
		return false
	}
	t.round = r
	t.roundDone = t.info.Finished && !t.match.Over()
	if p := t.pending; p != nil && r.sharesDeals() && !t.over() {
		if d, ok := r.sharedDeal(p.hand); ok && d.secret != p.secret {
			t.supersede(p.commitment)
			t.pending = nil
			if t.drives() {
				if err := t.drawPending(p.hand); err != nil {
					t.logger().Warn("event: the round's shared deal is not ready", "err", err.Error())
				}
			}
		}
	}
	return true
}

// syncEvent brings event id up to its stored version ver at least (0:
// whatever is stored), making it live here if it is not (an event made
// at another process).
func (s *Server) syncEvent(ctx context.Context, id string, ver int) error {
	s.ev.mu.Lock()
	e := s.ev.byID[id]
	s.ev.mu.Unlock()
	if e != nil && ver > 0 {
		e.mu.Lock()
		have := e.rec.Version
		e.mu.Unlock()
		if have >= ver {
			return nil // its own change, or read already
		}
	}
	rctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	rec, err := s.store.Tournament(rctx, id)
	if err != nil {
		return err
	}
	_, err = s.adoptRec(ctx, rec)
	return err
}

// adoptRec makes the stored event rec live here, or its newer version
// the live event's state, and tells the tables held here.
func (s *Server) adoptRec(ctx context.Context, rec *store.Tournament) (*liveEvent, error) {
	s.ev.mu.Lock()
	e := s.ev.byID[rec.ID]
	s.ev.mu.Unlock()
	if e == nil {
		fresh, err := liveFrom(rec)
		if err != nil {
			return nil, err
		}
		if e = s.registerNew(fresh); e == fresh {
			// Its tables held here get their round; those of the round in
			// play not held here are loaded (their notes came before this
			// process listened, say), since every process holds every
			// unfinished table: each is the share of one of them.
			var ids []string
			open := map[string]bool{}
			fresh.mu.Lock()
			last := len(fresh.d.Tables) - 1
			for r, round := range fresh.d.Tables {
				for i, id := range round {
					ids = append(ids, id)
					open[id] = r == last && fresh.d.Event.Rounds[r].Tables[i].Result == nil
				}
			}
			fresh.mu.Unlock()
			ids = slices.DeleteFunc(ids, func(id string) bool { return !open[id] && s.inMemory(id) == nil })
			s.bindRounds(ctx, ids)
			return fresh, nil
		}
	}
	e.mu.Lock()
	if rec.Version <= e.rec.Version {
		e.mu.Unlock()
		return e, nil
	}
	fix, err := s.adopt(e, rec)
	e.mu.Unlock()
	if err != nil {
		return nil, err
	}
	s.applyFix(ctx, fix)
	return e, nil
}

// registerNew makes e live unless an event of its ID is already, and
// returns the live one.
func (s *Server) registerNew(e *liveEvent) *liveEvent {
	s.ev.mu.Lock()
	if old, ok := s.ev.byID[e.id]; ok {
		s.ev.mu.Unlock()
		return old
	}
	s.ev.mu.Unlock()
	s.register(e)
	return e
}

// onEventNote handles a note that an event was made or changed.
func (s *Server) onEventNote(ctx context.Context, n store.Note) {
	if err := s.syncEvent(ctx, n.Table, n.Seq); err != nil && ctx.Err() == nil {
		s.log.Warn("cluster: reading an event", "event", n.Table, "err", err.Error())
	}
}

// resyncEvents catches up every event after notes may have been missed
// (the listening connection was lost): the unfinished ones stored, and
// those live here that have finished since.
func (s *Server) resyncEvents(ctx context.Context) {
	rctx, cancel := context.WithTimeout(ctx, storeTimeout)
	recs, err := s.store.Tournaments(rctx, true)
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("cluster: reading the events", "err", err.Error())
		}
		return
	}
	open := map[string]bool{}
	for _, rec := range recs {
		open[rec.ID] = true
		if _, err := s.adoptRec(ctx, rec); err != nil {
			s.log.Error("cannot resume event", "event", rec.ID, "err", err.Error())
		}
	}
	s.ev.mu.Lock()
	var gone []*liveEvent
	for id, e := range s.ev.byID {
		if !open[id] {
			gone = append(gone, e)
		}
	}
	s.ev.mu.Unlock()
	for _, e := range gone {
		e.mu.Lock()
		finished := e.rec.Finished
		e.mu.Unlock()
		if !finished {
			if err := s.syncEvent(ctx, e.id, 0); err != nil && ctx.Err() == nil {
				s.log.Warn("cluster: reading an event", "event", e.id, "err", err.Error())
			}
		}
	}
}

// recorded reports whether the result of ref's table is in its event
// (as this process knows it).
func (r *tableRound) recorded() bool {
	e := r.ev
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.d.Event.Rounds[r.round].Tables[r.index].Result != nil
}

// endedElsewhere marks the round ended at the table when the actions
// just caught up (the table had hands finished hands before) ended it at
// another process: the log does not say so, the table's stored finished
// flag does. The lock must be held.
func (t *table) endedElsewhere(ctx context.Context, hands int) {
	if t.round == nil || t.over() || len(t.match.Records()) == hands {
		return
	}
	info, err := t.srv.store.Table(ctx, t.id)
	if err != nil {
		if ctx.Err() == nil { // not the process stopping
			t.logger().Warn("event: reading whether a table's round ended", "err", err.Error())
		}
		return
	}
	t.roundDone = info.Finished
}

// settleLater makes sure the result of the table, an event's whose last
// action another process stored, reaches its event: that process records
// it at once, and should it have stopped before, this one does a lease
// time later (the event's version lets only one record count). The lock
// must be held.
func (t *table) settleLater() {
	ref, s := t.round, t.srv
	if ref == nil || s.cl == nil {
		return
	}
	res := t.result()
	time.AfterFunc(s.cl.ttl, func() {
		if s.closing() || ref.recorded() {
			return
		}
		s.roundResult(ref, res)
	})
}
