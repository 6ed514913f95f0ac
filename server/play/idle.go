package play

import (
	"context"
	"time"
)

// closedMsg is what a client is told of a table closed for being idle.
const closedMsg = "this table was closed: nobody joined, played at or watched it for a long time. Its finished hands are kept; create a new table to play"

// sweeper runs sweep every interval until the server stops.
func (s *Server) sweeper(every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-s.sweepStop:
			return
		case now := <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			s.sweep(ctx, now)
			cancel()
		}
	}
}

// sweep closes every unfinished table nobody has joined, played at or
// watched for IdleClose (a table with a connection counts as active
// now), and records in the store when the others last saw someone, so
// that a restarted server knows. A closed table is marked so in the
// store, keeps its record, leaves the lobby and memory, and is no longer
// loaded at start.
func (s *Server) sweep(ctx context.Context, now time.Time) {
	tables := s.tableList()
	var touched, idle []*table
	for _, t := range tables {
		t.mu.Lock()
		switch {
		case t.info.Finished || t.info.Closed:
		case len(t.conns) > 0:
			t.active = now
			touched = append(touched, t)
		case now.Sub(t.active) >= s.opts.IdleClose:
			idle = append(idle, t)
		case t.active.After(t.stored):
			touched = append(touched, t)
		}
		t.mu.Unlock()
	}
	if len(touched) > 0 {
		ids := make([]string, len(touched))
		for i, t := range touched {
			ids[i] = t.id
		}
		if err := s.store.Touch(ctx, now, ids...); err != nil {
			s.log.Warn("cannot record activity; will try again", "tables", len(ids), "err", err.Error())
		} else {
			for _, t := range touched {
				t.mu.Lock()
				t.stored = now
				t.mu.Unlock()
			}
		}
	}
	for _, t := range idle {
		s.closeIdle(ctx, t, now)
	}
}

// closeIdle closes t if it is still idle.
func (s *Server) closeIdle(ctx context.Context, t *table, now time.Time) {
	if s.cl != nil && !s.idleEverywhere(ctx, t) {
		return
	}
	t.mu.Lock()
	if t.info.Finished || t.info.Closed || len(t.conns) > 0 || now.Sub(t.active) < s.opts.IdleClose {
		t.mu.Unlock()
		return
	}
	if err := s.store.CloseTable(ctx, t.id); err != nil {
		t.mu.Unlock()
		s.log.Warn("cannot close an idle table; will try again", "table", t.id, "err", err.Error())
		return
	}
	t.info.Closed = true
	t.infoVer++
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	t.publish()
	idleFor := now.Sub(t.active)
	t.mu.Unlock()
	s.unfinished.Add(-1)
	s.mu.Lock()
	if s.tables[t.id] == t {
		delete(s.tables, t.id)
	}
	s.mu.Unlock()
	s.log.Info("closed an idle table", "table", t.id, "idle", idleFor.Round(time.Minute).String())
}

// idleEverywhere reports whether, as far as the other processes sharing
// the store know too, nobody is at table t: none of them holds a
// connection to it (presence), and the store's activity record (each
// process records the tables it has connections to, at every sweep) and
// log are no newer than t's own idea of its last activity, which it takes
// from them. An error counts as not idle: the next sweep tries again.
func (s *Server) idleEverywhere(ctx context.Context, t *table) bool {
	cl := s.cl
	pres, err := cl.st.Presence(ctx, cl.id, []string{t.id})
	if err != nil {
		s.log.Warn("cannot tell whether an idle table has someone at another process; will try again", "table", t.id, "err", err.Error())
		return false
	}
	if len(pres[t.id]) > 0 {
		return false
	}
	info, err := s.store.Table(ctx, t.id)
	if err != nil {
		s.log.Warn("cannot read an idle table's activity; will try again", "table", t.id, "err", err.Error())
		return false
	}
	if s.refresh(ctx, t, false) != nil { // actions stored by the others, with their times
		return false
	}
	t.mu.Lock()
	if info.Active.After(t.active) {
		t.active = info.Active
	}
	t.mu.Unlock()
	return true
}
