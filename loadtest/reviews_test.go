package loadtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"pitch/server"
	"pitch/store"
)

// TestReviewsDuringLoad runs review traffic beside a short load test on
// an in-process server: every review request gets one of the review
// answers (made, queued, queue full), none fails, and play goes on.
func TestReviewsDuringLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("plays tables for seconds")
	}
	ctx := context.Background()
	hs := inProcessServer(t, server.Options{BotDelay: time.Millisecond, AwayDelay: time.Minute,
		RetryDelay: 20 * time.Millisecond, DealWait: 10 * time.Millisecond})

	rctx, stop := context.WithCancel(ctx)
	got := make(chan *ReviewReport, 1)
	go func() {
		rep, err := Reviews(rctx, ReviewConfig{URL: hs.URL, Workers: 2})
		if err != nil {
			t.Error(err)
		}
		got <- rep
	}()
	rep, err := Run(ctx, Config{URL: hs.URL, Tables: 4, Duration: 5 * time.Second, Variant: "auction", Think: 20 * time.Millisecond, Seed: 3})
	stop()
	reviews := <-got
	if err != nil {
		t.Fatal(err)
	}
	if rep.Hands == 0 || rep.Errors != 0 {
		t.Fatalf("the load test played %d hands with %d errors (%v), want hands and no errors", rep.Hands, rep.Errors, rep.ErrorSamples)
	}
	if reviews == nil {
		t.Fatal("no review report")
	}
	if reviews.Requests == 0 || reviews.Errors != 0 || reviews.Done+reviews.Pending+reviews.Busy != reviews.Requests {
		t.Errorf("review requests: %+v, want some, every one answered 200, 202 or 503", *reviews)
	}
	if reviews.Done+reviews.Pending == 0 {
		t.Errorf("review requests: %+v, want some queued or made", *reviews)
	}
}

// inProcessServer starts a server with opts on a fresh SQLite file in
// the test process, behind an httptest server, for the test's time.
func inProcessServer(t *testing.T, opts server.Options) *httptest.Server {
	t.Helper()
	return inProcessServerWrapped(t, opts, nil)
}

// inProcessServerWrapped is inProcessServer with the server's handler
// wrapped by wrap (nil: not wrapped), to watch its requests.
func inProcessServerWrapped(t *testing.T, opts server.Options, wrap func(http.Handler) http.Handler) *httptest.Server {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "pitch.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, st, opts)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	h := srv.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); hs.Close(); st.Close() })
	return hs
}

// TestReviewsBadConfig: a worker count out of range is refused.
func TestReviewsBadConfig(t *testing.T) {
	for _, n := range []int{0, -1, 101} {
		if _, err := Reviews(context.Background(), ReviewConfig{URL: "http://127.0.0.1:1", Workers: n}); err == nil {
			t.Errorf("Reviews with %d workers: no error", n)
		}
	}
}
