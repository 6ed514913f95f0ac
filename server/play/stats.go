package play

import (
	"net/http"
	"os"
	"pitch/server/httpx"
	"pitch/store"
	"runtime"
	"strconv"
	"strings"
)

// stats is what GET /api/stats reports: the load on the server, for
// `pitch loadtest` and for people running a server. It holds no secrets.
type stats struct {
	Tables      int    `json:"tables"`      // tables in memory
	Connections int    `json:"connections"` // open WebSocket connections
	HeapAlloc   uint64 `json:"heap_alloc"`  // bytes of live heap objects
	HeapSys     uint64 `json:"heap_sys"`    // bytes of heap obtained from the OS
	Goroutines  int    `json:"goroutines"`
	StackInuse  uint64 `json:"stack_inuse"` // bytes of goroutine stacks
	// RSS is the process's resident memory in bytes (Linux; 0 elsewhere).
	RSS uint64 `json:"rss"`
	// Mallocs and AllocBytes count the heap objects and bytes allocated
	// since the server started, and GCs its garbage collections: the
	// difference between two readings over a run, divided by its
	// actions, is what an action allocates (tools/pinned-load.sh).
	Mallocs    uint64 `json:"mallocs"`
	AllocBytes uint64 `json:"alloc_bytes"`
	GCs        uint32 `json:"gcs"`
	// ActionLatency counts the players' actions since the server started
	// by the time from the message's arrival to its new states queued
	// for every connection at the table (checked, stored, encoded):
	// element i counts those that took from 2^(i/4) up to 2^((i+1)/4)
	// microseconds. pitch loadtest reads the server's share of its
	// latency from the difference between two readings.
	ActionLatency []uint64 `json:"action_latency_us"`
	// Store is what the store has written since the server started
	// (SQLite: bytes and fsyncs of its WAL and main file, its commits
	// and the writes they carried); nil for a store that does not count.
	Store *store.IOStats `json:"store,omitempty"`
}

// rss reads the process's resident set size from /proc/self/statm.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	var st stats
	s.mu.Lock()
	st.Tables = len(s.tables)
	s.mu.Unlock()
	st.Connections = s.conns.count()
	if r.URL.Query().Get("gc") == "1" {
		runtime.GC() // the live heap alone, for a measurement (pitch loadtest)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	st.HeapAlloc, st.HeapSys, st.Goroutines = m.HeapAlloc, m.HeapSys, runtime.NumGoroutine()
	st.StackInuse, st.RSS = m.StackInuse, rss()
	st.Mallocs, st.AllocBytes, st.GCs = m.Mallocs, m.TotalAlloc, m.NumGC
	st.ActionLatency = s.actionLatency.counts()
	if c, ok := s.store.(store.IOCounter); ok {
		io := c.IO()
		st.Store = &io
	}
	httpx.WriteJSON(w, http.StatusOK, st)
}
