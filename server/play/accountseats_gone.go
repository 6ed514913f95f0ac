package play

import (
	"context"
	"slices"
	"time"

	"pitch"
)

// Accounts changed outside this process (docs/accounts.md, Operators):
// `pitch user disable|delete` writes to the store while the server runs,
// or another process of a cluster deleted an account. Sessions are
// checked against the store at each request already; what the server
// holds in memory is the seats of its tables and their connections, and
// its events. Every Options.AccountCheck the accounts seated at its
// tables are looked up (store.Accounts.AccountStates): the connections
// at the seats of a disabled or deleted account are closed, and a
// deleted account's tables and events are read again from the store,
// which has renamed its seats; so are the events whose stored version
// moved on (no cluster: nothing else tells of it), and their tables.

// DefaultAccountCheck is how often a server looks up the accounts seated
// at its tables.
const DefaultAccountCheck = 10 * time.Second

// accountGoneReason is the close reason of a connection at the seat of
// an account that was disabled or deleted.
const accountGoneReason = "the account that holds this seat was disabled or deleted"

// accountWatch runs checkAccounts every interval until the server stops.
func (s *Server) accountWatch(every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-s.sweepStop:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			s.checkAccounts(ctx)
			cancel()
		}
	}
}

// checkAccounts looks up the accounts seated at the tables held here and
// acts on those disabled or deleted since. Without a cluster (whose
// notes tell of every change), it also reads again the events changed
// in the store by another process: a deletion renames a person's
// entries, and their seats at the events' tables, which carry no
// account.
func (s *Server) checkAccounts(ctx context.Context) {
	if s.cl == nil {
		if ids := s.liveEventIDs(); len(ids) > 0 {
			versions, err := s.store.TournamentVersions(ctx, ids)
			if err != nil {
				s.log.Warn("accounts: looking up the events' versions", "err", err.Error())
			} else {
				for _, t := range s.rereadEvents(ctx, versions) {
					_ = s.refresh(ctx, t, true) // logs its own failure
				}
			}
		}
	}
	seen := map[string]bool{}
	var ids []string
	for _, t := range s.tableList() {
		t.mu.Lock()
		for _, st := range t.info.Seats {
			if st.Account != "" && !seen[st.Account] {
				seen[st.Account] = true
				ids = append(ids, st.Account)
			}
		}
		t.mu.Unlock()
	}
	if len(ids) == 0 {
		return
	}
	states, err := s.store.AccountStates(ctx, ids)
	if err != nil {
		s.log.Warn("accounts: looking up the seated accounts", "err", err.Error())
		return
	}
	for _, id := range ids {
		disabled, ok := states[id]
		switch {
		case !ok:
			s.accountGone(ctx, id, "")
		case disabled:
			s.closeAccountSeats(id)
		}
	}
}

// closeAccountSeats closes account id's connections (CloseSockets: those
// opened with its sessions and those at its seats) and returns the
// tables where it holds a seat.
func (s *Server) closeAccountSeats(id string) []*table {
	s.CloseSockets(id, "", accountGoneReason)
	var at []*table
	for _, t := range s.tableList() {
		t.mu.Lock()
		held := false
		for _, st := range t.info.Seats {
			held = held || st.Account == id
		}
		t.mu.Unlock()
		if held {
			at = append(at, t)
		}
	}
	return at
}

// accountGone acts on the deletion of account id: the connections at its
// seats close, its seats are named anon at once when anon is known (this
// process deleted it), and its tables and the events the store renamed
// it in are read again.
func (s *Server) accountGone(ctx context.Context, id, anon string) {
	tables := s.closeAccountSeats(id)
	if anon != "" {
		for _, t := range tables {
			t.mu.Lock()
			changed := false
			for i := range t.info.Seats {
				if t.info.Seats[i].Account == id {
					t.info.Seats[i].Account = ""
					t.renameSeat(i, anon)
					changed = true
				}
			}
			if changed {
				t.infoVer++
				t.publish()
				t.broadcast()
			}
			t.mu.Unlock()
		}
	}
	// Events whose stored version moved on (the store renamed the
	// person's entries): read again, and their tables too.
	for _, t := range s.rereadEvents(ctx, nil) {
		if !slices.Contains(tables, t) {
			tables = append(tables, t)
		}
	}
	for _, t := range tables {
		_ = s.refresh(ctx, t, true) // logs its own failure
	}
}

// rereadEvents reads again the live events whose stored version is past
// theirs (by versions; nil: each is read) and returns the tables held
// here of those that changed, whose seats may have changed too.
func (s *Server) rereadEvents(ctx context.Context, versions map[string]int) []*table {
	s.ev.mu.Lock()
	events := make([]*liveEvent, 0, len(s.ev.byID))
	for _, e := range s.ev.byID {
		events = append(events, e)
	}
	s.ev.mu.Unlock()
	var tables []*table
	for _, e := range events {
		e.mu.Lock()
		v := e.rec.Version
		if versions != nil && versions[e.id] <= v {
			e.mu.Unlock()
			continue
		}
		err := s.reload(ctx, e)
		var ids []string
		if err == nil && e.rec.Version > v {
			for _, round := range e.d.Tables {
				ids = append(ids, round...)
			}
		}
		e.mu.Unlock()
		if err != nil {
			s.log.Warn("accounts: reading an event again", "event", e.id, "err", err.Error())
		}
		for _, id := range ids {
			if t := s.inMemory(id); t != nil {
				tables = append(tables, t)
			}
		}
	}
	return tables
}

// liveEventIDs returns the IDs of the events held here.
func (s *Server) liveEventIDs() []string {
	s.ev.mu.Lock()
	defer s.ev.mu.Unlock()
	ids := make([]string, 0, len(s.ev.byID))
	for id := range s.ev.byID {
		ids = append(ids, id)
	}
	return ids
}

// renameSeat names seat i name at the table, in its seat and in what the
// table holds of the seat's name: the fair deal's contributions (the
// pending deal's, the hand's and the last hand's) and its table talk.
// The lock must be held; the caller publishes.
func (t *table) renameSeat(i int, name string) {
	t.info.Seats[i].Name = name
	rename := func(f *pitch.Fairness) *pitch.Fairness {
		if f == nil {
			return nil
		}
		idx := slices.IndexFunc(f.Contributions, func(c pitch.Contribution) bool { return c.Seat == i && c.Name != "" && c.Name != name })
		if idx < 0 {
			return f
		}
		g := *f
		g.Contributions = slices.Clone(f.Contributions)
		g.Contributions[idx].Name = name
		return &g
	}
	t.dealt, t.lastFair = rename(t.dealt), rename(t.lastFair)
	if t.pending != nil {
		if c, ok := t.pending.contribs[i]; ok && c.Name != "" {
			c.Name = name
			t.pending.contribs[i] = c
		}
	}
	for k := range t.chat {
		if t.chat[k].Seat == i {
			t.chat[k].Name = name
		}
	}
}
