package eventview

import (
	"encoding/json"
	"fmt"

	"pitch/server/delta"
)

// Follower holds an event as a follower of its WebSocket does
// (docs/protocol.md, Events): the whole state of an "event" message,
// and each "event.delta" message's change applied to it. The page does
// the same in web/static/js/event.js; tests and the load test use this.
type Follower struct {
	V    int64           // the version held
	Doc  any             // the event, decoded (nil before the first whole state)
	Me   json.RawMessage // where the follower's person sits, as last sent
	Host bool            // the follower said hello with the host's token
	// Refused, to the host: the connections a limit refused lately
	// ([]Refusal), as last sent.
	Refused json.RawMessage
}

// followMsg is either message about the event.
type followMsg struct {
	Type  string          `json:"type"`
	V     int64           `json:"v"`
	Event json.RawMessage `json:"event"`
	Ops   []delta.Op      `json:"ops"`
	Host  bool            `json:"host"`
	Me    json.RawMessage `json:"me"`
	// Refused is sent to the host, and only when it changed.
	Refused json.RawMessage `json:"refused,omitempty"`
}

// ErrOutOfStep is Read's error for a change that does not follow the
// version held: the follower says hello again to get the whole state.
var ErrOutOfStep = fmt.Errorf("the change does not follow the version held: say hello again")

// Read takes one message of the event's WebSocket and returns its type.
// A message of another type (an error) changes nothing.
func (f *Follower) Read(b []byte) (string, error) {
	var m followMsg
	if err := json.Unmarshal(b, &m); err != nil {
		return "", err
	}
	switch m.Type {
	case "event":
		doc, err := delta.Decode(m.Event)
		if err != nil {
			return m.Type, err
		}
		f.V, f.Doc, f.Host = m.V, doc, m.Host
		f.Me, f.Refused = nil, m.Refused
		if len(m.Me) > 0 && string(m.Me) != "null" {
			f.Me = m.Me
		}
	case "event.delta":
		want := f.V + 1
		if len(m.Ops) == 0 {
			want = f.V
		}
		if f.Doc == nil || m.V != want {
			return m.Type, fmt.Errorf("%w (held %d, got %d)", ErrOutOfStep, f.V, m.V)
		}
		doc, err := delta.Apply(f.Doc, m.Ops)
		if err != nil {
			return m.Type, err
		}
		f.Doc, f.V = doc, m.V
		if len(m.Me) > 0 {
			f.Me = m.Me
		}
		if len(m.Refused) > 0 {
			f.Refused = m.Refused
		}
	}
	return m.Type, nil
}

// Event returns the event held, as JSON.
func (f *Follower) Event() json.RawMessage {
	b, _ := json.Marshal(f.Doc)
	return b
}

// Whole returns what is held as the whole-state message the server sends
// ("event", with host and me).
func (f *Follower) Whole() []byte {
	b, _ := json.Marshal(followMsg{Type: "event", V: f.V, Event: f.Event(), Host: f.Host, Me: f.Me, Refused: f.Refused})
	return b
}
