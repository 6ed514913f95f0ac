package play

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"pitch/server/httpx"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// counted counts c, past its hello, as the player who (when player) or
// as an anonymous connection of its address; when a limit refuses it,
// it is closed with the reason, the refusal counted, and counted
// returns the reason ("" when counted).
func (s *Server) counted(c *conn, player bool, who string) (refused string) {
	if player {
		if s.conns.identify(c, who) {
			return ""
		}
		s.gauge.refuse(refusedAddrConns, "too many connections for one player")
		why := fmt.Sprintf(playerFullFmt, perPlayer)
		c.closeWith(statusTryLater, why, false)
		return why
	}
	if s.conns.anonymous(c, s.opts.AddrConns) {
		return ""
	}
	s.gauge.refuse(refusedAddrConns, "too many connections from one address (--addr-conns)")
	why := fmt.Sprintf(addrFullFmt, s.opts.AddrConns)
	c.closeWith(statusTryLater, why, false)
	return why
}

// addrLimit is the per-address limit c's messages draw on: none for a
// player's connection (identify), which has its own per-connection one.
func (s *Server) addrLimit(c *conn) *httpx.Limiter {
	if c.who != "" {
		return nil
	}
	return s.limiter
}

// readOn reads and handles the client's messages, once its hello has
// been handled, rate limited (per connection, and per address by lim),
// until the connection ends; after runs then. Where the system's poller
// can be asked (Linux: watch, wspoll_linux.go) no goroutine waits for
// the client: when it has sent something, a worker reads and handles it
// (readReady). Otherwise the reader is a goroutine of its own (reader).
// Either way the goroutine that read the hello and seated the
// connection ends now: its stack, grown by that work (a table's every
// state built and encoded), goes with it.
func (c *conn) readOn(lim *httpx.Limiter, handle func(data []byte), after func()) {
	in := &inbox{lim: lim, handle: handle, after: after, tokens: rateBurst, last: time.Now()}
	c.mu.Lock() // end's unwatch may look at it from another goroutine
	c.in = in
	c.mu.Unlock()
	if c.watch() {
		return
	}
	go func() {
		defer after()
		c.reader()
	}()
}

// inbox is what a connection needs to take its client's messages once
// its hello has been handled (readOn): where they go, what runs when it
// ends, and its rate limit's state (only the one reading uses it).
type inbox struct {
	lim    *httpx.Limiter
	handle func(data []byte)
	after  func()
	tokens float64   // the token bucket: messages the client may send now
	last   time.Time // when tokens was last filled
	warned time.Time // the last "slow down": one a second, so a flood cannot fill the send queue
	// poll: the connection's state with the poller (wspoll_linux.go);
	// id: its key there.
	poll atomic.Int32
	id   uint32
	gen  atomic.Uint32 // the poller's arming of it: rearm counts them
	// read and ctl are c.readReady and the poller's rearm of c's
	// descriptor, made once (a closure a message would be garbage); ev
	// is ctl's event, and ctlFailed says a ctl failed (the socket is
	// gone). Atomic: once a rearm has armed the socket, the next worker
	// may rearm it before this one has looked.
	read      func()
	ctl       func(fd uintptr)
	ev        pollEvent
	ctlFailed atomic.Bool
}

// reader hands the client's messages to be handled until the connection
// ends, on a goroutine of its own (where no poller is had: readOn). It
// waits for the client's next bytes on a shallow stack (waitReadable)
// before reading them through the WebSocket, whose reading runs deep: a
// reader waiting in the WebSocket's read kept 8 KiB of stack, one
// waiting here keeps 2 KiB once the collector has shrunk it
// (docs/performance.md, "Connections: memory and CPU a socket").
func (c *conn) reader() {
	done := make(chan struct{}, 1) // each message is handled on a worker (handOff)
	for {
		c.waitReadable()
		c.rw.readable() // a pong is read with an empty message after it
		if !c.readOne(done) {
			return
		}
	}
}

// readOne reads the client's next message through the WebSocket and has
// it handled, rate limited: on a worker when done is not nil (handOff,
// done being the caller's own channel), on this goroutine otherwise.
// False once the connection has ended.
func (c *conn) readOne(done chan struct{}) bool {
	in := c.in
	typ, data, err := c.ws.Read(context.Background())
	if err != nil {
		return false
	}
	if c.deaf.Load() || typ == websocket.MessageText && c.rw.isPosed(data) {
		return true // the server is restarting (the client is told so by the close), or the pong's empty message (readWait.readable)
	}
	now := time.Now()
	in.tokens = min(rateBurst, in.tokens+now.Sub(in.last).Seconds()*ratePerSec)
	in.last = now
	if in.tokens < 1 {
		c.slowDown(now, "rate_conn", "too many messages: slow down (10 a second at most); messages over the limit are dropped")
		return true
	}
	in.tokens--
	if !in.lim.Allow(c.addr) {
		c.slowDown(now, "rate_addr", "too many messages from your address: slow down; messages over the limit are dropped")
		return true
	}
	if typ != websocket.MessageText {
		c.sendJSON(errorCode("binary", "messages must be JSON text", nil))
		return true
	}
	if done == nil {
		in.handle(data)
	} else {
		handOff(in.handle, data, done)
	}
	return true
}

// slowDown sends the client an error saying its messages are dropped
// (code, msg), at most once a second.
func (c *conn) slowDown(now time.Time, code, msg string) {
	if now.Sub(c.in.warned) >= time.Second {
		c.in.warned = now
		c.sendJSON(errorCode(code, msg, nil))
	}
}

// readWait is what a connection needs to wait for its client's bytes
// without reading them: the socket's raw descriptor and the WebSocket's
// reader, whose buffered bytes need no wait.
type readWait struct {
	src    *srcReader // under br
	br     *bufio.Reader
	rc     syscall.RawConn // nil: no wait (not a socket with a descriptor)
	ready  func(fd uintptr) bool
	waited bool // ready has had the poller wait once this time
	// peek holds what the socket is peeked at into, and a pong taken
	// from it with an empty message after it (readable); posed counts
	// those empty messages not yet read, to be let go (readOne).
	peek  [pongMax + len(emptyFrame)]byte
	posed int
	take  func(fd uintptr) // takePong into more, made once (a closure a message would be garbage)
	more  bool
}

// newReadWait is the wait for nc's bytes under br, whose reader is src.
func newReadWait(nc net.Conn, src *srcReader, br *bufio.Reader) *readWait {
	w := &readWait{src: src, br: br}
	if sc, ok := nc.(syscall.Conn); ok && canPeek {
		if rc, err := sc.SyscallConn(); err == nil {
			w.rc = rc
			w.ready = w.poll
			w.take = func(fd uintptr) { w.more = w.takePong(fd) }
		}
	}
	return w
}

// waitReadable returns once the client has sent bytes not yet read, the
// connection has ended or failed, or at once when it cannot tell. Its
// stack is shallow: the runtime's poller parks the goroutine right under
// it.
func (c *conn) waitReadable() {
	w := c.rw
	if w == nil || w.rc == nil || w.br.Buffered() > 0 {
		return
	}
	w.waited = false
	_ = w.rc.Read(w.ready) // an error (closed): the WebSocket's read says so
}

// poll is the test of w.rc.Read, which calls it, and while it is false
// waits for the poller to say the socket is ready, and calls it again:
// the socket is peeked at first (bytes may have come since the poller
// last said so, and the poller says so once for each arrival), and
// taken to be ready after a wait without looking again, which spares a
// system call a message. Should that be wrong (rare: the poller said so
// for bytes already read), the WebSocket's read waits instead.
func (w *readWait) poll(fd uintptr) bool {
	if w.waited {
		return true
	}
	if w.peekReady(fd) {
		return true
	}
	w.waited = true
	return false
}

// pongMax is the most bytes a pong frame from a client may hold for
// readable to take it: the header (2 bytes), the mask (4) and an answer to
// one of the server's pings, whose payload is a number.
const pongMax = 32

// emptyFrame is an empty text message as a client sends it (masked,
// with a mask of zeros).
var emptyFrame = [...]byte{0x81, 0x80, 0, 0, 0, 0}

// readable says whether the client has sent something to read (or its
// socket has ended or failed: the WebSocket's read finds out which);
// false when a read would wait. A pong at the head of what it sent is
// passed to the WebSocket with an empty message after it (posed): the
// WebSocket's read takes the pong (the server's ping has its answer)
// and returns the empty message, instead of waiting on its deep stack
// for the client's next message, which is what the poller spares a
// connection (readReady). So too when all that the WebSocket's reader
// holds is pongs (a message and a pong came in one read, and the
// message has been read): the empty message is put after them. Where
// the socket cannot be peeked at, readable is always true.
func (w *readWait) readable() bool {
	if w == nil || w.rc == nil || len(w.src.pre) > 0 {
		return true
	}
	if n := w.br.Buffered(); n > 0 {
		if b, _ := w.br.Peek(n); onlyPongs(b) {
			w.src.pre = w.peek[:copy(w.peek[:], emptyFrame[:])]
			w.posed++
		}
		return true
	}
	w.more = true
	if err := w.rc.Control(w.take); err != nil {
		return true
	}
	return w.more
}

// pongLen is the length of the whole pong frame from a client at the
// head of b (FIN and opcode 0xA, masked, at most 125 bytes of payload),
// or 0 when b does not start with one.
func pongLen(b []byte) int {
	if len(b) < 2 || b[0] != 0x8A || b[1]&0x80 == 0 || b[1]&0x7F > 125 {
		return 0
	}
	if n := 6 + int(b[1]&0x7F); n <= len(b) {
		return n
	}
	return 0
}

// onlyPongs says whether b is whole pong frames from a client and
// nothing else.
func onlyPongs(b []byte) bool {
	for len(b) > 0 {
		n := pongLen(b)
		if n == 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// isPosed says whether data, a message just read, is one of the empty
// messages readable put after a pong, and counts it read.
func (w *readWait) isPosed(data []byte) bool {
	if w == nil || w.posed == 0 || len(data) > 0 {
		return false
	}
	w.posed--
	return true
}
