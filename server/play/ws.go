package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/server/wire"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"

	"pitch"
)

// conn is one WebSocket connection to a table, for a seat or a spectator.
// Its hello is read on a goroutine of its own (serve); then the poller
// has a worker read it when its client sends (wspoll_linux.go). What is
// queued for it is written by a goroutine started for each burst of
// messages (flush), which ends once the queue is empty, and a timer pings
// it: an idle connection holds no goroutine, no buffer of what was last
// sent, and none of the HTTP server's request state
// (docs/performance.md). The WebSocket protocol is the server's own,
// over github.com/gobwas/ws's frames: reading in wsread.go, writing
// through the coalescer.
type conn struct {
	nc   net.Conn   // the socket (nil: a test's connection, which only queues)
	out  *coalescer // the frames written: a burst goes out in one write
	rd   *wsReader  // the client's frames
	in   *inbox     // where the client's messages go once its hello is handled (readOn)
	seat int        // -1 for a spectator
	addr string     // the client's address, for the rate limit
	// who is the player the connection has shown itself to be (a seat's
	// token, an event entry's): it then counts against them, not its
	// address (connSet.identify); "" for an anonymous one. counted says
	// how it is counted. Both set under the connSet's lock, by the
	// connection's own goroutine.
	who     string
	counted int

	ping     time.Duration // between pings
	pongWait time.Duration // to answer one
	pinger   *time.Timer   // the next ping

	mu      sync.Mutex
	queue   []outMsg // messages not yet written, in order
	writing bool     // a flush goroutine runs: it writes what is queued
	// Set once, under mu, when the connection is to end (ending): how
	// it ends. Nothing is queued after.
	ending bool
	code   ws.StatusCode
	reason string
	flush  bool          // write what is queued before closing
	closed chan struct{} // closed once the socket is closed (shut)
	// pingOut: a ping was sent (the pingSeq'th) and its pong has not
	// come yet. Under mu.
	pingOut bool
	pingSeq uint32
	// gone: the client sent a close frame, or its socket ended or failed;
	// closeSent: the server's close frame was written; shutDone: the
	// socket was closed (shut). The first two meet: the socket is
	// closed once both are true, or closeWait after the close frame.
	gone, closeSent, shutDone atomic.Bool

	deaf   atomic.Bool // the server is draining: messages from the client are not acted on
	chatAt time.Time   // table talk's token bucket (only the reader goroutine uses it)
	// account and session: the account and the session (its hash, as in
	// Account.Session) of the request that opened the connection, ""
	// for a guest's: the connection ends with the session (sessions.go).
	// Set before it is admitted.
	account, session string
	// summary: the client shows each hand's summary and says "ready"
	// (its hello said so; ready.go). Set before the connection joins its
	// table.
	summary bool
	// fair: the client sends its random value for each commitment it is
	// shown (hello.Fair): a due deal waits for it while it is connected
	// (fair.go, awaitsOnline).
	fair bool
	// proto is the protocol its hello asked for (1 or 2: deltas,
	// statedelta.go); dver is the version of the state last queued for it
	// in protocol 2, for seat dseat-1 (0: none); ops: it applies the
	// deltas' copy and push (wire.DeltaOps). Under the table's lock.
	proto, dseat int
	dver         uint64
	ops          bool
}

// outMsg is a message waiting to be written.
type outMsg struct {
	data  []byte
	state bool      // a whole state, made stale by any later one
	delta bool      // a change (an event's): it needs every one before it
	buf   *stateBuf // data's pooled buffer, if it has one (broadcast)
}

// stateBuf is an encoded state that broadcast queues for every
// connection of a seat: its bytes go back to statePool, for another
// state, once every connection it was queued for has written it or
// dropped it unwritten for a newer state (its refs, one per queue it is
// in and one for broadcast itself, fall to zero). A connection that ends
// with states queued, or fails to write them, leaves them to the garbage
// collector.
type stateBuf struct {
	b    []byte
	refs atomic.Int32
}

var statePool = sync.Pool{New: func() any { return new(stateBuf) }}

// newStateBuf takes a buffer from the pool, held once (by the caller).
func newStateBuf() *stateBuf {
	sb := statePool.Get().(*stateBuf)
	sb.refs.Store(1)
	return sb
}

// hold counts one more holder of sb (nil: none).
func (sb *stateBuf) hold() {
	if sb != nil {
		sb.refs.Add(1)
	}
}

// release drops one holder of sb (nil: none); the last puts it back in
// the pool.
func (sb *stateBuf) release() {
	if sb == nil {
		return
	}
	// Below zero would be a release too many: the buffer is then left to
	// the collector rather than pooled twice (a panic here would take
	// the whole server down; TestStateBufShared checks the counts).
	if n := sb.refs.Add(-1); n == 0 && cap(sb.b) <= 64<<10 {
		sb.b = sb.b[:0]
		statePool.Put(sb)
	}
}

const (
	maxMessage = 4 << 10 // bytes a client message may hold
	sendBuffer = 32      // other messages queued for a slow client before it is dropped
	helloWait  = 10 * time.Second
	writeWait  = 10 * time.Second
	ratePerSec = 10 // client messages per second, sustained
	rateBurst  = 20
)

// The close reasons a client may be given (docs/protocol.md).
const (
	// RestartReason is the close reason (with close code 1012, service
	// restart) every connection gets when the server shuts down
	// gracefully; the browser UI shows it and reconnects.
	RestartReason   = "the server is restarting"
	overflowReason  = "too many messages waiting: reconnect for the current state"
	shutdownReason  = "the server is shutting down"
	serverFullFmt   = "the server is full (%d connections, its limit): try again in a minute"
	addrFullFmt     = "too many connections from your address (%d, the limit): close another tab or connection first"
	playerFullFmt   = "too many connections for this player (%d, the limit): close another tab or device first"
	behindReason    = "the server cannot read the table's newest state from its database just now: reconnect in a moment"
	statusRestart   = ws.StatusCode(1012) // service restart
	statusTryLater  = ws.StatusCode(1013) // try again later
	statusGoingAway = ws.StatusGoingAway  // 1001
	// closeWait is how long the server waits for the client's answer to
	// its close frame before it closes the socket.
	closeWait = 5 * time.Second
)

// close ends the connection with 1001 and no reason, unless it is
// already ending.
func (c *conn) close() { c.closeWith(statusGoingAway, "", false) }

// closeWith ends the connection with code and reason; with flush, what is
// queued is written first, otherwise it is dropped. The first call
// decides.
func (c *conn) closeWith(code ws.StatusCode, reason string, flush bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ending {
		return
	}
	c.ending, c.code, c.reason, c.flush = true, code, reason, flush
	if !flush {
		for _, q := range c.queue {
			q.buf.release()
		}
		c.queue = nil
	}
	c.kick()
}

// newConn returns a connection over nc, whose frames rd reads and out
// writes, not yet at any seat; start begins its pings.
func newConn(nc net.Conn, rd *wsReader, out *coalescer, addr string) *conn {
	return &conn{nc: nc, rd: rd, out: out, seat: -1, addr: addr, closed: make(chan struct{})}
}

// start pings the connection every ping from now on; a client has
// pongWait to answer each.
func (c *conn) start(ping, pongWait time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ping, c.pongWait = ping, pongWait
	if !c.ending {
		c.pinger = time.AfterFunc(ping, c.pingNow)
	}
}

// sendState queues a state message. Each is the whole view, so it replaces
// any state still waiting: a client that falls behind (a slow link, a busy
// machine) skips to the newest state instead of being dropped.
func (c *conn) sendState(m wire.State) {
	b, err := wire.AppendState(nil, &m)
	if err != nil {
		return
	}
	c.queueState(b)
}

// queueState queues an encoded state message (sendState); b may be
// shared with other connections and is not changed.
func (c *conn) queueState(b []byte) { c.queueShared(b, nil) }

// queueShared is queueState for b in sb, a pooled buffer (nil: none),
// which the queue then holds until b is written or dropped.
func (c *conn) queueShared(b []byte, sb *stateBuf) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ending {
		return
	}
	kept := c.queue[:0]
	for _, q := range c.queue {
		if !q.state {
			kept = append(kept, q)
		} else {
			q.buf.release() // stale, never to be written
		}
	}
	sb.hold()
	c.queue = append(kept, outMsg{data: b, state: true, buf: sb})
	c.kick()
}

// queueDelta queues b, a change of an event's state that needs every
// change before it. When an earlier state or change is still unwritten
// the client is behind: they and b are replaced by the whole state,
// full() (called with the queue's lock held).
func (c *conn) queueDelta(b []byte, full func() []byte) { c.queueEvent(b, false, full) }

// queueWhole queues b, an event's whole state, in place of any state or
// change still unwritten.
func (c *conn) queueWhole(b []byte) { c.queueEvent(nil, true, func() []byte { return b }) }

// queueEvent is queueDelta, or with whole queueWhole.
func (c *conn) queueEvent(b []byte, whole bool, full func() []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ending {
		return
	}
	kept, behind := c.queue[:0], false
	for _, q := range c.queue {
		if q.state || q.delta {
			q.buf.release()
			behind = true
			continue
		}
		kept = append(kept, q)
	}
	if behind || whole {
		c.queue = append(kept, outMsg{data: full(), state: true})
	} else {
		c.queue = append(kept, outMsg{data: b, delta: true})
	}
	c.kick()
}

// sendJSON queues any other message (an error). These cannot be merged,
// so a client that lets sendBuffer of them pile up is disconnected (it
// gets everything afresh when it reconnects).
func (c *conn) sendJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.sendRaw(b)
}

// sendRaw queues an encoded message as sendJSON does; b may be shared
// with other connections and is not changed.
func (c *conn) sendRaw(b []byte) {
	c.mu.Lock()
	if c.ending {
		c.mu.Unlock()
		return
	}
	full := len(c.queue) >= sendBuffer
	if !full {
		c.queue = append(c.queue, outMsg{data: b})
		c.kick()
	}
	c.mu.Unlock()
	if full {
		c.closeWith(ws.StatusPolicyViolation, overflowReason, false)
	}
}

// kick starts a flush goroutine unless one runs. c.mu must be held. A
// connection without a socket (the tests') only queues.
func (c *conn) kick() {
	if !c.writing && c.nc != nil {
		c.writing = true
		go c.flushQueue()
	}
}

// flushQueue writes what is queued, in order, until the queue is empty;
// when the connection is ending it closes it (with a close handshake,
// after writing what was queued if closeWith said flush). Only one runs
// at a time for a connection (writing), so messages go out in the order
// they were queued.
func (c *conn) flushQueue() {
	for {
		c.mu.Lock()
		q, ending := c.queue, c.ending
		c.queue = nil
		if len(q) == 0 && !ending {
			c.writing = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		if len(q) > 0 && !c.writeAll(q) {
			c.end(false)
			return
		}
		for _, m := range q { // written: the WebSocket keeps no reference
			m.buf.release()
		}
		if ending { // nothing was queued after it
			c.end(true)
			return
		}
	}
}

// writeAll writes the messages q in one write to the socket, within
// writeWait; false when that fails. The messages are framed into the
// coalescer's buffer, and written at once (send).
func (c *conn) writeAll(q []outMsg) bool {
	c.out.gather()
	for _, m := range q {
		c.out.frame(ws.OpText, m.data)
	}
	return c.out.send(time.Now().Add(writeWait)) == nil
}

// end closes the WebSocket: with the close handshake (c's code and
// reason: the close frame, then the socket once the client has answered
// or gone, or closeWait has passed) or at once. Only flushQueue calls
// it, once.
func (c *conn) end(handshake bool) {
	if !handshake {
		c.shut()
		return
	}
	var body []byte
	if c.code != ws.StatusNoStatusRcvd { // the client's close had no code: nor has the answer
		body = ws.NewCloseFrameBody(c.code, c.reason)
	}
	err := c.out.control(ws.OpClose, body)
	c.closeSent.Store(true)
	if err != nil || c.gone.Load() {
		c.shut()
		return
	}
	time.AfterFunc(closeWait, c.shut)
}

// shut closes the socket, once: its pings stop, a watched connection's
// reading ends (unwatch), and finish goes on. Also for a client that
// does not answer a ping, or a drain's close, in time.
func (c *conn) shut() {
	if !c.shutDone.CompareAndSwap(false, true) {
		return
	}
	c.cut()
	c.mu.Lock()
	if c.pinger != nil {
		c.pinger.Stop()
	}
	c.mu.Unlock()
	c.unwatch()
	close(c.closed)
}

// readFailed is told that the client will send nothing more (its close
// frame came, or its socket ended or failed): once the server's close
// frame is written too, the socket is closed.
func (c *conn) readFailed() {
	c.gone.Store(true)
	if c.closeSent.Load() {
		c.shut()
	}
}

// pingNow pings the client; a client that has not answered the last
// ping within its pongWait is gone. The next ping is due a ping interval
// after the pong (pong).
func (c *conn) pingNow() {
	c.mu.Lock()
	if c.ending {
		c.mu.Unlock()
		return
	}
	if c.pingOut {
		c.mu.Unlock()
		wait := c.pongWait
		// A close frame, in case the client is only slow, without
		// waiting long for its answer.
		time.AfterFunc(min(wait, time.Second), c.shut)
		c.closeWith(statusGoingAway, fmt.Sprintf("no answer to a ping within %s: reconnect", wait), false)
		return
	}
	c.pingOut = true
	c.pingSeq++
	seq := c.pingSeq
	c.pinger.Reset(c.pongWait)
	c.mu.Unlock()
	if err := c.out.control(ws.OpPing, strconv.AppendUint(nil, uint64(seq), 10)); err != nil {
		c.close()
	}
}

// pong is told of a pong from the client, with payload p: the answer to
// the last ping puts the next one a ping interval from now.
func (c *conn) pong(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pingOut && string(p) == strconv.FormatUint(uint64(c.pingSeq), 10) {
		c.pingOut = false
		if !c.ending {
			c.pinger.Reset(c.ping)
		}
	}
}

// handleWS upgrades to a WebSocket. The first message is a hello with the
// seat token (none for a spectator); then the server sends the state
// after every change and the client sends actions. The handler returns
// once the connection is set up, so that nothing of the HTTP request is
// kept; the connection's reader goroutine (serve) does the rest.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	t, err := s.table(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	me, signedIn := s.account(r) // a seat of the account's is played by its session
	// The state sent is the seat's view (pitch.View): the policy says
	// whether the table may be had at all. A duplicate or daily table
	// under way is only for the players seated there: one who is not
	// known yet may still show a seat's token in the hello (serve asks
	// again then).
	d := access.Ask(r.Context(), access.TableLive, access.Signed(me.ID, signedIn), s.Subject(t.id))
	if !d.Allowed && d.Reason != access.RoundNotOver {
		s.writeError(w, r, httpx.Refused("watch", d))
		return
	}
	c, ok := s.upgrade(w, r, "table", t.id, me, signedIn)
	if !ok {
		return
	}
	go c.serve(s, t, me, signedIn)
}

// upgrade accepts a WebSocket (what, id: the table or event, for the
// log) opened by me's session (when signedIn), admits it within the
// server's limits and starts its pings; with
// ok false it has been refused (and closed) already. The caller's
// goroutine then serves it, and releases it from s.conns when it ends.
func (s *Server) upgrade(w http.ResponseWriter, r *http.Request, what, id string, me Account, signedIn bool) (c *conn, ok bool) {
	// The Origin must be this host (no cross-site play): a page of
	// another site cannot open a connection with this browser's session
	// cookie.
	if err := checkOrigin(r); err != nil {
		s.log.Info("websocket refused", what, id, "err", err.Error())
		http.Error(w, err.Error(), http.StatusForbidden)
		return nil, false
	}
	// No extension is agreed (no compression), nor a subprotocol. The
	// answer has the headers set already (the security headers).
	nc, brw, _, err := ws.HTTPUpgrader{Timeout: writeWait, Header: w.Header()}.Upgrade(r, w)
	if err != nil {
		s.log.Info("websocket refused", what, id, "err", err.Error())
		if nc != nil {
			_ = nc.Close()
		}
		return nil, false
	}
	c = newConn(nc, newWSReader(nc, brw.Reader), &coalescer{nc: nc}, httpx.ClientAddr(r))
	if signedIn {
		c.account, c.session = me.ID, me.Session
	}
	// Refused with a close reason: a browser cannot read an HTTP status of
	// a failed upgrade, but it can read this.
	if reason := s.gauge.overloaded(); reason != "" {
		s.gauge.refuse(refusedOverloaded, reason)
		c.refuse(statusTryLater, reason)
		s.noteUpgradeRefused(what, id, reason)
		return nil, false
	}
	if code, reason, kind := s.conns.admit(c, s.opts.AddrConns, s.opts.MaxConns); reason != "" {
		if kind != "" {
			s.gauge.refuse(kind, reason)
			s.noteUpgradeRefused(what, id, reason) // not a drain's restart
		}
		c.refuse(code, reason)
		return nil, false
	}
	c.start(s.opts.PingInterval, s.opts.PongWait)
	return c, true
}

// checkOrigin says why r, a WebSocket's upgrade, is refused for its
// Origin (nil: it is not): a browser's request from a page of another
// host than r's. A request without an Origin is not a browser's.
func checkOrigin(r *http.Request) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	switch {
	case err != nil:
		return fmt.Errorf("failed to parse Origin header %q: %w", origin, err)
	case strings.EqualFold(r.Host, u.Host):
		return nil
	case u.Host == "":
		return fmt.Errorf("request Origin %q is not a valid URL with a host", origin)
	}
	return fmt.Errorf("request Origin %q is not authorized for Host %q", u.Host, r.Host)
}

// refuse closes c, just upgraded, with code and reason, and returns once
// its socket is closed: it reads what the client sends until its answer
// to the close (or closeWait).
func (c *conn) refuse(code ws.StatusCode, reason string) {
	c.closeWith(code, reason, false)
	for !c.shutDone.Load() {
		if _, _, err := c.readMessage(); err != nil {
			break
		}
	}
	<-c.closed
}

// readHello reads the connection's first message, which must be a hello
// within helloWait; otherwise the connection is closed with the reason
// and ok is false.
func (c *conn) readHello(ctx context.Context) (hello wire.ClientMsg, ok bool) {
	late := time.AfterFunc(helloWait, func() {
		c.closeWith(ws.StatusPolicyViolation, fmt.Sprintf("no hello within %s: send {\"type\":\"hello\",\"token\":...} first", helloWait), false)
	})
	_, data, err := c.readMessage()
	if !late.Stop() || err != nil {
		// Late: closing with the reason. Otherwise the client is gone,
		// or its message was refused (too big): the close says so.
		return hello, false
	}
	if err := json.Unmarshal(data, &hello); err != nil || hello.Type != "hello" {
		c.closeWith(ws.StatusPolicyViolation, `the first message must be {"type":"hello","token":...}`, false)
		return hello, false
	}
	if why := protocolError(hello.Protocol); why != "" {
		c.closeWith(ws.StatusPolicyViolation, why, false)
		return hello, false
	}
	return hello, true
}

// serve is the connection's first goroutine: it reads the hello and
// seats the connection at t; then the reader (readOn) reads and handles
// the client's messages until the connection ends.
func (c *conn) serve(s *Server, t *table, me Account, signedIn bool) {
	if !c.join(s, t, me, signedIn) {
		c.finish(s)
		return
	}
	ctx := context.Background()
	c.readOn(s.addrLimit(c), func(data []byte) { c.handle(ctx, t, data) }, func() {
		t.mu.Lock()
		delete(t.conns, c)
		t.touch()
		t.presenceChanged()
		if c.seat >= 0 {
			t.online[c.seat]--
			t.schedule(0) // with nobody there, a bot plays for the seat
		}
		t.mu.Unlock()
		c.finish(s)
	})
}

// finish closes the connection, waits for its close handshake to be
// done (or to time out) and counts it out of the server's connections:
// the last of a connection's goroutines calls it.
func (c *conn) finish(s *Server) {
	c.close()
	<-c.closed
	s.conns.release(c)
}

// join reads c's hello and seats it at t (a spectator, or a seat the
// hello's token or me's account holds), sending it the state; false
// when c was refused (and is closing).
func (c *conn) join(s *Server, t *table, me Account, signedIn bool) bool {
	ctx := context.Background()
	hello, ok := c.readHello(ctx)
	if !ok {
		return false
	}
	if s.cl != nil {
		// Several processes: the newest state, not the last note's (an
		// action just stored at another process, perhaps this client's own
		// before it was moved here), and a seat perhaps taken at another
		// process a moment ago.
		t.mu.Lock()
		unknown := hello.Token != "" && t.seatFor(hello.Token) < 0
		t.mu.Unlock()
		if err := s.refresh(ctx, t, unknown); err != nil {
			// Never a state older than the log: it may lack this client's
			// own action, stored at another process just before.
			c.closeWith(statusTryLater, behindReason, false)
			return false
		}
	}
	c.summary = hello.Summary
	c.fair = hello.Fair
	c.proto = hello.Protocol
	c.ops = wire.AppliesOps(hello.Ops)
	t.mu.Lock()
	var refused string
	if c.seat, refused = t.seatOf(hello.Token, me, signedIn); refused != "" {
		t.mu.Unlock()
		c.closeWith(ws.StatusPolicyViolation, refused, false)
		return false
	}
	if c.seat < 0 {
		// A spectator: the policy's word, now that the connection is
		// known to hold no seat.
		if d := access.Decide(access.TableLive, access.Signed(me.ID, signedIn), t.subjectOf()); !d.Allowed {
			t.mu.Unlock()
			c.closeWith(ws.StatusPolicyViolation, hiddenReason, false)
			return false
		}
	}
	if why := s.counted(c, c.seat >= 0, "seat:"+t.id+"/"+strconv.Itoa(c.seat)); why != "" {
		t.mu.Unlock()
		s.noteRefused(t.id, c.seat, why)
		return false
	}
	t.conns[c] = struct{}{}
	t.noteWaiting(c, hello.Token, me, signedIn)
	t.touch()
	if c.seat >= 0 {
		t.online[c.seat]++
		t.away[c.seat] = false
		t.invited[c.seat] = false // came to the new match: accepted (rematch.go)
	}
	t.presenceChanged()
	t.schedule(0) // a returning player takes the seat back; a paused table wakes
	t.broadcast() // the full current view to the newcomer, and "back" to the others
	if c.seat >= 0 {
		for _, m := range t.chat { // the table talk so far
			c.sendJSON(m)
		}
	}
	t.mu.Unlock()
	return true
}

// coalescer writes a connection's frames. Between gather and send it
// keeps them, in a buffer borrowed from a pool, and send writes them to
// the socket at once: a burst of messages is one write, and an idle
// connection holds no buffer. Otherwise (control frames: pongs, pings,
// the close) it writes each through. A frame is written whole under its
// lock, so frames never interleave.
type coalescer struct {
	nc  net.Conn
	mu  sync.Mutex
	on  bool
	buf *[]byte
	hdr [ws.MaxHeaderSize]byte // a frame's header is put together here
}

var gatherPool = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// appendWriter appends what is written to it.
type appendWriter []byte

func (a *appendWriter) Write(p []byte) (int, error) {
	*a = append(*a, p...)
	return len(p), nil
}

// put appends to b a frame of the server's (whole, unmasked) of opcode
// op and payload p. w.mu must be held: the header is put together in
// w.hdr.
func (w *coalescer) put(b *[]byte, op ws.OpCode, p []byte) {
	h := ws.Header{Fin: true, OpCode: op, Length: int64(len(p))}
	_ = ws.WriteHeaderBuffer((*appendWriter)(b), h, w.hdr[:]) // appending cannot fail
	*b = append(*b, p...)
}

// frame gathers a frame of opcode op and payload p (gather must have
// been called).
func (w *coalescer) frame(op ws.OpCode, p []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.put(w.buf, op, p)
}

// control writes a control frame of opcode op and payload p (at most
// 125 bytes): gathered if a burst is, else to the socket within
// writeWait.
func (w *coalescer) control(op ws.OpCode, p []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.on {
		w.put(w.buf, op, p)
		return nil
	}
	b := make([]byte, 0, 2+len(p))
	w.put(&b, op, p)
	if err := w.nc.SetWriteDeadline(time.Now().Add(writeWait)); err != nil {
		return err
	}
	_, err := w.nc.Write(b)
	_ = w.nc.SetWriteDeadline(time.Time{})
	return err
}

// gather starts keeping what is written.
func (w *coalescer) gather() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on = true
	if w.buf == nil {
		w.buf = gatherPool.Get().(*[]byte)
	}
}

// send writes what was gathered by deadline (zero: drops it instead)
// and writes through again.
func (w *coalescer) send(deadline time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.on = false
	var err error
	if b := w.buf; b != nil {
		if !deadline.IsZero() && len(*b) > 0 {
			if err = w.nc.SetWriteDeadline(deadline); err == nil {
				_, err = w.nc.Write(*b)
				_ = w.nc.SetWriteDeadline(time.Time{})
			}
		}
		w.buf = nil
		if cap(*b) <= 64<<10 {
			*b = (*b)[:0]
			gatherPool.Put(b)
		}
	}
	return err
}

// cut closes the connection at once, without a close handshake.
func (c *conn) cut() {
	if c.nc != nil {
		_ = c.nc.Close()
	}
}

// handle carries out one client message; a bad one gets an error message
// and changes nothing.
func (c *conn) handle(ctx context.Context, t *table, data []byte) {
	arrived := time.Now()
	var m wire.ClientMsg
	if err := wire.DecodeMsg(data, &m); err != nil {
		c.sendJSON(errorCode("bad_message", "not a message: "+err.Error()+`; send {"type":"action","action":{...}}`, nil))
		return
	}
	// The raw bytes, before json has replaced what is not UTF-8 with
	// U+FFFD: a message that is not UTF-8 text is refused whole.
	if i := httpx.InvalidUTF8(data); i >= 0 {
		if m.Type == "chat" {
			c.sendJSON(errorCode("chat_utf8", fmt.Sprintf("table talk must be valid UTF-8 text: byte %d of the message (0x%02X) is not", i, data[i]), nil))
		} else {
			c.sendJSON(errorCode("bad_message", fmt.Sprintf("not a message: byte %d (0x%02X) is not valid UTF-8; messages are JSON text in UTF-8", i, data[i]), nil))
		}
		return
	}
	switch m.Type {
	case "action":
		if c.seat < 0 {
			c.sendJSON(errorCode("spectator_act", "spectators may not act", nil))
			return
		}
		a, err := wire.DecodeAction(m.Action)
		if err != nil {
			c.sendJSON(errorCode("bad_action", "not an action: "+err.Error(), nil))
			return
		}
		if !c.lockLive(t) {
			return
		}
		err = t.act(ctx, c.seat, a, "")
		t.mu.Unlock()
		if err == nil {
			t.srv.actionLatency.add(time.Since(arrived))
		}
		if err != nil {
			if e := (*httpx.Error)(nil); !errors.As(err, &e) || e.Kind == httpx.Internal || e.Kind == httpx.Unavailable {
				t.logger().Warn("action failed", "seat", c.seat, "err", err.Error())
			}
			c.sendJSON(errorFor(err))
		}
	case "hello", "resync":
		t.mu.Lock()
		t.resend(c)
		t.mu.Unlock()
	case "ready":
		if !c.lockLive(t) {
			return
		}
		t.ready(c.seat, m.Hand)
		t.mu.Unlock()
	case "hint":
		c.hint(t)
	case "chat":
		c.chat(t, m.Text)
	case "contribute":
		if c.seat < 0 {
			c.sendJSON(errorCode("spectator_contribute", "spectators do not contribute to the deal", nil))
			return
		}
		if !c.lockLive(t) {
			return
		}
		var err error
		if m.Hash != "" && m.Value == "" {
			err = t.commitValue(c.seat, m.Commitment, m.Hash) // first the value's hash; the value once the contributors are frozen
		} else {
			err = t.contribute(c.seat, m.Commitment, m.Value)
		}
		if err != nil && t.wasSuperseded(m.Commitment) {
			err = nil // the driver changed: the page contributes to the new commitment once it sees it
		}
		if p := t.pending; err == nil && p != nil && !t.drives() {
			note := serverNote{Type: "contribute", Commitment: p.commitment}
			if got, ok := p.contribs[c.seat]; ok { // to the driver (cluster.go)
				note.Contribs = []pitch.Contribution{got}
			}
			if h, ok := p.hashes[c.seat]; ok {
				note.Hashes = map[int]string{c.seat: h}
			}
			if note.Contribs != nil || note.Hashes != nil {
				t.tell(note)
			}
		}
		t.mu.Unlock()
		if err != nil {
			c.sendJSON(errorFor(err))
		}
	default:
		c.sendJSON(errorCode("unknown_type", `unknown message type: send "action", "hint", "chat", "contribute" or "ready" (or "hello" or "resync" to get the state again)`, nil))
	}
}
