package play

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"pitch/store"
)

// TestStatsStore: GET /api/stats reports what the store wrote (SQLite):
// the writes of making a table and taking its seats, their commits, and
// each commit's WAL frames and fsync.
func TestStatsStore(t *testing.T) {
	srv, _, _ := fuzzTable(t) // a table made, its four seats taken
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/api/stats", nil))
	var st struct {
		Store *store.IOStats `json:"store"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil || w.Code != 200 {
		t.Fatalf("stats: %d %s (%v)", w.Code, w.Body, err)
	}
	io := st.Store
	if io == nil {
		t.Fatalf("stats without the store's counts: %s", w.Body)
	}
	if io.Writes < 5 || io.Commits < 1 || io.Commits > io.Writes {
		t.Errorf("%d writes in %d commits; want at least the table and its 4 seats, in at most as many commits", io.Writes, io.Commits)
	}
	if io.PageSize != 1024 || io.WALSyncs < io.Commits || io.WALBytes < io.Commits*(io.PageSize+24) {
		t.Errorf("page size %d, %d WAL syncs, %d WAL bytes for %d commits; want 1 KiB pages, a sync and a frame a commit at least", io.PageSize, io.WALSyncs, io.WALBytes, io.Commits)
	}
}
