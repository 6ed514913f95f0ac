package play

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// connSet is every open WebSocket of the server, counted per client
// address. Its lock is its own, held only to count: never the server's
// or a table's.
type connSet struct {
	mu       sync.Mutex
	all      map[*conn]struct{}
	perAddr  map[string]int
	draining bool           // Shutdown has begun: no connection is admitted
	wg       sync.WaitGroup // one per admitted connection, done when its handler returns
}

func newConnSet() *connSet {
	return &connSet{all: map[*conn]struct{}{}, perAddr: map[string]int{}}
}

// admit counts c in, or returns the close code and reason to refuse it
// with, and the kind of refusal (for the count in /api/health; "" when
// draining): the server is draining, or full (maxAll), or c's address
// holds perAddr connections already. A limit of 0 is no limit.
func (cs *connSet) admit(c *conn, perAddr, maxAll int) (code websocket.StatusCode, reason, kind string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	switch {
	case cs.draining:
		return statusRestart, RestartReason, ""
	case maxAll > 0 && len(cs.all) >= maxAll:
		return statusTryLater, fmt.Sprintf(serverFullFmt, maxAll), refusedConns
	case perAddr > 0 && cs.perAddr[c.addr] >= perAddr:
		return statusTryLater, fmt.Sprintf(addrFullFmt, perAddr), refusedAddrConns
	}
	cs.all[c] = struct{}{}
	cs.perAddr[c.addr]++
	cs.wg.Add(1)
	return 0, "", ""
}

// release counts c out once its handler is done with it.
func (cs *connSet) release(c *conn) {
	cs.mu.Lock()
	delete(cs.all, c)
	if cs.perAddr[c.addr]--; cs.perAddr[c.addr] <= 0 {
		delete(cs.perAddr, c.addr)
	}
	cs.mu.Unlock()
	cs.wg.Done()
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
			c.cut() // a client that does not answer the close
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
