package play

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"pitch"
	"pitch/store"
)

// reviewServer returns a server on a fresh SQLite store, both closed when
// the test ends.
func reviewServer(t *testing.T) (store.Store, *Server) {
	t.Helper()
	return internalServer(t, filepath.Join(t.TempDir(), "p.db"), Options{})
}

// internalServer returns a server with opts on the store at dsn, both
// closed when the test ends.
func internalServer(t testing.TB, dsn string, opts Options) (store.Store, *Server) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := New(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return st, srv
}

// TestMatchReviewLeavesRoom: a match review never takes the queue's last
// places, kept for single hands' reviews; with the queue that full it
// queues nothing, says busy with a longer Retry-After (not an error), and
// a single hand's review is still queued.
func TestMatchReviewLeavesRoom(t *testing.T) {
	ctx := context.Background()
	st, srv := reviewServer(t)
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
	h := srv.Handler()
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
	st, srv := reviewServer(t)
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
