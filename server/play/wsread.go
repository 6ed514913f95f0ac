package play

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"pitch/server/httpx"
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

// readOn starts the connection's reader, a goroutine of its own
// (reader), once its hello has been handled; after runs when it ends.
// The goroutine that read the hello and seated the connection ends
// then: its stack, grown by that work (a table's every state built and
// encoded), goes with it, and the reader starts from the smallest.
func (c *conn) readOn(lim *httpx.Limiter, handle func(data []byte), after func()) {
	go func() {
		defer after()
		c.reader(context.Background(), lim, handle)
	}()
}

// reader hands the client's messages to handle, rate limited (per
// connection, and per address by lim), until the connection ends. It
// waits for the client's next bytes on a shallow stack (waitReadable)
// before reading them through the WebSocket, whose reading runs deep: a
// reader waiting in the WebSocket's read kept 8 KiB of stack, one
// waiting here keeps 2 KiB once the collector has shrunk it
// (docs/performance.md, "Connections: memory and CPU a socket").
func (c *conn) reader(ctx context.Context, lim *httpx.Limiter, handle func(data []byte)) {
	tokens, last := float64(rateBurst), time.Now()
	done := make(chan struct{}, 1) // each message is handled on a worker (handOff)
	var warned time.Time           // one "slow down" a second, so a flood cannot fill the send queue
	slowDown := func(code, msg string) {
		if time.Since(warned) >= time.Second {
			warned = time.Now()
			c.sendJSON(errorCode(code, msg, nil))
		}
	}
	for {
		c.waitReadable()
		typ, data, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		if c.deaf.Load() {
			continue // the server is restarting: the client is told so by the close
		}
		now := time.Now()
		tokens = min(rateBurst, tokens+now.Sub(last).Seconds()*ratePerSec)
		last = now
		if tokens < 1 {
			slowDown("rate_conn", "too many messages: slow down (10 a second at most); messages over the limit are dropped")
			continue
		}
		tokens--
		if !lim.Allow(c.addr) {
			slowDown("rate_addr", "too many messages from your address: slow down; messages over the limit are dropped")
			continue
		}
		if typ != websocket.MessageText {
			c.sendJSON(errorCode("binary", "messages must be JSON text", nil))
			continue
		}
		handOff(handle, data, done)
	}
}

// readWait is what a connection needs to wait for its client's bytes
// without reading them: the socket's raw descriptor and the WebSocket's
// reader, whose buffered bytes need no wait.
type readWait struct {
	br     *bufio.Reader
	rc     syscall.RawConn // nil: no wait (not a socket with a descriptor)
	ready  func(fd uintptr) bool
	waited bool // ready has had the poller wait once this time
	peek   [1]byte
}

// newReadWait is the wait for nc's bytes under br.
func newReadWait(nc net.Conn, br *bufio.Reader) *readWait {
	w := &readWait{br: br}
	if sc, ok := nc.(syscall.Conn); ok && canPeek {
		if rc, err := sc.SyscallConn(); err == nil {
			w.rc = rc
			w.ready = w.poll
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
