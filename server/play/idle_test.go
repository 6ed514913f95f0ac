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

// TestIdleClose: a table nobody has joined, played at or watched for
// IdleClose is closed: it leaves the lobby and memory, is kept in the
// store marked closed (its record readable, joining refused with the
// reason), frees its place under MaxTables, and is not loaded at the next
// start. A table being watched is not closed, and its activity is
// recorded so that a restart knows it.
func TestIdleClose(t *testing.T) {
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "idle.db")
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const idle = 48 * time.Hour
	opts := Options{BotDelay: 1 << 40, IdleClose: idle, MaxTables: 3}
	srv, err := New(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	call := func(method, path, body string) (int, string) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		srv.Handler().ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	var ids []string
	for range 3 {
		code, b := call("POST", "/api/tables", `{"variant":"pawnee"}`)
		var info tableInfo
		if code != 201 || json.Unmarshal([]byte(b), &info) != nil {
			t.Fatalf("create: %d %s", code, b)
		}
		ids = append(ids, info.ID)
	}
	if code, b := call("POST", "/api/tables", `{"variant":"pawnee"}`); code != 503 {
		t.Fatalf("a 4th table over MaxTables 3: %d %s", code, b)
	}
	a, watched, c := ids[0], ids[1], ids[2]

	// Someone watches the second table.
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	ws, _, err := websocket.Dial(wctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/api/tables/"+watched+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	if err := ws.Write(wctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.Read(wctx); err != nil {
		t.Fatal(err)
	}

	srv.sweep(ctx, time.Now().Add(idle-time.Hour)) // not yet
	if _, b := call("GET", "/api/tables", ""); strings.Count(b, `"id"`) != 3 {
		t.Fatalf("a sweep before the idle time closed tables: %s", b)
	}
	later := time.Now().Add(idle + time.Hour)
	srv.sweep(ctx, later)

	for _, id := range []string{a, c} {
		info, err := st.Table(ctx, id)
		if err != nil || !info.Closed || info.Finished || len(info.Seats) != 5 {
			t.Errorf("idle table %s in the store: %+v (%v), want it kept and closed", id, info, err)
		}
		srv.mu.Lock()
		_, inMemory := srv.tables[id]
		srv.mu.Unlock()
		if inMemory {
			t.Errorf("idle table %s is still in memory", id)
		}
		if code, b := call("GET", "/api/tables/"+id, ""); code != 200 || !strings.Contains(b, `"closed":true`) {
			t.Errorf("GET the closed table %s: %d %s", id, code, b)
		}
		if code, b := call("POST", "/api/tables/"+id+"/join", `{"name":"Ann"}`); code != 409 || !strings.Contains(b, "this table was closed") {
			t.Errorf("joining the closed table %s: %d %s, want 409 with the reason", id, code, b)
		}
	}
	if _, b := call("GET", "/api/tables", ""); strings.Count(b, `"id"`) != 1 || !strings.Contains(b, watched) {
		t.Errorf("the lobby after the sweep: %s, want only the watched table", b)
	}
	if info, err := st.Table(ctx, watched); err != nil || info.Closed || !info.Active.Equal(later.UTC().Truncate(time.Microsecond)) {
		t.Errorf("the watched table: closed %v, active %v (%v); want open, active at the sweep (%v)", info.Closed, info.Active, err, later)
	}
	if code, b := call("POST", "/api/tables", `{"variant":"pawnee"}`); code != 201 {
		t.Errorf("after two idle tables were closed, creating one: %d %s, want 201", code, b)
	}

	// A restart loads only the tables still open.
	ws.Close(websocket.StatusNormalClosure, "")
	hs.Close()
	srv.Close()
	srv2, err := New(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	srv2.mu.Lock()
	_, hasA := srv2.tables[a]
	_, hasC := srv2.tables[c]
	_, hasW := srv2.tables[watched]
	n := len(srv2.tables)
	srv2.mu.Unlock()
	if hasA || hasC || !hasW || n != 2 {
		t.Errorf("after a restart: %d tables loaded (a %v, c %v, watched %v); want the watched one and the new one", n, hasA, hasC, hasW)
	}
}

// TestIdleCloseAtStart: a table idle too long when the server starts is
// closed then, not loaded.
func TestIdleCloseAtStart(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "idle.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	old := &store.Table{ID: "old", Variant: "pawnee", Seed: 1, Created: time.Now().Add(-30 * 24 * time.Hour),
		Seats: []store.Seat{{Seat: 0, Kind: "human"}, {Seat: 1, Kind: "bot", Level: "easy"}, {Seat: 2, Kind: "bot", Level: "easy"},
			{Seat: 3, Kind: "bot", Level: "easy"}, {Seat: 4, Kind: "bot", Level: "easy"}}}
	fresh := *old
	fresh.ID, fresh.Created = "fresh", time.Now()
	for _, tb := range []*store.Table{old, &fresh} {
		if err := st.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := New(ctx, st, Options{BotDelay: 1 << 40, IdleClose: 14 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.mu.Lock()
	_, hasOld := srv.tables["old"]
	_, hasFresh := srv.tables["fresh"]
	srv.mu.Unlock()
	if hasOld || !hasFresh {
		t.Errorf("loaded old %v, fresh %v; want only the fresh one", hasOld, hasFresh)
	}
	if info, err := st.Table(ctx, "old"); err != nil || !info.Closed {
		t.Errorf("the old table: %+v (%v), want it closed", info, err)
	}
	if list, _ := st.Tables(ctx, true); len(list) != 1 || list[0].ID != "fresh" {
		t.Errorf("unfinished tables in the store: %d, want only fresh", len(list))
	}
}
