package play

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
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
