package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"pitch/server"
	"pitch/store"
)

// Play now (README.md "Play now"): POST /api/play, the takeover of a
// bot's seat at the next hand boundary, leaving, and a second Play.

// playJSON is POST /api/play's answer.
type playJSON struct {
	Seat    int    `json:"seat"`
	Token   string `json:"token"`
	Pending bool   `json:"pending"`
	Again   bool   `json:"again"`
	Table   struct {
		ID      string `json:"id"`
		PlayNow bool   `json:"play_now"`
		Pace    string `json:"pace"`
		Seats   []struct {
			Kind     string `json:"kind"`
			Name     string `json:"name"`
			Bot      int    `json:"bot"`
			Pending  string `json:"pending"`
			TookOver *struct {
				Bot, Hand, Score int
			} `json:"took_over"`
		} `json:"seats"`
		TurnTimer int `json:"turn_timer"`
	} `json:"table"`
	Code string `json:"code"`
}

// play presses Play as a guest of browser guest named name, and wants
// status back.
func (ts *testServer) play(body string, status int) playJSON {
	ts.t.Helper()
	resp, b := ts.do("POST", "/api/play", body)
	var p playJSON
	if err := json.Unmarshal(b, &p); err != nil {
		ts.t.Fatalf("play %s: %v: %s", body, err, b)
	}
	if resp.StatusCode != status {
		ts.t.Fatalf("play %s: status %d, want %d: %s", body, resp.StatusCode, status, b)
	}
	return p
}

func guestBody(guest, name, extra string) string {
	return fmt.Sprintf(`{"variant":"auction","guest":%q,"name":%q%s}`, guest, name, extra)
}

// tableOf is the seats' part of a state's table.
type seatsOnly struct {
	Seats []struct {
		Kind     string `json:"kind"`
		Name     string `json:"name"`
		Pending  string `json:"pending"`
		TookOver *struct {
			Bot, Hand, Score int
		} `json:"took_over"`
	} `json:"seats"`
}

func seatsOf(t *testing.T, m *wire) seatsOnly {
	t.Helper()
	var raw struct {
		Table seatsOnly `json:"table"`
	}
	if err := json.Unmarshal(m.raw, &raw); err != nil {
		t.Fatal(err)
	}
	return raw.Table
}

// TestPlayNow: a guest presses Play and plays with bots; a second guest
// presses Play mid-hand and takes a bot's seat over at the next hand
// boundary (never mid-hand: until then their connection sees what a
// spectator sees), both see it happen; the first leaves and a bot takes
// their seat at once, the match going on.
func TestPlayNow(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		const annGuest, bobGuest = "ann-browser-0123456789", "bob-browser-0123456789"
		ann := ts.play(guestBody(annGuest, "Ann", ""), http.StatusCreated)
		if ann.Seat != 0 || ann.Pending || ann.Token == "" || !ann.Table.PlayNow || ann.Table.Pace != "normal" || ann.Table.TurnTimer != 30 {
			t.Fatalf("Ann's Play: %+v; want seat 0 of a new play-now table at the normal pace", ann)
		}
		for i, st := range ann.Table.Seats[1:] {
			if st.Kind != "bot" || st.Bot != i+1 {
				t.Errorf("seat %d: %+v, want Bot %d", i+1, st, i+1)
			}
		}
		again := ts.play(guestBody(annGuest, "Ann", ""), http.StatusOK)
		if !again.Again || again.Seat != 0 || again.Token != ann.Token || again.Table.ID != ann.Table.ID {
			t.Fatalf("Ann's second Play: %+v; want her seat and token again", again)
		}
		id := ann.Table.ID
		h := newHub(t, ts, id, 11)
		a := h.connect("Ann", 0, ann.Token, true)
		h.run(20*time.Second, "Ann playing hand 1", func() bool { return a.last != nil && a.last.HandNo == 1 && a.last.Seq >= 3 })

		bob := ts.play(guestBody(bobGuest, "Bob", ""), http.StatusOK)
		if bob.Table.ID != id || bob.Seat != 1 || !bob.Pending || bob.Table.Seats[1].Pending != "Bob" || bob.Table.Seats[1].Kind != "bot" {
			t.Fatalf("Bob's Play mid-hand: %+v; want a pending takeover of Bot 1's seat at Ann's table", bob)
		}
		if b2 := ts.play(guestBody(bobGuest, "Bob", ""), http.StatusOK); !b2.Again || b2.Seat != 1 || !b2.Pending || b2.Token != bob.Token {
			t.Fatalf("Bob's second Play: %+v; want the same pending seat", b2)
		}
		b := h.connect("Bob", -1, bob.Token, true)
		seated := func(c *client) bool { // the client follows the seat the server gives it
			if c.last != nil && c.last.Seat != c.seat {
				c.seat = c.last.Seat
			}
			return c.seat >= 0
		}
		h.run(30*time.Second, "Bob taking over seat 1", func() bool { seated(a); return seated(b) && b.last.View.Phase != "" && len(b.last.View.Hand) > 0 })
		// Until the takeover Bob watched; his first state in the seat is
		// at a hand boundary, before the deal.
		first := -1
		for i, m := range b.msgs {
			if m.Type == "state" && m.Seat == 1 {
				first = i
				break
			}
			if m.Type == "state" && (m.Seat != -1 || len(m.View.Hand) > 0) {
				t.Fatalf("Bob's state %d before the takeover: seat %d with %d cards", i, m.Seat, len(m.View.Hand))
			}
		}
		fm := b.msgs[first]
		if fm.HandNo < 2 || len(fm.View.Hand) != 0 || fm.Fair == nil || !fm.Fair.Dealing && fm.Fair.Hand != nil && fm.Fair.Hand.Hand == fm.HandNo {
			t.Errorf("Bob's first state in the seat: hand %d with %d cards (fair %+v); want the boundary before hand 2 or later, undealt", fm.HandNo, len(fm.View.Hand), fm.Fair)
		}
		to := seatsOf(t, fm).Seats[1].TookOver
		if to == nil || to.Bot != 1 || to.Hand != fm.HandNo || to.Score != fm.View.Scores[1] {
			t.Errorf("seat 1 took over: %+v; want from Bot 1 at hand %d with score %d", to, fm.HandNo, fm.View.Scores[1])
		}
		// Ann saw it: a state naming Bob in seat 1, marked as taken over.
		sawAnn := false
		for _, m := range a.msgs {
			if m.Type == "state" {
				if st := seatsOf(t, m).Seats[1]; st.Kind == "human" && st.Name == "Bob" && st.TookOver != nil {
					sawAnn = true
				}
			}
		}
		if !sawAnn {
			t.Error("Ann never saw Bob take seat 1 over")
		}

		// Ann leaves: a bot plays her seat at once, and the match goes on.
		// Her page goes (its moves in flight would be refused once she has
		// left); a second tab of hers, which never acts, stays to see her
		// connection turn into a spectator's.
		a2 := h.connect("Ann's tab", -1, ann.Token, false)
		h.run(20*time.Second, "Ann's tab seated", func() bool { return a2.last != nil && a2.last.Seat == 0 })
		a.close()
		resp, body := ts.do("POST", "/api/tables/"+id+"/leave", fmt.Sprintf(`{"token":%q}`, ann.Token))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("Ann leaving: %d %s", resp.StatusCode, body)
		}
		atLeave := b.last.Seq
		h.run(30*time.Second, "the match going on with a bot in seat 0", func() bool {
			return b.last.Seq > atLeave+8 && seatsOf(t, b.last).Seats[0].Kind == "bot" && a2.last.Seat == -1
		})
		if resp, body := ts.do("POST", "/api/tables/"+id+"/leave", fmt.Sprintf(`{"token":%q}`, ann.Token)); resp.StatusCode != http.StatusForbidden {
			t.Errorf("Ann leaving twice: %d %s, want 403", resp.StatusCode, body)
		}
		info, err := ts.st.Table(bg, id)
		if err != nil {
			t.Fatal(err)
		}
		if s0, s1 := info.Seats[0], info.Seats[1]; s0.Kind != "bot" || s0.TokenHash != nil || s1.Kind != "human" || s1.Name != "Bob" || s1.TookOver == nil {
			t.Errorf("stored seats: %+v / %+v; want a bot in seat 0 and Bob in seat 1", s0, s1)
		}
		// Ann may play again: a new seat (her old one is a bot's, at a
		// table with a person: Bob's, as the first bot's seat there).
		if again := ts.play(guestBody(annGuest, "Ann", ""), http.StatusOK); again.Table.ID != id || again.Seat != 0 || !again.Pending {
			t.Errorf("Ann's Play after leaving: %+v; want a pending takeover at Bob's table", again)
		}
		for _, c := range h.clients {
			c.seat = -2 // checked below by the seat each state names
		}
		checkPlayNowMessages(t, ts.st, id, h.clients)
	})
}

// checkPlayNowMessages checks every state against the match rebuilt
// from the store as seen by the seat the state names (a connection's
// seat changes with a takeover or a leave).
func checkPlayNowMessages(t *testing.T, st store.Store, id string, clients []*client) {
	t.Helper()
	g, _, snaps, deals := replayDeals(t, st, id)
	for _, c := range clients {
		finished := 0
		for i, m := range c.msgs {
			where := fmt.Sprintf("%s message %d (seq %d, seat %d)", c.name, i, m.Seq, m.Seat)
			if m.Type == "state" {
				finished = len(m.Sheet)
				checkSecrets(t, deals, finished, m, where)
				checkFair(t, snaps, deals, m.Seat, m, where)
				checkState(t, g, snaps, m.Seat, m, where)
			}
		}
	}
}

// TestPlayNowBadInput: what a Play refuses, and says why.
func TestPlayNowBadInput(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	for _, tc := range []struct {
		body, code string
		status     int
	}{
		{guestBody("guest-browser-0000000001", "Ann", `,"pace":"slow"`), "bad_pace", 400},
		{`{"variant":"auction","name":"Ann"}`, "bad_guest", 400},
		{guestBody("short", "Ann", ""), "bad_guest", 400},
		{`{"variant":"bridge","guest":"guest-browser-0000000001","name":"Ann"}`, "", 400},
		{guestBody("guest-browser-0000000001", "", ""), "bad_name", 400},
		{guestBody("guest-browser-0000000001", "Bot 3", ""), "name_bot", 400},
	} {
		resp, b := ts.do("POST", "/api/play", tc.body)
		if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.code) {
			t.Errorf("play %s: %d %s; want %d %s", tc.body, resp.StatusCode, b, tc.status, tc.code)
		}
	}
	if list, err := ts.st.Tables(bg, false); err != nil || len(list) != 0 {
		t.Errorf("refused Plays stored %d tables (%v)", len(list), err)
	}
	// A full server says so, with how long to wait.
	full := startServer(t, t.TempDir()+"/pitch.db", func() server.Options { o := fastOptions(); o.MaxTables = 1; return o }())
	full.play(guestBody("guest-browser-0000000001", "Ann", ""), http.StatusCreated)
	resp, b := full.do("POST", "/api/play", guestBody("guest-browser-0000000002", "Bob", `,"pace":"fast"`))
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "600" || !strings.Contains(string(b), "server_full") || !strings.Contains(string(b), "10 minutes") {
		t.Errorf("Play at a full server: %d (Retry-After %q) %s; want 503 server_full saying how long to wait", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	full.wantWarning("kind=max_tables")
}

// TestPlayNowRace: many people pressing Play at once at one process are
// each seated in a seat of their own (never two in one), and one person
// pressing Play in many tabs at once lands in one seat.
func TestPlayNowRace(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		first := ts.play(guestBody("first-browser-000000000", "Ann", ""), http.StatusCreated)
		// Somebody is at the table: it is one to join.
		h := newHub(t, ts, first.Table.ID, 3)
		h.connect("Ann", 0, first.Token, false)
		const n = 10
		got := make([]playJSON, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				resp, b := ts.do("POST", "/api/play", guestBody(fmt.Sprintf("racer-browser-%09d", i), fmt.Sprintf("P%d", i), ""))
				if resp.StatusCode != 200 && resp.StatusCode != 201 {
					t.Errorf("racer %d: %d %s", i, resp.StatusCode, b)
				}
				_ = json.Unmarshal(b, &got[i])
			})
		}
		wg.Wait()
		seen := map[string]int{}
		for i, p := range got {
			k := fmt.Sprintf("%s/%d", p.Table.ID, p.Seat)
			if j, ok := seen[k]; ok {
				t.Errorf("racers %d and %d both in seat %s", j, i, k)
			}
			seen[k] = i
		}
		if len(seen) != n {
			t.Errorf("%d distinct seats for %d racers", len(seen), n)
		}
		// One person, many tabs.
		tabs := make([]playJSON, 8)
		for i := range tabs {
			wg.Go(func() {
				_, b := ts.do("POST", "/api/play", guestBody("tabs-browser-0000000000", "Tab", ""))
				_ = json.Unmarshal(b, &tabs[i])
			})
		}
		wg.Wait()
		for i, p := range tabs {
			if p.Token == "" || p.Table.ID != tabs[0].Table.ID || p.Seat != tabs[0].Seat || p.Token != tabs[0].Token {
				t.Errorf("tab %d: %s seat %d; tab 0: %s seat %d: one person, two seats", i, p.Table.ID, p.Seat, tabs[0].Table.ID, tabs[0].Seat)
			}
		}
	})
}

// TestPlayNowCluster: two processes on one PostgreSQL. People pressing
// Play at the same moment at both are each seated in a seat of their own
// (never two in one seat); a takeover claimed at one process is made by
// the table's driver at the hand boundary, and the person's connection
// at the other process is seated then.
func TestPlayNowCluster(t *testing.T) {
	opts := fastOptions()
	opts.Cluster, opts.LeaseTTL = true, 2*time.Second
	opts.BotDelay, opts.AwayDelay = 25*time.Millisecond, 25*time.Millisecond
	a, b := clusterPair(t, opts)
	ann := a.play(guestBody("ann-browser-0123456789", "Ann", ""), http.StatusCreated)
	id := ann.Table.ID
	// Someone watches, so the table plays (a stand-in for Ann, away): the
	// racers come mid-hand.
	spec := watch(t, a, id, "")
	waitState(t, spec, 20*time.Second, "hand 1 under way", func(m *wire) bool { return m.HandNo == 1 && m.Seq > 0 })
	const n = 6
	got := make([]playJSON, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		ts := []*testServer{a, b}[i%2]
		wg.Go(func() {
			<-start
			resp, body := ts.do("POST", "/api/play", guestBody(fmt.Sprintf("racer-browser-%09d", i), fmt.Sprintf("P%d", i), ""))
			if resp.StatusCode != 200 && resp.StatusCode != 201 {
				t.Errorf("racer %d: %d %s", i, resp.StatusCode, body)
			}
			if err := json.Unmarshal(body, &got[i]); err != nil {
				t.Errorf("racer %d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	seen := map[string]int{"" + id + "/0": -1}
	atAnn := -1
	for i, p := range got {
		k := fmt.Sprintf("%s/%d", p.Table.ID, p.Seat)
		if j, ok := seen[k]; ok {
			t.Fatalf("racers %d and %d both in seat %s", j, i, k)
		}
		seen[k] = i
		if p.Table.ID == id && atAnn < 0 {
			atAnn = i
		}
	}
	// The store agrees: each claim at Ann's table is its racer's.
	info, err := a.st.Table(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range info.Seats[1:] {
		i, ok := seen[fmt.Sprintf("%s/%d", id, st.Seat)]
		if ok && (st.Claim == nil || st.Claim.Name != fmt.Sprintf("P%d", i)) {
			t.Errorf("seat %d: claim %+v, want racer %d's", st.Seat, st.Claim, i)
		}
	}
	if atAnn < 0 {
		t.Fatal("no racer was seated at Ann's table, which had three bots' seats")
	}
	// The racer at Ann's table watches at the process that did not seat
	// them; Ann is away (a stand-in plays for her): at the hand boundary
	// the seat is theirs, there.
	p := got[atAnn]
	other := []*testServer{b, a}[atAnn%2]
	c := watch(t, other, id, p.Token)
	waitState(t, c, 5*time.Second, "watching while the takeover is pending", func(m *wire) bool { return m.Seat == -1 })
	m := waitState(t, c, 60*time.Second, "the seat taken over", func(m *wire) bool { return m.Seat == p.Seat })
	if m.HandNo < 2 || len(m.View.Hand) != 0 {
		t.Errorf("seated at hand %d (seq %d) with %d cards: want the boundary after hand 1, before the deal", m.HandNo, m.Seq, len(m.View.Hand))
	}
	info, err = b.st.Table(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	if st := info.Seats[p.Seat]; st.Kind != "human" || st.Name != fmt.Sprintf("P%d", atAnn) || st.TookOver == nil || st.Claim != nil {
		t.Errorf("stored seat %d after the takeover: %+v", p.Seat, st)
	}
}

// TestPlayNowLobby: the lobby lists a play-now table while Play may take
// over one of its bots' seats, and says how many people play each game
// now; Play at a table from the lobby seats the person there.
func TestPlayNowLobby(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	ann := ts.play(guestBody("ann-browser-0123456789", "Ann", ""), http.StatusCreated)
	cat := ts.play(guestBody("cat-browser-0123456789", "Cat", `,"pace":"fast"`), http.StatusCreated)
	c := watch(t, ts, ann.Table.ID, ann.Token) // Ann is at her table: one person playing auction
	waitState(t, c, 5*time.Second, "Ann seated", func(m *wire) bool { return m.Seat == 0 })
	type lobbyJSON struct {
		Tables []struct {
			ID      string `json:"id"`
			PlayNow bool   `json:"play_now"`
		} `json:"tables"`
		Playing map[string]int `json:"playing"`
	}
	list := func() (lobbyJSON, []string) {
		resp, b := ts.do("GET", "/api/tables", "")
		var l lobbyJSON
		if resp.StatusCode != 200 || json.Unmarshal(b, &l) != nil {
			t.Fatalf("lobby: %d %s", resp.StatusCode, b)
		}
		var ids []string
		for _, tb := range l.Tables {
			ids = append(ids, tb.ID)
			if !tb.PlayNow {
				t.Errorf("table %s listed, not a play-now table", tb.ID)
			}
		}
		return l, ids
	}
	l, ids := list()
	if len(ids) != 2 || l.Playing["auction"] != 1 || l.Playing["pawnee"] != 0 || l.Playing["ten-point"] != 0 {
		t.Errorf("lobby: tables %v, playing %v; want both tables, one person playing auction", ids, l.Playing)
	}
	// From the lobby, Play at Cat's table (its pace): a seat there, though
	// Ann's is as good.
	bob := ts.play(guestBody("bob-browser-0123456789", "Bob", fmt.Sprintf(`,"pace":"fast","table":%q`, cat.Table.ID)), http.StatusOK)
	if bob.Table.ID != cat.Table.ID || !bob.Pending {
		t.Errorf("Bob's Play at Cat's table: %+v", bob)
	}
	// Three more fill Ann's table's bots' seats with claims: it leaves
	// the lobby.
	for i := range 3 {
		p := ts.play(guestBody(fmt.Sprintf("more-browser-%010d", i), fmt.Sprintf("M%d", i), ""), http.StatusOK)
		if p.Table.ID != ann.Table.ID {
			t.Fatalf("M%d seated at %s, want Ann's table", i, p.Table.ID)
		}
	}
	if _, ids := list(); len(ids) != 1 || ids[0] != cat.Table.ID {
		t.Errorf("lobby once Ann's table's seats are all claimed: %v, want Cat's table alone", ids)
	}
}

// TestPlayNowAccount: a signed-in person's casual Play (a guest may
// join it: "rated": false) — under their account's name, again the same seat (its token not shown again: their session
// plays it), leaving with the session alone, a new seat after.
func TestPlayNowAccount(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	ada := ts.browser()
	ada.must(201, "POST", "/api/account/signup", creds("Ada", goodPassword))
	var first, again playJSON
	if err := json.Unmarshal(ada.must(201, "POST", "/api/play", `{"variant":"auction","name":"ignored","rated":false}`), &first); err != nil {
		t.Fatal(err)
	}
	if first.Seat != 0 || first.Token == "" || first.Table.Seats[0].Name != "Ada" {
		t.Fatalf("Ada's Play: %+v; want seat 0 under her account's name", first)
	}
	if err := json.Unmarshal(ada.must(200, "POST", "/api/play", `{"variant":"auction","rated":false}`), &again); err != nil {
		t.Fatal(err)
	}
	if !again.Again || again.Seat != 0 || again.Table.ID != first.Table.ID || again.Token != "" {
		t.Fatalf("Ada's second Play: %+v; want her seat again, without its token", again)
	}
	// A guest and another account come: Bot 1's and Bot 2's seats.
	bob := ts.play(guestBody("bob-browser-0123456789", "Bob", ""), http.StatusOK)
	cy := ts.browser()
	cy.must(201, "POST", "/api/account/signup", creds("Cy", goodPassword))
	var cyp playJSON
	if err := json.Unmarshal(cy.must(200, "POST", "/api/play", `{"variant":"auction","rated":false}`), &cyp); err != nil {
		t.Fatal(err)
	}
	if bob.Table.ID != first.Table.ID || bob.Seat != 1 || cyp.Table.ID != first.Table.ID || cyp.Seat != 2 || cyp.Table.Seats[2].Pending != "Cy" {
		t.Fatalf("Bob %+v and Cy %+v; want seats 1 and 2 of Ada's table, pending", bob, cyp)
	}
	// Ada leaves with her session alone; Cy withdraws his pending claim.
	ada.must(200, "POST", "/api/tables/"+first.Table.ID+"/leave", `{}`)
	cy.must(200, "POST", "/api/tables/"+first.Table.ID+"/leave", `{}`)
	info, err := ts.st.Table(bg, first.Table.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s0, s2 := info.Seats[0], info.Seats[2]; s0.Kind != "bot" || s0.Account != "" || s2.Kind != "bot" || s2.Claim != nil {
		t.Errorf("after Ada left and Cy withdrew: %+v / %+v", s0, s2)
	}
	// Ada may press Play again: Bob is at the table, so a bot's seat there.
	var back playJSON
	if err := json.Unmarshal(ada.must(200, "POST", "/api/play", `{"variant":"auction","rated":false}`), &back); err != nil {
		t.Fatal(err)
	}
	if back.Again || back.Table.ID != first.Table.ID || !back.Pending || back.Token == "" {
		t.Errorf("Ada's Play after leaving: %+v; want a pending takeover at Bob's table", back)
	}
}
