package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"pitch"
)

// conn is one WebSocket connection to a table, for a seat or a spectator.
type conn struct {
	ws   *websocket.Conn
	nc   net.Conn // the connection under ws, to cut it when a drain runs out
	seat int      // -1 for a spectator
	addr string   // the client's address, for the rate limit

	mu    sync.Mutex
	queue []outMsg      // messages not yet written, in order
	wake  chan struct{} // (capacity 1) the writer has something to write
	once  sync.Once
	done  chan struct{} // closed when the connection is to end
	// Set once, before done is closed: how the connection ends.
	code   websocket.StatusCode
	reason string
	flush  bool        // write what is queued before closing
	deaf   atomic.Bool // the server is draining: messages from the client are not acted on
	chatAt time.Time   // table talk's token bucket (only the reader goroutine uses it)
	// summary: the client shows each hand's summary and says "ready"
	// (its hello said so; ready.go). Set before the connection joins its
	// table.
	summary bool
}

// outMsg is a message waiting to be written.
type outMsg struct {
	data  []byte
	state bool // a whole state, made stale by any later one
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
	behindReason    = "the server cannot read the table's newest state from its database just now: reconnect in a moment"
	statusRestart   = websocket.StatusServiceRestart // 1012
	statusTryLater  = websocket.StatusTryAgainLater  // 1013
	statusGoingAway = websocket.StatusGoingAway      // 1001
)

// close ends the connection with 1001 and no reason, unless it is
// already ending.
func (c *conn) close() { c.closeWith(statusGoingAway, "", false) }

// closeWith ends the connection with code and reason; with flush, what is
// queued is written first. The first call decides.
func (c *conn) closeWith(code websocket.StatusCode, reason string, flush bool) {
	c.once.Do(func() {
		c.code, c.reason, c.flush = code, reason, flush
		close(c.done)
	})
}

// newConn returns a connection for ws, not yet at any seat.
func newConn(ws *websocket.Conn, addr string) *conn {
	return &conn{ws: ws, seat: -1, addr: addr, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// sendState queues a state message. Each is the whole view, so it replaces
// any state still waiting: a client that falls behind (a slow link, a busy
// machine) skips to the newest state instead of being dropped.
func (c *conn) sendState(m stateMsg) {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	c.mu.Lock()
	kept := c.queue[:0]
	for _, q := range c.queue {
		if !q.state {
			kept = append(kept, q)
		}
	}
	c.queue = append(kept, outMsg{data: b, state: true})
	c.mu.Unlock()
	c.notify()
}

// sendJSON queues any other message (an error). These cannot be merged,
// so a client that lets sendBuffer of them pile up is disconnected (it
// gets everything afresh when it reconnects).
func (c *conn) sendJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.mu.Lock()
	full := len(c.queue) >= sendBuffer
	if !full {
		c.queue = append(c.queue, outMsg{data: b})
	}
	c.mu.Unlock()
	if full {
		c.closeWith(websocket.StatusPolicyViolation, overflowReason, false)
		return
	}
	c.notify()
}

func (c *conn) notify() {
	select {
	case c.wake <- struct{}{}:
	default: // the writer is already due to look
	}
}

// take returns the messages waiting to be written and empties the queue.
func (c *conn) take() []outMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queue
	c.queue = nil
	return q
}

// handleWS upgrades to a WebSocket. The first message is a hello with the
// seat token (none for a spectator); then the server sends the state
// after every change and the client sends actions.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	t, err := s.table(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	me, signedIn := s.account(r) // a seat of the account's is played by its session
	// Accept checks that the Origin is this host (no cross-site play): a
	// page of another site cannot open a connection with this browser's
	// session cookie.
	grab := &hijackGrabber{ResponseWriter: w}
	ws, err := websocket.Accept(grab, r, nil)
	if err != nil {
		s.log.Info("websocket refused", "table", t.id, "err", err.Error())
		return
	}
	ws.SetReadLimit(maxMessage)
	c := newConn(ws, clientAddr(r))
	c.nc = grab.nc
	// Refused with a close reason: a browser cannot read an HTTP status of
	// a failed upgrade, but it can read this.
	if reason := s.gauge.overloaded(); reason != "" {
		s.gauge.refuse(refusedOverloaded, reason)
		_ = ws.Close(statusTryLater, reason)
		return
	}
	if code, reason, kind := s.conns.admit(c, s.opts.AddrConns, s.opts.MaxConns); reason != "" {
		if kind != "" {
			s.gauge.refuse(kind, reason)
		}
		_ = ws.Close(code, reason)
		return
	}
	defer s.conns.release(c)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writer(ctx, cancel, s.opts.PingInterval)
	}()
	defer func() {
		c.close()
		<-writerDone // the close handshake is done (or timed out)
	}()

	hctx, hcancel := context.WithTimeout(ctx, helloWait)
	var hello clientMsg
	_, data, err := ws.Read(hctx)
	late := hctx.Err() != nil && ctx.Err() == nil
	hcancel()
	if err != nil {
		if late { // otherwise the client is gone, or its message was refused (too big): the close says so
			c.closeWith(websocket.StatusPolicyViolation, fmt.Sprintf("no hello within %s: send {\"type\":\"hello\",\"token\":...} first", helloWait), false)
		}
		return
	}
	if err := json.Unmarshal(data, &hello); err != nil || hello.Type != "hello" {
		c.closeWith(websocket.StatusPolicyViolation, `the first message must be {"type":"hello","token":...}`, false)
		return
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
			return
		}
	}
	c.summary = hello.Summary
	t.mu.Lock()
	var refused string
	if c.seat, refused = t.seatOf(hello.Token, me, signedIn); refused != "" {
		t.mu.Unlock()
		c.closeWith(websocket.StatusPolicyViolation, refused, false)
		return
	}
	t.conns[c] = struct{}{}
	t.touch()
	if c.seat >= 0 {
		t.online[c.seat]++
		t.away[c.seat] = false
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

	defer func() {
		t.mu.Lock()
		delete(t.conns, c)
		t.touch()
		t.presenceChanged()
		if c.seat >= 0 {
			t.online[c.seat]--
			t.schedule(0) // with nobody there, a bot plays for the seat
		}
		t.mu.Unlock()
	}()
	c.reader(ctx, t)
}

// hijackGrabber keeps the net.Conn that websocket.Accept hijacks.
type hijackGrabber struct {
	http.ResponseWriter
	nc net.Conn
}

// Hijack implements http.Hijacker.
func (g *hijackGrabber) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := http.NewResponseController(g.ResponseWriter).Hijack()
	g.nc = nc
	return nc, brw, err
}

// cut closes the connection at once, without a close handshake.
func (c *conn) cut() {
	if c.nc != nil {
		_ = c.nc.Close()
	}
}

// writer writes what is queued, pings the client every ping (a client
// that does not answer within pingWait is gone), and ends the connection
// when done is closed.
func (c *conn) writer(ctx context.Context, cancel context.CancelFunc, ping time.Duration) {
	defer cancel()
	tick := time.NewTicker(ping)
	defer tick.Stop()
	for {
		select {
		case <-c.wake:
			if !c.writeQueued(ctx) {
				_ = c.ws.CloseNow()
				return
			}
		case <-tick.C:
			pctx, pcancel := context.WithTimeout(ctx, pingWait(ping))
			err := c.ws.Ping(pctx)
			late := pctx.Err() != nil && ctx.Err() == nil
			pcancel()
			if err != nil {
				if late { // a close frame, in case the client is only slow, without waiting long for its answer
					t := time.AfterFunc(min(pingWait(ping), time.Second), c.cut)
					_ = c.ws.Close(statusGoingAway, fmt.Sprintf("no answer to a ping within %s: reconnect", pingWait(ping)))
					t.Stop()
				}
				_ = c.ws.CloseNow()
				return
			}
		case <-c.done:
			if c.flush && !c.writeQueued(ctx) {
				_ = c.ws.CloseNow()
				return
			}
			_ = c.ws.Close(c.code, c.reason)
			return
		case <-ctx.Done():
			_ = c.ws.CloseNow()
			return
		}
	}
}

// writeQueued writes every queued message, each within writeWait; false
// when a write fails.
func (c *conn) writeQueued(ctx context.Context) bool {
	for _, m := range c.take() {
		wctx, wcancel := context.WithTimeout(ctx, writeWait)
		err := c.ws.Write(wctx, websocket.MessageText, m.data)
		wcancel()
		if err != nil {
			return false
		}
	}
	return true
}

// pingWait is how long a client has to answer a ping.
func pingWait(every time.Duration) time.Duration { return max(every/2, time.Millisecond) }

// reader handles the client's messages, rate limited.
func (c *conn) reader(ctx context.Context, t *table) {
	tokens, last := float64(rateBurst), time.Now()
	var warned time.Time // one "slow down" a second, so a flood cannot fill the send queue
	slowDown := func(code, msg string) {
		if time.Since(warned) >= time.Second {
			warned = time.Now()
			c.sendJSON(errorCode(code, msg, nil))
		}
	}
	for {
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
		if !t.srv.limiter.allow(c.addr) {
			slowDown("rate_addr", "too many messages from your address: slow down; messages over the limit are dropped")
			continue
		}
		if typ != websocket.MessageText {
			c.sendJSON(errorCode("binary", "messages must be JSON text", nil))
			continue
		}
		c.handle(ctx, t, data)
	}
}

// handle carries out one client message; a bad one gets an error message
// and changes nothing.
func (c *conn) handle(ctx context.Context, t *table, data []byte) {
	var m clientMsg
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		c.sendJSON(errorCode("bad_message", "not a message: "+err.Error()+`; send {"type":"action","action":{...}}`, nil))
		return
	}
	// The raw bytes, before json has replaced what is not UTF-8 with
	// U+FFFD: a message that is not UTF-8 text is refused whole.
	if i := invalidUTF8(data); i >= 0 {
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
		var a pitch.Action
		if err := json.Unmarshal(m.Action, &a); err != nil {
			c.sendJSON(errorCode("bad_action", "not an action: "+err.Error(), nil))
			return
		}
		t.mu.Lock()
		if c.deaf.Load() { // checked under the lock: see Server.Shutdown
			t.mu.Unlock()
			return
		}
		err := t.act(ctx, c.seat, a, "")
		t.mu.Unlock()
		if err != nil {
			if e := (*Error)(nil); !errors.As(err, &e) || e.Kind == Internal || e.Kind == Unavailable {
				t.logger().Warn("action failed", "seat", c.seat, "err", err.Error())
			}
			c.sendJSON(errorFor(err))
		}
	case "hello":
		t.mu.Lock()
		c.sendState(t.stateFor(c.seat))
		t.mu.Unlock()
	case "ready":
		t.mu.Lock()
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
		t.mu.Lock()
		err := t.contribute(c.seat, m.Commitment, m.Value)
		if err != nil && t.wasSuperseded(m.Commitment) {
			err = nil // the driver changed: the page contributes to the new commitment once it sees it
		}
		if p := t.pending; err == nil && p != nil && !t.drives() {
			if got, ok := p.contribs[c.seat]; ok { // to the driver (cluster.go)
				t.tell(serverNote{Type: "contribute", Commitment: p.commitment, Contribs: []pitch.Contribution{got}})
			}
		}
		t.mu.Unlock()
		if err != nil {
			c.sendJSON(errorFor(err))
		}
	default:
		c.sendJSON(errorCode("unknown_type", `unknown message type: send "action", "hint", "chat", "contribute" or "ready" (or "hello" to get the state again)`, nil))
	}
}
