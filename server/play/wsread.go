package play

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"pitch/server/httpx"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gobwas/ws"
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
// ends, on a goroutine of its own (where no poller is had: readOn).
func (c *conn) reader() {
	done := make(chan struct{}, 1) // each message is handled on a worker (handOff)
	for c.readOne(done) {
	}
}

// readOne reads the client's next frame and, when it ends a message, has
// the message handled, rate limited: on a worker when done is not nil
// (handOff, done being the caller's own channel), on this goroutine
// otherwise. False once the connection has ended.
func (c *conn) readOne(done chan struct{}) bool {
	in := c.in
	op, data, err := c.readFrame()
	if err != nil {
		return false
	}
	if op == 0 || c.deaf.Load() {
		return true // a control frame or a fragment; or the server is restarting (the client is told so by the close)
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
	if op != ws.OpText {
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

// lockLive takes t's lock to act on a message of c's, and reports true;
// once the server stops (Shutdown, Close: c is deaf) it takes nothing
// and reports false. deaf is read under the lock: a stop that has passed
// every table's lock once knows that nothing is acted on any more.
func (c *conn) lockLive(t *table) bool {
	t.mu.Lock()
	if c.deaf.Load() {
		t.mu.Unlock()
		return false
	}
	return true
}

// readBuffer is the size of a connection's read buffer: client messages
// are small (an action, a bid, a contribution: 60 to 120 bytes with the
// frame's header); a larger one is read in more reads.
const readBuffer = 128

// wsReader reads a client's frames (readFrame): their bytes come through
// a small buffered reader, whose reader holds what the HTTP server had
// read past the upgrade's request (a client's first frame, sent without
// waiting for the answer) before the socket's.
type wsReader struct {
	src srcReader
	br  *bufio.Reader
	rc  syscall.RawConn // the socket's descriptor, to peek at (nil: none)
	// hdr is where a frame's header is read (and the socket peeked at).
	hdr [ws.MaxHeaderSize - 2]byte
	// A message sent in fragments: its opcode (0: none under way) and
	// its bytes so far.
	op  ws.OpCode
	msg []byte
	// closing: the server has closed with an error of the client's
	// frames; what else the client sends is let go until its close.
	closing bool
}

// newWSReader is the reader of nc's frames, with what early (the HTTP
// server's reader) holds of them already.
func newWSReader(nc net.Conn, early *bufio.Reader) *wsReader {
	r := &wsReader{src: srcReader{nc: nc}}
	n := 0
	if early != nil {
		if n = early.Buffered(); n > 0 {
			b, _ := early.Peek(n)
			r.src.pre = append([]byte(nil), b...)
		}
	}
	r.br = bufio.NewReaderSize(&r.src, max(n, readBuffer))
	if sc, ok := nc.(syscall.Conn); ok && canPeek {
		if rc, err := sc.SyscallConn(); err == nil {
			r.rc = rc
		}
	}
	return r
}

// srcReader is the reader under a WebSocket's buffered reader: what the
// HTTP server read past the request (pre), then the socket's bytes.
type srcReader struct {
	nc  net.Conn
	pre []byte
}

func (r *srcReader) Read(p []byte) (int, error) {
	if len(r.pre) > 0 {
		n := copy(p, r.pre)
		if r.pre = r.pre[n:]; len(r.pre) == 0 {
			r.pre = nil
		}
		return n, nil
	}
	return r.nc.Read(p)
}

// buffered says whether bytes the client sent are read from the socket
// but not yet taken.
func (r *wsReader) buffered() bool { return r.br.Buffered() > 0 || len(r.src.pre) > 0 }

// readable says whether the client has sent something to read (or its
// socket has ended or failed: the read finds out which); false when a
// read would wait. Where the socket cannot be peeked at, it is always
// true.
func (r *wsReader) readable() bool {
	if r.rc == nil || r.buffered() {
		return true
	}
	ready := true
	if err := r.rc.Control(func(fd uintptr) { ready = r.peekReady(fd) }); err != nil {
		return true
	}
	return ready
}

// errClosed is readFrame's error once the connection is ending.
var errClosed = errors.New("the WebSocket is closed")

// readMessage reads the client's frames up to the end of its next
// message: its opcode (text or binary) and bytes.
func (c *conn) readMessage() (ws.OpCode, []byte, error) {
	for {
		op, data, err := c.readFrame()
		if err != nil || op != 0 {
			return op, data, err
		}
	}
}

// readFrame reads the client's next frame (waiting for it all, when only
// part of it is here) and acts on it: a ping is answered, a pong noted, a
// close answered (the connection then ends). When the frame ends a
// message it returns the message's opcode (ws.OpText or ws.OpBinary) and
// bytes; otherwise op is 0. A frame the protocol does not allow (not
// masked, reserved bits or opcodes, a control frame in pieces or too
// long, a fragment out of place) or a message longer than maxMessage
// closes the connection with the reason. An error: the connection has
// ended, or is ending.
func (c *conn) readFrame() (op ws.OpCode, data []byte, err error) {
	r := c.rd
	h, err := ws.ReadHeaderBuffer(r.br, r.hdr[:])
	if err != nil {
		if errors.Is(err, ws.ErrHeaderLengthMSB) || errors.Is(err, ws.ErrHeaderLengthUnexpected) {
			c.closeWith(ws.StatusProtocolError, "a frame's length is malformed", false)
		}
		c.readFailed() // the stream is lost: nothing more can be read
		return 0, nil, err
	}
	var bad string
	code := ws.StatusProtocolError
	switch {
	case h.Rsv != 0:
		bad = "a frame has reserved bits set (no extension was agreed)"
	case !h.Masked:
		bad = "a client's frames must be masked"
	case h.OpCode.IsReserved():
		bad = fmt.Sprintf("a frame has the reserved opcode %d", h.OpCode)
	case h.OpCode.IsControl() && (!h.Fin || h.Length > ws.MaxControlFramePayloadSize):
		bad = "a control frame must be whole and of 125 bytes at most"
	case h.OpCode == ws.OpContinuation && r.op == 0:
		bad = "a continuation frame with no message to continue"
	case h.OpCode.IsData() && h.OpCode != ws.OpContinuation && r.op != 0:
		bad = "a new message before the end of the last one"
	case h.OpCode.IsData() && h.Length > int64(maxMessage-len(r.msg)):
		code, bad = ws.StatusMessageTooBig, fmt.Sprintf("a message may hold %d bytes at most", maxMessage)
	}
	if bad != "" || r.closing {
		if !r.closing {
			r.closing, r.op, r.msg = true, 0, nil
			c.closeWith(code, bad, false)
		}
		// Let the frame go, up to the client's answer to the close (a
		// close frame too long for one is let go too).
		if h.OpCode != ws.OpClose || h.Length > ws.MaxControlFramePayloadSize {
			if _, err := io.CopyN(io.Discard, r.br, h.Length); err != nil {
				c.readFailed()
				return 0, nil, err
			}
			return 0, nil, nil
		}
	}
	p := make([]byte, h.Length)
	if _, err := io.ReadFull(r.br, p); err != nil {
		c.readFailed()
		return 0, nil, err
	}
	ws.Cipher(p, h.Mask, 0)
	switch h.OpCode {
	case ws.OpPing:
		if !c.closeSent.Load() {
			if err := c.out.control(ws.OpPong, p); err != nil {
				c.close()
			}
		}
		return 0, nil, nil
	case ws.OpPong:
		c.pong(p)
		return 0, nil, nil
	case ws.OpClose:
		c.gone.Store(true)
		code, _ := ws.ParseCloseFrameData(p)
		switch {
		case len(p) == 1:
			code = ws.StatusProtocolError
		case code.Empty():
			code = ws.StatusNoStatusRcvd // answered without a code
		case code < 1000 || code == ws.StatusNoMeaningYet || code == ws.StatusNoStatusRcvd ||
			code == ws.StatusAbnormalClosure || code == ws.StatusTLSHandshake || code >= 5000:
			code = ws.StatusProtocolError
		}
		c.closeWith(code, "", false)
		c.readFailed()
		return 0, nil, errClosed
	}
	if h.OpCode != ws.OpContinuation {
		r.op = h.OpCode
	}
	if !h.Fin {
		r.msg = append(r.msg, p...)
		return 0, nil, nil
	}
	if r.msg != nil {
		p = append(r.msg, p...)
	}
	op, r.op, r.msg = r.op, 0, nil
	return op, p, nil
}
