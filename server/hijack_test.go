package server_test

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelloWithUpgrade: a client that sends its hello in the same packet
// as the upgrade request, without waiting for the answer, is served: the
// bytes the HTTP server read past the request are the WebSocket's first
// frame, not lost when the connection gets its own small buffers.
func TestHelloWithUpgrade(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "p.db"), fastOptions())
	tab := ts.create(`{"variant":"pawnee","seats":` + seatsBody("h", "h", "h", "h", "h") + `}`)
	host := strings.TrimPrefix(ts.hs.URL, "http://")
	nc, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	req := "GET /api/tables/" + tab.ID + "/ws HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	hello := []byte(`{"type":"hello"}`)
	mask := [4]byte{1, 2, 3, 4}
	frame := []byte{0x81, 0x80 | byte(len(hello)), mask[0], mask[1], mask[2], mask[3]}
	for i, b := range hello {
		frame = append(frame, b^mask[i%4])
	}
	if _, err := nc.Write(append([]byte(req), frame...)); err != nil { // one write: one packet on loopback
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
	// The first frame from the server: the state, not a close.
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		t.Fatalf("no frame after the upgrade: %v", err)
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
	var m struct{ Type string }
	if h[0] != 0x81 || json.Unmarshal(payload, &m) != nil || m.Type != "state" {
		t.Fatalf("the first frame is opcode %#x with %q, want a text frame with the state", h[0]&0x0f, payload)
	}
}
