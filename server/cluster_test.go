package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/store/storetest"
)

// watch dials table id at ts (with token, or as a spectator) and sends
// every state it gets on the channel returned, until the test ends.
func watch(t *testing.T, ts *testServer, id, token string) <-chan *wire {
	t.Helper()
	ctx, cancel := context.WithCancel(bg)
	t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, ts.wsURL(id), nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	ws.SetReadLimit(1 << 22)
	hello, _ := json.Marshal(map[string]string{"type": "hello", "token": token})
	if err := ws.Write(ctx, websocket.MessageText, hello); err != nil {
		t.Fatalf("hello: %v", err)
	}
	out := make(chan *wire, 1024)
	go func() {
		defer close(out)
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var m wire
			if json.Unmarshal(data, &m) == nil && m.Type == "state" {
				select {
				case out <- &m:
				default: // the test reads only the newest it needs
				}
			}
		}
	}()
	return out
}

// waitState reads states from c until ok says one will do, or fails the
// test after d.
func waitState(t *testing.T, c <-chan *wire, d time.Duration, what string, ok func(*wire) bool) *wire {
	t.Helper()
	timeout := time.After(d)
	var last *wire
	for {
		select {
		case m, open := <-c:
			if !open {
				t.Fatalf("the connection ended while waiting for %s", what)
			}
			if ok(m) {
				return m
			}
			last = m
		case <-timeout:
			if last == nil {
				t.Fatalf("no state with %s within %v: no state at all", what, d)
			}
			t.Fatalf("no state with %s within %v: the last was at event %d, hand %d, phase %q, turn %d, over %v, waiting %v, paused %v, away %v, fair %s",
				what, d, last.Seq, last.HandNo, last.View.Phase, last.View.Turn, last.Over, last.Waiting, last.Paused, last.Away, fairString(last.Fair))
		}
	}
}

// fairString says where a state's fair deal is, for a failure message.
func fairString(f *fairWire) string {
	if f == nil {
		return "none"
	}
	s := fmt.Sprintf("dealing %v", f.Dealing)
	if n := f.Next; n != nil {
		s += fmt.Sprintf(", next hand %d committed at %s, contributed %v", n.Hand, n.CommittedAt, n.Contributed)
	}
	return s
}

// TestClusterTurnTimer: with two processes on one PostgreSQL, a player
// connected to the process that does not drive the table sees the turn
// timer's countdown, the driver's deadline; when the driver stops, the
// process that takes over goes on from that deadline instead of starting
// the turn's clock again.
func TestClusterTurnTimer(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	dsn := storetest.FreshPostgres(t, base)
	opts := fastOptions()
	opts.Cluster, opts.LeaseTTL = true, time.Second
	a := startServer(t, dsn, opts)
	b := startServer(t, dsn, opts)
	const timer = 30 // seconds
	tab := a.create(`{"variant":"auction","turn_timer":30,"seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
	token := a.join(tab.ID, 0, "Ann")

	// A spectator at a: the process whose share the table is takes its
	// lease and its bots play up to seat 0's turn (seat 0 is connected
	// nowhere yet: no timer runs). Call it a, and the other b.
	spec := watch(t, a, tab.ID, "")
	waitState(t, spec, 20*time.Second, "seat 0 to act", func(m *wire) bool {
		return !m.Waiting && m.View.Turn == 0 && m.Fair != nil && !m.Fair.Dealing
	})
	// The holder, once it has held the lease for two lease times (on a
	// busy machine a heartbeat may lapse and the table move once).
	driver, since := "", time.Now()
	for deadline := time.Now().Add(20 * time.Second); time.Since(since) < 2*opts.LeaseTTL; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the table's lease did not settle at a process")
		}
		if h := leaseHolder(t, a, tab.ID); h != driver || h == "" {
			driver, since = h, time.Now()
		}
	}
	if driver == processID(t, b) {
		a, b = b, a
	} else if driver != processID(t, a) {
		t.Fatalf("the table's lease is held by %q, neither process:\n%s\n%s", driver, a.all.String(), b.all.String())
	}
	b.all.take() // what it logged before: it may have driven the table before handing it over

	// Seat 0 connects to b, which does not drive the table: its countdown
	// is a's.
	ann := watch(t, b, tab.ID, token)
	at := waitState(t, ann, 10*time.Second, "the turn timer at b", func(m *wire) bool { return m.Timer != nil })
	seen := time.Now()
	if strings.Contains(b.all.String(), "driving table") {
		t.Fatalf("b drives the table too:\n%s\nA:\n%s", b.all.String(), a.all.String())
	}
	if at.Timer.Seat != 0 || at.Timer.TotalMS != timer*1000 || at.Timer.LeftMS <= (timer-5)*1000 || at.Timer.LeftMS > timer*1000 {
		t.Fatalf("b shows the timer %+v; want seat 0's, %d s in all, most of it left", *at.Timer, timer)
	}
	sp := waitState(t, spec, 10*time.Second, "the turn timer at a", func(m *wire) bool { return m.Timer != nil })
	if d := sp.Timer.LeftMS - at.Timer.LeftMS; d < -2000 || d > 2000 {
		t.Errorf("a shows %d ms left, b %d ms: not the same deadline", sp.Timer.LeftMS, at.Timer.LeftMS)
	}

	// a stops without handing over: b takes the table when the lease
	// runs out, and the turn's clock goes on from a's deadline.
	for len(ann) > 0 { // what b sent before
		<-ann
	}
	a.stop()
	after := waitState(t, ann, 10*time.Second, "a state after b took over", func(m *wire) bool {
		return strings.Contains(b.all.String(), "driving table")
	})
	for after.Timer == nil {
		after = waitState(t, ann, 5*time.Second, "the turn timer after the takeover", func(m *wire) bool { return m.Timer != nil })
	}
	elapsed := time.Since(seen).Milliseconds()
	if after.Seq != at.Seq || after.Timer.LeftMS > at.Timer.LeftMS-elapsed+1000 {
		t.Errorf("after the takeover: seq %d, %d ms left, %d ms after %d were left at seq %d: the turn's clock was wound back",
			after.Seq, after.Timer.LeftMS, elapsed, at.Timer.LeftMS, at.Seq)
	}
}

// processID is the cluster's id of ts's process, from its log.
func processID(t *testing.T, ts *testServer) string {
	t.Helper()
	l := ts.all.String()
	i := strings.Index(l, `msg="cluster: this process" id=`)
	if i < 0 {
		t.Fatalf("the server did not log its cluster id:\n%s", l)
	}
	return strings.Fields(l[i+len(`msg="cluster: this process" id=`):])[0]
}

// leaseHolder returns the process holding the lease of table id, or "".
func leaseHolder(t *testing.T, ts *testServer, id string) string {
	t.Helper()
	db, err := sql.Open("pgx", ts.dsn)
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

// TestClusterRatedMatch: two processes on one PostgreSQL both see a rated
// match end (the one that drives the table applies the last action and
// rates it; the other, following the table for its spectator, catches up
// and rates it too): the match is rated exactly once. Both processes'
// states give the same change, and the tables hold one rated match, one
// history row and one match in the player's rating.
func TestClusterRatedMatch(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	dsn := storetest.FreshPostgres(t, base)
	opts := fastOptions()
	opts.Cluster, opts.LeaseTTL = true, time.Second
	opts.AwayDelay = time.Millisecond // the stand-in plays the absent person at once
	a := startServer(t, dsn, opts)
	b := startServer(t, dsn, opts)
	ada := a.browser()
	ada.must(201, "POST", "/api/account/signup", creds("Ada-C", goodPassword))
	var tb struct{ ID string }
	if err := json.Unmarshal(ada.must(201, "POST", "/api/tables", `{"variant":"auction","options":{"players":3},"rated":true,"seats":`+seatsBody("h", "easy", "hard")+`}`), &tb); err != nil {
		t.Fatal(err)
	}
	ada.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0}`)
	// A spectator at each process: whichever drives the table, the other
	// follows it.
	var ends [2]*wire
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("A:\n%s\nB:\n%s", a.all.String(), b.all.String())
		}
	})
	specs := []<-chan *wire{watch(t, a, tb.ID, ""), watch(t, b, tb.ID, "")}
	for i, c := range specs {
		ends[i] = waitState(t, c, 90*time.Second, "the rated end of the match", func(m *wire) bool { return m.Over && len(m.Ratings) > 0 })
	}
	if ra, rb := ends[0].Ratings, ends[1].Ratings; len(ra) != 1 || len(rb) != 1 || ra[0] != rb[0] || ra[0].Seat != 0 || ra[0].Change == 0 {
		t.Errorf("the processes' states give the ratings %+v and %+v, want seat 0's one change", ra, rb)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for q, want := range map[string]int{
		`SELECT COUNT(*) FROM rated_matches WHERE table_id = $1`:                                                     1,
		`SELECT COUNT(*) FROM rating_history WHERE table_id = $1`:                                                    1,
		`SELECT matches FROM ratings WHERE account_id = (SELECT account_id FROM rating_history WHERE table_id = $1)`: 1,
	} {
		var n int
		if err := db.QueryRow(q, tb.ID).Scan(&n); err != nil || n != want {
			t.Errorf("%s: %d (%v), want %d", q, n, err, want)
		}
	}
}
