package server_test

import (
	"bufio"
	"context"
	"encoding/binary"
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
)

// TestHelloWithUpgrade: a client that sends its hello in the same packet
// as the upgrade request, without waiting for the answer, is served: the
// bytes the HTTP server read past the request are the WebSocket's first
// frame, not lost when the connection gets its own small buffers.
func TestHelloWithUpgrade(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "p.db"), fastOptions())
	tab := ts.create(`{"variant":"pawnee","seats":` + seatsBody("h", "h", "h", "h", "h") + `}`)
	br := rawUpgrade(t, ts, tab.ID, `{"type":"hello"}`)
	// The first frame from the server: the state, not a close.
	op, payload := readRawFrame(t, br)
	var m struct{ Type string }
	if op != 0x81 || json.Unmarshal(payload, &m) != nil || m.Type != "state" {
		t.Fatalf("the first frame is opcode %#x with %q, want a text frame with the state", op&0x0f, payload)
	}
}

// TestMessagesWithHello: a client's messages sent with its hello, in
// the same packet as the upgrade request, are all handled: the reader,
// which waits for the socket to have bytes before it reads
// (server/play/wsread.go), first reads what its buffer already holds.
func TestMessagesWithHello(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "p.db"), fastOptions())
	tab := ts.create(`{"variant":"pawnee","seats":` + seatsBody("h", "h", "h", "h", "h") + `}`)
	br := rawUpgrade(t, ts, tab.ID, `{"type":"hello"}`, `{"type":"nonsense"}`)
	for {
		op, payload := readRawFrame(t, br) // fails at the deadline if the message was never read
		var m struct{ Type, Code string }
		if op != 0x81 || json.Unmarshal(payload, &m) != nil {
			t.Fatalf("got opcode %#x with %q, want text frames: states, then the error", op&0x0f, payload)
		}
		if m.Type == "error" {
			if m.Code != "unknown_type" {
				t.Fatalf("got the error %q, want unknown_type", payload)
			}
			return
		}
	}
}

// TestHelloLate: a connection that says no hello within 10 s is closed
// with 1008 (policy violation) and a reason that says what to send.
func TestHelloLate(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "p.db"), fastOptions())
	tab := ts.create(`{"variant":"pawnee","seats":` + seatsBody("h", "h", "h", "h", "h") + `}`)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, ts.wsURL(tab.ID), &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {ts.hs.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	_, msg, err := ws.Read(ctx) // nothing is sent before the hello: the close
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || !strings.Contains(ce.Reason, "no hello within 10s") {
		t.Fatalf("got %q, %v; want the close 1008 with \"no hello within 10s\"", msg, err)
	}
}

// rawUpgrade opens table id's WebSocket by hand, sending the upgrade
// request and the messages (masked text frames) in one write, without
// waiting for the answer (one packet on loopback), and returns the
// connection's reader past the server's answer, which must be the
// upgrade. Reads fail after 10 s.
func rawUpgrade(t *testing.T, ts *testServer, id string, msgs ...string) *bufio.Reader {
	t.Helper()
	host := strings.TrimPrefix(ts.hs.URL, "http://")
	nc, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	out := []byte("GET /api/tables/" + id + "/ws HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
	mask := [4]byte{1, 2, 3, 4}
	for _, msg := range msgs { // each under 126 bytes
		out = append(out, 0x81, 0x80|byte(len(msg)), mask[0], mask[1], mask[2], mask[3])
		for i, b := range []byte(msg) {
			out = append(out, b^mask[i%4])
		}
	}
	if _, err := nc.Write(out); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("the upgrade got %s", resp.Status)
	}
	return br
}

// readRawFrame reads one unmasked frame from the server: its first byte
// (FIN and opcode) and its payload.
func readRawFrame(t *testing.T, br *bufio.Reader) (byte, []byte) {
	t.Helper()
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		t.Fatalf("no frame: %v", err)
	}
	n := int(h[1] & 0x7f)
	switch n {
	case 126:
		var l [2]byte
		if _, err := io.ReadFull(br, l[:]); err != nil {
			t.Fatal(err)
		}
		n = int(binary.BigEndian.Uint16(l[:]))
	case 127:
		var l [8]byte
		if _, err := io.ReadFull(br, l[:]); err != nil {
			t.Fatal(err)
		}
		n = int(binary.BigEndian.Uint64(l[:]))
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(br, payload); err != nil {
		t.Fatal(err)
	}
	return h[0], payload
}
