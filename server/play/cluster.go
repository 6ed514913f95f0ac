package play

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"pitch"
	"pitch/store"
)

// Several processes on one PostgreSQL (docs/deploy.md). Any process
// serves any table: each keeps the tables its clients use in memory and
// appends their actions to the shared log, whose numbering orders them
// (an append with a taken number is refused: the process catches up from
// the log and tells the client). Every append, deal and seat taken is a
// note to every process (LISTEN/NOTIFY), which then reads what it missed
// from the log and sends its connections the new state. One process at a
// time drives a table (its bots, stand-ins, turn timers and deals): the
// one holding its lease, renewed every LeaseTTL/5. The unfinished tables
// are shared among the live processes (share.go): each takes the leases
// of its share and hands over those that are another's (it stops
// driving, releases, and the release's note wakes the other, which
// takes it at once: takeReleased), so that a process that joins, drains
// or dies moves only its share. A process that drains hands its tables
// over first thing (stopCluster). A process with
// connections to a table that nobody has driven for a while takes it
// whoever's it is. Each process
// records how many connections it holds to each seat (presence), so the
// driver plays for a player only when they are connected nowhere.

// DefaultLeaseTTL is how long a table's lease lasts unrenewed: a driver
// that dies is replaced within about this long.
const DefaultLeaseTTL = 5 * time.Second

// cluster is a server's part in a cluster of processes.
type cluster struct {
	st   store.Cluster
	id   string // this process, unique among the database's processes
	ttl  time.Duration
	kick chan struct{} // (capacity 1) run the lease loop now

	mu    sync.Mutex
	dirty map[string]bool // tables whose presence is to be written
	wake  chan struct{}   // (capacity 1) the presence writer has work
	// rewrite asks the presence writer to write every table's presence
	// afresh: the heartbeat lapsed so long that other processes may have
	// swept this one's records (store.Cluster.Sweep).
	rewrite  bool
	lastBeat time.Time // when the last heartbeat was stored
	// lastSweep is when the lease loop last swept what dead processes
	// left (only the lease loop uses it).
	lastSweep time.Time
	// orphans are the tables with connections here, not this process's
	// share nor held by it, since when (only the lease loop uses it).
	orphans map[string]time.Time
	// seen is when each live process was first seen live without a
	// break (only the lease loop uses it).
	seen map[string]time.Time
	// The last lease round's unfinished tables, live processes and
	// shares (under mu), and the shares without a process that released
	// tables since (without): a table another process releases is taken
	// at once, without waiting for a lease round, by the process whose
	// share it is (takeReleased).
	open, live []string
	share      map[string]string
	without    map[string]map[string]string
	released   []string      // released tables that are this process's share, to take
	fast       chan struct{} // (capacity 1) released has tables
	// takers bounds the takeovers under way at once, whoever runs them
	// (the lease round, takeReleased): each holds a database connection.
	takers chan struct{}

	ctx    context.Context // ends when the cluster stops
	cancel context.CancelFunc
	wg     sync.WaitGroup
	stop   sync.Once
}

func newProcessID() string {
	host, _ := os.Hostname()
	host = strings.NewReplacer(" ", "_").Replace(host)
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// newCluster makes this process's part in a cluster over st; runCluster
// starts it.
func (s *Server) newCluster(st store.Cluster) {
	ctx, cancel := context.WithCancel(context.Background())
	s.cl = &cluster{st: st, id: newProcessID(), ttl: s.opts.LeaseTTL, kick: make(chan struct{}, 1),
		dirty: map[string]bool{}, wake: make(chan struct{}, 1), orphans: map[string]time.Time{}, seen: map[string]time.Time{}, fast: make(chan struct{}, 1), takers: make(chan struct{}, takeOvers), ctx: ctx, cancel: cancel}
}

// runCluster starts listening, the lease loop and the presence writer.
func (s *Server) runCluster() {
	cl, ctx := s.cl, s.cl.ctx
	cl.wg.Add(4)
	go func() {
		defer cl.wg.Done()
		s.takeReleased(ctx)
	}()
	go func() {
		defer cl.wg.Done()
		_ = cl.st.Listen(ctx, func(n store.Note) { s.onNote(ctx, n) })
	}()
	go func() {
		defer cl.wg.Done()
		s.leaseLoop(ctx)
	}()
	go func() {
		defer cl.wg.Done()
		s.presenceLoop(ctx)
	}()
	s.log.Info("cluster: this process", "id", cl.id, "lease", cl.ttl.String())
}

// stopCluster stops the cluster's goroutines. With release (a drain),
// this process then hands its tables over at once: it stops driving them
// (a bot move under way finishes first, it holds the lock; one due finds
// the schedule changed), takes itself out of the live processes (its
// heartbeat runs out now) and releases its leases, whose notes wake the
// others: each takes the tables that are its share without this process,
// within a lease round of its own. Its bots play up to the release. Its
// presence stays until leaveCluster: its clients are still connected.
func (s *Server) stopCluster(release bool) {
	cl := s.cl
	if cl == nil {
		return
	}
	cl.stop.Do(func() {
		cl.cancel()
		cl.wg.Wait()
		if !release {
			return
		}
		tables := s.tableList()
		ids := make([]string, 0, len(tables))
		for _, t := range tables {
			t.mu.Lock()
			if t.driving {
				t.driving = false
				t.schedule(0)
			}
			t.mu.Unlock()
			ids = append(ids, t.id)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := cl.st.Heartbeat(ctx, cl.id, 0); err != nil {
			s.log.Warn("cluster: heartbeat not ended; other processes take this one's tables when it runs out", "err", err.Error())
		}
		if err := cl.st.ReleaseLeases(ctx, cl.id, ids); err != nil {
			s.log.Warn("cluster: leases not released; other processes take them when they expire", "err", err.Error())
		}
	})
}

// leaveCluster gives up this process's records in the cluster at the end
// of a drain: any lease left, its presence and its heartbeat.
func (s *Server) leaveCluster() {
	cl := s.cl
	if cl == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := cl.st.ReleaseLeases(ctx, cl.id, nil); err != nil {
		s.log.Warn("cluster: presence not given up; other processes sweep it", "err", err.Error())
	}
}

// gone is how long a process's heartbeat must have run out before the
// others sweep its presence away (store.Cluster.Sweep).
func (cl *cluster) gone() time.Duration { return max(time.Minute, 10*cl.ttl) }

func (cl *cluster) kickLeases() {
	select {
	case cl.kick <- struct{}{}:
	default:
	}
}

// drives reports whether this process runs the table's bots and timers.
// The lock must be held.
func (t *table) drives() bool { return t.srv.cl == nil || t.driving }

// present reports whether anyone is connected to the table, here or at
// another process. The lock must be held.
func (t *table) present() bool { return len(t.conns)+t.remoteAll > 0 }

// seatOnline is how many connections seat has, here and at other
// processes. The lock must be held.
func (t *table) seatOnline(seat int) int { return t.online[seat] + t.remote[seat] }

// presenceChanged records that the table's connections here changed.
func (t *table) presenceChanged() {
	cl := t.srv.cl
	if cl == nil {
		return
	}
	cl.mu.Lock()
	cl.dirty[t.id] = true
	cl.mu.Unlock()
	select {
	case cl.wake <- struct{}{}:
	default:
	}
	if len(t.conns) > 0 && !t.driving {
		cl.kickLeases()
	}
}

// presenceLoop writes the presence of the tables whose connections
// changed (their current counts, so writes in any order end right), and
// tells the drivers.
func (s *Server) presenceLoop(ctx context.Context) {
	cl := s.cl
	written := map[string][pitch.MaxSeats + 1]int{} // what the store holds, per table (index 0: spectators)
	for {
		select {
		case <-ctx.Done():
			return
		case <-cl.wake:
		}
		cl.mu.Lock()
		dirty := cl.dirty
		cl.dirty = map[string]bool{}
		rewrite := cl.rewrite
		cl.rewrite = false
		cl.mu.Unlock()
		if rewrite {
			written = map[string][pitch.MaxSeats + 1]int{}
			tables := s.tableList()
			for _, t := range tables {
				t.mu.Lock()
				if len(t.conns) > 0 {
					dirty[t.id] = true
				}
				t.mu.Unlock()
			}
		}
		// Every change in one commit (a few hundred tables at a time):
		// thousands connecting at once are a few syncs to disk.
		var changes []store.PresenceChange
		next := map[string][pitch.MaxSeats + 1]int{}
		flush := func() {
			if len(changes) == 0 {
				return
			}
			if err := cl.st.SetPresence(ctx, cl.id, changes); err != nil {
				cl.mu.Lock()
				for id := range next {
					cl.dirty[id] = true // again on the next change or tick
				}
				cl.mu.Unlock()
			} else {
				for id, now := range next {
					if now == ([pitch.MaxSeats + 1]int{}) {
						delete(written, id)
					} else {
						written[id] = now
					}
				}
			}
			changes, next = changes[:0], map[string][pitch.MaxSeats + 1]int{}
		}
		for id := range dirty {
			t := s.inMemory(id)
			if t == nil {
				continue
			}
			var now [pitch.MaxSeats + 1]int
			t.mu.Lock()
			for c := range t.conns {
				now[c.seat+1]++
			}
			t.mu.Unlock()
			old := written[id]
			n := len(changes)
			for i := range now {
				if now[i] != old[i] {
					changes = append(changes, store.PresenceChange{Table: id, Seat: i - 1, Conns: now[i]})
				}
			}
			if len(changes) > n {
				next[id] = now
			}
			if len(next) >= 200 {
				flush()
			}
		}
		flush()
	}
}

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
	var want, driven, done []string
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
	if len(want) > 0 {
		got, err := cl.st.AcquireLeases(ctx, cl.id, want, cl.ttl)
		if err != nil {
			warn("cluster: taking leases failed", err)
		}
		var fresh []string
		for _, id := range got {
			if !have[id] {
				fresh = append(fresh, id)
			}
			driven = append(driven, id)
		}
		s.takeOverAll(stopping, fresh)
	}
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
			continue
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

// onNote handles a note from any process (this one's too).
func (s *Server) onNote(ctx context.Context, n store.Note) {
	cl := s.cl
	if n.Kind == store.NoteTournament { // eventcluster.go
		s.onEventNote(ctx, n)
		return
	}
	if n.Kind == store.NoteResync {
		s.resyncEvents(ctx)
		tables := s.tableList()
		for _, t := range tables {
			_ = s.refresh(ctx, t, true)
		}
		return
	}
	if n.Kind == store.NoteNew {
		s.mu.Lock()
		_, ok := s.tables[n.Table]
		s.mu.Unlock()
		if !ok { // for the lobby
			if _, err := s.table(ctx, n.Table); err != nil {
				s.log.Warn("cluster: loading a new table", "table", n.Table, "err", err.Error())
			}
		}
		return
	}
	t := s.inMemory(n.Table)
	if t == nil && n.Kind == store.NoteReleased && n.From != cl.id {
		// A table handed over that this process has not heard of: load
		// it, since it may be this one's share.
		if _, err := s.table(ctx, n.Table); err == nil {
			cl.kickLeases()
		}
		return
	}
	if t == nil {
		return // not held here: loaded afresh when asked for
	}
	switch n.Kind {
	case store.NoteEvents, store.NoteDeal:
		if n.Kind == store.NoteEvents && int64(n.Seq) <= t.storing.Load() {
			// This process's own append (the note may come before its
			// commit's answer, while the table's mu is held for it), or
			// one it has: no need to wait for mu. Notes are handled one
			// at a time, so waiting for each table's commit to end made
			// the notes of a busy process fall behind.
			if int64(n.Seq) > t.passed.Load() { // notes are handled one at a time
				t.passed.Store(int64(n.Seq))
			}
			return
		}
		t.mu.Lock()
		behind := n.Kind == store.NoteEvents && t.seq < n.Seq || n.Kind == store.NoteDeal && t.dealtHands() < n.Seq
		t.mu.Unlock()
		if behind {
			_ = s.refresh(ctx, t, false)
		}
	case store.NoteInfo:
		_ = s.refresh(ctx, t, true)
	case store.NotePresence:
		if n.From == cl.id {
			return
		}
		t.mu.Lock()
		driving := t.driving
		t.mu.Unlock()
		if driving {
			pres, err := cl.st.Presence(ctx, cl.id, []string{t.id})
			if err == nil {
				s.setRemote(t.id, pres[t.id])
			}
		}
	case store.NoteReleased:
		if n.From != cl.id {
			if cl.mine(n.Table, n.From) {
				cl.mu.Lock()
				cl.released = append(cl.released, n.Table)
				cl.mu.Unlock()
				select {
				case cl.fast <- struct{}{}:
				default:
				}
			}
			cl.kickLeases() // it may be this process's share now
		}
	case store.NoteServer:
		if n.From != cl.id {
			s.onServerNote(t, n.Text)
		}
	}
}

// refresh brings a table up to the store: its log and deals, and with
// info its seats, next table and closed flag. An error (logged) says the
// table may be behind the store.
func (s *Server) refresh(ctx context.Context, t *table, info bool) error {
	asked := ctx
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	var fresh *store.Table
	if info {
		var err error
		if fresh, err = s.store.Table(ctx, t.id); err != nil {
			if asked.Err() == nil { // not a client that left, nor the cluster stopping
				s.log.Warn("cluster: reading a table", "table", t.id, "err", err.Error())
			}
			return err
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if fresh != nil {
		changed := fresh.Next != t.info.Next || fresh.Closed != t.info.Closed
		for i, st := range fresh.Seats {
			// The account too: a seat taken at another process by a
			// signed-in person (or a guest who signed up there) is rated
			// for that account whichever process ends the match.
			if i < len(t.info.Seats) && (string(st.TokenHash) != string(t.info.Seats[i].TokenHash) || st.Name != t.info.Seats[i].Name || st.Account != t.info.Seats[i].Account) {
				t.info.Seats[i].Name, t.info.Seats[i].TokenHash, t.info.Seats[i].Account = st.Name, st.TokenHash, st.Account
				changed = true
			}
		}
		if changed {
			t.info.Next = fresh.Next
			if fresh.Closed && !t.info.Closed && !t.info.Finished {
				s.unfinished.Add(-1)
			}
			t.info.Closed = fresh.Closed
			t.infoVer++
			t.publish()
			t.schedule(0)
			t.broadcast()
		}
	}
	err := t.catchUp(ctx)
	if err != nil && asked.Err() == nil {
		s.log.Warn("cluster: catching up", "table", t.id, "err", err.Error())
	}
	if t.info.FairDeals && !t.driving && t.pending == nil && !t.over() {
		t.tell(serverNote{Type: "ask"}) // the driver's commitment
	}
	return err
}

// dealtHands is how many hands of the match have been dealt. The lock must
// be held.
func (t *table) dealtHands() int {
	n := len(t.match.Records())
	if !t.match.AwaitingDeal() {
		n++
	}
	return n
}

// catchUp applies what the log holds past this table's seq (actions
// another process stored) and the deals stored since, then tells the
// connections here. The lock must be held.
func (t *table) catchUp(ctx context.Context) error {
	cl := t.srv.cl
	if cl == nil {
		return nil
	}
	events, err := cl.st.EventsFrom(ctx, t.id, t.seq)
	if err != nil {
		return err
	}
	var byHand map[int]json.RawMessage
	if t.info.FairDeals && (len(events) > 0 || t.match.AwaitingDeal()) {
		deals, err := t.srv.store.Deals(ctx, t.id)
		if err != nil {
			return err
		}
		byHand = map[int]json.RawMessage{}
		for _, d := range deals {
			byHand[d.N] = d.Data
		}
	}
	before, dealt, hands := t.seq, t.dealtHands(), len(t.match.Records())
	for _, e := range events {
		if e.Seq != t.seq {
			continue
		}
		var a pitch.Action
		if err := json.Unmarshal(e.Action, &a); err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
		if err := t.dealFromLog(byHand); err != nil {
			return err
		}
		if err := t.apply(a, e.By); err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
		t.movedAt(e.At)
		t.seq++
		if seat := int(a.Seat); seat >= 0 && seat < len(t.away) && t.bots[seat] == nil {
			t.away[seat] = e.By == "stand-in"
		}
		if e.At.After(t.active) {
			t.active = e.At
		}
	}
	if err := t.dealFromLog(byHand); err != nil {
		return err
	}
	if t.seq == before && t.dealtHands() == dealt {
		return nil
	}
	t.endedElsewhere(ctx, hands) // an event round's end (eventcluster.go)
	if t.over() && !t.info.Finished {
		if t.pending != nil {
			t.supersede(t.pending.commitment) // a late contribution to it is not refused
		}
		t.pending = nil
		t.info.Finished = true
		t.infoVer++
		t.publish()
		t.srv.unfinished.Add(-1)
		t.rate(ctx) // the store rates a match once, whichever process comes first
		t.settleLater()
	}
	if p := t.pending; p != nil && p.hand <= t.dealtHands() {
		t.pending = nil // dealt: the driver's next commitment comes in a note
	}
	if t.driving && t.pending == nil && t.info.FairDeals && !t.over() {
		if stored, err := t.srv.store.Commitments(ctx, t.id); err == nil {
			t.resumePending(t.dealtHands()+1, stored)
		}
		if t.pending == nil {
			if err := t.drawPending(t.dealtHands() + 1); err != nil {
				t.logger().Warn("cluster: no commitment for the next deal", "err", err.Error())
			}
		}
	}
	t.schedule(0)
	t.broadcast()
	return nil
}

// turnDeadline is when the running turn timer runs out and the event it
// is for: this process's own when it drives the table, else the driver's
// as told (zero: no timer runs). The lock must be held.
func (t *table) turnDeadline() (time.Time, int) {
	if t.drives() {
		return t.deadline, t.deadlineSeq
	}
	return t.remoteDeadline, t.remoteDeadlineSeq
}

// timerKey is a turn timer told to the other processes: the event it is
// for and its deadline (zero: none).
type timerKey struct {
	seq int
	at  time.Time
}

// tellTimer tells the other processes the driver's turn timer when it
// changes, as the time left (the machines' clocks may differ), so that
// their clients see the countdown too; a timer told and then stopped
// for the same turn (its player left, say) is told as stopped. The lock
// must be held.
func (t *table) tellTimer() {
	if t.srv.cl == nil || !t.driving {
		return
	}
	key := timerKey{seq: t.seq}
	if !t.deadline.IsZero() && t.deadlineSeq == t.seq {
		key.at = t.deadline
	}
	if key == t.timerTold {
		return
	}
	told := t.timerTold
	t.timerTold = key
	if key.at.IsZero() && (told.seq != t.seq || told.at.IsZero()) {
		return // nothing was told for this turn: nothing to take back
	}
	left := int64(-1)
	if !key.at.IsZero() {
		left = max(time.Until(key.at).Milliseconds(), 0)
	}
	t.tell(serverNote{Type: "timer", Seq: t.seq, LeftMS: left})
}

// serverNote is a message between this server's processes.
type serverNote struct {
	Type string `json:"type"` // "commit", "contribute", "chat", "timer" or "ask"
	// commit: the pending deal's hand, commitment, its time and the seats
	// in; contribute: one seat's contribution to the commitment.
	Hand        int                  `json:"hand,omitempty"`
	Commitment  string               `json:"commitment,omitempty"`
	CommittedAt time.Time            `json:"committed_at,omitzero"`
	Contribs    []pitch.Contribution `json:"contribs,omitempty"`
	Chat        *chatMsg             `json:"chat,omitempty"`
	// timer: the turn timer of event Seq runs out in LeftMS
	// milliseconds (-1: it was stopped).
	Seq    int   `json:"seq,omitempty"`
	LeftMS int64 `json:"left_ms,omitempty"`
}

// tell sends a server note about the table to the other processes, in the
// background (the lock may be held).
func (t *table) tell(m serverNote) {
	cl := t.srv.cl
	if cl == nil {
		return
	}
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	if cl.ctx.Err() != nil {
		return // stopped: the others drive the table now
	}
	go func() {
		ctx, cancel := context.WithTimeout(cl.ctx, storeTimeout)
		defer cancel()
		if err := cl.st.Notify(ctx, store.Note{Kind: store.NoteServer, Table: t.id, From: cl.id, Text: string(b)}); err != nil && cl.ctx.Err() == nil {
			t.srv.log.Warn("cluster: a note was not sent", "table", t.id, "type", m.Type, "err", err.Error())
		}
	}()
}

// announce tells the other processes this driver's pending deal, when it
// is new or has new contributions. The lock must be held.
func (t *table) announce() {
	p := t.pending
	if t.srv.cl == nil || !t.driving || p == nil || p.secret == [32]byte{} {
		return
	}
	key := fmt.Sprintf("%s/%d", p.commitment, len(p.contribs))
	if key == t.announced {
		return
	}
	t.announced = key
	m := serverNote{Type: "commit", Hand: p.hand, Commitment: p.commitment, CommittedAt: p.committedAt}
	for _, c := range p.contribs {
		m.Contribs = append(m.Contribs, c)
	}
	t.tell(m)
}

// onServerNote handles another process's note about table t.
func (s *Server) onServerNote(t *table, text string) {
	var m serverNote
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch m.Type {
	case "ask":
		t.announced, t.timerTold = "", timerKey{} // say it again
		t.announce()
		t.tellTimer()
	case "timer":
		if t.driving || m.Seq < t.seq {
			return
		}
		t.remoteDeadline, t.remoteDeadlineSeq = time.Time{}, m.Seq
		if m.LeftMS >= 0 {
			t.remoteDeadline = time.Now().Add(time.Duration(m.LeftMS) * time.Millisecond)
		}
		if m.Seq == t.seq {
			t.broadcast()
		}
	case "commit":
		if t.driving || t.over() || m.Hand != t.dealtHands()+1 {
			return
		}
		p := t.pending
		if p == nil || p.commitment != m.Commitment {
			if p != nil {
				t.supersede(p.commitment)
			}
			p = &pendingDeal{hand: m.Hand, commitment: m.Commitment, committedAt: m.CommittedAt, contribs: map[int]pitch.Contribution{}}
			t.pending = p
		}
		for _, c := range m.Contribs {
			p.contribs[c.Seat] = c
		}
		t.broadcast()
	case "contribute":
		p := t.pending
		if p == nil || p.commitment != m.Commitment {
			return
		}
		for _, c := range m.Contribs {
			if _, ok := p.contribs[c.Seat]; !ok {
				p.contribs[c.Seat] = c
			}
		}
		if t.driving && p.secret != [32]byte{} {
			if err := t.savePending(p); err != nil {
				t.logger().Warn("cluster: a contribution was not stored", "err", err.Error())
			}
		}
		if t.driving && t.match.AwaitingDeal() {
			t.schedule(0)
		}
		t.broadcast()
	case "chat":
		if m.Chat == nil {
			return
		}
		t.chat = append(t.chat, *m.Chat)
		if len(t.chat) > chatKept {
			t.chat = t.chat[len(t.chat)-chatKept:]
		}
		t.sendChat(*m.Chat)
	}
}

// supersede records a commitment dropped by a change of driver. The lock
// must be held.
func (t *table) supersede(commitment string) {
	t.superseded = append(t.superseded, commitment)
	if len(t.superseded) > 4 {
		t.superseded = t.superseded[1:]
	}
}

// wasSuperseded reports whether commitment was dropped by a change of
// driver. The lock must be held.
func (t *table) wasSuperseded(commitment string) bool {
	for _, c := range t.superseded {
		if strings.EqualFold(c, commitment) {
			return true
		}
	}
	return false
}
