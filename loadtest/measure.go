package loadtest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// What the load test measures of itself over play, so that a run whose
// clients are the limit says so (docs/performance.md, "Issue 41"): its
// own CPU (processCPU) and the bytes its WebSockets received, counted on
// the sockets (frames, headers and all) as the server wrote them.

// countingConn counts the bytes read from a connection into n.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	k, err := c.Conn.Read(p)
	c.n.Add(int64(k))
	return k, err
}

// countingClient is an HTTP client for WebSockets to dial with: the
// bytes each connection receives are added to n.
func countingClient(n *atomic.Int64) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return countingConn{Conn: c, n: n}, nil
		},
	}}
}

// playWindow is the load test's CPU and the bytes its WebSockets had
// received at one moment.
type playWindow struct {
	cpu   time.Duration
	bytes int64
}

// mark reads the load test's CPU and received bytes now.
func (r *run) mark() playWindow {
	return playWindow{cpu: processCPU(), bytes: r.received.Load()}
}

// note writes a line to Config.Marks, if set: play begins or ends.
func (r *run) note(what string) {
	if r.cfg.Marks != nil {
		fmt.Fprintf(r.cfg.Marks, "pitch loadtest: play %s\n", what)
	}
}

// setupSlot waits for a free place among the tables being set up at
// once (Config.SetupAtOnce; none: no wait) and returns what frees it;
// ok is false when ctx ended first.
func (r *run) setupSlot(ctx context.Context) (free func(), ok bool) {
	if r.setup == nil {
		return func() {}, true
	}
	select {
	case r.setup <- struct{}{}:
		return func() { <-r.setup }, true
	case <-ctx.Done():
		return nil, false
	}
}

// checkSetup checks the set-up settings: how many tables at once
// (0: all) and the time allowed (0: the default).
func checkSetup(cfg *Config) error {
	if cfg.SetupAtOnce < 0 || cfg.SetupAtOnce > 10000 {
		return fmt.Errorf("tables set up at once must be 0 (all of them) to 10000, not %d", cfg.SetupAtOnce)
	}
	if cfg.SetupAtOnce > 0 && cfg.Event > 0 {
		return fmt.Errorf("tables set up at once is for a run of tables, not an event (its people join one after the other: use the join gap)")
	}
	if cfg.SetupTimeout < 0 || cfg.SetupTimeout > 24*time.Hour {
		return fmt.Errorf("the set-up time must be 0 (the default: 30s and 25ms a table) to 24h, not %s", cfg.SetupTimeout)
	}
	return nil
}
