package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"pitch"
)

// conn is one WebSocket connection to a table, for a seat or a spectator.
type conn struct {
	ws   *websocket.Conn
	seat int    // -1 for a spectator
	addr string // the client's address, for the rate limit

	mu    sync.Mutex
	queue []outMsg      // messages not yet written, in order
	wake  chan struct{} // (capacity 1) the writer has something to write
	once  sync.Once
	done  chan struct{}
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

func (c *conn) close() {
	c.once.Do(func() { close(c.done) })
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
		c.close()
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
	// Accept checks that the Origin is this host (no cross-site play).
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.log.Info("websocket refused", "table", t.id, "err", err.Error())
		return
	}
	ws.SetReadLimit(maxMessage)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	c := newConn(ws, clientAddr(r))

	hctx, hcancel := context.WithTimeout(ctx, helloWait)
	var hello clientMsg
	_, data, err := ws.Read(hctx)
	hcancel()
	if err != nil {
		ws.Close(websocket.StatusPolicyViolation, "send a hello first")
		return
	}
	if err := json.Unmarshal(data, &hello); err != nil || hello.Type != "hello" {
		ws.Close(websocket.StatusPolicyViolation, `the first message must be {"type":"hello","token":...}`)
		return
	}
	t.mu.Lock()
	if hello.Token != "" {
		c.seat = t.seatFor(hello.Token)
		if c.seat < 0 {
			t.mu.Unlock()
			ws.Close(websocket.StatusPolicyViolation, "that token holds no seat at this table")
			return
		}
	}
	t.conns[c] = struct{}{}
	if c.seat >= 0 {
		t.online[c.seat]++
		t.away[c.seat] = false
	}
	t.schedule(0) // a returning player takes the seat back; a paused table wakes
	t.broadcast() // the full current view to the newcomer, and "back" to the others
	t.mu.Unlock()

	defer func() {
		t.mu.Lock()
		delete(t.conns, c)
		if c.seat >= 0 {
			t.online[c.seat]--
			t.schedule(0) // with nobody there, a bot plays for the seat
		}
		t.mu.Unlock()
		c.close()
	}()
	go c.writer(ctx, cancel)
	c.reader(ctx, t)
}

func (c *conn) writer(ctx context.Context, cancel context.CancelFunc) {
	defer cancel()
	for {
		select {
		case <-c.wake:
			for _, m := range c.take() {
				wctx, wcancel := context.WithTimeout(ctx, writeWait)
				err := c.ws.Write(wctx, websocket.MessageText, m.data)
				wcancel()
				if err != nil {
					return
				}
			}
		case <-c.done:
			c.ws.Close(websocket.StatusGoingAway, "")
			return
		case <-ctx.Done():
			return
		}
	}
}

// reader handles the client's messages, rate limited.
func (c *conn) reader(ctx context.Context, t *table) {
	tokens, last := float64(rateBurst), time.Now()
	var warned time.Time // one "slow down" a second, so a flood cannot fill the send queue
	slowDown := func(msg string) {
		if time.Since(warned) >= time.Second {
			warned = time.Now()
			c.sendJSON(errorMsg{Type: "error", Message: msg})
		}
	}
	for {
		typ, data, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		now := time.Now()
		tokens = min(rateBurst, tokens+now.Sub(last).Seconds()*ratePerSec)
		last = now
		if tokens < 1 {
			slowDown("too many messages: slow down (10 a second at most); messages over the limit are dropped")
			continue
		}
		tokens--
		if !t.srv.limiter.allow(c.addr) {
			slowDown("too many messages from your address: slow down; messages over the limit are dropped")
			continue
		}
		if typ != websocket.MessageText {
			c.sendJSON(errorMsg{Type: "error", Message: "messages must be JSON text"})
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
		c.sendJSON(errorMsg{Type: "error", Message: "not a message: " + err.Error() + `; send {"type":"action","action":{...}}`})
		return
	}
	switch m.Type {
	case "action":
		if c.seat < 0 {
			c.sendJSON(errorMsg{Type: "error", Message: "spectators may not act"})
			return
		}
		var a pitch.Action
		if err := json.Unmarshal(m.Action, &a); err != nil {
			c.sendJSON(errorMsg{Type: "error", Message: "not an action: " + err.Error()})
			return
		}
		t.mu.Lock()
		err := t.act(ctx, c.seat, a)
		t.mu.Unlock()
		if err != nil {
			if e := (*Error)(nil); !errors.As(err, &e) || e.Kind == Internal || e.Kind == Unavailable {
				t.logger().Warn("action failed", "seat", c.seat, "err", err.Error())
			}
			_, msg := clientError(err)
			c.sendJSON(errorMsg{Type: "error", Message: msg})
		}
	case "hello":
		t.mu.Lock()
		c.sendState(t.stateFor(c.seat))
		t.mu.Unlock()
	default:
		c.sendJSON(errorMsg{Type: "error", Message: `unknown message type: send "action" (or "hello" to get the state again)`})
	}
}
