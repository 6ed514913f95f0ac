package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"pitch/server/delta"
	"pitch/server/eventview"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// evLive is what the tests read of an event beyond evWire: its clock and
// the host's pause and end.
type evLive struct {
	State  string `json:"state"`
	Round  int    `json:"round"`
	LeftMS *int64 `json:"left_ms"`
	Paused bool   `json:"paused"`
	Ended  bool   `json:"ended"`
	Rounds [][]struct {
		Table string `json:"table"`
		Seats []struct {
			Entry int `json:"entry"`
			From  int `json:"from"`
		} `json:"seats"`
	} `json:"rounds"`
}

func (ts *testServer) live(id string) evLive {
	ts.t.Helper()
	resp, b := ts.do("GET", "/api/events/"+id, "")
	var e evLive
	if err := json.Unmarshal(b, &e); err != nil || resp.StatusCode != 200 {
		ts.t.Fatalf("GET event: %d %v %s", resp.StatusCode, err, b)
	}
	return e
}

// refusal posts body to path and checks the status and the error code.
func (ts *testServer) refusal(path, body string, status int, code string) {
	ts.t.Helper()
	resp, b := ts.do("POST", path, body)
	var e struct {
		Error, Code string
	}
	_ = json.Unmarshal(b, &e)
	if resp.StatusCode != status || e.Code != code || e.Error == "" {
		ts.t.Errorf("POST %s %s: %d %s, want %d with code %q and a message", path, body, resp.StatusCode, b, status, code)
	}
}

// moves counts the stored actions of each table.
func (ts *testServer) moves(tables []string) []int {
	ts.t.Helper()
	var n []int
	for _, id := range tables {
		evs, err := ts.st.Events(bg, id)
		if err != nil {
			ts.t.Fatal(err)
		}
		n = append(n, len(evs))
	}
	return n
}

// TestEventPauseExtendEnd: the host pauses a round on the clock (the
// clock stops, the tables stand still, an action is refused as paused,
// and so it stays over a restart), extends it while paused, resumes it
// (play goes on, the clock runs again with what it had left), and ends
// the event (the round in play finishes and counts, nothing else may
// start). Each refusal has its code: not_host, no_event,
// event_not_playing, event_paused_already, event_not_paused, bad_minutes,
// event_ended.
func TestEventPauseExtendEnd(t *testing.T) {
	dsn := t.TempDir() + "/pitch.db"
	opts := fastOptions()
	opts.AwayDelay = 5 * time.Millisecond // nobody is at the tables: stand-ins play for them
	ts := startServer(t, dsn, opts)
	var c struct{ ID, Token string }
	ts.post("/api/events", `{"variant":"ten-point","rounds":3,"end":"clock","minutes":30,"movement":"progressive","switch_partners":true}`, 201, &c)
	id := c.ID
	host := fmt.Sprintf(`{"token":%q}`, c.Token)
	var tokens []string
	for i := range 8 {
		var j struct{ Token string }
		ts.post("/api/events/"+id+"/join", fmt.Sprintf(`{"name":"P%d"}`, i), 200, &j)
		tokens = append(tokens, j.Token)
	}
	ts.refusal("/api/events/"+id+"/pause", host, http.StatusConflict, "event_not_playing")
	ts.refusal("/api/events/nosuchevent/pause", host, http.StatusNotFound, "no_event")
	ts.post("/api/events/"+id+"/start", host, 200, nil)
	ts.refusal("/api/events/"+id+"/pause", fmt.Sprintf(`{"token":%q}`, tokens[0]), http.StatusForbidden, "not_host")
	ts.refusal("/api/events/"+id+"/resume", host, http.StatusConflict, "event_not_paused")
	ts.post("/api/events/"+id+"/pause", host, 200, nil)
	ts.refusal("/api/events/"+id+"/pause", host, http.StatusConflict, "event_paused_already")
	e := ts.live(id)
	if !e.Paused || e.LeftMS == nil || *e.LeftMS > 30*60*1000 || *e.LeftMS < 29*60*1000 {
		t.Fatalf("paused: %+v, want paused with about 30 minutes left", e)
	}
	held := *e.LeftMS
	var tables []string
	for _, tab := range e.Rounds[0] {
		tables = append(tables, tab.Table)
	}
	// A seat's connection: its state says paused, and an action is refused.
	var me meWire
	ts.post("/api/events/"+id+"/me", fmt.Sprintf(`{"token":%q}`, tokens[0]), 200, &me)
	hub := newHub(t, ts, me.Table, 1)
	cl := hub.connect("P0", me.Seat, me.SeatToken, false)
	hub.run(10*time.Second, "the paused state", func() bool { return cl.last != nil && cl.last.Paused })
	cl.refused(fmt.Sprintf(`{"seat":%d,"pass":true}`, me.Seat), "paused", 0)
	hub.run(10*time.Second, "the refusal", func() bool { return len(cl.bad) == 0 })
	if m := cl.msgs[len(cl.msgs)-1]; m.Code != "event_paused" {
		t.Errorf("the action while paused: code %q, want event_paused", m.Code)
	}
	cl.close()
	// The tables stand still, and stay paused over a restart.
	before := ts.moves(tables)
	time.Sleep(300 * time.Millisecond) // stand-ins move every few ms when play is on
	if after := ts.moves(tables); !slices.Equal(before, after) {
		t.Fatalf("actions while paused: %v, then %v", before, after)
	}
	ts.stop()
	ts = startServer(t, dsn, opts)
	time.Sleep(300 * time.Millisecond)
	if after := ts.moves(tables); !slices.Equal(before, after) {
		t.Fatalf("actions while paused, after a restart: %v, then %v", before, after)
	}
	if e := ts.live(id); !e.Paused || e.LeftMS == nil || *e.LeftMS != held {
		t.Fatalf("after a restart: %+v, want paused with %d ms held", e, held)
	}
	// Extended while paused: the held time grows; bad requests change nothing.
	ts.refusal("/api/events/"+id+"/extend", fmt.Sprintf(`{"token":%q,"minutes":0}`, c.Token), http.StatusBadRequest, "bad_minutes")
	ts.refusal("/api/events/"+id+"/extend", fmt.Sprintf(`{"token":%q,"minutes":5}`, tokens[1]), http.StatusForbidden, "not_host")
	ts.post("/api/events/"+id+"/extend", fmt.Sprintf(`{"token":%q,"minutes":5}`, c.Token), 200, nil)
	if e := ts.live(id); !e.Paused || *e.LeftMS != held+5*60*1000 {
		t.Fatalf("extended while paused: %+v, want %d ms held", e, held+5*60*1000)
	}
	ts.post("/api/events/"+id+"/resume", host, 200, nil)
	e = ts.live(id)
	if e.Paused || *e.LeftMS > held+5*60*1000 || *e.LeftMS < held+5*60*1000-60*1000 {
		t.Fatalf("resumed: %+v, want running from %d ms", e, held+5*60*1000)
	}
	waitUntil(t, 20*time.Second, "play to go on after resuming", func() bool {
		now := ts.moves(tables)
		for i := range now {
			if now[i] <= before[i] {
				return false
			}
		}
		return true
	})
	// The end: the hands in play are finished and count; nothing after.
	ts.refusal("/api/events/"+id+"/end", fmt.Sprintf(`{"token":%q}`, tokens[2]), http.StatusForbidden, "not_host")
	ts.post("/api/events/"+id+"/end", host, 200, nil)
	ts.refusal("/api/events/"+id+"/end", host, http.StatusConflict, "event_ended")
	ts.refusal("/api/events/"+id+"/extend", fmt.Sprintf(`{"token":%q,"minutes":5}`, c.Token), http.StatusConflict, "event_ended")
	ts.refusal("/api/events/"+id+"/pause", host, http.StatusConflict, "event_ended")
	ts.refusal("/api/events/"+id+"/join", `{"name":"Late"}`, http.StatusConflict, "event_ended")
	end := ts.waitEvent(id, "the event's end", func(e evWire) bool { return e.State == "over" })
	if len(end.Rounds) != 1 {
		t.Errorf("%d rounds after the end, want the 1 in play", len(end.Rounds))
	}
	for ti, tab := range end.Rounds[0] {
		_, deltas, scores := finalScores(t, ts, tab.Table)
		if tab.Result == nil || !slices.Equal(tab.Result.Scores, scores) || len(tab.Result.Hands) != len(deltas) || len(deltas) == 0 {
			t.Errorf("table %d: result %+v, the store has %d hands, scores %v", ti+1, tab.Result, len(deltas), scores)
		}
	}
	for _, s := range end.Standings {
		if s.Rounds != 1 {
			t.Errorf("%s: %d rounds counted, want 1", s.Name, s.Rounds)
		}
	}
	ts.refusal("/api/events/"+id+"/start", host, http.StatusConflict, "event_ended")
}

// waitUntil polls ok every 20 ms, failing the test after d.
func waitUntil(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// evSocket is a connection following an event.
type evSocket struct {
	t   *testing.T
	ws  *websocket.Conn
	ctx context.Context
	f   eventview.Follower // the event as the page holds it
}

type evPush struct {
	Type  string `json:"type"`
	Code  string `json:"code"`
	Host  bool   `json:"host"`
	Event struct {
		State   string `json:"state"`
		Round   int    `json:"round"`
		Entries []struct {
			Name string `json:"name"`
		} `json:"entries"`
	} `json:"event"`
	Me *meWire `json:"me"`
}

func (ts *testServer) follow(id, hello string) *evSocket {
	ts.t.Helper()
	ctx, cancel := context.WithTimeout(bg, 30*time.Second)
	ts.t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.hs.URL, "http")+"/api/events/"+id+"/ws", nil)
	if err != nil {
		ts.t.Fatal(err)
	}
	ts.t.Cleanup(func() { ws.CloseNow() })
	if err := ws.Write(ctx, websocket.MessageText, []byte(hello)); err != nil {
		ts.t.Fatal(err)
	}
	return &evSocket{t: ts.t, ws: ws, ctx: ctx}
}

// next reads the next message: an event's state (a change applied to
// what was held, given as the whole) or another message.
func (s *evSocket) next() (evPush, error) {
	var m evPush
	_, b, err := s.ws.Read(s.ctx)
	if err != nil {
		return m, err
	}
	typ, err := s.f.Read(b)
	if err != nil {
		return m, err
	}
	if typ == "event" || typ == "event.delta" {
		b = s.f.Whole()
	}
	return m, json.Unmarshal(b, &m)
}

// until reads messages until ok holds of one.
func (s *evSocket) until(what string, ok func(evPush) bool) evPush {
	s.t.Helper()
	for {
		m, err := s.next()
		if err != nil {
			s.t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(m) {
			return m
		}
	}
}

// TestEventSocket: a page follows an event over its WebSocket and is
// sent the event after every change, without asking: a join, the start
// of a round (with where the follower's person sits and their seat's
// token), a table's result, the pause. A token the event does not know is
// refused with a close that says so; a message other than hello is
// answered with an error.
func TestEventSocket(t *testing.T) {
	opts := fastOptions()
	opts.AwayDelay = 5 * time.Millisecond
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	var c struct{ ID, Token string }
	// Bots fill the gaps: with five, Ann is seated whatever the draw.
	ts.post("/api/events", `{"variant":"ten-point","rounds":2,"end":"hands","hands":1,"movement":"progressive","switch_partners":true,"fill":"bots"}`, 201, &c)
	var j struct{ Token string }
	ts.post("/api/events/"+c.ID+"/join", `{"name":"Ann"}`, 200, &j)
	ann := ts.follow(c.ID, fmt.Sprintf(`{"type":"hello","token":%q}`, j.Token))
	host := ts.follow(c.ID, fmt.Sprintf(`{"type":"hello","host":%q}`, c.Token))
	board := ts.follow(c.ID, `{"type":"hello","full":true}`)
	if m := host.until("the host's first state", func(evPush) bool { return true }); !m.Host || m.Me != nil || len(m.Event.Entries) != 1 {
		t.Errorf("the host's first message: %+v", m)
	}
	if m := ann.until("Ann's first state", func(evPush) bool { return true }); m.Host || m.Me == nil || m.Me.Entry != 0 || m.Me.Table != "" {
		t.Errorf("Ann's first message: %+v", m)
	}
	board.until("the board's first state", func(evPush) bool { return true })
	for i := range 4 {
		ts.post("/api/events/"+c.ID+"/join", fmt.Sprintf(`{"name":"P%d"}`, i), 200, nil)
	}
	board.until("the board to show 5 people", func(m evPush) bool { return len(m.Event.Entries) == 5 })
	ts.post("/api/events/"+c.ID+"/start", fmt.Sprintf(`{"token":%q}`, c.Token), 200, nil)
	m := ann.until("Ann's table", func(m evPush) bool { return m.Me != nil && m.Me.Table != "" })
	if m.Event.State != "playing" || m.Me.Round != 1 || m.Me.SeatToken == "" {
		t.Errorf("Ann seated: %+v", m)
	}
	board.until("round 1's results", func(m evPush) bool { return m.Event.State == "between" })
	// Bad hellos and messages.
	bad := ts.follow(c.ID, `{"type":"hello","token":"nobody"}`)
	if _, err := bad.next(); websocket.CloseStatus(err) != websocket.StatusPolicyViolation || !strings.Contains(err.Error(), "no one's in this event") {
		t.Errorf("an unknown token: %v, want a close saying so", err)
	}
	if err := board.ws.Write(board.ctx, websocket.MessageText, []byte(`{"type":"action"}`)); err != nil {
		t.Fatal(err)
	}
	if m := board.until("the error", func(m evPush) bool { return m.Type == "error" }); m.Code != "unknown_type" {
		t.Errorf("a message other than hello: %+v", m)
	}
	resp, b := ts.do("GET", "/api/events/nosuchevent/ws", "")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(b), `"no_event"`) {
		t.Errorf("following no event: %d %s", resp.StatusCode, b)
	}
}

// TestEventTableNoRematch: an event table whose round is over offers no
// next match: its state names the event, and a rematch is refused with
// the code rematch_event, which says where to go.
func TestEventTableNoRematch(t *testing.T) {
	opts := fastOptions()
	opts.AwayDelay = 5 * time.Millisecond
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	var c struct{ ID, Token string }
	ts.post("/api/events", `{"variant":"ten-point","rounds":2,"end":"hands","hands":1,"movement":"mixed","fill":"bots"}`, 201, &c)
	var j struct{ Token string }
	ts.post("/api/events/"+c.ID+"/join", `{"name":"Ann"}`, 200, &j)
	ts.post("/api/events/"+c.ID+"/start", fmt.Sprintf(`{"token":%q}`, c.Token), 200, nil)
	ts.waitEvent(c.ID, "round 1's end", func(e evWire) bool { return e.State == "between" })
	var me meWire
	ts.post("/api/events/"+c.ID+"/me", fmt.Sprintf(`{"token":%q}`, j.Token), 200, &me)
	h := newHub(t, ts, me.Table, 3)
	cl := h.connect("Ann", me.Seat, me.SeatToken, false)
	h.run(10*time.Second, "the state", func() bool { return cl.last != nil })
	if !cl.last.Over || cl.last.Table.Event != c.ID {
		t.Errorf("the table's state: over %v, event %q; want over, of event %s", cl.last.Over, cl.last.Table.Event, c.ID)
	}
	resp, b := ts.do("POST", "/api/tables/"+me.Table+"/rematch", fmt.Sprintf(`{"token":%q}`, me.SeatToken))
	var e struct {
		Error, Code string
		Params      map[string]any
	}
	_ = json.Unmarshal(b, &e)
	if resp.StatusCode != http.StatusConflict || e.Code != "rematch_event" || e.Params["Event"] != c.ID || !strings.Contains(e.Error, "/e/"+c.ID) {
		t.Errorf("a rematch at an event table: %d %s", resp.StatusCode, b)
	}
	if info, err := ts.st.Table(bg, me.Table); err != nil || info.Next != "" {
		t.Errorf("the table has a next match: %+v %v", info, err)
	}
}

// TestEventOnProfile: a signed-in player who joins an event has it on
// their profile (GET /api/users/NAME/events) with their place, of how
// many, and their total, as the event's standings say, once per event
// however often they join; someone who joins without an account is on
// no one's, and an unknown name is 404 no_such_user.
func TestEventOnProfile(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		testEventOnProfile(t, fresh(t))
	})
}

func testEventOnProfile(t *testing.T, dsn string) {
	opts := fastOptions()
	opts.AwayDelay = 5 * time.Millisecond
	ts := startServer(t, dsn, opts)
	ada := ts.browser()
	ada.must(201, "POST", "/api/account/signup", creds("Ada", goodPassword))
	var c struct{ ID, Token string }
	ts.post("/api/events", `{"variant":"ten-point","rounds":1,"end":"hands","hands":1,"movement":"mixed"}`, 201, &c)
	var j struct{ Entry int }
	if err := json.Unmarshal(ada.must(200, "POST", "/api/events/"+c.ID+"/join", `{"name":"Ada L."}`), &j); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		ts.post("/api/events/"+c.ID+"/join", fmt.Sprintf(`{"name":"Guest %d"}`, i), 200, nil)
	}
	ada.must(200, "POST", "/api/events/"+c.ID+"/join", `{"name":"Ada again"}`) // a second entry: the profile lists the event once
	type userEvent struct {
		Event, Variant, State string
		Place, Of, Total      int
		Rounds                int
	}
	var list []userEvent
	ts.getJSON("/api/users/ada/events", &list)
	if len(list) != 1 || list[0].Event != c.ID || list[0].State != "waiting" || list[0].Variant != "ten-point" {
		t.Fatalf("before the round: %+v", list)
	}
	ts.post("/api/events/"+c.ID+"/start", fmt.Sprintf(`{"token":%q}`, c.Token), 200, nil)
	e := ts.waitEvent(c.ID, "the event's end", func(e evWire) bool { return e.State == "over" })
	ts.getJSON("/api/users/ada/events", &list)
	var want userEvent
	for _, s := range e.Standings {
		if s.Entry == j.Entry {
			want = userEvent{Event: c.ID, Variant: "ten-point", State: "over", Place: s.Place, Of: len(e.Standings), Total: s.Total, Rounds: 1}
		}
	}
	if len(list) != 1 || list[0] != want || want.Place == 0 {
		t.Errorf("after the event: %+v, want %+v", list, want)
	}
	resp, b := ts.do("GET", "/api/users/nobody-here/events", "")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(b), `"no_such_user"`) {
		t.Errorf("an unknown player: %d %s", resp.StatusCode, b)
	}
}

// rawFollower reads an event's WebSocket message by message, as the page
// does: the whole event once, then each change applied to it.
type rawFollower struct {
	s     *evSocket
	bytes map[string]int // bytes received by message type
	count map[string]int
}

// read reads one message and applies it; it fails the test on a change
// that does not follow the version held.
func (f *rawFollower) read() string {
	f.s.t.Helper()
	_, b, err := f.s.ws.Read(f.s.ctx)
	if err != nil {
		f.s.t.Fatalf("reading: %v", err)
	}
	typ, err := f.s.f.Read(b)
	if err != nil {
		f.s.t.Fatalf("a %s message that does not apply: %v\n%s", typ, err, b)
	}
	f.bytes[typ] += len(b)
	f.count[typ]++
	return typ
}

// held is the event the follower holds.
func (f *rawFollower) held() map[string]any {
	m, _ := f.s.f.Doc.(map[string]any)
	return m
}

// until reads until ok holds of the event held.
func (f *rawFollower) until(what string, ok func(ev map[string]any, me map[string]any) bool) {
	f.s.t.Helper()
	for {
		f.read()
		var me map[string]any
		_ = json.Unmarshal(f.s.f.Me, &me)
		if ev := f.held(); ev != nil && ok(ev, me) {
			return
		}
	}
}

// TestEventFollowChanges: an event's followers get the whole event once
// and then only what changed, each change following the version before
// (docs/protocol.md, Events). A phone is sent its part: the latest
// round's tables, the first standings and its person's own line, the
// count of people but not the list; the board (hello "full") the whole.
// Standings count the rounds every table of which has finished. At the
// end what each holds is what the server shows, and the changes the
// board received add up to a small multiple of the event, not a copy of
// it for every change.
func TestEventFollowChanges(t *testing.T) {
	opts := fastOptions()
	opts.AwayDelay = 5 * time.Millisecond
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	var c struct{ ID, Token string }
	ts.post("/api/events", `{"variant":"ten-point","rounds":2,"end":"hands","hands":1,"movement":"progressive","switch_partners":true}`, 201, &c)
	tokens := make([]string, 16)
	for i := range tokens {
		var j struct{ Token string }
		ts.post("/api/events/"+c.ID+"/join", fmt.Sprintf(`{"name":"Person %d"}`, i+1), 200, &j)
		tokens[i] = j.Token
	}
	follow := func(hello string) *rawFollower {
		return &rawFollower{s: ts.follow(c.ID, hello), bytes: map[string]int{}, count: map[string]int{}}
	}
	last := len(tokens) - 1 // at the bottom of the standings, say: their own line comes anyway
	phone := follow(fmt.Sprintf(`{"type":"hello","token":%q}`, tokens[last]))
	board := follow(`{"type":"hello","full":true}`)
	if typ := phone.read(); typ != "event" {
		t.Fatalf("the phone's first message is %q, want the whole event", typ)
	}
	if typ := board.read(); typ != "event" {
		t.Fatalf("the board's first message is %q, want the whole event", typ)
	}
	if ev := phone.held(); len(ev["entries"].([]any)) != 0 || ev["people"] != float64(16) {
		t.Errorf("the phone's event: %d entries, people %v; want none listed, 16 counted", len(ev["entries"].([]any)), ev["people"])
	}
	if ev := board.held(); len(ev["entries"].([]any)) != 16 {
		t.Errorf("the board's event lists %d people, want 16", len(ev["entries"].([]any)))
	}
	host := fmt.Sprintf(`{"token":%q}`, c.Token)
	ts.post("/api/events/"+c.ID+"/start", host, 200, nil)
	phone.until("the phone's table in round 1", func(ev, me map[string]any) bool { return me != nil && me["table"] != nil })
	if ev := phone.held(); ev["standings_after"] != float64(0) {
		t.Errorf("round 1 playing: standings after %v rounds, want 0", ev["standings_after"])
	} else {
		for _, st := range ev["standings"].([]any) {
			if st := st.(map[string]any); st["total"] != float64(0) || st["rounds"] != float64(0) {
				t.Errorf("round 1 playing: a standing %v, want nothing counted yet", st)
			}
		}
	}
	board.until("round 1's end", func(ev, _ map[string]any) bool { return ev["state"] == "between" })
	// The phone's copy follows the board's by its own messages: wait for
	// the change that counts round 1, not only for a standing of its own.
	phone.until("the phone's standing after round 1", func(ev, me map[string]any) bool {
		return me != nil && me["standing"] != nil && ev["standings_after"] == float64(1)
	})
	ev := phone.held()
	if ev["standings_after"] != float64(1) || ev["standings_count"] != float64(16) || len(ev["standings"].([]any)) != eventview.PhoneTop {
		t.Errorf("after round 1 the phone has standings after %v rounds, %d lines of %v; want after 1, the first %d of 16",
			ev["standings_after"], len(ev["standings"].([]any)), ev["standings_count"], eventview.PhoneTop)
	}
	ts.post("/api/events/"+c.ID+"/start", host, 200, nil)
	board.until("round 2 playing", func(ev, _ map[string]any) bool { return ev["state"] == "playing" })
	if ev := board.held(); ev["standings_after"] != float64(1) {
		t.Errorf("round 2 playing: the board's standings are after %v rounds, want 1 (the round played)", ev["standings_after"])
	}
	phone.until("the phone's round 2", func(ev, _ map[string]any) bool { return len(ev["rounds"].([]any)) == 2 })
	if ev := phone.held(); len(ev["rounds"].([]any)[0].([]any)) != 0 || len(ev["rounds"].([]any)[1].([]any)) != 4 {
		t.Errorf("the phone in round 2 holds %d tables of round 1 and %d of round 2; want 0 and 4",
			len(ev["rounds"].([]any)[0].([]any)), len(ev["rounds"].([]any)[1].([]any)))
	}
	// A page that asks again mid-way gets the whole, and goes on from it.
	if err := phone.s.ws.Write(phone.s.ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	board.until("the event over", func(ev, _ map[string]any) bool { return ev["state"] == "over" })
	phone.until("the event over", func(ev, _ map[string]any) bool { return ev["state"] == "over" })
	if phone.count["event"] != 2 {
		t.Errorf("the phone got the whole event %d times, want twice (on opening, and asking again)", phone.count["event"])
	}
	// What each holds is what the server shows.
	var full eventview.Event
	if resp, b := ts.do("GET", "/api/events/"+c.ID, ""); resp.StatusCode != 200 || json.Unmarshal(b, &full) != nil {
		t.Fatalf("GET the event: %d %s", resp.StatusCode, b)
	}
	for _, f := range []struct {
		name string
		r    *rawFollower
		want eventview.Event
	}{{"board", board, full}, {"phone", phone, eventview.Phone(full)}} {
		b, _ := json.Marshal(f.want)
		want, _ := delta.Decode(b)
		got := f.r.held()
		delete(got, "left_ms")
		delete(want.(map[string]any), "left_ms")
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			t.Errorf("the %s holds\n%s\nwant\n%s", f.name, g, b)
		}
	}
	whole, _ := json.Marshal(full)
	if got := board.bytes["event.delta"]; got > 3*len(whole) {
		t.Errorf("the board's %d changes came to %d bytes, the whole event is %d: want the changes, not copies of it", board.count["event.delta"], got, len(whole))
	}
	t.Logf("board: %d changes, %d bytes (the whole event: %d); phone: %d changes, %d bytes", board.count["event.delta"], board.bytes["event.delta"], len(whole),
		phone.count["event.delta"], phone.bytes["event.delta"])
}

// TestEventHostSeesRefusals: when a limit refuses a connection to one of
// an event's tables, the host is told who, where and why (never a silent
// stand-in): a person's ninth connection to their seat, and a watcher
// over the address's limit. The board, which anyone may open, is not
// told.
func TestEventHostSeesRefusals(t *testing.T) {
	opts := fastOptions()
	opts.AddrConns = 2 // the board, and one watcher
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	var c struct{ ID, Token string }
	ts.post("/api/events", `{"variant":"ten-point","rounds":1,"end":"clock","minutes":30,"movement":"mixed"}`, 201, &c)
	var ann struct{ Token string }
	ts.post("/api/events/"+c.ID+"/join", `{"name":"Ann"}`, 200, &ann)
	for _, name := range []string{"Bo", "Cy", "Di"} {
		ts.post("/api/events/"+c.ID+"/join", fmt.Sprintf(`{"name":%q}`, name), 200, nil)
	}
	hostTok := fmt.Sprintf(`{"token":%q}`, c.Token)
	host := &rawFollower{s: ts.follow(c.ID, fmt.Sprintf(`{"type":"hello","host":%q}`, c.Token)), bytes: map[string]int{}, count: map[string]int{}}
	board := &rawFollower{s: ts.follow(c.ID, `{"type":"hello","full":true}`), bytes: map[string]int{}, count: map[string]int{}}
	ts.post("/api/events/"+c.ID+"/start", hostTok, 200, nil)
	ts.post("/api/events/"+c.ID+"/pause", hostTok, 200, nil) // the table stands still
	var me meWire
	ts.post("/api/events/"+c.ID+"/me", fmt.Sprintf(`{"token":%q}`, ann.Token), 200, &me)

	dial := func(hello string) (*websocket.Conn, error) {
		ctx, cancel := context.WithTimeout(bg, 10*time.Second)
		t.Cleanup(cancel)
		ws, _, err := websocket.Dial(ctx, ts.wsURL(me.Table), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.CloseNow() })
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(ctx, websocket.MessageText, []byte(hello)); err != nil {
			t.Fatal(err)
		}
		_, _, err = ws.Read(ctx) // the first state, or the close
		return ws, err
	}
	seatHello := fmt.Sprintf(`{"type":"hello","token":%q}`, me.SeatToken)
	for i := range 8 {
		if _, err := dial(seatHello); err != nil {
			t.Fatalf("Ann's connection %d: %v", i+1, err)
		}
	}
	if _, err := dial(seatHello); websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
		t.Fatalf("Ann's ninth connection: %v, want refused with 1013", err)
	}
	type refusal struct {
		Round, Table, Seat int
		Name, Reason       string
	}
	var got []refusal
	host.until("the host told of Ann's refusal", func(map[string]any, map[string]any) bool {
		got = nil
		_ = json.Unmarshal(host.s.f.Refused, &got)
		return len(got) == 1
	})
	if r := got[0]; r.Name != "Ann" || r.Round != 1 || r.Table != 1 || r.Seat != me.Seat || !strings.Contains(r.Reason, "too many connections") {
		t.Errorf("the host was told %+v, want Ann at round 1, table 1, seat %d, too many connections", r, me.Seat)
	}
	// A watcher over the address's limit (the board holds one of its two).
	if _, err := dial(`{"type":"hello"}`); err != nil {
		t.Fatalf("the first watcher: %v", err)
	}
	if _, err := dial(`{"type":"hello"}`); websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
		t.Fatalf("the second watcher: %v, want refused with 1013", err)
	}
	host.until("the host told of the watcher's refusal", func(map[string]any, map[string]any) bool {
		got = nil
		_ = json.Unmarshal(host.s.f.Refused, &got)
		return len(got) == 2
	})
	if r := got[1]; r.Seat != -1 || r.Name != "" || r.Table != 1 || !strings.Contains(r.Reason, "from your address") {
		t.Errorf("the host was told %+v, want a watcher (seat -1) at table 1 refused for the address", r)
	}
	// The board sees the event go on, and no refusal.
	ts.post("/api/events/"+c.ID+"/resume", hostTok, 200, nil)
	board.until("the board sees the resume", func(ev map[string]any, _ map[string]any) bool { return ev["paused"] == nil })
	if board.s.f.Refused != nil {
		t.Errorf("the board was told of refusals: %s", board.s.f.Refused)
	}
}
