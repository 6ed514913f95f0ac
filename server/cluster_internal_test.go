package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
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
