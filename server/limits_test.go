package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
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

// dialHello opens a WebSocket to table id of ts as a spectator, says
// hello, and returns it once the first state has come.
func dialHello(t *testing.T, ts *testServer, id string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, ts.wsURL(id), nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	ws.SetReadLimit(1 << 22)
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatalf("hello: %v", err)
	}
	if _, _, err := ws.Read(ctx); err != nil {
		t.Fatalf("the first state: %v", err)
	}
	return ws
}

// hello dials table id as a spectator and says hello; done closes the
// connection and ends its 10-second context.
func hello(t *testing.T, ts *testServer, id string) (*websocket.Conn, context.Context, func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	ws, _, err := websocket.Dial(ctx, ts.wsURL(id), nil)
	if err != nil {
		cancel()
		t.Fatalf("dial: %v", err)
	}
	_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`))
	return ws, ctx, func() { ws.CloseNow(); cancel() }
}

// closedWith dials table id and returns how the server closed the
// connection (the hello is sent, any state read and skipped).
func closedWith(t *testing.T, ts *testServer, id string) (websocket.StatusCode, string) {
	t.Helper()
	ws, ctx, done := hello(t, ts, id)
	defer done()
	for {
		_, _, err := ws.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code, ce.Reason
			}
			t.Fatalf("the connection ended without a close frame: %v", err)
		}
	}
}

// TestConnectionCapPerAddress: an address may hold AddrConns WebSockets;
// the next is closed with 1013 and a reason that says so; once one
// closes, another is admitted. Other addresses are not affected (checked
// in the server's own tests of connSet through the same admit path).
func TestConnectionCapPerAddress(t *testing.T) {
	opts := fastOptions()
	opts.AddrConns = 3
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	tab := ts.create(`{"variant":"pawnee"}`)
	var open []*websocket.Conn
	for range 3 {
		open = append(open, dialHello(t, ts, tab.ID))
	}
	code, reason := closedWith(t, ts, tab.ID)
	if code != websocket.StatusTryAgainLater || !strings.Contains(reason, "too many connections from your address (3, the limit)") {
		t.Fatalf("the 4th connection from one address: closed with %d %q, want 1013 and the limit", code, reason)
	}
	// The three are still served.
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	for i, ws := range open {
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		if _, _, err := ws.Read(ctx); err != nil {
			t.Fatalf("connection %d after the refusal: %v", i, err)
		}
	}
	// One closes: a new one is let in (the server counts it out when its
	// handler ends, a moment after the close).
	open[0].Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, reason := closedWithin(t, ts, tab.ID)
		if code == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after one closed, a new connection is still refused: %d %q", code, reason)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, ws := range open[1:] {
		ws.CloseNow()
	}
}

// closedWithin dials table id and reports 0 if the connection is
// admitted (it gets a state), or the close code and reason.
func closedWithin(t *testing.T, ts *testServer, id string) (websocket.StatusCode, string) {
	t.Helper()
	ws, ctx, done := hello(t, ts, id)
	defer done()
	_, _, err := ws.Read(ctx)
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code, ce.Reason
	}
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return 0, ""
}

// TestServerConnectionCap: past MaxConns in all, a connection is closed
// with 1013 "the server is full".
func TestServerConnectionCap(t *testing.T) {
	opts := fastOptions()
	opts.MaxConns = 2
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	tab := ts.create(`{"variant":"pawnee"}`)
	a, b := dialHello(t, ts, tab.ID), dialHello(t, ts, tab.ID)
	defer a.CloseNow()
	defer b.CloseNow()
	code, reason := closedWith(t, ts, tab.ID)
	if code != websocket.StatusTryAgainLater || !strings.Contains(reason, "the server is full (2 connections") {
		t.Fatalf("over the server's limit: closed with %d %q", code, reason)
	}
	ts.wantWarning("kind=server_full")
	if h := ts.health(); h.Refused["server_full"] != 1 || h.Connections != 2 || h.MaxConns != 2 || h.Status != "ok" {
		t.Errorf("/api/health after one refused connection: %+v", h)
	}
}

// serveHTTP serves srv's HTTPServer (with its timeouts) on 127.0.0.1.
func serveHTTP(t *testing.T, srv *server.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer()
	go hs.Serve(ln) //nolint:errcheck // ErrServerClosed
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// waitClosed reads conn until the server closes it, for at most limit;
// it reports whether the server closed it in time.
func waitClosed(conn net.Conn, limit time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(limit))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	return err == nil || !(errors.As(err, &ne) && ne.Timeout())
}

// TestSlowClients: a request body sent a byte at a time, slower than the
// read timeout allows, and a keep-alive connection left idle are both
// closed by the server within their timeouts; a WebSocket is not (it is
// kept alive by its pings, which the client answers).
func TestSlowClients(t *testing.T) {
	opts := fastOptions()
	opts.ReadTimeout, opts.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	addr := serveHTTP(t, ts.srv)

	t.Run("slow body", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
		// A byte every 50 ms would take 10 s for the 200; the server must
		// give up long before (the read timeout is 0.3 s).
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			for range 200 {
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}()
		if !waitClosed(conn, 5*time.Second) {
			t.Fatal("a body trickled in slower than the read timeout: the connection was still open after 5 s")
		}
	})

	t.Run("idle keep-alive", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("health: %v %v", resp, err)
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<10))
		resp.Body.Close()
		if resp.Close {
			t.Fatal("the server closed the connection after one request: it is not a keep-alive test")
		}
		if !waitClosed(conn, 5*time.Second) {
			t.Fatal("an idle keep-alive connection was still open after 5 s (idle timeout 0.3 s)")
		}
	})

	t.Run("websocket outlives the timeouts", func(t *testing.T) {
		tab := ts.create(`{"variant":"pawnee"}`)
		ctx, cancel := context.WithTimeout(bg, 10*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, "ws://"+addr+"/api/tables/"+tab.ID+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ws.Read(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // over three read and idle timeouts
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatalf("after the timeouts: %v", err)
		}
		if _, _, err := ws.Read(ctx); err != nil {
			t.Fatalf("the WebSocket was closed by the HTTP timeouts: %v", err)
		}
	})
}

// TestPingLiveness: a WebSocket client that stops answering pings (it
// stops reading) is closed by the server once its pong wait has passed.
// The wait is long enough that a loaded machine's slow pong ends no
// connection of a client that reads.
func TestPingLiveness(t *testing.T) {
	opts := fastOptions()
	opts.PingInterval = 200 * time.Millisecond
	opts.PongWait = 5 * time.Second
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	tab := ts.create(`{"variant":"pawnee"}`)
	ws := dialHello(t, ts, tab.ID)
	defer ws.CloseNow()
	// A client that reads answers pings: the connection stays up over
	// several intervals, and still serves.
	ended := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.Read(bg); err != nil {
				ended <- err
				return
			}
		}
	}()
	time.Sleep(time.Second) // five ping intervals
	select {
	case err := <-ended:
		t.Fatalf("a client that answers pings was closed: %v", err)
	default:
	}
	wctx, wcancel := context.WithTimeout(bg, 5*time.Second)
	defer wcancel()
	if err := ws.Write(wctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatalf("after five ping intervals: %v", err)
	}
	// A client that never reads (and so never answers) is the dead peer.
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.hs.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	key := "dGhlIHNhbXBsZSBub25jZQ=="
	io.WriteString(conn, "GET /api/tables/"+tab.ID+"/ws HTTP/1.1\r\nHost: "+strings.TrimPrefix(ts.hs.URL, "http://")+
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "+key+"\r\n\r\n")
	// A masked hello frame, then silence: pings go unanswered.
	hello := []byte(`{"type":"hello"}`)
	frame := []byte{0x81, 0x80 | byte(len(hello)), 0, 0, 0, 0}
	conn.Write(append(frame, hello...))
	if !waitClosed(conn, time.Minute) {
		t.Fatal("a client that answers no ping was still connected after a minute (ping every 0.2 s, 5 s to answer)")
	}
}

// TestPlayersNotCountedByAddress: the limit of connections per address
// is for anonymous ones: players who show a seat's token count against
// their seat (a club's phones share one address), at most 8 a seat;
// spectators from that address are still held to the limit.
func TestPlayersNotCountedByAddress(t *testing.T) {
	opts := fastOptions()
	opts.AddrConns = 3
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	ctx, cancel := context.WithTimeout(bg, 30*time.Second)
	defer cancel()
	seat := func(id string, s int, token string) (*websocket.Conn, error) {
		ws, _, err := websocket.Dial(ctx, ts.wsURL(id), nil)
		if err != nil {
			return nil, err
		}
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"type":"hello","token":%q}`, token)); err != nil {
			return nil, err
		}
		if _, _, err := ws.Read(ctx); err != nil {
			ws.CloseNow()
			return nil, err
		}
		return ws, nil
	}
	// Three tables of four people: twelve players' connections from one
	// address, four times its limit.
	var open []*websocket.Conn
	var first struct {
		id    string
		token string
	}
	for k := range 3 {
		tab := ts.create(`{"variant":"ten-point","seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"},{"kind":"human"}]}`)
		for s := range 4 {
			token := ts.join(tab.ID, s, fmt.Sprintf("P%d-%d", k, s))
			if k == 0 && s == 0 {
				first.id, first.token = tab.ID, token
			}
			ws, err := seat(tab.ID, s, token)
			if err != nil {
				t.Fatalf("player %d at table %d: %v", s, k+1, err)
			}
			open = append(open, ws)
		}
	}
	defer func() {
		for _, ws := range open {
			ws.CloseNow()
		}
	}()
	// Spectators from the same address: three, then refused.
	tab := ts.create(`{"variant":"pawnee"}`)
	for range 3 {
		open = append(open, dialHello(t, ts, tab.ID))
	}
	if code, reason := closedWith(t, ts, tab.ID); code != websocket.StatusTryAgainLater || !strings.Contains(reason, "from your address") {
		t.Errorf("a 4th spectator from the address: %d %q, want 1013 and the address's limit", code, reason)
	}
	// One seat's own cap: 8 connections (the first is open already).
	for i := 1; i < 8; i++ {
		ws, err := seat(first.id, 0, first.token)
		if err != nil {
			t.Fatalf("the seat's connection %d: %v", i+1, err)
		}
		open = append(open, ws)
	}
	_, err := seat(first.id, 0, first.token)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusTryAgainLater || !strings.Contains(ce.Reason, "for this player (8, the limit)") {
		t.Errorf("a seat's 9th connection: %v, want 1013 and the seat's limit", err)
	}
}
