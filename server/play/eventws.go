package play

import (
	"context"
	"encoding/json"
	"net/http"
	"pitch/server/eventview"
	"pitch/server/wire"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// An event's live updates (docs/protocol.md, Events): a page follows an
// event over GET /api/events/{id}/ws. Its hello may carry the person's
// token (token) and the host's (host); the server answers with the
// event's state, and sends it again after every change (a join, a leave,
// a round started, a table's result, a pause, an extension, the end),
// the changes of eventPushDelay going out as one message. Nothing else
// is asked of the client: the page renders from these messages alone.

// eventPushDelay gathers the changes of this long into one message.
const eventPushDelay = 50 * time.Millisecond

// eventSub is one connection following an event.
type eventSub struct {
	c     *conn
	entry int  // whose token the hello gave, or -1
	host  bool // the hello gave the host's token
}

// eventMsg is what a follower receives: the event as anyone may see it
// (eventview.Event, marshalled once for every follower), whether they are its
// host, and where their person sits.
type eventMsg struct {
	Type  string            `json:"type"` // "event"
	Event json.RawMessage   `json:"event"`
	Host  bool              `json:"host,omitempty"`
	Me    *eventview.MySeat `json:"me,omitempty"`
}

// changed sends the event's followers its new state soon. The lock must
// be held.
func (e *liveEvent) changed() {
	if len(e.subs) == 0 || e.pushDue {
		return
	}
	e.pushDue = true
	time.AfterFunc(eventPushDelay, e.push)
}

// push sends every follower the event's state.
func (e *liveEvent) push() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pushDue = false
	raw, err := json.Marshal(e.view())
	if err != nil {
		return
	}
	for sub := range e.subs {
		e.send(sub, raw)
	}
}

// send queues the event's state raw (eventview.Event) for sub. The lock must
// be held.
func (e *liveEvent) send(sub *eventSub, raw json.RawMessage) {
	m := eventMsg{Type: "event", Event: raw, Host: sub.host}
	if sub.entry >= 0 {
		me := e.seatOf(sub.entry)
		m.Me = &me
	}
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	sub.c.queueState(b)
}

// handleEventWS upgrades to a WebSocket following event id; the
// connection's goroutine (follow) does the rest.
func (s *Server) handleEventWS(w http.ResponseWriter, r *http.Request) {
	e, err := s.event(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c, ok := s.upgrade(w, r, "event", e.id)
	if !ok {
		return
	}
	go c.follow(s, e)
}

// follow is an event connection's goroutine: it reads the hello, sends
// the event, and keeps the connection among the event's followers until
// it ends.
func (c *conn) follow(s *Server, e *liveEvent) {
	defer s.conns.release(c)
	defer func() {
		c.close()
		<-c.closed // the close handshake is done (or timed out)
	}()
	ctx := context.Background()
	hello, ok := c.readHello(ctx)
	if !ok {
		return
	}
	sub := &eventSub{c: c, entry: -1}
	e.mu.Lock()
	if hello.Token != "" {
		if sub.entry = e.entryOf(hello.Token); sub.entry < 0 && s.cl != nil {
			// Joined at another process a moment ago, its note not here
			// yet: the store has the join.
			e.mu.Unlock()
			if err := s.syncEvent(ctx, e.id, 0); err != nil {
				s.log.Warn("event: reading it for a hello", "event", e.id, "err", err.Error())
			}
			e.mu.Lock()
			sub.entry = e.entryOf(hello.Token)
		}
		if sub.entry < 0 {
			e.mu.Unlock()
			c.closeWith(websocket.StatusPolicyViolation, "that token is no one's in this event: join first, or say hello without one to watch", false)
			return
		}
	}
	if hello.Host != "" {
		if sub.host = e.isHost(hello.Host); !sub.host {
			e.mu.Unlock()
			c.closeWith(websocket.StatusPolicyViolation, "that is not the host's token of this event", false)
			return
		}
	}
	who := "entry:" + e.id + "/" + strconv.Itoa(sub.entry)
	if sub.host {
		who = "host:" + e.id
	}
	if !s.counted(c, sub.entry >= 0 || sub.host, who) {
		e.mu.Unlock()
		return
	}
	if e.subs == nil {
		e.subs = map[*eventSub]struct{}{}
	}
	e.subs[sub] = struct{}{}
	raw, _ := json.Marshal(e.view())
	e.send(sub, raw)
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.subs, sub)
		e.mu.Unlock()
	}()
	c.reader(ctx, s.addrLimit(c), func(data []byte) {
		var m wire.ClientMsg
		if err := json.Unmarshal(data, &m); err != nil || m.Type != "hello" {
			c.sendJSON(errorCode("unknown_type", `an event's connection only listens: send "hello" to get the event again, nothing else`, nil))
			return
		}
		e.mu.Lock()
		raw, _ := json.Marshal(e.view())
		e.send(sub, raw)
		e.mu.Unlock()
	})
}
