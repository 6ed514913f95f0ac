package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/server"
)

// walkHidden walks every API route the server registers as someone not
// seated at table hidden, with {id} the hidden table (routes under
// /api/tables/{id}) or the event's ID (under /api/events/{id}), and fails
// if any route serves the table's data (a 2xx, or a WebSocket that stays
// open to watch it) or names the table anywhere in what it answers.
func walkHidden(t *testing.T, ts *testServer, b *browser, event, hidden string) {
	t.Helper()
	fill := strings.NewReplacer("{n}", "1", "{name}", "Nobody", "{round}", "1", "{deal}", "1", "{game}", "ten-point", "{$}", "")
	for _, rt := range server.RouteList(ts.srv) {
		method, path, _ := strings.Cut(rt.Pattern, " ")
		if !strings.HasPrefix(path, "/api/") {
			continue
		}
		id := hidden
		if strings.HasPrefix(path, "/api/events/") {
			id = event
		}
		url := fill.Replace(strings.ReplaceAll(path, "{id}", id))
		if strings.HasSuffix(path, "/ws") {
			if strings.HasPrefix(path, "/api/tables/") {
				checkHiddenSocket(t, ts, url)
			}
			continue
		}
		body := ""
		if method == "POST" {
			body = "{}"
		}
		resp, raw := b.do(method, url, body)
		if path == "/api/tables/{id}" {
			// The table's description shows no card (its own players'
			// page loads it first): it may be read.
			continue
		}
		if strings.HasPrefix(path, "/api/tables/{id}") && resp.StatusCode < 400 {
			t.Errorf("%s %s: %d, want it refused while the round is played: %.300s", method, url, resp.StatusCode, raw)
		}
		if strings.Contains(string(raw), hidden) {
			t.Errorf("%s %s names the hidden table: %.300s", method, url, raw)
		}
	}
	// The lists that take a table ID as a parameter.
	for _, url := range []string{"/api/history?tables=" + hidden, "/api/history", "/api/tables"} {
		if _, raw := b.do("GET", url, ""); strings.Contains(string(raw), hidden) {
			t.Errorf("GET %s names the hidden table: %.300s", url, raw)
		}
	}
}

// checkHiddenSocket opens a spectator's WebSocket to a hidden table: it
// must be refused, or closed at the hello, never sent a state.
func checkHiddenSocket(t *testing.T, ts *testServer, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.hs.URL, "http")+url, nil)
	if err != nil {
		return // refused at the upgrade
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		return
	}
	_, data, err := c.Read(ctx)
	if err == nil {
		t.Fatalf("a spectator of a hidden table was sent %.300s", data)
	}
	if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Errorf("a spectator of a hidden table: %v, want closed with 1008 (policy)", err)
	}
}

// TestDuplicateDealHidden: while a duplicate round is
// played, a table that has finished its deals is hidden — every route,
// the lists and the WebSocket — from everyone not seated at it, so no
// one at another table can read a deal they still have to play; once
// the round is over its hands are public.
func TestDuplicateDealHidden(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	id, tokens := startDuplicate(ts, 8, "H")
	tables := map[string][]int{} // the entries at each table
	var order []string
	for i := range 8 {
		var me meWire
		ts.post("/api/events/"+id+"/me", fmt.Sprintf(`{"token":%q}`, tokens[i]), 200, &me)
		if _, ok := tables[me.Table]; !ok {
			order = append(order, me.Table)
		}
		tables[me.Table] = append(tables[me.Table], i)
	}
	if len(order) != 2 {
		t.Fatalf("%d tables, want 2", len(order))
	}
	played, waiting := order[0], order[1]
	skip := map[int]bool{}
	for _, e := range tables[waiting] {
		skip[e] = true
	}
	playRound(t, ts, id, tokens, skip, 11) // the first table plays both deals; the second has not begun
	if hands, err := ts.st.Hands(bg, played); err != nil || len(hands) == 0 {
		t.Fatalf("the table that played has %d hands stored (%v)", len(hands), err)
	}

	walkHidden(t, ts, ts.browser(), id, played)
	// A signed-in account that holds no seat there is refused too.
	acct := ts.browser()
	acct.must(201, "POST", "/api/account/signup", creds("Lurker", goodPassword))
	walkHidden(t, ts, acct, id, played)

	// The round ends: the deals are public, and the tables named.
	skip = map[int]bool{}
	for _, e := range tables[played] {
		skip[e] = true
	}
	playRound(t, ts, id, tokens, skip, 12)
	ts.waitEvent(id, "the round's end", func(e evWire) bool { return e.State == "over" })
	b := ts.browser()
	for _, url := range []string{"/api/tables/" + played, "/api/tables/" + played + "/hands/1", "/api/tables/" + played + "/hands/1/replay", "/api/tables/" + played + "/match"} {
		if resp, raw := b.do("GET", url, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s after the round: %d %.200s, want 200", url, resp.StatusCode, raw)
		}
	}
	if _, raw := b.do("GET", "/api/events/"+id, ""); !strings.Contains(string(raw), played) {
		t.Errorf("the event's page does not name its tables after the round: %.300s", raw)
	}
	var hist struct {
		Tables []struct {
			ID string `json:"id"`
		} `json:"tables"`
	}
	_, raw := b.do("GET", "/api/history?tables="+played, "")
	if err := json.Unmarshal(raw, &hist); err != nil || len(hist.Tables) != 1 {
		t.Errorf("the history after the round: %s (%v), want the table", raw, err)
	}
}

// TestDailyDealHiddenAndNoHelp: a daily
// deal's table offers no hint (it says why) and no review while the day
// runs; its hands are hidden from everyone else until the day is over —
// so nobody reads the deal and then plays it — and public after.
func TestDailyDealHiddenAndNoHelp(t *testing.T) {
	opts := fastOptions()
	opts.DailyDeals, opts.DailyBots = 2, "easy"
	var clock atomic.Int64
	day1 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	clock.Store(day1.UnixNano())
	opts.Clock = func() time.Time { return time.Unix(0, clock.Load()) }
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	var d dailyWire
	ts.getJSON("/api/daily", &d)
	g := d.Games[0]
	var me dailyMeWire
	ts.post("/api/daily/"+g.Variant+"/play", `{"guest":"guest-ann-0123456789","name":"Ann"}`, 200, &me)
	table, token := me.Seat.Table, me.Seat.SeatToken

	// The table says the expert's help is off, and refuses a hint.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ts.wsURL(table), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	send := func(v string) {
		if err := c.Write(ctx, websocket.MessageText, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	send(fmt.Sprintf(`{"type":"hello","token":%q}`, token))
	var st struct {
		Type  string `json:"type"`
		Code  string `json:"code"`
		Table struct {
			Hints     bool   `json:"hints"`
			AdviceOff string `json:"advice_off"`
		} `json:"table"`
	}
	read := func() {
		t.Helper()
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		st.Code = ""
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatal(err)
		}
	}
	read()
	if st.Type != "state" || st.Table.Hints || st.Table.AdviceOff != "competition" {
		t.Fatalf("the daily table's first state: %+v, want hints false and advice_off competition", st)
	}
	send(`{"type":"hint"}`)
	for st.Code == "" {
		read()
	}
	if st.Code != "hints_competition" {
		t.Errorf("a hint at the daily table: code %q, want hints_competition", st.Code)
	}
	c.CloseNow()

	h := newHub(t, ts, table, 41)
	ann := h.connect("Ann", 0, token, true)
	h.run(60*time.Second, "Ann's daily", func() bool { return ann.last != nil && ann.last.Over })
	ann.close()
	if hands, err := ts.st.Hands(bg, table); err != nil || len(hands) == 0 {
		t.Fatalf("Ann's table has %d hands stored (%v)", len(hands), err)
	}
	// Bob, who has yet to play the day's deals, can read nothing of Ann's.
	walkHidden(t, ts, ts.browser(), g.Event, table)
	// Ann's own page may: it shows her seat's token (her fair-deal
	// check reads each hand's record); the table says the rest waits.
	if resp, raw := ts.browser().do("GET", "/api/tables/"+table+"/hands/1", "", "Pitch-Seat", token); resp.StatusCode != http.StatusOK {
		t.Errorf("Ann's own hand with her seat's token: %d %.200s, want 200", resp.StatusCode, raw)
	}
	if resp, _ := ts.browser().do("GET", "/api/tables/"+table+"/hands/1", "", "Pitch-Seat", "not-a-token"); resp.StatusCode != http.StatusConflict {
		t.Errorf("a hand with a wrong seat token: %d, want 409", resp.StatusCode)
	}
	var info struct {
		RecordsHidden bool `json:"records_hidden"`
	}
	ts.getJSON("/api/tables/"+table, &info)
	if !info.RecordsHidden {
		t.Error("the daily table does not say its records are hidden")
	}

	// The next day: the first is over, and its hands are public (their
	// review too).
	clock.Store(day1.Add(24 * time.Hour).UnixNano())
	ts.getJSON("/api/daily", &d)
	waitUntil(t, 20*time.Second, "the day's deals public", func() bool {
		resp, _ := ts.do("GET", "/api/tables/"+table+"/hands/1", "")
		return resp.StatusCode == http.StatusOK
	})
	info.RecordsHidden = false
	ts.getJSON("/api/tables/"+table, &info)
	if info.RecordsHidden {
		t.Error("the daily table says its records are hidden after the day")
	}
	for _, url := range []string{"/api/tables/" + table, "/api/tables/" + table + "/hands/1/replay", "/api/tables/" + table + "/reviews"} {
		if resp, raw := ts.do("GET", url, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s after the day: %d %.200s, want 200", url, resp.StatusCode, raw)
		}
	}
}

// TestRatedNoHelp: a rated match offers no hint and no
// review until it is over, and its table says so.
func TestRatedNoHelp(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	b := ts.browser()
	b.must(201, "POST", "/api/account/signup", creds("Rater", goodPassword))
	var info struct {
		ID        string `json:"id"`
		Hints     bool   `json:"hints"`
		AdviceOff string `json:"advice_off"`
	}
	if err := json.Unmarshal(b.must(201, "POST", "/api/tables", `{"variant":"auction","rated":true}`), &info); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.must(200, "GET", "/api/tables/"+info.ID, ""), &info); err != nil {
		t.Fatal(err)
	}
	if info.Hints || info.AdviceOff != "competition" {
		t.Errorf("a rated table: hints %v, advice_off %q; want false, competition", info.Hints, info.AdviceOff)
	}
	var refused struct{ Code string }
	_ = json.Unmarshal(b.must(409, "GET", "/api/tables/"+info.ID+"/reviews", ""), &refused)
	if refused.Code != "advice_competition" {
		t.Errorf("the reviews of a rated match under way: code %q, want advice_competition", refused.Code)
	}
	// A casual table keeps its hints.
	info.Hints, info.AdviceOff = false, ""
	if err := json.Unmarshal(b.must(201, "POST", "/api/tables", `{"variant":"auction"}`), &info); err != nil {
		t.Fatal(err)
	}
	if !info.Hints || info.AdviceOff != "" {
		t.Errorf("a casual table: hints %v, advice_off %q; want true, none", info.Hints, info.AdviceOff)
	}
}

// playAtOnce sends n daily Plays of game at once from each browser and
// returns the tables they were seated at (status 200) and the statuses.
func playAtOnce(t *testing.T, game string, n int, bs ...*browser) (tables map[string]int, statuses map[int]int) {
	t.Helper()
	var mu sync.Mutex
	tables, statuses = map[string]int{}, map[int]int{}
	var wg sync.WaitGroup
	for _, b := range bs {
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("POST", b.ts.hs.URL+"/api/daily/"+game+"/play", strings.NewReader(`{}`))
				req.Header.Set("Content-Type", "application/json")
				resp, err := b.c.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				var me dailyMeWire
				_ = json.NewDecoder(resp.Body).Decode(&me)
				mu.Lock()
				defer mu.Unlock()
				statuses[resp.StatusCode]++
				if resp.StatusCode == 200 && me.Seat != nil {
					tables[me.Seat.Table]++
				}
			}()
		}
	}
	wg.Wait()
	return tables, statuses
}

// checkOneTry: the account's Plays sent at once all answered with the
// one table they made, and the day's event holds one entry of theirs.
func checkOneTry(t *testing.T, ts *testServer, event, name string, tables map[string]int, statuses map[int]int) {
	t.Helper()
	if len(tables) != 1 || statuses[200] == 0 || len(statuses) != 1 {
		t.Errorf("Plays at once: tables %v, statuses %v; want one table, every answer 200", tables, statuses)
	}
	e := ts.event(event)
	n := 0
	for _, st := range e.Entries {
		if st.Name == name {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the event holds %d entries of %s, want 1: %+v", n, name, e.Entries)
	}
}

// TestDailyOneTryAtOnce: an account's Plays sent at once — two tabs, or
// two processes on one PostgreSQL — make one table and one entry: the
// store's versioned update of the event decides, not either process.
func TestDailyOneTryAtOnce(t *testing.T) {
	opts := fastOptions()
	opts.DailyDeals, opts.DailyBots = 2, "easy"
	t.Run("one process", func(t *testing.T) {
		ts := startServer(t, t.TempDir()+"/pitch.db", opts)
		b := ts.browser()
		b.must(201, "POST", "/api/account/signup", creds("Twice", goodPassword))
		var d dailyWire
		ts.getJSON("/api/daily", &d)
		tables, statuses := playAtOnce(t, "ten-point", 8, b)
		checkOneTry(t, ts, d.Games[0].Event, "Twice", tables, statuses)
	})
	t.Run("two processes", func(t *testing.T) {
		o := opts
		o.Cluster, o.LeaseTTL = true, 2*time.Second
		a, bp := clusterPair(t, o)
		ba := a.browser()
		ba.must(201, "POST", "/api/account/signup", creds("Twice", goodPassword))
		bb := bp.withSession(ba.session())
		var d dailyWire
		a.getJSON("/api/daily", &d)
		tables, statuses := playAtOnce(t, "ten-point", 4, ba, bb)
		checkOneTry(t, a, d.Games[0].Event, "Twice", tables, statuses)
		checkOneTry(t, bp, d.Games[0].Event, "Twice", tables, statuses)
	})
}

// TestDailySeenAsGuest: a browser that played the day's deals as a guest
// has seen them: the account signed in on it is refused its ranked try
// (daily_seen); an account from another browser plays.
func TestDailySeenAsGuest(t *testing.T) {
	opts := fastOptions()
	opts.DailyDeals, opts.DailyBots = 2, "easy"
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	b := ts.browser()
	b.must(200, "POST", "/api/daily/auction/play", `{"guest":"guest-browser-0123456789","name":"Scout"}`)
	b.must(201, "POST", "/api/account/signup", creds("Scout", goodPassword))
	var refused struct{ Code string }
	if err := json.Unmarshal(b.must(409, "POST", "/api/daily/auction/play", `{"guest":"guest-browser-0123456789"}`), &refused); err != nil || refused.Code != "daily_seen" {
		t.Errorf("the account after its browser's guest try: %+v (%v), want daily_seen", refused, err)
	}
	// Another game of the day is not seen; another browser's account plays.
	b.must(200, "POST", "/api/daily/pawnee/play", `{"guest":"guest-browser-0123456789"}`)
	other := ts.browser()
	other.must(201, "POST", "/api/account/signup", creds("Fresh", goodPassword))
	other.must(200, "POST", "/api/daily/auction/play", `{"guest":"guest-other-0123456789"}`)
}
