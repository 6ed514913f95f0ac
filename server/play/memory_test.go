package play

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"pitch/store"
)

// BenchmarkIdleTableMemory reports the server's live heap per idle table:
// a pawnee table created through the API, its bots waiting for the human
// seat to be taken. (Aim: at most 100 KiB a table.)
func BenchmarkIdleTableMemory(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "mem.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv, err := New(ctx, st, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler()
	const body = `{"variant":"pawnee","seats":[{"kind":"human"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]}`
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const tables = 200
	var perTable float64
	for b.Loop() {
		before := heap()
		for range tables {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/tables", strings.NewReader(body)))
			if w.Code != http.StatusCreated {
				b.Fatalf("create: %d %s", w.Code, w.Body)
			}
		}
		perTable = float64(heap()-before) / tables
	}
	b.ReportMetric(perTable, "B/table")
	b.ReportMetric(0, "ns/op")
}
