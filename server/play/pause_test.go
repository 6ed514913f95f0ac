package play

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/store"
)

// TestTableWaitsForSomeone: bots do not play a table nobody is at or
// watching (an abandoned table costs nothing); a spectator wakes it, and
// when the last connection leaves it waits again.
func TestTableWaitsForSomeone(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := New(ctx, st, Options{BotDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, httptest.NewRequest("POST", "/api/tables",
		strings.NewReader(`{"variant":"auction","seats":[{"kind":"bot"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]}`)))
	var info tableInfo
	if err := json.Unmarshal(w.Body.Bytes(), &info); err != nil {
		t.Fatal(err)
	}
	tb, err := srv.table(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	seq := func() int {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		return tb.seq
	}
	time.Sleep(100 * time.Millisecond)
	if n := seq(); n != 0 {
		t.Fatalf("with nobody there the bots took %d actions", n)
	}
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/api/tables/"+info.ID+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				return
			}
		}
	}()
	deadline := time.Now().Add(20 * time.Second)
	for seq() < 5 {
		if time.Now().After(deadline) {
			t.Fatal("a spectator did not wake the table")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ws.Close(websocket.StatusNormalClosure, "")
	<-done
	deadline = time.Now().Add(5 * time.Second)
	for {
		tb.mu.Lock()
		left := len(tb.conns)
		tb.mu.Unlock()
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the connection was not dropped")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // a move already under way may land
	at := seq()
	time.Sleep(100 * time.Millisecond)
	tb.mu.Lock()
	over := tb.match.Over()
	tb.mu.Unlock()
	if n := seq(); n != at && !over {
		t.Errorf("after the last connection left the bots went on from %d to %d actions", at, n)
	}
}
