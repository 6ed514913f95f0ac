package play

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pitch/store"
)

// blockingWriter is a ResponseWriter whose Write waits for release, and
// says when it has been entered: a list stuck while it writes its answer.
type blockingWriter struct {
	header  http.Header
	code    int
	entered chan struct{}
	release chan struct{}
	once    sync.Once
	body    strings.Builder
}

func (w *blockingWriter) Header() http.Header  { return w.header }
func (w *blockingWriter) WriteHeader(code int) { w.code = code }
func (w *blockingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.entered) })
	<-w.release
	return w.body.Write(p)
}

// TestListHoldsNoLock: while a list's answer is being written (stuck, a
// client that reads slowly), the server goes on: tables are created and
// joined (which change the lobby), and other lists are answered. The list
// takes a snapshot of the lobby under its lock and encodes it after.
func TestListHoldsNoLock(t *testing.T) {
	srv, _, _ := fuzzTable(t)
	h := srv.Handler()
	serve := func(method, path, body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		var r *http.Request
		if body == "" {
			r = httptest.NewRequest(method, path, nil)
		} else {
			r = httptest.NewRequest(method, path, strings.NewReader(body))
		}
		h.ServeHTTP(w, r)
		return w
	}
	for range 3 {
		if w := serve("POST", "/api/tables", `{"variant":"pawnee"}`); w.Code != 201 {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
	}
	stuck := &blockingWriter{header: http.Header{}, entered: make(chan struct{}), release: make(chan struct{})}
	listDone := make(chan struct{})
	go func() {
		defer close(listDone)
		h.ServeHTTP(stuck, httptest.NewRequest("GET", "/api/tables", nil))
	}()
	select {
	case <-stuck.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the list never wrote its answer")
	}
	// The list is now inside Write. Everything else must go on.
	others := make(chan string, 1)
	go func() {
		w := serve("POST", "/api/tables", `{"variant":"pawnee"}`)
		if w.Code != 201 {
			others <- fmt.Sprintf("create: %d %s", w.Code, w.Body)
			return
		}
		var info tableInfo
		_ = json.Unmarshal(w.Body.Bytes(), &info)
		if w := serve("POST", "/api/tables/"+info.ID+"/join", `{"name":"Ann"}`); w.Code != 200 {
			others <- fmt.Sprintf("join: %d %s", w.Code, w.Body)
			return
		}
		w = serve("GET", "/api/tables", "")
		var page struct{ Total int }
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &page) != nil || page.Total != 3 {
			others <- fmt.Sprintf("another list: %d %s (want the 3 open tables)", w.Code, w.Body)
			return
		}
		if w := serve("GET", "/api/stats", ""); w.Code != 200 {
			others <- fmt.Sprintf("stats: %d", w.Code)
			return
		}
		others <- ""
	}()
	select {
	case msg := <-others:
		if msg != "" {
			t.Fatal(msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("while a list was being written, creating, joining or listing did not finish: a lock is held while encoding")
	}
	close(stuck.release)
	<-listDone
	var page struct{ Total int }
	if stuck.code != 200 || json.Unmarshal([]byte(stuck.body.String()), &page) != nil || page.Total != 3 {
		t.Errorf("the stuck list answered %d %s, want the 3 open tables of its moment", stuck.code, stuck.body.String())
	}
}

// manyTables returns a server over a store holding n open tables (a
// third of them each game), created straight in the store, loaded by New
// as at a restart.
func manyTables(tb testing.TB, n int) *Server {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(tb.TempDir(), "many.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	games := []struct {
		variant, options string
		seats            int
	}{
		{"pawnee", `{"call_own_card":true,"pawnee_fail_bidder_only":true,"pawnee_score_tricks":false,"target":42}`, 5},
		{"ten-point", `{"target":52}`, 4},
		{"auction", `{"players":4,"target":7}`, 4},
	}
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Millisecond)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	work := make(chan int)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				g := games[i%3]
				var seed [8]byte
				binary.LittleEndian.PutUint64(seed[:], uint64(i))
				t := &store.Table{ID: fmt.Sprintf("t%05d", i), Variant: g.variant, Options: json.RawMessage(g.options),
					Seed: uint64(i) + 1, Created: base.Add(time.Duration(i) * time.Millisecond)}
				for s := range g.seats {
					kind, level := "bot", "easy"
					if s == 0 {
						kind, level = "human", ""
					}
					t.Seats = append(t.Seats, store.Seat{Seat: s, Kind: kind, Level: level})
				}
				if err := st.CreateTable(ctx, t); err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		tb.Fatal(err)
	}
	srv, err := New(ctx, st, Options{BotDelay: 1 << 40})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	return srv
}

// TestListTenThousand: with 10,000 open tables the list pages through
// all of them, newest first, each once, and a page is small.
func TestListTenThousand(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 10,000 tables")
	}
	const n = 10000
	srv := manyTables(t, n)
	h := srv.Handler()
	seen := map[string]bool{}
	last := ""
	for off := 0; ; off += maxPage {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", fmt.Sprintf("/api/tables?limit=%d&offset=%d", maxPage, off), nil))
		var page struct {
			Tables []tableInfo `json:"tables"`
			Total  int         `json:"total"`
		}
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &page) != nil {
			t.Fatalf("offset %d: %d %.300s", off, w.Code, w.Body)
		}
		if page.Total != n {
			t.Fatalf("offset %d: total %d, want %d", off, page.Total, n)
		}
		if off == 0 && w.Body.Len() > 200<<10 {
			t.Errorf("a page of %d tables is %d bytes", maxPage, w.Body.Len())
		}
		if len(page.Tables) == 0 {
			break
		}
		for _, tab := range page.Tables {
			if seen[tab.ID] {
				t.Fatalf("table %s listed twice", tab.ID)
			}
			seen[tab.ID] = true
			if last != "" && tab.ID > last { // ids count up as created does
				t.Fatalf("table %s after %s: not newest first", tab.ID, last)
			}
			last = tab.ID
		}
	}
	if len(seen) != n {
		t.Errorf("paged through %d tables, want %d", len(seen), n)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/api/tables?game=ten-point&limit=5", nil))
	var page struct {
		Tables []tableInfo `json:"tables"`
		Total  int         `json:"total"`
	}
	if json.Unmarshal(w.Body.Bytes(), &page) != nil || page.Total != (n+1)/3 || len(page.Tables) != 5 {
		t.Fatalf("ten-point: total %d, %d tables; want %d and 5", page.Total, len(page.Tables), (n+1)/3)
	}
	for _, tab := range page.Tables {
		if tab.Variant != "ten-point" {
			t.Errorf("the ten-point list holds a %s table", tab.Variant)
		}
	}
}

// BenchmarkListPage: one page (20, the default) of GET /api/tables with
// 10,000 open tables, and the last page of 100, served through the
// handler.
func BenchmarkListPage(b *testing.B) {
	srv := manyTables(b, 10000)
	h := srv.Handler()
	for _, q := range []string{"", "?limit=100&offset=9900", "?game=pawnee&limit=100&offset=3000"} {
		b.Run("q="+q, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", "/api/tables"+q, nil))
				if w.Code != 200 {
					b.Fatal(w.Code)
				}
			}
		})
	}
}
