package server

import (
	"net/http"
	"runtime"
)

// stats is what GET /api/stats reports: the load on the server, for
// `pitch loadtest` and for people running a server. It holds no secrets.
type stats struct {
	Tables      int    `json:"tables"`      // tables in memory
	Connections int    `json:"connections"` // open WebSocket connections
	HeapAlloc   uint64 `json:"heap_alloc"`  // bytes of live heap objects
	HeapSys     uint64 `json:"heap_sys"`    // bytes of heap obtained from the OS
	Goroutines  int    `json:"goroutines"`
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	var st stats
	s.mu.Lock()
	st.Tables = len(s.tables)
	s.mu.Unlock()
	st.Connections = s.conns.count()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	st.HeapAlloc, st.HeapSys, st.Goroutines = m.HeapAlloc, m.HeapSys, runtime.NumGoroutine()
	writeJSON(w, http.StatusOK, st)
}
