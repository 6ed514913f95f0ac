package play

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/store"
	"pitch/store/storetest"
)

// TestIdleCloseCluster: with two processes on one PostgreSQL, a table
// that one process thinks idle is not closed while someone watches it at
// the other, nor while the other's record of activity is recent; once
// nobody has been anywhere for IdleClose, it is closed.
func TestIdleCloseCluster(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	dsn := storetest.FreshPostgres(t, base)
	const idle = 48 * time.Hour
	opts := Options{BotDelay: 1 << 40, IdleClose: idle, Cluster: true, LeaseTTL: time.Second}
	start := func() *Server {
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
		return srv
	}
	a, b := start(), start()
	w := httptest.NewRecorder()
	a.Handler().ServeHTTP(w, httptest.NewRequest("POST", "/api/tables", strings.NewReader(`{"variant":"pawnee"}`)))
	var info tableInfo
	if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &info) != nil {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	id := info.ID
	present := func(want bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			pres, err := a.cl.st.Presence(ctx, a.cl.id, []string{id})
			if err != nil {
				t.Fatal(err)
			}
			if (len(pres[id]) > 0) == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("a does not see the spectator at b %s", map[bool]string{true: "arrive", false: "leave"}[want])
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	closed := func() bool {
		t.Helper()
		info, err := a.store.Table(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return info.Closed
	}

	// Someone watches the table at b.
	hs := httptest.NewServer(b.Handler())
	defer hs.Close()
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	ws, _, err := websocket.Dial(wctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/api/tables/"+id+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Write(wctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	present(true)
	now := time.Now()
	a.sweep(ctx, now.Add(idle+time.Hour))
	if closed() {
		t.Fatal("a closed a table someone watches at b")
	}
	b.sweep(ctx, now.Add(idle/2)) // b records that it saw someone
	ws.Close(websocket.StatusNormalClosure, "")
	present(false)
	a.sweep(ctx, now.Add(idle+time.Hour))
	if closed() {
		t.Fatal("a closed a table b saw someone at less than IdleClose ago")
	}
	a.sweep(ctx, now.Add(idle/2+idle+time.Hour))
	if !closed() {
		t.Fatal("a table nobody has been at anywhere for IdleClose was not closed")
	}
}

// TestClusterHelloNeedsTheLog: a process of several that cannot read the
// table's log when a client says hello closes the connection with 1013
// and a reason, instead of sending a state that may be older than the log
// (and lack the client's own action, stored at another process a moment
// before); once the database is back, the client gets the newest state.
func TestClusterHelloNeedsTheLog(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	direct := storetest.FreshPostgres(t, base)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCutProxy(t, u.Host)
	u.Host = proxy.ln.Addr().String()
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()
	st, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := New(ctx, st, Options{BotDelay: 1 << 40, Cluster: true, LeaseTTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, httptest.NewRequest("POST", "/api/tables", strings.NewReader(`{"variant":"pawnee"}`)))
	var info tableInfo
	if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &info) != nil {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	hello := func() (int, error) {
		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(wctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/api/tables/"+info.ID+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(wctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatal(err)
		}
		_, data, err := ws.Read(wctx)
		if err != nil {
			return -1, err
		}
		var m struct {
			Type string `json:"type"`
			Seq  int    `json:"seq"`
		}
		if json.Unmarshal(data, &m) != nil || m.Type != "state" {
			t.Fatalf("the first message is not a state: %s", data)
		}
		return m.Seq, nil
	}
	proxy.cut(true)
	_, err = hello()
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusTryAgainLater || ce.Reason != behindReason {
		t.Fatalf("with the database away, the hello got %v; want close 1013 %q", err, behindReason)
	}
	proxy.cut(false)
	if seq, err := hello(); err != nil || seq != 0 {
		t.Fatalf("with the database back: seq %d, %v", seq, err)
	}
}

// TestClusterPresenceRewrite: a process whose heartbeat lapsed long
// enough for the others to sweep its presence writes it all again.
func TestClusterPresenceRewrite(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	dsn := storetest.FreshPostgres(t, base)
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := New(ctx, st, Options{BotDelay: 1 << 40, Cluster: true, LeaseTTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, httptest.NewRequest("POST", "/api/tables", strings.NewReader(`{"variant":"pawnee"}`)))
	var info tableInfo
	if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &info) != nil {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(wctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/api/tables/"+info.ID+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(wctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	cl := srv.cl
	present := func() bool {
		pres, err := cl.st.Presence(ctx, "someone else", []string{info.ID})
		if err != nil {
			t.Fatal(err)
		}
		return pres[info.ID][-1] == 1
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("not %s within 10s", what)
			}
		}
	}
	waitFor("present", present)
	// As a sweep by another process does after the heartbeat lapsed.
	if err := cl.st.SetPresence(ctx, cl.id, []store.PresenceChange{{Table: info.ID, Seat: -1, Conns: 0}}); err != nil {
		t.Fatal(err)
	}
	cl.mu.Lock()
	cl.lastBeat = time.Now().Add(-cl.gone()) // the heartbeat lapsed that long ago
	cl.mu.Unlock()
	cl.kickLeases()
	waitFor("present again", present)
}

// TestClusterOwnNoteNoWait: the note of a process's own append, which may
// come before the commit's answer while the table's lock is held for it,
// is passed over without waiting for the lock. Notes are handled one at a
// time: waiting for each busy table's commit to end made a loaded
// process's notes fall seconds behind. A note passed over is remembered,
// so that an append that then fails reads the log.
func TestClusterOwnNoteNoWait(t *testing.T) {
	ctx := context.Background()
	srv, info, tb := clusterTable(t, nil)
	tb.mu.Lock() // an append under way
	seq := tb.seq
	tb.storing.Store(int64(seq + 1))
	done := make(chan struct{})
	go func() {
		srv.onNote(ctx, store.Note{Kind: store.NoteEvents, Table: info.ID, Seq: seq + 1})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		tb.mu.Unlock()
		<-done
		t.Fatal("the note of the table's own append waited for the table's lock")
	}
	tb.storing.Store(int64(seq))
	tb.mu.Unlock()
	if got := tb.passed.Load(); got != int64(seq+1) {
		t.Errorf("passed = %d after a note of %d events passed over, want %d", got, seq+1, seq+1)
	}
}

// lateAcquire is a store whose first AcquireLeases that takes anything
// commits and then answers with an error, as a loaded database does when
// the statement ends just after its context: the leases are held, and
// the process was told they were not.
type lateAcquire struct {
	store.Store
	store.Cluster
	mu   sync.Mutex
	took []string // what the late answer took
}

func (s *lateAcquire) AcquireLeases(ctx context.Context, process string, ids []string, ttl time.Duration) ([]string, error) {
	got, err := s.Cluster.AcquireLeases(ctx, process, ids, ttl)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil && len(got) > 0 && s.took == nil {
		s.took = got
		return nil, context.DeadlineExceeded
	}
	return got, err
}

// TestClusterAcquireAnsweredLate: a lease whose acquire committed but
// answered with an error is held by this process, so no other may drive
// its table: the next lease round takes the table over. Before, the
// process renewed the lease for good and never drove the table (the
// played tables of a loaded TestClusterShare that never moved).
func TestClusterAcquireAnsweredLate(t *testing.T) {
	var late *lateAcquire
	_, info, tb := clusterTable(t, func(st store.Store) store.Store {
		late = &lateAcquire{Store: st, Cluster: st.(store.Cluster)}
		return late
	})
	// A liveness deadline: the lease round runs every fifth of a lease.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		late.mu.Lock()
		took := slices.Clone(late.took)
		late.mu.Unlock()
		tb.mu.Lock()
		driving := tb.driving
		tb.mu.Unlock()
		if driving && slices.Equal(took, []string{info.ID}) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30s: driving %v; the acquire that answered late took %v (want [%s])", driving, took, info.ID)
		}
	}
}

// clusterTable starts a process of a cluster on a fresh PostgreSQL
// database (skipping the test without one), its store wrapped by wrap
// when it is not nil, with bots that never move, and creates a pawnee
// table there.
func clusterTable(t *testing.T, wrap func(store.Store) store.Store) (*Server, tableInfo, *table) {
	t.Helper()
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.FreshPostgres(t, base))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var use store.Store = st
	if wrap != nil {
		use = wrap(st)
	}
	srv, err := New(ctx, use, Options{BotDelay: 1 << 40, Cluster: true, LeaseTTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, httptest.NewRequest("POST", "/api/tables", strings.NewReader(`{"variant":"pawnee"}`)))
	var info tableInfo
	if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &info) != nil {
		t.Fatalf("create: %d %s", w.Code, w.Body.String())
	}
	tb, err := srv.table(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	return srv, info, tb
}
