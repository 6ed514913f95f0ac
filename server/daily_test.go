package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pitch"
)

// dailyWire is GET /api/daily.
type dailyWire struct {
	Day   string `json:"day"`
	Games []struct {
		Variant     string   `json:"variant"`
		Event       string   `json:"event"`
		Deals       int      `json:"deals"`
		Bots        string   `json:"bots"`
		Over        bool     `json:"over"`
		Commitments []string `json:"commitments"`
		Players     int      `json:"players"`
		Standings   []struct {
			Entry   int     `json:"entry"`
			Name    string  `json:"name"`
			Place   int     `json:"place"`
			Percent float64 `json:"percent"`
			Boards  int     `json:"boards"`
		} `json:"standings"`
	} `json:"games"`
	Past []string `json:"past"`
}

type dailyMeWire struct {
	Played bool    `json:"played"`
	Done   bool    `json:"done"`
	Seat   *meWire `json:"seat"`
	Deal   int     `json:"deal"`
	Deals  int     `json:"deals"`
}

// TestDaily: three people (two guests, by their browsers' identities,
// and a signed-in player) play the day's ten-point daily deals alone
// with bots. Every table is dealt the same deals from the commitments
// published when the day opened, and each hand verifies against them;
// one try each; the standings are the matchpoints a count by hand gives
// (seat 0's result on each deal against the others'); nothing shows the
// tables or a deal's page before the day is over, and after it each deal's
// page links every replay; the signed-in player's result is on their
// profile; the next day lists the day as past.
func TestDaily(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		opts := fastOptions()
		opts.DailyDeals, opts.DailyBots = 3, "easy"
		var clock atomic.Int64
		day1 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		clock.Store(day1.UnixNano())
		opts.Clock = func() time.Time { return time.Unix(0, clock.Load()) }
		ts := startServer(t, fresh(t), opts)
		daily := func(q string) dailyWire {
			t.Helper()
			resp, b := ts.do("GET", "/api/daily"+q, "")
			if resp.StatusCode != 200 {
				t.Fatalf("GET /api/daily%s: %d %s", q, resp.StatusCode, b)
			}
			var d dailyWire
			if err := json.Unmarshal(b, &d); err != nil {
				t.Fatal(err)
			}
			return d
		}
		d := daily("")
		if d.Day != "2026-03-01" || len(d.Games) != 3 || d.Games[0].Variant != "ten-point" {
			t.Fatalf("today's daily: %+v, want 2026-03-01 with ten-point, auction, pawnee", d)
		}
		g := d.Games[0]
		if len(g.Commitments) != 3 || g.Bots != "easy" || g.Players != 0 || g.Over {
			t.Fatalf("ten-point daily %+v, want 3 commitments, easy bots, nobody yet", g)
		}
		if again := daily(""); again.Games[0].Event != g.Event || strings.Join(again.Games[0].Commitments, ",") != strings.Join(g.Commitments, ",") {
			t.Fatal("a second look at the day opened another event or other commitments")
		}
		// Bad requests change nothing.
		ts.post("/api/daily/ten-point/play", `{"guest":"short","name":"X"}`, 400, nil)
		ts.post("/api/daily/whist/play", `{"guest":"guest-aaaaaaaaaaaaaaaa","name":"X"}`, 404, nil)
		ts.post("/api/daily/ten-point/play", `{"guest":"guest-aaaaaaaaaaaaaaaa","name":""}`, 400, nil)
		ts.do("GET", "/api/daily?day=2026-13-01", "")
		if resp, _ := ts.do("GET", "/api/daily?day=2026-03-02", ""); resp.StatusCode != 400 {
			t.Errorf("a day to come: %d, want 400", resp.StatusCode)
		}

		// Ann and Bob, guests; Cy, signed in.
		cy := ts.browser()
		cy.must(201, "POST", "/api/account/signup", creds("Cy", goodPassword))
		type player struct {
			name string
			post func(path, body string, want int) []byte
			body string
		}
		guest := func(id, name string) player {
			return player{name, func(path, body string, want int) []byte {
				resp, b := ts.do("POST", path, body)
				if resp.StatusCode != want {
					t.Fatalf("POST %s: %d %s, want %d", path, resp.StatusCode, b, want)
				}
				return b
			}, fmt.Sprintf(`{"guest":%q,"name":%q}`, id, name)}
		}
		signedIn := func(name string) player {
			b := ts.browser()
			b.must(201, "POST", "/api/account/signup", creds(name, goodPassword))
			return player{name, func(path, body string, want int) []byte { return b.must(want, "POST", path, body) }, `{}`}
		}
		players := []player{signedIn("Ann"), signedIn("Bob"),
			{"Cy", func(path, body string, want int) []byte { return cy.must(want, "POST", path, body) }, `{}`}}
		var tables []string
		for k, p := range players {
			var me dailyMeWire
			if err := json.Unmarshal(p.post("/api/daily/ten-point/play", p.body, 200), &me); err != nil {
				t.Fatal(err)
			}
			if me.Seat == nil || me.Seat.Table == "" || me.Seat.Seat != 0 || me.Seat.SeatToken == "" {
				t.Fatalf("%s's seat: %+v", p.name, me)
			}
			tables = append(tables, me.Seat.Table)
			h := newHub(t, ts, me.Seat.Table, uint64(40+k))
			c := h.connect(p.name, 0, me.Seat.SeatToken, true)
			if k == 0 {
				// While they play, /me says how far through the day's
				// deals they are: the hands their table has finished, and
				// one ("deal 2 of 3" on /daily).
				if me.Deal != 1 || me.Deals != 3 {
					t.Errorf("%s at a new daily table: deal %d of %d, want 1 of 3", p.name, me.Deal, me.Deals)
				}
				stored := func() int {
					hands, err := ts.st.Hands(bg, me.Seat.Table)
					if err != nil {
						t.Fatal(err)
					}
					return len(hands)
				}
				h.run(60*time.Second, p.name+"'s first deal", func() bool { return stored() >= 1 })
				before := stored()
				var now dailyMeWire
				if err := json.Unmarshal(p.post("/api/daily/ten-point/me", p.body, 200), &now); err != nil {
					t.Fatal(err)
				}
				after := stored()
				if now.Seat != nil && (now.Deal < min(before+1, 3) || now.Deal > min(after+1, 3) || now.Deals != 3) {
					t.Errorf("%s after %d to %d finished hands: deal %d of %d", p.name, before, after, now.Deal, now.Deals)
				}
			}
			h.run(60*time.Second, p.name+"'s daily", func() bool { return c.last != nil && c.last.Over })
			c.close()
			// The table's result reaches the event a moment after its last
			// state (the table cannot take the event's lock).
			waitUntil(t, 20*time.Second, p.name+"'s result in the event", func() bool {
				var me dailyMeWire
				return json.Unmarshal(p.post("/api/daily/ten-point/me", p.body, 200), &me) == nil && me.Done
			})
			// One try each: a second is refused once the table is over.
			var again struct{ Code string }
			_ = json.Unmarshal(p.post("/api/daily/ten-point/play", p.body, 409), &again)
			if again.Code != "event_played" {
				t.Errorf("%s's second try: code %q, want event_played", p.name, again.Code)
			}
		}
		// A guest plays the day's deals too, unranked: told so, and in
		// nobody's standings or comparisons.
		dee := guest("guest-dee-0123456789", "Dee")
		var deeMe struct {
			dailyMeWire
			Unranked bool `json:"unranked"`
		}
		if err := json.Unmarshal(dee.post("/api/daily/ten-point/play", dee.body, 200), &deeMe); err != nil {
			t.Fatal(err)
		}
		if !deeMe.Unranked || deeMe.Seat == nil {
			t.Fatalf("the guest's daily: %+v, want a seat, unranked", deeMe)
		}
		hd := newHub(t, ts, deeMe.Seat.Table, 49)
		dc := hd.connect("Dee", 0, deeMe.Seat.SeatToken, true)
		hd.run(60*time.Second, "Dee's daily", func() bool { return dc.last != nil && dc.last.Over })
		dc.close()
		waitUntil(t, 20*time.Second, "Dee's result in the event", func() bool {
			var me dailyMeWire
			return json.Unmarshal(dee.post("/api/daily/ten-point/me", dee.body, 200), &me) == nil && me.Done
		})
		ev := ts.waitEvent(g.Event, "three results", func(e evWire) bool {
			return len(e.Rounds) == 1 && len(e.Rounds[0]) == 4 && len(e.Standings) == 3
		})
		for _, tab := range ev.Rounds[0] {
			if tab.Table != "" || tab.Result != nil {
				t.Errorf("the day is not over, but the event shows a table: %+v", tab)
			}
		}
		if resp, b := ts.do("GET", "/api/events/"+g.Event+"/deals/1/1", ""); resp.StatusCode != 409 {
			t.Errorf("a deal's page before the day is over: %d %s, want 409", resp.StatusCode, b)
		}
		// Every table: the same deals, each verifying against the day's
		// commitment of that deal, with no values.
		var deals [3][]string
		var deltas [3][][]int
		for k, id := range tables {
			deals[k], deltas[k], _ = finalScores(t, ts, id)
			hands, err := ts.st.Hands(bg, id)
			if err != nil {
				t.Fatal(err)
			}
			for n, h := range hands {
				rec, err := pitch.ReadRecord(bytes.NewReader(h.Record))
				if err != nil {
					t.Fatal(err)
				}
				if rep := pitch.VerifyFairness(rec); !rep.OK() {
					t.Errorf("%s's hand %d does not verify: %v", players[k].name, n+1, rep.Problems)
				}
				f, _ := pitch.ParseFairness(rec.Fairness)
				if f == nil || f.Commitment != g.Commitments[n] {
					t.Errorf("%s's hand %d: not dealt from the day's commitment %s", players[k].name, n+1, g.Commitments[n])
				}
			}
			if k > 0 {
				for n := range min(len(deals[k]), len(deals[0])) {
					if deals[k][n] != deals[0][n] {
						t.Errorf("deal %d: %s got %v, Ann %v", n+1, players[k].name, deals[k][n], deals[0][n])
					}
				}
			}
		}
		// Matchpoints by hand: seat 0 on each deal against the others.
		want := map[string][]float64{}
		for n := range 3 {
			var at []int
			for k := range 3 {
				if len(deltas[k]) > n {
					at = append(at, k)
				}
			}
			if len(at) < 2 {
				continue
			}
			for _, k := range at {
				pts := 0
				for _, j := range at {
					switch x, y := deltas[k][n][0]-deltas[k][n][1], deltas[j][n][0]-deltas[j][n][1]; { // ten-point: on the net
					case j == k:
					case x > y:
						pts += 2
					case x == y:
						pts++
					}
				}
				want[players[k].name] = append(want[players[k].name], 100*float64(pts)/float64(2*(len(at)-1)))
			}
		}
		d = daily("")
		if d.Games[0].Players != 4 || len(d.Games[0].Standings) != 3 {
			t.Fatalf("standings %+v, want 3 players", d.Games[0].Standings)
		}
		for i, s := range d.Games[0].Standings {
			sum := 0.0
			for _, p := range want[s.Name] {
				sum += p
			}
			w := sum / float64(len(want[s.Name]))
			if math.Abs(s.Percent-w) > 1e-9 || s.Boards != len(want[s.Name]) {
				t.Errorf("%s: %.2f%% of %d, want %.2f%% of %d", s.Name, s.Percent, s.Boards, w, len(want[s.Name]))
			}
			if i > 0 && d.Games[0].Standings[i-1].Percent < s.Percent {
				t.Errorf("standings not by percentage at %d", i)
			}
		}
		var prof []struct {
			Day     string  `json:"day"`
			Variant string  `json:"variant"`
			Percent float64 `json:"percent"`
			Of      int     `json:"of"`
			Over    bool    `json:"over"`
		}
		if err := json.Unmarshal(cy.must(200, "GET", "/api/users/Cy/daily", ""), &prof); err != nil {
			t.Fatal(err)
		}
		if len(prof) != 1 || prof[0].Day != "2026-03-01" || prof[0].Variant != "ten-point" || prof[0].Of != 3 || prof[0].Over {
			t.Errorf("Cy's profile: %+v, want the day's ten-point of 3, not over", prof)
		}

		// The next day: the first is over, its deals' pages open with
		// every replay; a new day's daily has other commitments.
		clock.Store(day1.Add(24 * time.Hour).UnixNano())
		d2 := daily("")
		if d2.Day != "2026-03-02" || len(d2.Past) != 1 || d2.Past[0] != "2026-03-01" || d2.Games[0].Commitments[0] == g.Commitments[0] {
			t.Errorf("the next day: %s, past %v", d2.Day, d2.Past)
		}
		if old := daily("?day=2026-03-01"); !old.Games[0].Over {
			t.Errorf("the day before is not over: %+v", old.Games[0])
		}
		var deal struct {
			Over       bool   `json:"over"`
			Commitment string `json:"commitment"`
			Groups     []struct {
				Rows []struct {
					Seat    int `json:"seat"`
					Results []struct {
						Name    string  `json:"name"`
						Result  int     `json:"result"`
						Percent float64 `json:"percent"`
						Replay  string  `json:"replay"`
					} `json:"results"`
				} `json:"rows"`
			} `json:"groups"`
		}
		ts.getJSON("/api/events/"+g.Event+"/deals/1/1", &deal)
		if !deal.Over || deal.Commitment != g.Commitments[0] || len(deal.Groups) != 1 || len(deal.Groups[0].Rows) != 1 {
			t.Fatalf("deal 1's page: %+v", deal)
		}
		row := deal.Groups[0].Rows[0]
		if row.Seat != 0 || len(row.Results) != 3 {
			t.Fatalf("deal 1, seat 0: %+v, want the 3 players", row)
		}
		for _, x := range row.Results {
			k := map[string]int{"Ann": 0, "Bob": 1, "Cy": 2}[x.Name]
			if x.Replay != "/t/"+tables[k]+"/hands/1" || x.Result != deltas[k][0][0]-deltas[k][0][1] || x.Percent != want[x.Name][0] {
				t.Errorf("deal 1, %s: %+v, want result %d, %.1f%%, replay of table %s", x.Name, x, deltas[k][0][0]-deltas[k][0][1], want[x.Name][0], tables[k])
			}
		}
		if e := ts.event(g.Event); e.Rounds[0][0].Table == "" {
			t.Error("the day is over, but the event hides its tables")
		}
	})
}

// getJSON gets path (200) into v.
func (ts *testServer) getJSON(path string, v any) {
	ts.t.Helper()
	resp, b := ts.do("GET", path, "")
	if resp.StatusCode != 200 {
		ts.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		ts.t.Fatalf("GET %s: %v: %s", path, err, b)
	}
}

// TestEventSolo: a host's solo duplicate event. Once opened, each person
// who joined plays the deals alone at their own table (one try), the
// event is "playing" until the host closes it and the tables finish, and
// each deal's page opens only then; a daily event cannot be joined nor
// played by its event link.
func TestEventSolo(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	var c struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	ts.post("/api/events", `{"variant":"pawnee","rounds":1,"end":"hands","hands":1,"movement":"duplicate","solo":true,"bots":"easy"}`, 201, &c)
	host := fmt.Sprintf(`{"token":%q}`, c.Token)
	ts.post("/api/events/"+c.ID+"/start", host, 200, nil)
	var tables []string
	for i, name := range []string{"Ann", "Bob"} {
		var j struct {
			Token string `json:"token"`
		}
		ts.post("/api/events/"+c.ID+"/join", fmt.Sprintf(`{"name":%q}`, name), 200, &j)
		var me meWire
		ts.post("/api/events/"+c.ID+"/play", fmt.Sprintf(`{"token":%q}`, j.Token), 200, &me)
		if me.Seat != 0 || me.Table == "" {
			t.Fatalf("%s's seat: %+v", name, me)
		}
		tables = append(tables, me.Table)
		h := newHub(t, ts, me.Table, uint64(60+i))
		cl := h.connect(name, 0, me.SeatToken, true)
		h.run(60*time.Second, name+"'s table", func() bool { return cl.last != nil && cl.last.Over })
		cl.close()
		ts.post("/api/events/"+c.ID+"/play", fmt.Sprintf(`{"token":%q}`, j.Token), 409, nil)
	}
	e := ts.waitEvent(c.ID, "two results", func(e evWire) bool { return len(e.Standings) == 2 })
	if e.State != "playing" {
		t.Errorf("state %q before the close, want playing", e.State)
	}
	if resp, _ := ts.do("GET", "/api/events/"+c.ID+"/deals/1/1", ""); resp.StatusCode != 409 {
		t.Errorf("a deal's page before the close: %d, want 409", resp.StatusCode)
	}
	ts.post("/api/events/"+c.ID+"/close", `{"token":"nobody"}`, 403, nil)
	ts.post("/api/events/"+c.ID+"/close", host, 200, nil)
	e = ts.waitEvent(c.ID, "the end", func(e evWire) bool { return e.State == "over" })
	for k, tab := range e.Rounds[0] {
		if tab.Table != tables[k] {
			t.Errorf("table %d is %q once over, want %s", k+1, tab.Table, tables[k])
		}
	}
	var deal struct {
		Groups []struct {
			Rows []struct {
				Results []struct {
					Replay string `json:"replay"`
				} `json:"results"`
			} `json:"rows"`
		} `json:"groups"`
	}
	ts.getJSON("/api/events/"+c.ID+"/deals/1/1", &deal)
	if len(deal.Groups) != 1 || len(deal.Groups[0].Rows) != 1 || len(deal.Groups[0].Rows[0].Results) != 2 || deal.Groups[0].Rows[0].Results[0].Replay == "" {
		t.Errorf("deal 1 once over: %+v, want the two results with replays", deal)
	}
	var d dailyWire
	ts.getJSON("/api/daily", &d)
	ts.post("/api/events/"+d.Games[0].Event+"/join", `{"name":"Sneaky"}`, 409, nil)
	ts.post("/api/events/"+d.Games[0].Event+"/play", `{"token":"nobody"}`, 409, nil)
}
