package play

import (
	"bufio"
	"net"
	"runtime"
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	nc, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	br := bufio.NewReaderSize(nc, 16)
	c := &conn{rw: newReadWait(nc, br)}
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
