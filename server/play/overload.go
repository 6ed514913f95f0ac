package play

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"pitch/server/httpx"
	"sync"
	"sync/atomic"
	"time"
)

// Overload: when the machine cannot keep up, the server refuses new
// connections and new tables, with a reason, and keeps serving those it
// has, rather than letting every client's pings and writes time out
// together. How far behind it runs is measured by the Go scheduler's
// lateness: a goroutine that sleeps lagProbe and wakes later than that
// waited for a CPU.

// DefaultOverloadLag is how far behind the server may run (its smoothed
// scheduling lag) before it refuses new connections and tables; `pitch
// serve --overload-lag` sets it.
const DefaultOverloadLag = 250 * time.Millisecond

const (
	lagProbe = 50 * time.Millisecond // the probe's sleep
	// overloadRetry is the Retry-After of a refusal for overload, in
	// seconds.
	overloadRetry = 30
	// refusalLogEvery is the least time between two warnings of one kind
	// of refusal; the warning counts those in between.
	refusalLogEvery = 10 * time.Second
)

// The kinds of refusal counted in /api/health (and named in the log).
const (
	refusedOverloaded = "overloaded"      // new connection or table while the server runs behind
	refusedConns      = "server_full"     // new connection past --max-conns
	refusedAddrConns  = "addr_full"       // new connection past --addr-conns from one address
	refusedTables     = "max_tables"      // new table past --max-tables
	refusedCreates    = "too_many_tables" // new table past --tables-per-hour from one address
	refusedRate       = "rate_addr"       // request or message past --addr-rate from one address
)

// overloadFmt is the close reason (with code 1013) and the error of a
// refusal for overload. A close reason holds at most 123 bytes.
const overloadFmt = "the server is overloaded (it runs %d ms behind, its limit %d ms): try again in a minute"

// gauge is the server's load: how far behind it runs, whether it is
// overloaded, and the refusals so far.
type gauge struct {
	limit  time.Duration // 0: never overloaded
	lag    atomic.Int64  // smoothed lateness of the probe, in ns
	over   atomic.Bool
	pinned atomic.Bool // a test set the lag: the probe leaves it alone
	log    *slog.Logger

	mu      sync.Mutex
	refused map[string]int64
	logged  map[string]time.Time // the last warning of each kind
	unsaid  map[string]int64     // refusals since that warning
}

func newGauge(limit time.Duration, log *slog.Logger) *gauge {
	return &gauge{limit: limit, log: log, refused: map[string]int64{}, logged: map[string]time.Time{}, unsaid: map[string]int64{}}
}

// probe measures the lag until stop is closed.
func (g *gauge) probe(stop <-chan struct{}) {
	for {
		start := time.Now()
		select {
		case <-stop:
			return
		case <-time.After(lagProbe):
		}
		if !g.pinned.Load() {
			late := max(time.Since(start)-lagProbe, 0)
			// Smoothed over about a second, so that one slow wake (a GC
			// pause) does not refuse anyone.
			old := time.Duration(g.lag.Load())
			g.set(old + (late-old)/8)
		}
	}
}

// set records the lag and whether it makes the server overloaded: it is
// over the limit; it stops being so below half the limit, so that the
// server does not flap at the edge.
func (g *gauge) set(lag time.Duration) {
	g.lag.Store(int64(lag))
	if g.limit <= 0 {
		return
	}
	switch {
	case lag > g.limit && !g.over.Load():
		g.over.Store(true)
		g.log.Warn("the server is overloaded: it refuses new connections and tables until it catches up",
			"lag", lag.Round(time.Millisecond), "limit", g.limit, "flag", "--overload-lag")
	case lag < g.limit/2 && g.over.Load():
		g.over.Store(false)
		g.log.Info("the server has caught up: it takes new connections and tables again", "lag", lag.Round(time.Millisecond))
	}
}

// overloaded returns the reason to refuse new work with, or "".
func (g *gauge) overloaded() string {
	if !g.over.Load() {
		return ""
	}
	return fmt.Sprintf(overloadFmt, time.Duration(g.lag.Load()).Milliseconds(), g.limit.Milliseconds())
}

// refuse counts a refusal of kind and logs it, at most once every
// refusalLogEvery per kind (saying how many there were in between): a
// warning when the server is at one of its own limits, information when
// an address is at its share.
func (g *gauge) refuse(kind, reason string) {
	g.mu.Lock()
	g.refused[kind]++
	g.unsaid[kind]++
	now := time.Now()
	say := now.Sub(g.logged[kind]) >= refusalLogEvery
	var n int64
	if say {
		n = g.unsaid[kind]
		g.unsaid[kind] = 0
		g.logged[kind] = now
	}
	g.mu.Unlock()
	if say {
		// The server's own limits are a warning for whoever runs it; an
		// address over its share is the address's business.
		level := slog.LevelWarn
		if perAddress[kind] {
			level = slog.LevelInfo
		}
		g.log.Log(context.Background(), level, "refused", "kind", kind, "count", n, "reason", reason)
	}
}

// perAddress are the kinds of refusal that count one client address's
// share, not the server's capacity.
var perAddress = map[string]bool{refusedAddrConns: true, refusedCreates: true, refusedRate: true}

// refusals returns the refusals so far, by kind.
func (g *gauge) refusals() map[string]int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return maps.Clone(g.refused)
}

// health is what GET /api/health answers: whether the server takes new
// work, and how loaded it is.
type health struct {
	// Status is "ok", "overloaded" (it refuses new connections and
	// tables, and keeps those it has) or "draining" (shutting down).
	Status      string           `json:"status"`
	LagMS       float64          `json:"lag_ms"`          // how far behind it runs, smoothed
	OverloadLag int64            `json:"overload_lag_ms"` // the lag past which it is overloaded; 0 never
	Connections int              `json:"connections"`     // open WebSockets
	MaxConns    int              `json:"max_conns"`       // 0: no limit
	Tables      int64            `json:"tables"`          // unfinished tables in memory
	MaxTables   int              `json:"max_tables"`      // 0: no limit
	Refused     map[string]int64 `json:"refused"`         // refusals since start, by kind
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	h := health{Status: "ok", LagMS: float64(s.gauge.lag.Load()/1000) / 1000, OverloadLag: s.gauge.limit.Milliseconds(),
		Connections: s.conns.count(), MaxConns: s.opts.MaxConns, Tables: s.unfinished.Load(), MaxTables: s.opts.MaxTables,
		Refused: s.gauge.refusals()}
	switch {
	case s.closed.Load():
		h.Status = "draining"
	case s.gauge.over.Load():
		h.Status = "overloaded"
	}
	httpx.WriteJSON(w, http.StatusOK, h)
}
