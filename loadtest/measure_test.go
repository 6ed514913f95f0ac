package loadtest

import (
	"bytes"
	"context"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"pitch/server"
)

// TestSetupAtOnce: with SetupAtOnce 2, a table is created only once all
// but one of the tables created before it are set up (each of their five
// seats connected: a table is set up once its seats have seen it dealt),
// however fast the server answers; without the limit the six would be
// created before any seat connects. The run's own measures are there:
// the marks of play's beginning and end, in order, the load test's CPU,
// the bytes its sockets received (at least a state of 500 B for each
// action confirmed: its seat's), and the server's allocations.
func TestSetupAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("plays tables for seconds")
	}
	var mu sync.Mutex
	upgrades := 0
	var atCreate []int // the upgrades counted as each table was created
	watch := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			switch {
			case r.Method == "POST" && r.URL.Path == "/api/tables":
				atCreate = append(atCreate, upgrades)
			case strings.HasSuffix(r.URL.Path, "/ws"):
				upgrades++
			}
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}
	hs := inProcessServerWrapped(t, server.Options{BotDelay: time.Millisecond, AwayDelay: time.Minute, DealWait: 5 * time.Second}, watch)
	var marks bytes.Buffer
	rep, err := Run(context.Background(), Config{URL: hs.URL, Tables: 6, Duration: 2 * time.Second, Think: 0, Seed: 3, Once: true,
		SetupAtOnce: 2, Marks: &marks, Options: map[string]any{"target": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Actions == 0 || rep.Errors != 0 {
		t.Fatalf("%d actions, %d errors (%v): want actions and no errors", rep.Actions, rep.Errors, rep.ErrorSamples)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(atCreate) != 6 {
		t.Fatalf("%d tables created, want 6", len(atCreate))
	}
	for k, n := range atCreate {
		if want := 5 * (k - 1); n < want {
			t.Errorf("table %d was created after %d seats had connected; with 2 set up at once, want at least %d (the tables before it but one set up)", k+1, n, want)
		}
	}
	if got, want := marks.String(), "pitch loadtest: play begins\npitch loadtest: play ends\n"; got != want {
		t.Errorf("marks %q, want %q", got, want)
	}
	if rep.Received < 500*int64(rep.Actions) {
		t.Errorf("the sockets received %d B for %d actions: want at least a state of 500 B an action", rep.Received, rep.Actions)
	}
	if rep.CPU <= 0 && runtime.GOOS == "linux" {
		t.Errorf("the load test's CPU over play: %v, want it measured", rep.CPU)
	}
	if rep.ServerAllocs == 0 || rep.ServerAllocBytes < rep.ServerAllocs {
		t.Errorf("the server allocated %d objects, %d B over play: want both, at least a byte an object", rep.ServerAllocs, rep.ServerAllocBytes)
	}
}

// TestSetupBadConfig: a set-up limit or time out of range is refused
// with what is allowed, before the server is asked anything.
func TestSetupBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Tables: 10, SetupAtOnce: -1}, "tables set up at once must be 0 (all of them) to 10000, not -1"},
		{Config{Tables: 10, SetupAtOnce: 10001}, "not 10001"},
		{Config{Event: 8, SetupAtOnce: 4}, "not an event"},
		{Config{Tables: 10, SetupTimeout: -time.Second}, "the set-up time must be 0 (the default: 30s and 25ms a table) to 24h, not -1s"},
		{Config{Tables: 10, SetupTimeout: 25 * time.Hour}, "not 25h0m0s"},
	} {
		tc.cfg.URL, tc.cfg.Duration = "http://127.0.0.1:1", time.Second // nothing listens: asked, it would fail otherwise
		_, err := Run(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
}
