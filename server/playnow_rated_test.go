package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"pitch"
)

// TestPlayNowRated: a signed-in person's Play starts a rated play-now
// table (the table says so); a guest's Play never lands at it, and a
// guest asking for a rated Play, or a rated Play of another target, is
// refused and changes nothing. Two accounts pressing Play at once (one
// in two tabs) take two bots' seats over, and a third the last; the
// match is rated at its end
// for the people who played their share of it (docs/ratings.md "Play
// now"), and every hand names who played each seat then: the bot
// before the takeover, the person after.
//
// The match must end, and random play may never end an auction match (a
// set pitcher goes below 0; here it lasted 5 to 44 hands, and on the
// engine 0.75% of such matches last over 120). So from hand 4 (by then
// every seat is a person's: the takeovers come at hand 2 at the latest,
// as Ada, who must play in hand 1, does not act meanwhile) the people
// play pitchTopCard, which ends the match within a bounded number of
// hands; a match of 4 hands or more rates those who took over at hand 2.
func TestPlayNowRated(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	ada, cy, dee, eve := ts.browser(), ts.browser(), ts.browser(), ts.browser()
	ada.must(201, "POST", "/api/account/signup", creds("Ada", goodPassword))
	cy.must(201, "POST", "/api/account/signup", creds("Cy", goodPassword))
	dee.must(201, "POST", "/api/account/signup", creds("Dee", goodPassword))
	eve.must(201, "POST", "/api/account/signup", creds("Eve", goodPassword))
	for _, tc := range []struct {
		b          *browser
		body, code string
		status     int
	}{
		{nil, guestBody("guest-browser-0000000009", "Gus", `,"rated":true`), "rated_needs_account", 403},
		{ada, `{"variant":"auction","rated":true,"options":{"target":11}}`, "rated_target", 400},
	} {
		var resp *http.Response
		var b []byte
		if tc.b == nil {
			resp, b = ts.do("POST", "/api/play", tc.body)
		} else {
			resp, b = tc.b.do("POST", "/api/play", tc.body)
		}
		if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.code) {
			t.Errorf("play %s: %d %s; want %d %s", tc.body, resp.StatusCode, b, tc.status, tc.code)
		}
	}
	if list, err := ts.st.Tables(bg, false); err != nil || len(list) != 0 {
		t.Fatalf("refused Plays stored %d tables (%v)", len(list), err)
	}
	type ratedPlay struct {
		playJSON
		Table struct {
			ID    string `json:"id"`
			Rated bool   `json:"rated"`
		} `json:"table"`
	}
	var a ratedPlay
	if err := json.Unmarshal(ada.must(201, "POST", "/api/play", `{"variant":"auction"}`), &a); err != nil {
		t.Fatal(err)
	}
	if !a.Table.Rated {
		t.Fatalf("Ada's Play: %+v; want a rated table", a)
	}
	id := a.Table.ID
	var g ratedPlay
	_, gb := ts.do("POST", "/api/play", guestBody("guest-browser-0000000009", "Gus", ""))
	if err := json.Unmarshal(gb, &g); err != nil || g.Table.ID == id || g.Table.Rated {
		t.Fatalf("a guest's Play: %s; want a casual table of its own", gb)
	}
	h := newHub(t, ts, id, 5)
	h.plan = peopleOnly(4, pitchTopCard(h))
	h.follow = true
	h.httpClient = ada.c // a seat of an account is played signed in
	ac := h.connect("Ada", 0, a.Token, true)
	h.run(20*time.Second, "hand 1 under way", func() bool { return ac.last != nil && ac.last.HandNo == 1 && ac.last.Seq >= 2 })
	// Cy in two tabs and Dee, at once.
	bodies := make([][]byte, 3)
	var wg sync.WaitGroup
	for i, b := range []*browser{cy, cy, dee} {
		wg.Go(func() { _, bodies[i] = b.do("POST", "/api/play", `{"variant":"auction"}`) })
	}
	wg.Wait()
	got := make([]ratedPlay, 3)
	for i, b := range bodies {
		if err := json.Unmarshal(b, &got[i]); err != nil || got[i].Table.ID != id || got[i].Seat < 1 {
			t.Fatalf("Play %d: %s; want a bot's seat at Ada's table", i, b)
		}
	}
	if got[0].Seat != got[1].Seat || got[2].Seat == got[0].Seat {
		t.Fatalf("Cy's tabs in seats %d and %d, Dee in %d: want Cy in one seat, Dee in another", got[0].Seat, got[1].Seat, got[2].Seat)
	}
	cyTok := got[0].Token
	if cyTok == "" {
		cyTok = got[1].Token
	}
	// Eve takes the last bot's seat: then every seat is a person's.
	var e ratedPlay
	if err := json.Unmarshal(eve.must(200, "POST", "/api/play", `{"variant":"auction"}`), &e); err != nil || e.Table.ID != id || e.Seat < 1 ||
		e.Seat == got[0].Seat || e.Seat == got[2].Seat {
		t.Fatalf("Eve's Play: %+v (%v); want the last bot's seat at Ada's table", e, err)
	}
	seated := func(c *client) bool {
		if c.last != nil && c.last.Seat != c.seat {
			c.seat = c.last.Seat
		}
		return c.seat >= 0
	}
	h.httpClient = cy.c
	cc := h.connect("Cy", -1, cyTok, true)
	h.httpClient = dee.c
	dc := h.connect("Dee", -1, got[2].Token, true)
	h.httpClient = eve.c
	ec := h.connect("Eve", -1, e.Token, true)
	h.run(120*time.Second, "the match played out", func() bool {
		seated(cc)
		seated(dc)
		seated(ec)
		return ac.last != nil && ac.last.Over && len(ac.last.Sheet) > 0
	})
	info, err := ts.st.Table(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	hands := len(ac.last.Sheet)
	t.Logf("the match lasted %d hands", hands)
	for _, st := range info.Seats {
		if st.TookOver != nil && st.TookOver.Hand > 2 {
			t.Errorf("%s took seat %d over at hand %d; want 2 at the latest (Ada waited)", st.Name, st.Seat, st.TookOver.Hand)
		}
	}
	changes, err := ts.st.MatchRatings(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	rated := map[string]bool{}
	for _, c := range changes {
		rated[c.Account] = true
		if c.After == c.Before {
			t.Errorf("seat %d rated without a change: %+v", c.Seat, c)
		}
	}
	if !rated[info.Seats[0].Account] || info.Seats[0].Account == "" {
		t.Errorf("Ada, at seat 0 from hand 1 to the end, not rated: %+v", changes)
	}
	for _, p := range []ratedPlay{got[0], got[2], e} {
		st := info.Seats[p.Seat]
		if st.TookOver == nil || st.Account == "" {
			t.Fatalf("seat %d after the match: %+v; want taken over by an account", p.Seat, st)
		}
		played := hands - st.TookOver.Hand + 1
		if want := 4*played >= 3*hands; rated[st.Account] != want {
			t.Errorf("%s took seat %d over at hand %d of %d (%d played): rated %v, want %v", st.Name, p.Seat, st.TookOver.Hand, hands, played, rated[st.Account], want)
		}
		// The hands before the takeover were the bot's: its replay says so.
		if st.TookOver.Hand > 1 {
			_, body := ts.do("GET", fmt.Sprintf("/api/tables/%s/hands/1/replay", id), "")
			var rp struct {
				Seats []struct {
					Kind string `json:"kind"`
					Name string `json:"name"`
				} `json:"seats"`
			}
			if err := json.Unmarshal(body, &rp); err != nil || len(rp.Seats) <= p.Seat || rp.Seats[p.Seat].Kind != "bot" || rp.Seats[p.Seat].Name != fmt.Sprintf("Bot %d", p.Seat) {
				t.Errorf("hand 1's replay names seat %d %s; want Bot %d", p.Seat, body, p.Seat)
			}
			_, body = ts.do("GET", fmt.Sprintf("/api/tables/%s/hands/%d/replay", id, st.TookOver.Hand), "")
			if err := json.Unmarshal(body, &rp); err != nil || rp.Seats[p.Seat].Name != st.Name {
				t.Errorf("hand %d's replay names seat %d %s; want %s", st.TookOver.Hand, p.Seat, body, st.Name)
			}
		}
	}
}

// TestPlayNowPopular: GET /api/play names, for each game, the house
// rules most played here lately (finished or running tables, not the
// default), and POST /api/play with them seats the person only at a
// table of those rules; rules that table creation refuses are refused
// the same way and change nothing.
func TestPlayNowPopular(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	type popularJSON struct {
		Popular []struct {
			Variant string          `json:"variant"`
			Options json.RawMessage `json:"options"`
			Differs map[string]any  `json:"differs"`
			Tables  int             `json:"tables"`
		} `json:"popular"`
	}
	popular := func() popularJSON {
		t.Helper()
		resp, b := ts.do("GET", "/api/play", "")
		var p popularJSON
		if resp.StatusCode != 200 || json.Unmarshal(b, &p) != nil {
			t.Fatalf("GET /api/play: %d %s", resp.StatusCode, b)
		}
		return p
	}
	// Auction to 11 at three tables, with partnerships at two; the
	// default at four; pawnee's at one (too few).
	for _, opts := range []string{`{"target":11}`, `{"target":11}`, `{"target":11}`, `{"partnerships":true}`, `{"partnerships":true}`, `{}`, `{}`, `{}`, `{}`} {
		ts.do("POST", "/api/tables", fmt.Sprintf(`{"variant":"auction","options":%s}`, opts))
	}
	ts.do("POST", "/api/tables", `{"variant":"pawnee","options":{"target":21}}`)
	p := popular()
	if len(p.Popular) != 1 || p.Popular[0].Variant != "auction" || p.Popular[0].Tables != 3 || fmt.Sprint(p.Popular[0].Differs) != "map[target:11]" {
		t.Fatalf("most played: %+v; want auction to 11 (3 tables) alone", p)
	}
	// Play with those rules: a new play-now table of them; a second
	// person's Play of them joins it, one of the default rules does not.
	ann := ts.play(guestBody("ann-browser-0123456789", "Ann", `,"options":`+string(p.Popular[0].Options)), http.StatusCreated)
	c := watch(t, ts, ann.Table.ID, ann.Token)
	waitState(t, c, 5*time.Second, "Ann seated", func(m *wire) bool { return m.Seat == 0 })
	bob := ts.play(guestBody("bob-browser-0123456789", "Bob", `,"options":{"target":11}`), http.StatusOK)
	cat := ts.play(guestBody("cat-browser-0123456789", "Cat", ""), http.StatusCreated)
	if bob.Table.ID != ann.Table.ID || cat.Table.ID == ann.Table.ID {
		t.Errorf("Bob (to 11) at %s, Cat (default) at %s; want Bob at Ann's table %s, Cat elsewhere", bob.Table.ID, cat.Table.ID, ann.Table.ID)
	}
	before, _ := ts.st.Tables(bg, false)
	for _, opts := range []string{`{"target":0}`, `{"players":9}`, `{"target":"x"}`, `[1]`} {
		resp, b := ts.do("POST", "/api/play", guestBody("dan-browser-0123456789", "Dan", `,"options":`+opts))
		resp2, b2 := ts.do("POST", "/api/tables", `{"variant":"auction","options":`+opts+`}`)
		if resp.StatusCode != 400 || resp2.StatusCode != 400 {
			t.Errorf("options %s: Play %d %s, create %d %s; want 400 from both", opts, resp.StatusCode, b, resp2.StatusCode, b2)
		}
		var e1, e2 struct{ Error string }
		_ = json.Unmarshal(b, &e1)
		_ = json.Unmarshal(b2, &e2)
		if e1.Error != e2.Error || e1.Error == "" {
			t.Errorf("options %s: Play says %q, create says %q; want the same reason", opts, e1.Error, e2.Error)
		}
	}
	if after, _ := ts.st.Tables(bg, false); len(after) != len(before) {
		t.Errorf("refused Plays stored tables: %d before, %d after", len(before), len(after))
	}
}

// peopleOnly is plan from hand from on at a table whose seats are all
// people's, and no opinion before or while a bot plays (a plan such as
// pitchTopCard needs every seat).
func peopleOnly(from int, plan func(*client, *wire) (pitch.Action, bool)) func(*client, *wire) (pitch.Action, bool) {
	return func(c *client, m *wire) (pitch.Action, bool) {
		if m.HandNo < from {
			return pitch.Action{}, false
		}
		for _, s := range m.Table.Seats {
			if s.Kind != "human" {
				return pitch.Action{}, false
			}
		}
		return plan(c, m)
	}
}
