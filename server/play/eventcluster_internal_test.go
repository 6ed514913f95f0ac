package play

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pitch/store"
	"pitch/store/storetest"
)

// stoppingStore is a cluster's store whose process, once stop is set,
// stores nothing more of its events: as a process that dies between a
// table's last action and its event's result.
type stoppingStore struct {
	store.Store
	store.Cluster
	stop   atomic.Bool
	failed atomic.Int32 // event changes not stored
}

func (s *stoppingStore) UpdateTournament(ctx context.Context, t *store.Tournament) error {
	if s.stop.Load() {
		s.failed.Add(1)
		return errors.New("test: this process stopped before storing its event")
	}
	return s.Store.UpdateTournament(ctx, t)
}

// TestClusterEventResultElsewhere: the process that stores an event
// table's last action (its driver, whose bots and stand-ins play every
// seat) stops storing before the table's result reaches the event. The
// other process, which caught the table's end up, records the result a
// lease time later (settleLater), once, equal to the store's hands.
func TestClusterEventResultElsewhere(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	dsn := storetest.FreshPostgres(t, base)
	opts := Options{BotDelay: 25 * time.Millisecond, AwayDelay: 25 * time.Millisecond, RetryDelay: 20 * time.Millisecond, DealWait: 50 * time.Millisecond,
		Cluster: true, LeaseTTL: 2 * time.Second}
	type proc struct {
		st  *stoppingStore
		srv *Server
		url string
	}
	start := func() proc {
		st, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		ss := &stoppingStore{Store: st, Cluster: st.(store.Cluster)}
		srv, err := New(context.Background(), ss, opts)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(srv.Handler())
		t.Cleanup(hs.Close)
		t.Cleanup(srv.Close)
		return proc{ss, srv, hs.URL}
	}
	post := func(p proc, path, body string, v any) {
		t.Helper()
		resp, err := http.Post(p.url+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
		}
		if v != nil {
			if err := json.Unmarshal(b, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	a, b := start(), start()
	var c struct{ ID, Token string }
	post(a, "/api/events", `{"variant":"auction","options":{"players":4,"target":10000},"rounds":1,"end":"hands","hands":1,"movement":"progressive"}`, &c)
	host := fmt.Sprintf(`{"token":%q}`, c.Token)
	for i := range 4 {
		post(a, "/api/events/"+c.ID+"/join", fmt.Sprintf(`{"name":"P%d"}`, i), nil)
	}
	var ev struct {
		Rounds [][]struct{ Table string }
	}
	post(a, "/api/events/"+c.ID+"/start", host, &ev)
	post(a, "/api/events/"+c.ID+"/pause", host, nil)
	tab := ev.Rounds[0][0].Table
	// The table's driver, once its lease has held for two lease times.
	driver, other := a, b
	holder, since := "", time.Now()
	for deadline := time.Now().Add(30 * time.Second); time.Since(since) < 2*opts.LeaseTTL; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the table's lease did not settle at a process")
		}
		h := leaseOwner(t, dsn, tab)
		if h != holder || h == "" {
			holder, since = h, time.Now()
		}
	}
	if holder == b.srv.cl.id {
		driver, other = b, a
	}
	driver.st.stop.Store(true)
	post(other, "/api/events/"+c.ID+"/resume", host, nil)
	var res *struct{ Hands [][]int }
	for deadline := time.Now().Add(30 * time.Second); res == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the table's result did not reach the event")
		}
		e, err := other.srv.event(context.Background(), c.ID)
		if err != nil {
			t.Fatal(err)
		}
		e.mu.Lock()
		if r := e.d.Event.Rounds[0].Tables[0].Result; r != nil {
			res = &struct{ Hands [][]int }{r.Hands}
		}
		e.mu.Unlock()
	}
	if driver.st.failed.Load() == 0 {
		t.Errorf("the driver did not try to store the result: the test did not stop it in time")
	}
	hands, err := other.st.Store.Hands(context.Background(), tab)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hands) != 1 || len(hands) != 1 {
		t.Errorf("the result has %d hands, the store %d; want the round's one", len(res.Hands), len(hands))
	}
	stored, err := other.st.Store.Tournament(context.Background(), c.ID)
	if err != nil || !stored.Finished {
		t.Errorf("the stored event: %+v, %v; want it finished with the result", stored, err)
	}
}

// leaseOwner returns the process holding the lease of table id, or "".
func leaseOwner(t *testing.T, dsn, id string) string {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var owner string
	if err := db.QueryRow(`SELECT owner FROM leases WHERE table_id = $1`, id).Scan(&owner); err != nil && err != sql.ErrNoRows {
		t.Fatal(err)
	}
	return owner
}
