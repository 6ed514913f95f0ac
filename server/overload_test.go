package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/server"
)

// TestOverload: a server that runs further behind than OverloadLag
// refuses new connections (1013 and the reason) and new tables (503,
// Retry-After, code overloaded), keeps serving the connections it has,
// warns once, and says so in /api/health; below half the limit it takes
// new ones again.
func TestOverload(t *testing.T) {
	opts := fastOptions()
	opts.OverloadLag = 100 * time.Millisecond
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	tab := ts.create(`{"variant":"pawnee"}`)
	kept := dialHello(t, ts, tab.ID)
	defer kept.CloseNow()
	if h := ts.health(); h.Status != "ok" || h.OverloadLag != 100 || h.Connections != 1 {
		t.Fatalf("/api/health before: %+v", h)
	}

	server.SetLag(ts.srv, 300*time.Millisecond)
	ts.wantWarning("the server is overloaded", "lag=300ms", "--overload-lag")
	const reason = "the server is overloaded (it runs 300 ms behind, its limit 100 ms)"
	if code, got := closedWith(t, ts, tab.ID); code != websocket.StatusTryAgainLater || !strings.Contains(got, reason) {
		t.Errorf("a new connection while overloaded: closed with %d %q, want 1013 %q", code, got, reason)
	}
	resp, b := ts.do("POST", "/api/tables", `{"variant":"pawnee"}`)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "30" ||
		!strings.Contains(string(b), reason) || !strings.Contains(string(b), `"code":"overloaded"`) {
		t.Errorf("a new table while overloaded: %d (Retry-After %q) %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	ts.wantWarning("kind=overloaded", reason)
	// The connection it had still plays.
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	if err := kept.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	if _, data, err := kept.Read(ctx); err != nil || !strings.Contains(string(data), `"type":"state"`) {
		t.Errorf("the connection open before the overload: %v %.100s", err, data)
	}
	if h := ts.health(); h.Status != "overloaded" || h.LagMS != 300 || h.Refused["overloaded"] != 2 || h.Connections != 1 {
		t.Errorf("/api/health while overloaded: %+v", h)
	}

	// Under the limit but above half of it: still overloaded.
	server.SetLag(ts.srv, 60*time.Millisecond)
	if h := ts.health(); h.Status != "overloaded" {
		t.Errorf("/api/health at 60ms after the overload: %+v", h)
	}
	server.SetLag(ts.srv, 40*time.Millisecond)
	if h := ts.health(); h.Status != "ok" {
		t.Errorf("/api/health at 40ms: %+v", h)
	}
	again := dialHello(t, ts, tab.ID)
	again.CloseNow()
	ts.create(`{"variant":"pawnee"}`)
}
