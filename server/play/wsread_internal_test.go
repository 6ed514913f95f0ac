package play

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestWaitReadable: a connection's reader waits for its client's bytes
// without reading them (wsread.go): it goes on at once when bytes are
// in the socket or already in the WebSocket's buffer, and when the
// client has gone or the connection was closed; a socket with nothing
// to read is told apart (peekReady false).
func TestWaitReadable(t *testing.T) {
	if !canPeek {
		t.Skip("no peek on " + runtime.GOOS + ": the reader waits in the WebSocket's read")
	}
	client, nc := loopbackPair(t)
	src := &srcReader{nc: nc}
	br := bufio.NewReaderSize(src, 16)
	c := &conn{rw: newReadWait(nc, src, br)}
	if c.rw.rc == nil {
		t.Fatal("a TCP connection has no raw descriptor to wait on")
	}
	ready := func() bool {
		var got bool
		if err := c.rw.rc.Control(func(fd uintptr) { got = c.rw.peekReady(fd) }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	// waited fails the test unless waitReadable returns (a failure waits
	// out the 10 s: a passing run does not depend on time).
	waited := func(what string) {
		t.Helper()
		done := make(chan struct{})
		go func() { c.waitReadable(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("waitReadable did not return: %s", what)
		}
	}
	if ready() {
		t.Fatal("peekReady: bytes to read before the client sent any")
	}
	if _, err := client.Write([]byte("ab")); err != nil {
		t.Fatal(err)
	}
	waited("the client sent bytes")
	if !ready() {
		t.Fatal("peekReady: nothing to read after the client sent bytes")
	}
	if b, err := br.ReadByte(); err != nil || b != 'a' {
		t.Fatalf("read %q, %v", b, err)
	}
	if br.Buffered() != 1 || ready() {
		t.Fatalf("want 'b' in the buffer and none in the socket: %d buffered, socket ready %v", br.Buffered(), ready())
	}
	waited("a byte in the buffer") // the socket has none: it must not wait for the socket
	if b, _ := br.ReadByte(); b != 'b' {
		t.Fatalf("read %q, want 'b'", b)
	}
	client.Close()
	waited("the client closed")
	if !ready() {
		t.Fatal("peekReady: the client's end is not reported")
	}
	nc.Close()
	waited("the connection closed")
}

// TestReadablePong: a pong at the head of what the client sent is taken
// from the socket and put before it with an empty message after it, so
// that the WebSocket's read returns after the pong instead of waiting
// for the client's next message (readWait.readable); anything else, a
// pong not all there yet, or bytes already in the buffer, is left to
// the WebSocket's read as it is.
func TestReadablePong(t *testing.T) {
	if !canPeek {
		t.Skip("no peek on " + runtime.GOOS)
	}
	client, nc := loopbackPair(t)
	src := &srcReader{nc: nc}
	br := bufio.NewReaderSize(src, 64)
	w := newReadWait(nc, src, br)
	// sent writes p and waits (up to 10 s; a passing run does not
	// depend on time) until the socket holds it all.
	sent := func(p []byte) {
		t.Helper()
		if _, err := client.Write(p); err != nil {
			t.Fatal(err)
		}
		var buf [128]byte
		for start := time.Now(); ; time.Sleep(time.Millisecond) {
			var n int
			err := w.rc.Control(func(fd uintptr) {
				n, _, _ = syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
			})
			if err != nil {
				t.Fatal(err)
			}
			if n >= len(p) {
				return
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("the socket holds %d of %d bytes after 10 s", n, len(p))
			}
		}
	}
	pong := []byte{0x8A, 0x82, 1, 2, 3, 4, '7' ^ 1, '3' ^ 2} // "73", masked
	text := []byte{0x81, 0x80, 9, 9, 9, 9}                   // an empty text message

	if w.readable() {
		t.Fatal("readable before the client sent anything")
	}
	sent(append(slices.Clone(pong), text...))
	if !w.readable() {
		t.Fatal("a pong and a message: not readable")
	}
	want := append(slices.Clone(pong), emptyFrame[:]...)
	if !bytes.Equal(src.pre, want) || w.posed != 1 {
		t.Fatalf("the pong put before the socket's bytes: %x (posed %d), want %x (posed 1)", src.pre, w.posed, want)
	}
	got, err := io.ReadAll(io.LimitReader(br, int64(len(want)+len(text))))
	if err != nil || !bytes.Equal(got, append(want, text...)) {
		t.Fatalf("read %x, %v; want the pong, the empty message, then the client's message %x", got, err, text)
	}
	if !w.isPosed(nil) || w.isPosed(nil) {
		t.Fatal("the empty message put after the pong is let go once, and only once")
	}
	if w.readable() {
		t.Fatal("readable with nothing left")
	}

	// A pong not all here yet, then all of it: left to the WebSocket.
	sent(pong[:4])
	if !w.readable() || src.pre != nil || w.posed != 0 {
		t.Fatalf("half a pong: want readable, left in the socket; pre %x, posed %d", src.pre, w.posed)
	}
	sent(pong[4:])
	if got, _ := io.ReadAll(io.LimitReader(br, int64(len(pong)))); !bytes.Equal(got, pong) {
		t.Fatalf("read %x, want the pong as sent %x", got, pong)
	}

	// A message and a pong in one read, the message read: the pong, all
	// that is buffered, gets the empty message after it too.
	sent(append(slices.Clone(text), pong...))
	if b, err := br.ReadByte(); err != nil || b != text[0] {
		t.Fatalf("read %x, %v", b, err)
	}
	if _, err := br.Discard(len(text) - 1); err != nil {
		t.Fatal(err)
	}
	if br.Buffered() != len(pong) {
		t.Fatalf("%d bytes buffered, want the pong's %d", br.Buffered(), len(pong))
	}
	if !w.readable() || !bytes.Equal(src.pre, emptyFrame[:]) || w.posed != 1 {
		t.Fatalf("a buffered pong: want readable, the empty message put after it; pre %x, posed %d", src.pre, w.posed)
	}
	if got, _ := io.ReadAll(io.LimitReader(br, int64(len(pong)+len(emptyFrame)))); !bytes.Equal(got, append(slices.Clone(pong), emptyFrame[:]...)) {
		t.Fatalf("read %x, want the pong and the empty message", got)
	}
	if !w.isPosed(nil) {
		t.Fatal("the empty message after a buffered pong is not let go")
	}

	// A ping from the client, and bytes in the buffer: left as they are.
	ping := slices.Clone(pong)
	ping[0] = 0x89
	sent(append(ping, pong...))
	if b, err := br.ReadByte(); err != nil || b != 0x89 {
		t.Fatalf("read %x, %v", b, err)
	}
	if !w.readable() || src.pre != nil || w.posed != 0 {
		t.Fatalf("bytes in the buffer: want readable and nothing taken; pre %x, posed %d", src.pre, w.posed)
	}
	if got, _ := io.ReadAll(io.LimitReader(br, int64(2*len(pong)-1))); !bytes.Equal(got, append(ping[1:], pong...)) {
		t.Fatalf("read %x, want the rest of the ping and the pong", got)
	}

	client.Close()
	if !w.readable() {
		t.Fatal("the client's end is not readable")
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
