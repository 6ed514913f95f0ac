package server_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// deskWire is what the tests read of a desk action's answer.
type deskWire struct {
	Event struct {
		Entries []struct {
			Entry      int    `json:"entry"`
			Name       string `json:"name"`
			Withdrawn  bool   `json:"withdrawn"`
			MergedInto *int   `json:"merged_into"`
		} `json:"entries"`
		Byes      [][]int `json:"byes"`
		Standings []struct {
			Entry     int  `json:"entry"`
			Total     int  `json:"total"`
			Withdrawn bool `json:"withdrawn"`
			Adjusted  []struct {
				Round  int    `json:"round"`
				Table  int    `json:"table"`
				Reason string `json:"reason"`
			} `json:"adjusted"`
		} `json:"standings"`
	} `json:"event"`
	Log []struct {
		At     time.Time `json:"at"`
		Action string    `json:"action"`
		Entry  int       `json:"entry"`
		Into   int       `json:"into"`
	} `json:"log"`
	Entry *int   `json:"entry"`
	Token string `json:"token"`
	Link  string `json:"link"`
}

// deskRoutes are the director's desk's routes, each with a body that
// would be good for the host (the token aside).
var deskRoutes = []struct{ path, body string }{
	{"desk", `{}`},
	{"desk/add", `{"name":"Walk-in"}`},
	{"desk/rename", `{"entry":0,"name":"Renamed"}`},
	{"desk/merge", `{"entry":1,"into":2}`},
	{"desk/withdraw", `{"entry":0}`},
	{"desk/adjust", `{"round":1,"table":1,"scores":[1,2,1,2],"reason":"typo"}`},
}

// withToken puts token into a JSON object body.
func withToken(body, token string) string {
	var m map[string]any
	_ = json.Unmarshal([]byte(body), &m)
	if token != "" {
		m["token"] = token
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// rawEvent is the event as anyone reads it, byte for byte.
func (ts *testServer) rawEvent(id string) string {
	ts.t.Helper()
	resp, b := ts.do("GET", "/api/events/"+id, "")
	if resp.StatusCode != 200 {
		ts.t.Fatalf("GET event: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

// TestEventDeskNotHost: every desk action is refused (403 not_host) to
// another event's host, to a person of the event, to no token and to a
// signed-in account that is not the host, and changes nothing.
func TestEventDeskNotHost(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	var ev, other struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	ts.post("/api/events", `{"variant":"ten-point","rounds":2,"end":"hands","hands":1,"movement":"mixed"}`, 201, &ev)
	ts.post("/api/events", `{"variant":"ten-point","rounds":2,"end":"hands","hands":1,"movement":"mixed"}`, 201, &other)
	var person struct {
		Token string `json:"token"`
	}
	for i := range 5 {
		ts.post("/api/events/"+ev.ID+"/join", fmt.Sprintf(`{"name":"P%d"}`, i), 200, &person)
	}
	signed := ts.browser()
	signed.must(201, "POST", "/api/account/signup", creds("Nosy", goodPassword))
	before := ts.rawEvent(ev.ID)
	for _, rt := range deskRoutes {
		path := "/api/events/" + ev.ID + "/" + rt.path
		for _, who := range []struct{ name, token string }{{"another event's host", other.Token}, {"a person", person.Token}, {"no token", ""}} {
			t.Run(rt.path+"/"+who.name, func(t *testing.T) {
				ts.refusal(path, withToken(rt.body, who.token), http.StatusForbidden, "not_host")
			})
		}
		resp, b := signed.do("POST", path, rt.body)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), `"not_host"`) {
			t.Errorf("%s as a signed-in account: %d %s, want 403 not_host", rt.path, resp.StatusCode, b)
		}
	}
	if after := ts.rawEvent(ev.ID); after != before {
		t.Errorf("refused desk actions changed the event:\n%s\n%s", before, after)
	}
}

// TestEventDesk: byes and the director's desk over HTTP. Five people at
// ten-point: one sits out round 1 and is told so (no table); the host
// adds a walk-in (who gets a token and a link), renames, adjusts a
// finished table with a reason (shown on the standings), withdraws a
// no-show (not seated in round 2) and merges a double entry (whose token
// then is the other's); two merges at once apply once; every bad request
// is refused with its code and changes nothing; everything is logged with
// its time and survives a restart.
func TestEventDesk(t *testing.T) {
	dsn := t.TempDir() + "/pitch.db"
	ts := startServer(t, dsn, fastOptions())
	var ev struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	ts.post("/api/events", `{"variant":"ten-point","rounds":3,"end":"hands","hands":1,"movement":"mixed"}`, 201, &ev)
	id, host := ev.ID, ev.Token
	api := func(path string) string { return "/api/events/" + id + "/" + path }
	tokens := map[int]string{}
	for i := range 3 {
		var j struct {
			Entry int    `json:"entry"`
			Token string `json:"token"`
		}
		ts.post(api("join"), fmt.Sprintf(`{"name":"P%d"}`, i), 200, &j)
		tokens[j.Entry] = j.Token
	}
	// Three people cannot make a table of four: refused, saying so.
	resp, b := ts.do("POST", api("start"), withToken(`{}`, host))
	if resp.StatusCode != 409 || !strings.Contains(string(b), `"event_too_few"`) || !strings.Contains(string(b), "4 needed") || !strings.Contains(string(b), `\"bots\"`) {
		t.Errorf("start with 3: %d %s, want 409 event_too_few saying 4 are needed and naming bots", resp.StatusCode, b)
	}
	for i := 3; i < 5; i++ {
		var j struct {
			Entry int    `json:"entry"`
			Token string `json:"token"`
		}
		ts.post(api("join"), fmt.Sprintf(`{"name":"P%d"}`, i), 200, &j)
		tokens[j.Entry] = j.Token
	}
	desk := func(path, body string) deskWire {
		t.Helper()
		var d deskWire
		ts.post(api(path), withToken(body, host), 200, &d)
		return d
	}
	ts.post(api("start"), withToken(`{}`, host), 200, nil)
	d := desk("desk", `{}`)
	if len(d.Event.Byes) != 1 || len(d.Event.Byes[0]) != 1 || len(d.Log) != 0 {
		t.Fatalf("round 1 byes %v, log %v: want one sitting out, no log", d.Event.Byes, d.Log)
	}
	bye := d.Event.Byes[0][0]
	var me struct {
		Entry int    `json:"entry"`
		Round int    `json:"round"`
		Table string `json:"table"`
		Bye   bool   `json:"bye"`
	}
	ts.post(api("me"), withToken(`{}`, tokens[bye]), 200, &me)
	if !me.Bye || me.Round != 1 || me.Table != "" {
		t.Errorf("the one sitting out is told %+v, want a bye in round 1 and no table", me)
	}
	for _, tab := range ts.event(id).Rounds[0] {
		for _, s := range tab.Seats {
			if s.Entry == bye || s.Bot {
				t.Errorf("round 1 seats %+v: the one sitting out, or a bot", tab.Seats)
			}
		}
	}

	// Refusals, each with its code, changing nothing.
	seated := ts.event(id).Rounds[0][0].Seats
	for _, c := range []struct {
		path, body string
		status     int
		code       string
	}{
		{"desk/merge", `{"entry":1,"into":1}`, 400, "desk_merge_self"},
		{"desk/merge", fmt.Sprintf(`{"entry":%d,"into":%d}`, seated[0].Entry, seated[1].Entry), 409, "desk_merge_same_round"},
		{"desk/merge", `{"entry":9,"into":1}`, 400, "desk_no_entry"},
		{"desk/merge", `{"into":1}`, 400, "desk_no_entry"},
		{"desk/rename", `{"entry":0,"name":""}`, 400, "bad_name"},
		{"desk/rename", `{"entry":42,"name":"X"}`, 400, "desk_no_entry"},
		{"desk/withdraw", `{"entry":-1}`, 400, "desk_no_entry"},
		{"desk/adjust", `{"round":1,"table":1,"scores":[1,2,1,2],"reason":"typo"}`, 409, "desk_not_finished"},
		{"desk/adjust", `{"round":1,"table":1,"scores":[1,2,1,2],"reason":" "}`, 400, "bad_reason"},
		{"desk/adjust", `{"round":2,"table":1,"scores":[1,2,1,2],"reason":"x"}`, 400, "desk_no_table"},
		{"desk/add", `{"name":"   "}`, 400, "bad_name"},
	} {
		before := ts.rawEvent(id)
		ts.refusal(api(c.path), withToken(c.body, host), c.status, c.code)
		if after := ts.rawEvent(id); after != before {
			t.Errorf("%s %s refused but changed the event", c.path, c.body)
		}
	}

	// A walk-in, added by the host, with a token and a link.
	d = desk("desk/add", `{"name":"Walk-in"}`)
	if d.Entry == nil || d.Token == "" || d.Link != "/e/"+id+"#me="+d.Token {
		t.Fatalf("add: %+v", d)
	}
	walkIn := *d.Entry
	tokens[walkIn] = d.Token
	me.Bye = false
	ts.post(api("me"), withToken(`{}`, d.Token), 200, &me)
	if me.Entry != walkIn || me.Table != "" || me.Bye {
		t.Errorf("the walk-in's me %+v: want entry %d, not seated in round 1", me, walkIn)
	}
	d = desk("desk/rename", fmt.Sprintf(`{"entry":%d,"name":"Walk-in Wanda"}`, walkIn))
	if d.Event.Entries[walkIn].Name != "Walk-in Wanda" {
		t.Errorf("renamed: %+v", d.Event.Entries[walkIn])
	}

	playRound(t, ts, id, tokens, nil, 11)
	e := ts.waitEvent(id, "round 1's results", func(e evWire) bool { return e.State == "between" })
	tab := e.Rounds[0][0]
	sc := tab.Result.Scores
	adj := []int{sc[0] + 3, sc[1], sc[2] + 3, sc[3]}
	d = desk("desk/adjust", fmt.Sprintf(`{"round":1,"table":1,"scores":[%d,%d,%d,%d],"reason":"3 points missed on the card"}`, adj[0], adj[1], adj[2], adj[3]))
	// The one who sat out: the average of the four, halves up.
	byeScore := int(math.Floor(float64(adj[0]+adj[1])/2 + 0.5))
	for _, st := range d.Event.Standings {
		seat := slices.IndexFunc(tab.Seats, func(s struct {
			Entry int    `json:"entry"`
			Name  string `json:"name"`
			Bot   bool   `json:"bot"`
		}) bool {
			return s.Entry == st.Entry
		})
		switch {
		case seat >= 0 && (st.Total != adj[seat] || len(st.Adjusted) != 1 || st.Adjusted[0].Reason != "3 points missed on the card"):
			t.Errorf("standing %+v: want total %d and the reason", st, adj[seat])
		case st.Entry == bye && st.Total != byeScore:
			t.Errorf("the bye's standing %+v: want the round's average %d", st, byeScore)
		}
	}

	// A no-show withdrawn between rounds; the walk-in's double merged.
	noShow := seated[3].Entry
	d = desk("desk/withdraw", fmt.Sprintf(`{"entry":%d}`, noShow))
	if !d.Event.Entries[noShow].Withdrawn {
		t.Errorf("withdrawn: %+v", d.Event.Entries[noShow])
	}
	var twin deskWire
	ts.post(api("desk/add"), withToken(`{"name":"Wanda again"}`, host), 200, &twin)
	tokens[*twin.Entry] = twin.Token
	// Two merges at once: one applies, the other is refused.
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for k := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := ts.do("POST", api("desk/merge"), withToken(fmt.Sprintf(`{"entry":%d,"into":%d}`, *twin.Entry, walkIn), host))
			codes[k] = resp.StatusCode
		}()
	}
	wg.Wait()
	slices.Sort(codes)
	if !slices.Equal(codes, []int{200, 409}) {
		t.Errorf("two merges at once: %v, want one 200 and one 409", codes)
	}
	ts.post(api("me"), withToken(`{}`, twin.Token), 200, &me)
	if me.Entry != walkIn {
		t.Errorf("the merged entry's token is entry %d, want %d", me.Entry, walkIn)
	}

	// A restart keeps it all; round 2 seats the walk-in, not the no-show
	// nor the merged entry.
	ts.stop()
	ts = startServer(t, dsn, fastOptions())
	d = desk("desk", `{}`)
	var acts []string
	for _, l := range d.Log {
		acts = append(acts, l.Action)
		if l.At.IsZero() {
			t.Errorf("log entry %+v has no time", l)
		}
	}
	if want := []string{"add", "rename", "adjust", "withdraw", "add", "merge"}; !slices.Equal(acts, want) {
		t.Errorf("log %v, want %v", acts, want)
	}
	if m := d.Event.Entries[*twin.Entry].MergedInto; m == nil || *m != walkIn {
		t.Errorf("after the restart the merge is gone: %+v", d.Event.Entries[*twin.Entry])
	}
	ts.post(api("start"), withToken(`{}`, host), 200, nil)
	e = ts.event(id)
	in := map[int]bool{}
	for _, tab := range e.Rounds[1] {
		for _, s := range tab.Seats {
			in[s.Entry] = true
		}
	}
	if in[noShow] || in[*twin.Entry] || !in[walkIn] || in[-1] {
		t.Errorf("round 2 seats %v: want the walk-in, not the no-show %d, the merged %d nor a bot", in, noShow, *twin.Entry)
	}
}

// TestClusterEventDesk: desk actions made at one process reach the other
// (its followers see a rename made elsewhere), and the same merge sent to
// both processes at once applies once: the process whose store update
// comes second makes it afresh on the merged event and refuses it.
func TestClusterEventDesk(t *testing.T) {
	a, b := clusterPair(t, clusterEventOptions(time.Second))
	var c struct{ ID, Token string }
	a.post("/api/events", `{"variant":"ten-point","rounds":2,"end":"hands","hands":1,"movement":"mixed"}`, 201, &c)
	api := func(path string) string { return "/api/events/" + c.ID + "/" + path }
	for i := range 4 {
		a.post(api("join"), fmt.Sprintf(`{"name":"P%d"}`, i), 200, nil)
	}
	boardB := followEvent(t, b, c.ID, `{"type":"hello","full":true}`)
	const wait = 10 * time.Second
	waitFollowed(t, boardB, wait, "the board's first state", func(m evFollowed) bool { return len(m.Event.Entries) == 4 })
	a.post(api("desk/rename"), withToken(`{"entry":1,"name":"Renamed at A"}`, c.Token), 200, nil)
	waitFollowed(t, boardB, wait, "the rename on b's board", func(m evFollowed) bool { return m.Event.Entries[1].Name == "Renamed at A" })
	var x, y deskWire
	b.post(api("desk/add"), withToken(`{"name":"Twice"}`, c.Token), 200, &x)
	a.post(api("desk/add"), withToken(`{"name":"Twice again"}`, c.Token), 200, &y)
	body := withToken(fmt.Sprintf(`{"entry":%d,"into":%d}`, *y.Entry, *x.Entry), c.Token)
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for k, ts := range []*testServer{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := ts.do("POST", api("desk/merge"), body)
			codes[k] = resp.StatusCode
		}()
	}
	wg.Wait()
	slices.Sort(codes)
	if !slices.Equal(codes, []int{200, 409}) {
		t.Errorf("the same merge at both processes: %v, want one 200 and one 409", codes)
	}
	for _, ts := range []*testServer{a, b} {
		var d deskWire
		ts.post(api("desk"), withToken(`{}`, c.Token), 200, &d)
		merges := 0
		for _, l := range d.Log {
			if l.Action == "merge" {
				merges++
			}
		}
		if m := d.Event.Entries[*y.Entry].MergedInto; merges != 1 || m == nil || *m != *x.Entry {
			t.Errorf("after the merges: %d logged, merged into %v; want one, into %d", merges, m, *x.Entry)
		}
	}
}
