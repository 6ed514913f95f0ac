package play

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gobwas/ws"
)

// connSet is every open WebSocket of the server, counted per client
// address while anonymous and per player once one shows who they are.
// Its lock is its own, held only to count: never the server's or a
// table's.
type connSet struct {
	mu      sync.Mutex
	all     map[*conn]struct{}
	pending map[string]int // the connections yet to say hello, by address
	perAddr map[string]int // the anonymous ones (spectators, an event's onlookers), by address
	perWho  map[string]int // the players', by who they are (identify)
	players map[string]int // the players' connections, by address
	// draining: Shutdown has begun: no connection is admitted
	draining bool
	wg       sync.WaitGroup // one per admitted connection, done when its handler returns
}

// How a connection is counted.
const (
	countPending = iota // admitted, before its hello
	countAnon           // anonymous: against its address
	countPlayer         // a player's: against who they are
)

func newConnSet() *connSet {
	return &connSet{all: map[*conn]struct{}{}, pending: map[string]int{}, perAddr: map[string]int{}, perWho: map[string]int{}, players: map[string]int{}}
}

// pendingPerAddr is how many connections one address may have waiting
// for their hello at once, as a multiple of the limit of its anonymous
// ones, plus one for each player's connection it holds: a club's phones
// all open their next table's socket at a round's start, and a flood of
// sockets that never say hello is still bounded (players are had only
// by joining, which has limits of its own).
const pendingPerAddr = 4

// admit counts c in, before its hello, or returns the close code and
// reason to refuse it with, and the kind of refusal (for the count in
// /api/health; "" when draining): the server is draining, or full
// (maxAll), or c's address has pendingPerAddr × perAddr connections
// waiting for their hello, and one more for each player's it holds. A limit of 0 is no limit. Once c says who it
// is, identify or anonymous counts it for good.
func (cs *connSet) admit(c *conn, perAddr, maxAll int) (code ws.StatusCode, reason, kind string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	switch {
	case cs.draining:
		return statusRestart, RestartReason, ""
	case maxAll > 0 && len(cs.all) >= maxAll:
		return statusTryLater, fmt.Sprintf(serverFullFmt, maxAll), refusedConns
	case perAddr > 0 && cs.pending[c.addr] >= pendingPerAddr*perAddr+cs.players[c.addr]:
		return statusTryLater, fmt.Sprintf(addrFullFmt, perAddr), refusedAddrConns
	}
	cs.all[c] = struct{}{}
	cs.pending[c.addr]++
	c.counted = countPending
	cs.wg.Add(1)
	return 0, "", ""
}

// perPlayer is how many connections one player (a seat, an event's
// entry, its host) may hold at once: tabs and devices, not a flood.
const perPlayer = 8

// identify counts c, admitted and past its hello, against who, a player
// it has shown itself to be (a seat's token at a table, an entry's at an
// event): the limit per address is for anonymous connections, and a
// club's phones share one address. It reports false, leaving c pending,
// when who holds perPlayer connections already.
func (cs *connSet) identify(c *conn, who string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c.counted != countPending {
		return c.counted == countPlayer
	}
	if cs.perWho[who] >= perPlayer {
		return false
	}
	cs.perWho[who]++
	cs.players[c.addr]++
	cs.unpend(c)
	c.who, c.counted = who, countPlayer
	return true
}

// anonymous counts c, admitted and past its hello, against its address
// as one who shows no player's token; false, leaving c pending, when
// the address holds perAddr such connections already (0: no limit).
func (cs *connSet) anonymous(c *conn, perAddr int) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c.counted != countPending {
		return c.counted == countAnon
	}
	if perAddr > 0 && cs.perAddr[c.addr] >= perAddr {
		return false
	}
	cs.perAddr[c.addr]++
	cs.unpend(c)
	c.counted = countAnon
	return true
}

// unpend takes c out of its address's pending count; the lock is held.
func (cs *connSet) unpend(c *conn) {
	if cs.pending[c.addr]--; cs.pending[c.addr] <= 0 {
		delete(cs.pending, c.addr)
	}
}

// release counts c out once its handler is done with it.
func (cs *connSet) release(c *conn) {
	cs.mu.Lock()
	delete(cs.all, c)
	switch c.counted {
	case countPlayer:
		if cs.perWho[c.who]--; cs.perWho[c.who] <= 0 {
			delete(cs.perWho, c.who)
		}
		if cs.players[c.addr]--; cs.players[c.addr] <= 0 {
			delete(cs.players, c.addr)
		}
	case countAnon:
		if cs.perAddr[c.addr]--; cs.perAddr[c.addr] <= 0 {
			delete(cs.perAddr, c.addr)
		}
	default:
		cs.unpend(c)
	}
	cs.mu.Unlock()
	cs.wg.Done()
}

// playersAt is how many players' connections address addr holds.
func (cs *connSet) playersAt(addr string) int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.players[addr]
}

// count is the number of open connections.
func (cs *connSet) count() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.all)
}

// drain admits no more connections and returns those open.
func (cs *connSet) drain() []*conn {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.draining = true
	out := make([]*conn, 0, len(cs.all))
	for c := range cs.all {
		out = append(out, c)
	}
	return out
}

// DefaultPingInterval is the time between pings on a WebSocket unless
// told otherwise.
const DefaultPingInterval = 30 * time.Second

// Shutdown stops the server gracefully. It stops accepting (hs, if not
// nil, closes its listeners and finishes the requests under way), stops
// the bots and the idle sweep, lets every action under way be stored and
// sent, then closes every WebSocket with close code 1012 (service
// restart) and RestartReason after writing what was queued for it, and
// waits for the connections to end. When ctx ends first, whatever is left
// is closed at once and ctx's error returned. The store is the caller's
// to close afterwards.
func (s *Server) Shutdown(ctx context.Context, hs *http.Server) error {
	// Several processes: the tables are the others' to drive now, at
	// once, before anything else (their clients come back to them
	// through the load balancer): this process drives them up to the
	// release, and the others take them on its notes.
	s.stopCluster(true)
	defer s.leaveCluster() // its clients' presence, once they are gone
	s.stop()
	conns := s.conns.drain()
	httpDone := make(chan error, 1)
	if hs != nil {
		go func() { httpDone <- hs.Shutdown(ctx) }()
	} else {
		httpDone <- nil
	}
	// From here no connection acts: a message read now is dropped (its
	// client hears why from the close). deaf is read under the table's
	// lock before acting, so passing every table's lock once below
	// means no action is under way, and every state due is queued.
	for _, c := range conns {
		c.deaf.Store(true)
	}
	tables := s.tableList()
	for _, t := range tables {
		t.mu.Lock()
		if t.timer != nil {
			t.timer.Stop()
		}
		t.mu.Unlock()
	}
	for _, c := range conns {
		c.closeWith(statusRestart, RestartReason, true)
	}
	wsDone := make(chan struct{})
	go func() {
		s.conns.wg.Wait()
		close(wsDone)
	}()
	var err error
	select {
	case <-wsDone:
	case <-ctx.Done():
		err = ctx.Err()
		for _, c := range conns {
			c.shut() // a client that does not answer the close
		}
	}
	if herr := <-httpDone; herr != nil {
		if err == nil {
			err = herr
		}
		if hs != nil {
			_ = hs.Close()
		}
	}
	s.evWork.Wait() // the event tables' last results are stored
	return err
}
