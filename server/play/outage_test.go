package play

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/store"
	"pitch/store/storetest"
)

// cutProxy forwards TCP to a database and can cut it, as a database that
// stops or a network that fails would.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.cut(true) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				c.Close()
				continue
			}
			up, err := net.DialTimeout("tcp", target, 5*time.Second)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }() //nolint:errcheck
			go func() { io.Copy(c, up); c.Close() }()  //nolint:errcheck
		}
	}()
	return p
}

// cut drops every connection and refuses new ones (down) or lets them in again.
func (p *cutProxy) cut(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}

// TestPostgresOutage stops PostgreSQL (by cutting the way to it) while bots
// play: the server answers with clear errors, changes nothing it could not
// store, and carries on when the database is back; the log then replays to
// exactly the match the server holds.
func TestPostgresOutage(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	u, err := url.Parse(storetest.FreshPostgres(t, base))
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCutProxy(t, u.Host)
	u.Host = proxy.ln.Addr().String()
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()

	ctx := context.Background()
	st, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := New(ctx, st, Options{BotDelay: time.Millisecond, RetryDelay: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()

	create := func() (int, string) {
		// Auction to 10000: a match that cannot end while the test runs (a
		// ten-point match, whatever its target, ends at a made or failed
		// moon bid, TP-MOON-1, and would stop play for good).
		body := `{"variant":"auction","options":{"target":10000},"seats":[{"kind":"bot"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]}`
		resp, err := http.Post(hs.URL+"/api/tables", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out) //nolint:errcheck
		id, _ := out["id"].(string)
		if msg, ok := out["error"].(string); ok {
			return resp.StatusCode, msg
		}
		return resp.StatusCode, id
	}
	code, id := create()
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, id)
	}
	tb, err := srv.table(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// A spectator: a table nobody is at or watching waits.
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/api/tables/"+id+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	go func() { // keep reading so the server never finds it slow
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				return
			}
		}
	}()
	seqNow := func() int {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		return tb.seq
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second) // generous: CI machines are shared
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("bots to play", func() bool { return seqNow() >= 20 })
	tb.mu.Lock()
	over, conns := tb.match.Over(), len(tb.conns)
	tb.mu.Unlock()
	if over || conns == 0 {
		t.Fatalf("before the outage: match over %v, %d connections; the test needs play to go on", over, conns)
	}

	proxy.cut(true)
	time.Sleep(300 * time.Millisecond)
	frozen := seqNow()
	time.Sleep(700 * time.Millisecond)
	if got := seqNow(); got != frozen {
		t.Errorf("with the database down the table moved from %d to %d events", frozen, got)
	}
	code, msg := create()
	if code != http.StatusServiceUnavailable || !strings.Contains(msg, "database") {
		t.Errorf("create with the database down: %d %q, want 503 saying the database is unavailable", code, msg)
	}

	proxy.cut(false)
	waitFor("play to resume", func() bool { return seqNow() >= frozen+10 })
	if code, _ := create(); code != http.StatusCreated {
		t.Errorf("create after the database came back: %d", code)
	}

	// Nothing was corrupted: the log replays to the match the server holds.
	tb.mu.Lock()
	defer tb.mu.Unlock()
	events, err := st.Events(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != tb.seq {
		t.Fatalf("the server holds %d events; the log %d", tb.seq, len(events))
	}
	deals, err := st.Deals(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	re, err := newTable(srv, tb.info, events, deals, nil)
	if err != nil {
		t.Fatalf("the log does not replay: %v", err)
	}
	m := re.match
	// Not the States themselves: the rebuilt table has a Game of its own.
	got, _ := json.Marshal([]any{m.Records(), m.State().Record(m.HandActions()), m.AwaitingDeal()})
	want, _ := json.Marshal([]any{tb.match.Records(), tb.match.State().Record(tb.match.HandActions()), tb.match.AwaitingDeal()})
	if string(got) != string(want) {
		t.Errorf("the replayed match differs from the server's:\n%s\n%s", got, want)
	}
}
