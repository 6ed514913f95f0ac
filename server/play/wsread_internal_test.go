package play

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"
)

// TestReadable: a connection's reader tells, without reading, whether
// its client has sent bytes (wsReader.readable, which the poller's
// worker asks before reading): bytes in the socket or already in the
// buffer, and a client gone, are readable; a socket with nothing to read
// is not.
func TestReadable(t *testing.T) {
	if !canPeek {
		t.Skip("no peek on " + runtime.GOOS + ": the reader waits in its read")
	}
	client, nc := loopbackPair(t)
	r := newWSReader(nc, nil)
	if r.rc == nil {
		t.Fatal("a TCP connection has no raw descriptor to peek at")
	}
	if r.readable() {
		t.Fatal("readable before the client sent anything")
	}
	if _, err := client.Write([]byte("ab")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the client's bytes readable", r.readable)
	if b, err := r.br.ReadByte(); err != nil || b != 'a' {
		t.Fatalf("read %q, %v", b, err)
	}
	if !r.buffered() || !r.readable() {
		t.Fatal("a byte in the buffer: not readable")
	}
	if b, _ := r.br.ReadByte(); b != 'b' || r.readable() {
		t.Fatalf("read %q, and readable with nothing left", b)
	}
	client.Close()
	waitFor(t, "the client's end readable", r.readable)

	// What the HTTP server read past the request is read first.
	early := bufio.NewReader(strings.NewReader("xyz"))
	if _, err := early.Peek(3); err != nil {
		t.Fatal(err)
	}
	r = newWSReader(nc, early)
	if !r.readable() {
		t.Fatal("bytes read before the upgrade: not readable")
	}
	if got, _ := io.ReadAll(io.LimitReader(r.br, 3)); string(got) != "xyz" {
		t.Fatalf("read %q, want the early bytes", got)
	}
}

// TestReadFrames: a client's frames as readFrame takes them: a pong is
// noted and read alone (the read does not wait for a message after it),
// a ping is answered with a pong of the same payload, control frames
// between a message's fragments are acted on and the fragments joined,
// a frame split across writes is read whole, masks are taken off; an
// unmasked frame, a message over maxMessage or a fragment out of place
// closes the connection with 1002 or 1009 and a reason, and a client's
// close is answered with its code.
func TestReadFrames(t *testing.T) {
	// frame is a client's frame (masked unless plain).
	frame := func(fin bool, op ws.OpCode, p string, plain bool) []byte {
		b := []byte{byte(op), 0}
		if fin {
			b[0] |= 0x80
		}
		switch n := len(p); {
		case n < 126:
			b[1] = byte(n)
		default:
			b[1] = 126
			b = binary.BigEndian.AppendUint16(b, uint16(n))
		}
		if plain {
			return append(b, p...)
		}
		b[1] |= 0x80
		mask := [4]byte{7, 1, 9, 3}
		b = append(b, mask[:]...)
		for i := range len(p) {
			b = append(b, p[i]^mask[i%4])
		}
		return b
	}
	setup := func() (net.Conn, *bufio.Reader, *conn) {
		client, nc := loopbackPair(t)
		c := newConn(nc, newWSReader(nc, nil), &coalescer{nc: nc}, "test")
		c.pinger = time.AfterFunc(time.Hour, func() {})
		t.Cleanup(func() { c.pinger.Stop() })
		_ = client.SetDeadline(time.Now().Add(time.Minute))
		return client, bufio.NewReader(client), c
	}
	write := func(w io.Writer, parts ...[]byte) {
		t.Helper()
		if _, err := w.Write(bytes.Join(parts, nil)); err != nil {
			t.Fatal(err)
		}
	}
	// read is readFrame, with what it returned as a string.
	read := func(c *conn) (ws.OpCode, string, error) {
		op, p, err := c.readFrame()
		return op, string(p), err
	}
	// server is the server's next frame, as the client reads it.
	server := func(br *bufio.Reader) (ws.OpCode, []byte) {
		t.Helper()
		h, err := ws.ReadHeader(br)
		if err != nil || h.Masked {
			t.Fatalf("the server's frame: %+v, %v", h, err)
		}
		p := make([]byte, h.Length)
		if _, err := io.ReadFull(br, p); err != nil {
			t.Fatal(err)
		}
		return h.OpCode, p
	}

	client, br, c := setup()
	c.pingOut, c.pingSeq = true, 73
	write(client, frame(true, ws.OpPong, "73", false))
	if op, p, err := read(c); op != 0 || p != "" || err != nil || c.pingOut {
		t.Fatalf("a pong: %v %q %v, ping answered %v", op, p, err, !c.pingOut)
	}
	if c.rd.buffered() || c.rd.readable() {
		t.Fatal("after a pong alone: something left to read")
	}
	write(client, frame(true, ws.OpPong, "1", false), frame(true, ws.OpText, `{"a":1}`, false))
	if op, _, err := read(c); op != 0 || err != nil {
		t.Fatalf("a pong before a message: %v %v", op, err)
	}
	if op, p, err := read(c); op != ws.OpText || p != `{"a":1}` || err != nil {
		t.Fatalf("the message after a pong: %v %q %v", op, p, err)
	}
	// A message in three fragments with a ping among them, the last
	// split across two writes.
	last := frame(true, ws.OpContinuation, "ef", false)
	write(client, frame(false, ws.OpText, "ab", false), frame(true, ws.OpPing, "hi", false), frame(false, ws.OpContinuation, "cd", false), last[:3])
	for range 3 {
		if op, _, err := read(c); op != 0 || err != nil {
			t.Fatalf("a fragment or a ping: %v %v", op, err)
		}
	}
	if op, p := server(br); op != ws.OpPong || string(p) != "hi" {
		t.Fatalf("the answer to a ping: %v %q", op, p)
	}
	go func() { time.Sleep(20 * time.Millisecond); _, _ = client.Write(last[3:]) }()
	if op, p, err := read(c); op != ws.OpText || p != "abcdef" || err != nil {
		t.Fatalf("the fragments joined: %v %q %v", op, p, err)
	}
	big := strings.Repeat("x", maxMessage)
	write(client, frame(true, ws.OpBinary, big, false))
	if op, p, err := read(c); op != ws.OpBinary || p != big || err != nil {
		t.Fatalf("a message of maxMessage bytes: %v %d bytes %v", op, len(p), err)
	}
	// The client's close: answered with its code, and the socket closed.
	write(client, frame(true, ws.OpClose, string(ws.NewCloseFrameBody(ws.StatusNormalClosure, "bye")), false))
	if _, _, err := read(c); err == nil {
		t.Fatal("read on after the client's close")
	}
	if op, p := server(br); op != ws.OpClose || binary.BigEndian.Uint16(p) != 1000 {
		t.Fatalf("the answer to the close: %v %x", op, p)
	}
	select {
	case <-c.closed:
	case <-time.After(time.Minute):
		t.Fatal("the socket is not closed after the close handshake")
	}

	for _, bad := range []struct {
		what  string
		frame []byte
		code  ws.StatusCode
	}{
		{"an unmasked frame", frame(true, ws.OpText, "{}", true), ws.StatusProtocolError},
		{"a message too long", frame(true, ws.OpText, big+"x", false), ws.StatusMessageTooBig},
		{"a continuation of nothing", frame(true, ws.OpContinuation, "{}", false), ws.StatusProtocolError},
		{"a fragmented ping", frame(false, ws.OpPing, "1", false), ws.StatusProtocolError},
		{"a reserved opcode", frame(true, 3, "", false), ws.StatusProtocolError},
		{"a close frame over 125 bytes", frame(true, ws.OpClose, strings.Repeat("c", 126), false), ws.StatusProtocolError},
	} {
		client, br, c := setup()
		write(client, bad.frame, frame(true, ws.OpText, "{}", false))
		for range 2 { // it, then the message after it: let go
			if op, _, err := read(c); op != 0 || err != nil {
				t.Fatalf("%s, or the message after it: %v %v", bad.what, op, err)
			}
		}
		op, p := server(br)
		if code, reason := ws.ParseCloseFrameData(p); op != ws.OpClose || code != bad.code || reason == "" {
			t.Fatalf("%s: the server sent %v %q, want a close with %d and a reason", bad.what, op, p, bad.code)
		}
		write(client, frame(true, ws.OpClose, string(ws.NewCloseFrameBody(bad.code, "")), false))
		if _, _, err := read(c); err == nil {
			t.Fatalf("%s: read on after the client's answer to the close", bad.what)
		}
		select {
		case <-c.closed:
		case <-time.After(time.Minute):
			t.Fatalf("%s: the socket is not closed after the close handshake", bad.what)
		}
	}
}

// waitFor fails the test unless ok() within 10 s.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for start := time.Now(); !ok(); time.Sleep(time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("not within 10 s: %s", what)
		}
	}
}

// loopbackPair is the two ends of a TCP connection on 127.0.0.1, closed
// when the test ends.
func loopbackPair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	return client, server
}
