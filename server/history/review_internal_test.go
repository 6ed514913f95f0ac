package history

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"pitch"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/server/tableinfo"
	"pitch/store"
)

// reviewServer returns the history's API on a fresh SQLite store, both
// closed when the test ends, with a handler serving its routes.
func reviewServer(t *testing.T) (store.Store, *API, http.Handler) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var closed atomic.Bool // as the server's, once the test ends
	t.Cleanup(func() { closed.Store(true) })
	srv := New(Config{Store: st, Tables: storedTables{st}, Closing: closed.Load})
	mux := http.NewServeMux()
	for _, rt := range srv.Routes() {
		mux.HandleFunc(rt.Pattern, rt.Handler)
	}
	return st, srv, mux
}

// storedTables are the tables as stored: the live tables' public
// description of a table that has not changed since.
type storedTables struct{ st store.Store }

func (s storedTables) PublicTable(ctx context.Context, id string) (tableinfo.Table, int, error) {
	t, err := s.st.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return tableinfo.Table{}, 0, httpx.Errorf(httpx.NotFound, "table", "no table %q", id).With("no_table", nil)
	}
	if err != nil {
		return tableinfo.Table{}, 0, httpx.StoreDown("table", err)
	}
	g, err := tableinfo.Game(t)
	if err != nil {
		return tableinfo.Table{}, 0, err
	}
	return tableinfo.Public(t, g), g.Seats(), nil
}

// TestMatchReviewLeavesRoom: a match review never takes the queue's last
// places, kept for single hands' reviews; with the queue that full it
// queues nothing, says busy with a longer Retry-After (not an error), and
// a single hand's review is still queued.
func TestMatchReviewLeavesRoom(t *testing.T) {
	ctx := context.Background()
	st, srv, h := reviewServer(t)
	g := pitch.MustNewGame(pitch.Auction)
	m := pitch.NewMatch(g, 5)
	rng := pitch.NewRand(5)
	opts, _ := json.Marshal(g.OptionMap())
	tb := &store.Table{ID: "full", Variant: "auction", Options: opts, Seed: 5}
	for i := range g.Seats() {
		tb.Seats = append(tb.Seats, store.Seat{Seat: i, Kind: "bot", Level: "easy"})
	}
	if err := st.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	for seq := 0; len(m.Records()) == 0; seq++ {
		a := m.State().RandomAction(rng)
		if err := m.Apply(a); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(a)
		ap := store.Append{Event: store.Event{Seq: seq, Action: raw}}
		if recs := m.Records(); len(recs) > 0 {
			rec, _ := json.Marshal(recs[0])
			ap.Hand = &store.Hand{N: 1, Record: rec}
		}
		if err := st.Append(ctx, "full", ap); err != nil {
			t.Fatal(err)
		}
	}
	q := &srv.reviews
	q.init()
	q.mu.Lock()
	q.queued = maxReviewQueue - matchReviewRoom // others' reviews fill the rest
	q.mu.Unlock()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/api/tables/full/reviews", nil))
	var got matchReviewStatus
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if w.Code != 202 || !got.Busy || got.Pending != 0 || got.Waiting != 4 || w.Header().Get("Retry-After") != "5" {
		t.Fatalf("with the queue full for match reviews: %d %s (Retry-After %q), want 202 busy, nothing queued", w.Code, w.Body, w.Header().Get("Retry-After"))
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/api/tables/full/hands/1/review?seat=0", nil))
	if w.Code != 202 {
		t.Fatalf("a single hand's review with the room kept: %d %s, want 202 queued", w.Code, w.Body)
	}
	for deadline := time.Now().Add(time.Minute); w.Code == 202 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		w = httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/api/tables/full/hands/1/review?seat=0", nil))
	}
	if w.Code != 200 {
		t.Errorf("the single hand's review: %d %s, want 200 once made", w.Code, w.Body)
	}
}

// TestMakeReviewSkipsStored: a review queued again just as it was stored
// (a request read the store before the review was put there) is not made
// twice: the stored review stays, and the queued one neither works nor
// fails, even on a record it could not read.
func TestMakeReviewSkipsStored(t *testing.T) {
	ctx := context.Background()
	st, srv, _ := reviewServer(t)
	opts, _ := json.Marshal(pitch.MustNewGame(pitch.Auction).OptionMap())
	if err := st.CreateTable(ctx, &store.Table{ID: "twice", Variant: "auction", Options: opts, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	stored := []byte(`{"stored":true}`)
	if err := st.PutReview(ctx, "twice", store.Review{N: 1, Seat: 2, Data: stored}); err != nil {
		t.Fatal(err)
	}
	q := &srv.reviews
	q.init()
	k := reviewKey{"twice", 1, 2}
	q.mu.Lock()
	srv.enqueueLocked(k, []byte("not a record"))
	q.mu.Unlock()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		q.mu.Lock()
		done := !q.pending[k]
		q.mu.Unlock()
		if done {
			break
		}
	}
	q.mu.Lock()
	pending, failed, queued := q.pending[k], q.failed[k], q.queued
	q.mu.Unlock()
	if pending || failed != "" || queued != 0 {
		t.Fatalf("after the queued review: pending %v, failed %q, queued %d; want it gone without failing", pending, failed, queued)
	}
	rv, err := st.Review(ctx, "twice", 1, 2)
	if err != nil || string(rv.Data) != string(stored) {
		t.Fatalf("the stored review: %s %v, want %s kept", rv.Data, err, stored)
	}
}

// Subject: a table of its own.
func (storedTables) Subject(string) access.Subject { return access.Subject{} }

// SeatOf: no seat is known.
func (storedTables) SeatOf(string, string) int { return -1 }
