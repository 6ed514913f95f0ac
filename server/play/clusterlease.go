package play

// The leases of a cluster (cluster.go): who drives which table, and
// handing tables over between processes.

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"pitch"
)

// leaseLoop keeps this process's heartbeat and leases, takes the leases
// of tables it has connections to that nobody drives, and reads who is
// connected at the other processes to the tables it drives.
func (s *Server) leaseLoop(ctx context.Context) {
	cl := s.cl
	tick := time.NewTicker(cl.ttl / 5)
	defer tick.Stop()
	for {
		s.leaseRound(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-cl.kick:
		}
		select { // a dirty presence left by a failed write: try again
		case cl.wake <- struct{}{}:
		default:
		}
	}
}

func (s *Server) leaseRound(ctx context.Context) {
	cl := s.cl
	if s.closing() {
		return
	}
	stopping := ctx
	ctx, cancel := context.WithTimeout(ctx, cl.ttl/2)
	defer cancel()
	warn := func(msg string, err error) {
		if stopping.Err() == nil { // not the cluster stopping mid-round
			s.log.Warn(msg, "err", err.Error())
		}
	}
	if err := cl.st.Heartbeat(ctx, cl.id, cl.ttl); err != nil {
		warn("cluster: heartbeat failed", err)
		return
	}
	now := time.Now()
	cl.mu.Lock()
	if !cl.lastBeat.IsZero() && now.Sub(cl.lastBeat) >= cl.gone()-cl.ttl {
		// Away so long that another process may have swept this one's
		// presence: write it all again.
		cl.rewrite = true
	}
	cl.lastBeat = now
	cl.mu.Unlock()
	renewed := time.Now()
	held, err := cl.st.RenewLeases(ctx, cl.id, cl.ttl)
	if err != nil {
		warn("cluster: renewing leases failed", err)
		return
	}
	// What dead processes left is swept at the round's end, once a lease
	// time: the statements that keep tables driven come first, so that a
	// slow database that lets a round do only part of its work lets it do
	// that part.
	defer func() {
		if now.Sub(cl.lastSweep) < cl.ttl || ctx.Err() != nil {
			return
		}
		// An expired lease that nobody takes over (a table that
		// finished just before its driver died, say) would otherwise
		// stay with the dead process for good.
		if err := cl.st.Sweep(ctx, cl.gone()); err != nil {
			warn("cluster: sweeping dead processes' leases failed", err)
			return
		}
		cl.lastSweep = now
	}()
	live, err := cl.st.Processes(ctx)
	if err != nil {
		warn("cluster: reading the live processes failed", err)
		return
	}
	if !slices.Contains(live, cl.id) {
		live = append(live, cl.id) // its heartbeat was stored just now
	}
	for _, p := range live {
		if _, ok := cl.seen[p]; !ok {
			cl.seen[p] = now
		}
	}
	for p := range cl.seen {
		if !slices.Contains(live, p) {
			delete(cl.seen, p)
		}
	}
	have := map[string]bool{}
	for _, id := range held {
		have[id] = true
	}
	tables := s.tableList()
	var open []string
	for _, t := range tables {
		t.mu.Lock()
		if !t.over() && !t.info.Closed {
			open = append(open, t.id)
		}
		t.mu.Unlock()
	}
	share := assign(open, live)
	cl.mu.Lock()
	cl.open, cl.live, cl.share, cl.without = open, live, share, nil
	cl.mu.Unlock()
	var want, driven, done, idle []string
	for _, t := range tables {
		t.mu.Lock()
		if t.driving && !have[t.id] && t.drivenSince.Before(renewed) { // lost (expired while the database was away); not one taken since (takeReleased)
			t.driving = false
			t.schedule(0)
		}
		over := t.over() || t.info.Closed
		mine := share[t.id] == cl.id
		switch {
		case have[t.id] && over:
			done = append(done, t.id)
		case have[t.id] && !mine && now.Sub(cl.seen[share[t.id]]) >= cl.ttl:
			// Another's share, and that process has been live for a lease
			// time (one whose heartbeat lapsed a moment does not get its
			// tables back at once, and back again): stop driving, then
			// release (below), and the release's note wakes the other. A bot move under way
			// has finished (it holds the lock); one due finds the
			// schedule changed.
			t.driving = false
			t.schedule(0)
			done = append(done, t.id)
			s.log.Debug("cluster: handing a table over", "table", t.id, "to", share[t.id])
		case have[t.id]:
			driven = append(driven, t.id) // this one's, or soon handed over
			if !t.driving {
				// Held but not driven: an acquire that the database
				// committed but answered too late (its error), say.
				// Nobody else may drive it, so this process does.
				idle = append(idle, t.id)
			}
		case over:
		case mine:
			want = append(want, t.id)
		case len(t.conns) > 0:
			// Another's share that nobody may drive: tried once it has
			// waited two lease times (its process missed the note of a
			// new table, say). Taken, it is handed over again at the
			// next round, which loads it at its process (onNote).
			if since, ok := cl.orphans[t.id]; !ok {
				cl.orphans[t.id] = now
			} else if now.Sub(since) >= 2*cl.ttl {
				want = append(want, t.id)
				cl.orphans[t.id] = now // held by another: wait again
			}
		}
		if have[t.id] || mine || over || len(t.conns) == 0 {
			delete(cl.orphans, t.id)
		}
		t.mu.Unlock()
	}
	if len(done) > 0 {
		_ = cl.st.ReleaseLeases(ctx, cl.id, done)
	}
	fresh := idle
	if len(want) > 0 {
		got, err := cl.st.AcquireLeases(ctx, cl.id, want, cl.ttl)
		if err != nil {
			// The statement may have committed all the same: its
			// leases are then held, and taken over (idle) next round.
			warn("cluster: taking leases failed", err)
		}
		for _, id := range got {
			if !have[id] {
				fresh = append(fresh, id)
			}
			driven = append(driven, id)
		}
	}
	s.takeOverAll(stopping, fresh)
	pres, err := cl.st.Presence(ctx, cl.id, driven)
	if err != nil {
		warn("cluster: reading presence failed", err)
		return
	}
	for _, id := range driven {
		s.setRemote(id, pres[id])
	}
}

// mine reports whether table id, just released by process from, is this
// process's share: by the last lease round's shares (a process handing
// a table to this one), or by the same without from (a process that
// drains: it has left the live processes before releasing).
func (cl *cluster) mine(id, from string) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	switch cl.share[id] {
	case cl.id:
		return true
	case from:
	default:
		return false // a third's, or unknown: the lease round decides
	}
	w, ok := cl.without[from]
	if !ok {
		live := slices.DeleteFunc(slices.Clone(cl.live), func(p string) bool { return p == from })
		w = assign(cl.open, live)
		if cl.without == nil {
			cl.without = map[string]map[string]string{}
		}
		cl.without[from] = w
	}
	return w[id] == cl.id
}

// takeReleased takes the tables released to this process (mine) as their
// notes come, without waiting for a lease round: the pause of a table
// handed over is then a note, one statement and its catching up. The
// lease round still checks the shares.
func (s *Server) takeReleased(ctx context.Context) {
	cl := s.cl
	for {
		select {
		case <-ctx.Done():
			return
		case <-cl.fast:
		}
		cl.mu.Lock()
		ids := cl.released
		cl.released = nil
		cl.mu.Unlock()
		if len(ids) == 0 || s.closing() {
			continue
		}
		actx, cancel := context.WithTimeout(ctx, cl.ttl/2)
		got, err := cl.st.AcquireLeases(actx, cl.id, ids, cl.ttl)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("cluster: taking released leases failed", "err", err.Error())
			}
			continue // a commit answered late: the lease round takes them over
		}
		s.takeOverAll(ctx, got)
	}
}

// takeOvers is how many tables a process catches up at once when it takes
// them over: a share handed over at once (a drain, a process joining)
// is a hundred tables or more, each read from the log.
const takeOvers = 4

// takeOverAll takes over the tables ids, takeOvers at a time, each within
// its own storeTimeout (not the lease round's, which a hundred tables
// would outlast).
func (s *Server) takeOverAll(ctx context.Context, ids []string) {
	if len(ids) == 0 {
		return
	}
	// Who is connected at the other processes, read beside the catching
	// up (a slow database delays neither for the other): a table whose
	// players and watchers are all elsewhere would otherwise wait for
	// them until the end of the lease round. setRemote schedules a table
	// already driven.
	var pwg sync.WaitGroup
	pwg.Add(1)
	go func() {
		defer pwg.Done()
		pctx, cancel := context.WithTimeout(ctx, storeTimeout)
		defer cancel()
		if pres, err := s.cl.st.Presence(pctx, s.cl.id, ids); err == nil {
			for _, id := range ids {
				s.setRemote(id, pres[id])
			}
		}
	}()
	defer pwg.Wait()
	// The tables in play first: those that moved within a lease time,
	// then those with connections here, then the most recently active.
	type rank struct {
		conns  int
		active time.Time
	}
	now := time.Now()
	n := make(map[string]rank, len(ids))
	for _, id := range ids {
		if t := s.inMemory(id); t != nil {
			t.mu.Lock()
			n[id] = rank{len(t.conns), t.active}
			t.mu.Unlock()
		}
	}
	playing := func(r rank) bool { return now.Sub(r.active) < s.cl.ttl }
	slices.SortStableFunc(ids, func(a, b string) int {
		ra, rb := n[a], n[b]
		if pa, pb := playing(ra), playing(rb); pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(rb.conns, ra.conns); c != 0 {
			return c
		}
		return rb.active.Compare(ra.active)
	})
	sem := s.cl.takers
	var wg sync.WaitGroup
	for _, id := range ids {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			tctx, cancel := context.WithTimeout(ctx, storeTimeout)
			defer cancel()
			s.takeOver(tctx, id)
		}()
	}
	wg.Wait()
}

// takeOver starts driving a table whose lease this process just took: from
// the log's end, with a deal commitment of its own.
func (s *Server) takeOver(ctx context.Context, id string) {
	t := s.inMemory(id)
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.driving {
		return // taken already (takeReleased, and a lease round)
	}
	t.drivenSince = time.Now()
	if err := t.catchUp(ctx); err != nil && s.cl.ctx.Err() == nil { // not the cluster stopping mid-takeover
		s.log.Warn("cluster: catching up a table taken over", "table", id, "err", err.Error())
	}
	t.driving = true
	if !t.remoteDeadline.IsZero() && t.remoteDeadlineSeq == t.seq {
		// The turn's clock goes on from the old driver's: a change of
		// driver does not wind it back.
		t.deadline, t.deadlineSeq = t.remoteDeadline, t.remoteDeadlineSeq
	}
	if t.info.FairDeals && !t.over() && (t.pending == nil || t.pending.secret == [32]byte{}) {
		if t.pending != nil {
			t.supersede(t.pending.commitment)
		}
		next := t.fairHand()
		if !t.match.AwaitingDeal() {
			next++
		}
		// The old driver stored its commitment before publishing it: deal
		// from it. Only when none can be read, a secret of this process's own.
		old := t.pending
		t.pending = nil
		if stored, err := s.store.Commitments(ctx, id); err == nil {
			t.resumePending(next, stored)
		}
		if t.pending == nil {
			if err := t.drawPending(next); err != nil {
				s.log.Warn("cluster: no commitment for the next deal", "table", id, "err", err.Error())
			}
		}
		if old != nil && (t.pending == nil || t.pending.commitment != old.commitment) {
			t.supersede(old.commitment)
		}
	}
	s.log.Info("cluster: driving table", "table", id, "seq", t.seq)
	t.schedule(0)
	t.broadcast()
}

// setRemote sets who is connected to a table at other processes.
func (s *Server) setRemote(id string, seats map[int]int) {
	t := s.inMemory(id)
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var r [pitch.MaxSeats]int
	all := 0
	for seat, n := range seats {
		all += n
		if seat >= 0 && seat < len(r) {
			r[seat] = n
		}
	}
	if r == t.remote && all == t.remoteAll {
		return
	}
	t.remote, t.remoteAll = r, all
	back := false
	for seat, n := range r {
		if n > 0 && t.away[seat] && t.bots[seat] == nil {
			t.away[seat], back = false, true // came back, at another process
		}
	}
	if t.driving {
		before := t.deadline
		t.schedule(0)
		back = back || !t.deadline.Equal(before) // a turn timer started or stopped
	}
	if back {
		t.broadcast()
	}
}
