package server_test

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestConnsWaitWithoutGoroutines: on Linux a connection past its hello
// has no goroutine waiting for its client (the poller watches its
// socket, server/play/wspoll_linux.go), also once its client has
// answered pings (a pong read as a message would leave the read
// waiting for the next message) and sent messages; and those
// connections are still served: each gets the state again when it asks.
func TestConnsWaitWithoutGoroutines(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the poller is Linux's: elsewhere a connection has a reader goroutine")
	}
	const n = 20
	opts := fastOptions()
	opts.PingInterval = time.Second
	opts.PongWait = time.Minute // a pong slowed by a loaded machine ends no connection
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	tab := ts.create(`{"variant":"pawnee"}`)
	ctx, cancel := context.WithTimeout(bg, 60*time.Second)
	defer cancel()
	var pings [n]atomic.Int32
	var states [n]atomic.Int32
	conns := make([]*websocket.Conn, n)
	for i := range n {
		ws, _, err := websocket.Dial(ctx, ts.wsURL(tab.ID), &websocket.DialOptions{
			OnPingReceived: func(context.Context, []byte) bool { pings[i].Add(1); return true }})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		conns[i] = ws
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatal(err)
		}
		go func() { // reads, so answers pings
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					return
				}
				if bytes.Contains(data, []byte(`"type":"state"`)) {
					states[i].Add(1)
				}
			}
		}()
	}
	// waiting counts the server's goroutines inside a read of a client's
	// frame: a reader waiting for its client. Pings, handling and the
	// clients' own reads aside (theirs are the clients' library's).
	waiting := func() int {
		buf := make([]byte, 1<<22)
		buf = buf[:runtime.Stack(buf, true)]
		k := 0
		for _, g := range bytes.Split(buf, []byte("\n\n")) {
			if bytes.Contains(g, []byte("pitch/server/play.(*conn).readFrame(")) {
				k++
			}
		}
		return k
	}
	got := func(what string, seen func() bool) {
		t.Helper()
		for !seen() {
			select {
			case <-ctx.Done():
				var c []int32
				for i := range n {
					c = append(c, pings[i].Load())
				}
				t.Fatalf("after 60 s: %s (pings %v, waiting %d)", what, c, waiting())
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	every := func(what string, v *[n]atomic.Int32, least int32) {
		t.Helper()
		got(what, func() bool {
			for i := range n {
				if v[i].Load() < least {
					return false
				}
			}
			return true
		})
	}
	every("every client's first state", &states, 1)
	for round := range 2 {
		every("every client pinged twice more", &pings, int32(2*(round+1)))
		got("no goroutine left waiting in a WebSocket's read", func() bool { return waiting() == 0 })
		// A message from each, read through the poller: the state again.
		var before [n]int32
		for i, ws := range conns {
			before[i] = states[i].Load()
			if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"resync"}`)); err != nil {
				t.Fatal(err)
			}
		}
		got("every client's state after its resync", func() bool {
			for i := range n {
				if states[i].Load() <= before[i] {
					return false
				}
			}
			return true
		})
	}
}

// TestConnReadsEveryFrame: whatever way a client's frames come in (two
// messages in one write, so that the second waits in the connection's
// buffered reader once the first is read; a message split across two
// writes; a pong before or after a message in one write, or split),
// every message is read and answered, none waits for the client's next
// bytes to be noticed, and afterwards no goroutine is left waiting for
// the client inside a frame's read (on Linux the poller watches the
// socket: a worker reads frame by frame while the buffer holds any,
// server/play/wspoll_linux.go). The verdict waits on what the
// server answers, within a generous deadline; the short pause between
// the two parts of a split write only makes the server likelier to read
// the first part alone.
func TestConnReadsEveryFrame(t *testing.T) {
	opts := fastOptions()
	opts.PingInterval = time.Hour // no ping of the server's among the frames
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	tab := ts.create(`{"variant":"pawnee"}`)
	host := strings.TrimPrefix(ts.hs.URL, "http://")
	nc, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(2 * time.Minute))
	// frame is a client's masked frame: opcode op, payload p (under 126 bytes).
	frame := func(op byte, p string) []byte {
		mask := [4]byte{7, 1, 9, 3}
		b := []byte{0x80 | op, 0x80 | byte(len(p)), mask[0], mask[1], mask[2], mask[3]}
		for i := range len(p) {
			b = append(b, p[i]^mask[i%4])
		}
		return b
	}
	// msg is a message the server answers with one error of its own
	// (an unknown type), which changes nothing at the table.
	msg := frame(0x1, `{"type":"nothing"}`)
	pong := frame(0xA, "12")
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	if _, err := nc.Write(cat([]byte("GET /api/tables/"+tab.ID+"/ws HTTP/1.1\r\nHost: "+host+"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"), frame(0x1, `{"type":"hello"}`))); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("the upgrade: %v, %v", resp, err)
	}
	// answers reads the server's frames until n more answers to msg came
	// (and the first state, when first).
	answers := func(what string, n int, first bool) {
		t.Helper()
		for n > 0 || first {
			op, p := readRawFrame(t, br)
			switch {
			case op&0x0F == 0x8:
				t.Fatalf("%s: the server closed the connection: %q", what, p)
			case bytes.Contains(p, []byte(`"type":"state"`)):
				first = false
			case bytes.Contains(p, []byte(`"code":"unknown_type"`)):
				n--
			}
		}
	}
	answers("the hello", 0, true)
	for _, step := range []struct {
		what   string
		writes [][]byte
		n      int
	}{
		{"two messages in one write", [][]byte{cat(msg, msg)}, 2},
		{"a message split across two writes", [][]byte{msg[:4], msg[4:]}, 1},
		{"a pong and a message in one write", [][]byte{cat(pong, msg)}, 1},
		{"a message and a pong in one write", [][]byte{cat(msg, pong)}, 1},
		{"two messages and two pongs in one write", [][]byte{cat(msg, pong, msg, pong)}, 2},
		{"half a pong, then its rest and a message", [][]byte{pong[:3], cat(pong[3:], msg)}, 1},
		{"a message, then a pong alone", [][]byte{msg, pong}, 1},
		{"three messages, a pong and a message in one write", [][]byte{cat(msg, msg, msg, pong, msg)}, 4},
	} {
		for i, w := range step.writes {
			if i > 0 {
				time.Sleep(20 * time.Millisecond)
			}
			if _, err := nc.Write(w); err != nil {
				t.Fatal(err)
			}
		}
		answers(step.what, step.n, false)
		if runtime.GOOS == "linux" {
			waitUntil(t, time.Minute, step.what+": no goroutine waiting for the client in a WebSocket's read", func() bool { return wsReadsWaiting() == 0 })
		}
	}
}

// wsReadsWaiting counts the goroutines reading a client's frame
// (readFrame, under readOne): on Linux none should be between messages.
func wsReadsWaiting() int {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	k := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("pitch/server/play.(*conn).readOne(")) && bytes.Contains(g, []byte("pitch/server/play.(*conn).readFrame(")) {
			k++
		}
	}
	return k
}
