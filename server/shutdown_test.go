package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/server"
)

// player is a test client that plays whatever its state offers first (or
// watches, seat -1) and records every state's seq and how its connection
// ended.
type player struct {
	ws     *websocket.Conn
	seat   int
	states []int // seq of every state received
	end    error
}

func dialPlayer(t *testing.T, url string, seat int, token string) *player {
	t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	ws.SetReadLimit(1 << 22)
	hello, _ := json.Marshal(map[string]string{"type": "hello", "token": token})
	if err := ws.Write(ctx, websocket.MessageText, hello); err != nil {
		t.Fatalf("hello: %v", err)
	}
	return &player{ws: ws, seat: seat}
}

// run reads until the connection ends (within 30 s), acting when asked;
// it reports on done.
func (p *player) run(done chan<- *player) {
	ctx, cancel := context.WithTimeout(bg, 30*time.Second)
	defer cancel()
	for {
		_, data, err := p.ws.Read(ctx)
		if err != nil {
			p.end = err
			done <- p
			return
		}
		var m struct {
			Type    string            `json:"type"`
			Seq     int               `json:"seq"`
			Legal   []json.RawMessage `json:"legal"`
			Discard *struct {
				Must, Pool []string
				Choose     int
			} `json:"discard"`
		}
		if json.Unmarshal(data, &m) != nil || m.Type != "state" {
			continue
		}
		p.states = append(p.states, m.Seq)
		var a any
		switch {
		case p.seat < 0:
		case m.Discard != nil:
			a = map[string]any{"seat": p.seat, "discard": append(m.Discard.Must, m.Discard.Pool[:m.Discard.Choose]...)}
		case len(m.Legal) > 0:
			a = m.Legal[0]
		}
		if a != nil {
			msg, _ := json.Marshal(map[string]any{"type": "action", "action": a})
			_ = p.ws.Write(ctx, websocket.MessageText, msg)
		}
	}
}

// TestGracefulShutdown: Shutdown during play lets every action under way
// be stored and sent, then closes each connection with 1012 and "the
// server is restarting"; every client's last state is the last stored
// action (nothing told is missing, nothing stored is untold). A server
// started again on the store gives each client, on reconnecting, that
// same state.
func TestGracefulShutdown(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		dsn := fresh(t)
		opts := fastOptions()
		ts := startServer(t, dsn, opts)
		tab := ts.create(`{"variant":"pawnee","options":{"target":1000},"seats":` + seatsBody("h", "easy", "easy", "easy", "easy") + `}`)
		token := ts.join(tab.ID, 0, "Ann")

		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hs := ts.srv.HTTPServer()
		go hs.Serve(ln) //nolint:errcheck
		url := "ws://" + ln.Addr().String() + "/api/tables/" + tab.ID + "/ws"
		done := make(chan *player, 4)
		players := []*player{dialPlayer(t, url, 0, token), dialPlayer(t, url, -1, ""), dialPlayer(t, url, -1, "")}
		for _, p := range players {
			go p.run(done)
		}
		// Play until some actions are in the log (bots move every 1 ms).
		deadline := time.Now().Add(20 * time.Second)
		for {
			ev, err := ts.st.Events(bg, tab.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(ev) >= 20 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("only %d actions after 20 s", len(ev))
			}
			time.Sleep(10 * time.Millisecond)
		}

		ctx, cancel := context.WithTimeout(bg, 10*time.Second)
		defer cancel()
		if err := ts.srv.Shutdown(ctx, hs); err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
		events, err := ts.st.Events(bg, tab.ID)
		if err != nil {
			t.Fatal(err)
		}
		stored := len(events)
		for range players {
			p := <-done
			var ce websocket.CloseError
			if !errors.As(p.end, &ce) || ce.Code != websocket.StatusServiceRestart || ce.Reason != server.RestartReason {
				t.Errorf("seat %d: the connection ended with %v, want 1012 %q", p.seat, p.end, server.RestartReason)
			}
			if n := len(p.states); n == 0 || p.states[n-1] != stored {
				t.Errorf("seat %d: the last state had seq %v; %d actions are stored (every state due must be sent before the close)", p.seat, p.states[max(0, n-1):], stored)
			}
		}
		// No longer listening.
		if _, err := http.Get("http://" + ln.Addr().String() + "/api/health"); err == nil {
			t.Error("the server still accepts HTTP after Shutdown")
		}
		// Nothing moves after the drain.
		time.Sleep(50 * time.Millisecond)
		if ev, _ := ts.st.Events(bg, tab.ID); len(ev) != stored {
			t.Errorf("%d actions stored after Shutdown returned, %d when it returned", len(ev), stored)
		}
		ts.stop()

		// Started again: the player reconnects and gets the state it had
		// (the first connection gets it before any bot can move).
		ts2 := startServer(t, dsn, opts)
		p := dialPlayer(t, ts2.wsURL(tab.ID), 0, token)
		defer p.ws.CloseNow()
		rctx, rcancel := context.WithTimeout(bg, 10*time.Second)
		defer rcancel()
		_, data, err := p.ws.Read(rctx)
		var m struct {
			Seq  int `json:"seq"`
			Seat int `json:"seat"`
		}
		if err != nil || json.Unmarshal(data, &m) != nil || m.Seq != stored || m.Seat != 0 {
			t.Errorf("after the restart, seat 0 got %.200s (%v), want seq %d", data, err, stored)
		}
	})
}

// TestShutdownBounded: Shutdown ends when its context does, even when a
// client never answers the close (its connection is then cut); once it
// has begun, a WebSocket that still reaches the server is closed with
// 1012 and the restart reason, so that a browser retries.
func TestShutdownBounded(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), fastOptions())
	tab := ts.create(`{"variant":"pawnee"}`)
	host := strings.TrimPrefix(ts.hs.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /api/tables/"+tab.ID+"/ws HTTP/1.1\r\nHost: "+host+
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
	hello := []byte(`{"type":"hello"}`)
	conn.Write(append([]byte{0x81, 0x80 | byte(len(hello)), 0, 0, 0, 0}, hello...))
	// Wait until the server counts it (GET /api/stats).
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, b := ts.do("GET", "/api/stats", "")
		var st struct{ Connections int }
		json.Unmarshal(b, &st)
		if st.Connections == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the raw client was not counted: %s", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(bg, 300*time.Millisecond)
	defer cancel()
	if err := ts.srv.Shutdown(ctx, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown with a client that never answers the close: %v, want the context's deadline", err)
	}
	if !waitClosed(conn, 4*time.Second) { // not the 5 s the close handshake would wait
		t.Error("the silent client's connection was not cut when the drain ran out")
	}
	code, reason := closedWith(t, ts, tab.ID)
	if code != websocket.StatusServiceRestart || reason != server.RestartReason {
		t.Errorf("a connection during the drain: closed with %d %q, want 1012 %q", code, reason, server.RestartReason)
	}
}
