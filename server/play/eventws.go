package play

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"pitch/event"
	"pitch/server/delta"
	"pitch/server/eventview"
	"pitch/server/wire"
	"strconv"
	"time"

	"github.com/gobwas/ws"
)

// An event's live updates (docs/protocol.md, Events): a page follows an
// event over GET /api/events/{id}/ws. Its hello may carry the person's
// token (token) and the host's (host); the server answers with the
// event's whole state (an "event" message with its version v), and after
// every change (a join, a leave, a round started, a table's result, a
// pause, an extension, the end) sends only what changed: an
// "event.delta" message, the ops (package delta) that turn version v-1
// into v, the changes of eventPushDelay going out as one message. A
// follower that is behind (a message to it still unwritten when the next
// comes) gets the whole state again instead; one that finds itself out
// of step says hello again. Nothing else is asked of the client: the
// page renders from these messages alone.

// eventPushDelay gathers the changes of this long into one message.
const eventPushDelay = 50 * time.Millisecond

// eventSub is one connection following an event.
type eventSub struct {
	c     *conn
	entry int    // whose token the hello gave, or -1
	host  bool   // the hello gave the host's token
	full  bool   // it is sent the whole event (the host, the board), not a phone's part
	me    []byte // where the entry sits, as last sent (JSON)
	notes []byte // the host's notes (the refusals), as last sent (JSON)
	// asking: its whole is on the way (sendWhole); publish leaves it be
	asking bool
}

// The streams of an event's followers: a phone's part of the event
// (eventview.Phone), and the whole.
const (
	streamPhone = iota
	streamFull
)

// stream is which of the streams sub follows.
func (sub *eventSub) stream() int {
	if sub.full || sub.host {
		return streamFull
	}
	return streamPhone
}

// eventStream is what one stream's followers were last sent: its
// version, its JSON and its decoded tree, from which the next change is
// computed (nil while nobody follows it).
type eventStream struct {
	ver  int64
	raw  []byte
	tree any
}

// next makes raw the stream's latest and returns the ops that turn what
// was last sent into it (nil when nothing changed).
func (st *eventStream) next(raw []byte) []byte {
	if st.raw != nil && bytes.Equal(raw, st.raw) {
		return nil
	}
	tree, err := delta.Decode(raw)
	if err != nil {
		return nil
	}
	var ops []byte
	if d := delta.Diff(st.tree, tree); len(d) > 0 {
		if ops, err = json.Marshal(d); err != nil {
			return nil
		}
		st.ver++
	}
	st.raw, st.tree = raw, tree
	return ops
}

// eventMsg is the whole state a follower receives: the event as anyone
// may see it (eventview.Event, or a phone's part of it; marshalled once
// for every follower) at version V, whether they are its host, and
// where their person sits.
type eventMsg struct {
	Type  string          `json:"type"` // "event"
	V     int64           `json:"v"`
	Event json.RawMessage `json:"event"`
	Host  bool            `json:"host,omitempty"`
	Me    json.RawMessage `json:"me,omitempty"`
	// Refused, to the host: the connections a limit refused lately
	// (eventview.Refusal), newest last.
	Refused json.RawMessage `json:"refused,omitempty"`
}

// eventDelta is a change a follower receives: the ops that turn version
// V-1 of the event into version V, and where their person sits when
// that changed. A message that only says where they sit has no ops and
// keeps the version.
type eventDelta struct {
	Type string          `json:"type"` // "event.delta"
	V    int64           `json:"v"`
	Ops  json.RawMessage `json:"ops"`
	Me   json.RawMessage `json:"me,omitempty"`
	// Refused, to the host, when it changed: as in eventMsg.
	Refused json.RawMessage `json:"refused,omitempty"`
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

// push sends every follower what changed.
func (e *liveEvent) push() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pushDue = false
	e.publish()
}

// publish brings every follower up to date: when their stream differs
// from what they were last sent, each gets the change (or, if behind,
// the whole); when only where a person sits changed, that person gets
// it. The lock must be held.
func (e *liveEvent) publish() {
	var followed [2]bool
	for sub := range e.subs {
		followed[sub.stream()] = true
	}
	v := e.view()
	var ops [2][]byte
	for k := range e.sent {
		if !followed[k] {
			e.sent[k] = eventStream{} // nobody to compare with: the next follower gets the whole
			continue
		}
		part := v
		if k == streamPhone {
			part = eventview.Phone(v)
		}
		raw, err := json.Marshal(part)
		if err != nil {
			return
		}
		ops[k] = e.sent[k].next(raw)
	}
	stand := standingOf(v)
	notes := e.hostNotes()
	for sub := range e.subs {
		if sub.asking {
			continue
		}
		k := sub.stream()
		me := e.meOf(sub, stand)
		var mine []byte
		if sub.host {
			mine = notes
		}
		if ops[k] == nil && bytes.Equal(me, sub.me) && bytes.Equal(mine, sub.notes) {
			continue
		}
		m := eventDelta{Type: "event.delta", V: e.sent[k].ver, Ops: ops[k]}
		if m.Ops == nil {
			m.Ops = json.RawMessage("[]")
		}
		if !bytes.Equal(me, sub.me) {
			m.Me, sub.me = me, me
		}
		if !bytes.Equal(mine, sub.notes) {
			m.Refused, sub.notes = mine, mine
		}
		b, err := json.Marshal(m)
		if err != nil {
			continue
		}
		sub.c.queueDelta(b, func() []byte { return e.whole(sub, me) })
	}
}

// standingOf indexes v's standings by entry.
func standingOf(v eventview.Event) map[int]*event.Standing {
	m := make(map[int]*event.Standing, len(v.Stand))
	for i := range v.Stand {
		m[v.Stand[i].Entry] = &v.Stand[i]
	}
	return m
}

// meOf is where sub's person sits, with their standing (JSON; nil for a
// follower with no person). The lock must be held.
func (e *liveEvent) meOf(sub *eventSub, stand map[int]*event.Standing) []byte {
	if sub.entry < 0 {
		return nil
	}
	me := e.seatOf(sub.entry)
	me.Standing = stand[sub.entry]
	b, _ := json.Marshal(me)
	return b
}

// whole is sub's stream whole, as last sent, with me where its person
// sits. The lock must be held.
func (e *liveEvent) whole(sub *eventSub, me []byte) []byte {
	st := &e.sent[sub.stream()]
	m := eventMsg{Type: "event", V: st.ver, Event: st.raw, Host: sub.host, Me: me}
	sub.me = me
	if sub.host {
		m.Refused = e.hostNotes()
		sub.notes = m.Refused
	}
	b, _ := json.Marshal(m)
	return b
}

// sendWhole brings the other followers up to date, then queues sub's
// stream whole for it. The lock must be held.
func (e *liveEvent) sendWhole(sub *eventSub) {
	sub.asking = true
	e.publish()
	sub.asking = false
	me := e.meOf(sub, standingOf(e.view()))
	sub.c.queueWhole(e.whole(sub, me))
}

// handleEventWS upgrades to a WebSocket following event id; the
// connection's goroutine (follow) does the rest.
func (s *Server) handleEventWS(w http.ResponseWriter, r *http.Request) {
	e, err := s.event(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	me, signedIn := s.account(r) // its sockets end with the session
	c, ok := s.upgrade(w, r, "event", e.id, me, signedIn)
	if !ok {
		return
	}
	go c.follow(s, e)
}

// follow is an event connection's first goroutine: it reads the hello
// and sends the event; then the reader (readOn) keeps the connection
// among the event's followers until it ends.
func (c *conn) follow(s *Server, e *liveEvent) {
	sub := c.subscribe(s, e)
	if sub == nil {
		c.finish(s)
		return
	}
	c.readOn(s.addrLimit(c), func(data []byte) {
		var m wire.ClientMsg
		if err := json.Unmarshal(data, &m); err != nil || m.Type != "hello" {
			c.sendJSON(errorCode("unknown_type", `an event's connection only listens: send "hello" to get the event again, nothing else`, nil))
			return
		}
		e.mu.Lock()
		e.sendWhole(sub) // a page out of step asks again
		e.mu.Unlock()
	}, func() {
		e.mu.Lock()
		delete(e.subs, sub)
		if len(e.subs) == 0 {
			e.sent = [2]eventStream{}
		}
		e.mu.Unlock()
		c.finish(s)
	})
}

// subscribe reads c's hello and makes it one of e's followers, sending
// it the event; nil when c was refused (and is closing).
func (c *conn) subscribe(s *Server, e *liveEvent) *eventSub {
	ctx := context.Background()
	hello, ok := c.readHello(ctx)
	if !ok {
		return nil
	}
	sub := &eventSub{c: c, entry: -1, full: hello.Full}
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
			c.closeWith(ws.StatusPolicyViolation, "that token is no one's in this event: join first, or say hello without one to watch", false)
			return nil
		}
	}
	if hello.Host != "" {
		if sub.host = e.isHost(hello.Host); !sub.host {
			e.mu.Unlock()
			c.closeWith(ws.StatusPolicyViolation, "that is not the host's token of this event", false)
			return nil
		}
	}
	who := "entry:" + e.id + "/" + strconv.Itoa(sub.entry)
	if sub.host {
		who = "host:" + e.id
	}
	if why := s.counted(c, sub.entry >= 0 || sub.host, who); why != "" {
		e.mu.Unlock()
		s.noteEventRefused(e.id, sub.entry, why)
		return nil
	}
	if e.subs == nil {
		e.subs = map[*eventSub]struct{}{}
	}
	e.subs[sub] = struct{}{}
	e.sendWhole(sub)
	e.mu.Unlock()
	return sub
}
