package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestProtocols: a client that says no protocol, or protocol 1 (an old
// page, pitch play), gets whole states and never a delta; one that says
// 2 gets a whole state with its version, then deltas, and a whole state
// again when it asks (resync); a hello with a protocol the server does
// not speak is refused with a close that says to reload the page, and
// changes nothing: the seat is not taken up, the table does not move.
func TestProtocols(t *testing.T) {
	ts := startServer(t, "", fastOptions())
	tab := ts.create(`{"variant":"auction","options":{"target":5},"seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
	token := ts.join(tab.ID, 0, "Ann")
	ctx, cancel := context.WithTimeout(bg, time.Minute)
	defer cancel()
	bots := ts.create(`{"variant":"auction","options":{"target":11},"seats":` + seatsBody("easy", "easy", "easy", "easy") + `}`)
	id := tab.ID
	dial := func(hello string) *websocket.Conn {
		ws, _, err := websocket.Dial(ctx, ts.wsURL(id), nil)
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(ctx, websocket.MessageText, []byte(hello)); err != nil {
			t.Fatal(err)
		}
		return ws
	}
	read := func(ws *websocket.Conn) map[string]json.RawMessage {
		_, data, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	tableNow := func() string {
		resp, b := ts.do(http.MethodGet, "/api/tables/"+tab.ID, "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET table: %s", resp.Status)
		}
		return string(b)
	}

	before := tableNow()
	for _, p := range []string{"3", "0.5", "-1", "99"} {
		ws := dial(`{"type":"hello","token":"` + token + `","protocol":` + p + `}`)
		_, _, err := ws.Read(ctx)
		if websocket.CloseStatus(err) != websocket.StatusPolicyViolation || (p != "0.5" && !strings.Contains(closeReason(err), "reload the page")) {
			t.Errorf("protocol %s: the connection ended with %v %q, want 1008 asking to reload", p, websocket.CloseStatus(err), closeReason(err))
		}
		ws.CloseNow()
	}
	if after := tableNow(); after != before {
		t.Errorf("refused hellos changed the table:\n%s\nwas\n%s", after, before)
	}

	// A table of bots plays while someone watches.
	id = bots.ID
	for _, hello := range []string{`{"type":"hello"}`, `{"type":"hello","protocol":1}`} {
		ws := dial(hello)
		for i := range 5 {
			m := read(ws)
			if string(m["type"]) != `"state"` || m["v"] != nil {
				t.Fatalf("%s: message %d is of type %s with version %s, want a whole state of protocol 1", hello, i, m["type"], m["v"])
			}
		}
		ws.CloseNow()
	}

	ws := dial(`{"type":"hello","protocol":2}`)
	defer ws.CloseNow()
	first := read(ws)
	if string(first["type"]) != `"state"` || first["v"] == nil {
		t.Fatalf("protocol 2: first a %s with version %s, want a whole state with one", first["type"], first["v"])
	}
	v := string(first["v"])
	deltas := 0
	for deltas < 3 {
		m := read(ws)
		if string(m["type"]) == `"state"` && m["v"] != nil {
			// A whole state in place of a delta with a copy or push,
			// which this hello did not say it applies.
			v = string(m["v"])
			continue
		}
		if string(m["type"]) != `"delta"` {
			continue // a chat line, say
		}
		if string(m["base"]) != v {
			t.Fatalf("protocol 2: a delta from version %s; the client holds %s", m["base"], v)
		}
		v = string(m["v"])
		deltas++
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"resync"}`)); err != nil {
		t.Fatal(err)
	}
	for {
		m := read(ws)
		if string(m["type"]) == `"state"` {
			if m["v"] == nil {
				t.Fatal("protocol 2: the whole state asked for has no version")
			}
			break
		}
	}
}
