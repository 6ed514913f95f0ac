package server_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"pitch"
	"pitch/store"
)

// TestActionMarks: a move the table makes for a player is marked in every
// log and in the stored event log: "timer" when the connected player's
// time ran out, "stand-in" when the player was away; the state carries the
// running turn timer of the seat to act.
func TestActionMarks(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		opts := fastOptions()
		opts.AwayDelay = 50 * time.Millisecond
		ts := startServer(t, fresh(t), opts)
		tab := ts.create(`{"variant":"auction","turn_timer":1,"seats":` + seatsBody("h", "h", "easy", "easy") + `}`)
		h := newHub(t, ts, tab.ID, 5)
		_ = ts.join(tab.ID, 1, "Bea") // seated, never connects: away
		c0 := h.connect("seat 0", 0, ts.join(tab.ID, 0, "Ann"), false)
		marks := func() map[string]bool {
			got := map[string]bool{}
			for _, m := range c0.msgs {
				for _, e := range m.Log {
					if e.By != "" {
						got[fmt.Sprintf("%d %s", e.Seat, e.By)] = true
					}
				}
			}
			return got
		}
		h.run(20*time.Second, "a timer move for seat 0 and a stand-in move for seat 1", func() bool {
			m := marks()
			return m["0 timer"] && m["1 stand-in"]
		})
		if m := marks(); len(m) != 2 {
			t.Errorf("marks %v, want only seat 0 by the timer and seat 1 by a stand-in", m)
		}
		timed := false
		for _, m := range c0.msgs {
			if m.Type == "state" && !m.Over && !m.Waiting && m.View.Turn == 0 && m.Timer != nil {
				timed = true
				if m.Timer.Seat != 0 || m.Timer.TotalMS != 1000 || m.Timer.LeftMS <= 0 || m.Timer.LeftMS > 1000 {
					t.Errorf("seq %d: timer %+v, want seat 0 with up to 1000 of 1000 ms left", m.Seq, *m.Timer)
				}
			}
			if m.Type == "state" && m.View.Turn >= 2 && m.Timer != nil {
				t.Errorf("seq %d: a timer %+v while bot seat %d acts", m.Seq, *m.Timer, m.View.Turn)
			}
		}
		if !timed {
			t.Error("no state showed seat 0 its running turn timer")
		}
		events, err := ts.st.Events(bg, tab.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			var a pitch.Action
			if err := json.Unmarshal(e.Action, &a); err != nil {
				t.Fatal(err)
			}
			want := map[int8]string{0: "timer", 1: "stand-in", 2: "", 3: ""}[a.Seat]
			if e.By != want {
				t.Errorf("event %d (%s): by %q, want %q", e.Seq, a, e.By, want)
			}
		}
		checkMessages(t, ts.st, tab.ID, h.clients)
	})
}

// TestLastTrickShown: the state after a hand ends carries that hand's last
// trick and winner (the next hand has begun, and the page must still show
// the last card played), as the stored hand record has them.
func TestLastTrickShown(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tab := ts.create(`{"variant":"auction","seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		h := newHub(t, ts, tab.ID, 9)
		c := h.connect("seat 0", 0, ts.join(tab.ID, 0, "Ann"), true)
		h.run(30*time.Second, "a finished hand", func() bool { return c.last != nil && c.last.LastHand != nil })
		hands, err := ts.st.Hands(bg, tab.ID)
		if err != nil || len(hands) == 0 {
			t.Fatalf("hands %v, %v", hands, err)
		}
		rec, err := pitch.ReadRecord(strings.NewReader(string(hands[0].Record)))
		if err != nil {
			t.Fatal(err)
		}
		var plays []pitch.Action
		for _, a := range rec.Actions {
			if a.Kind == pitch.ActPlay {
				plays = append(plays, a)
			}
		}
		last := plays[len(plays)-4:]
		lh := c.last.LastHand
		if lh.Tricks != 6 || len(lh.LastTrick) != 4 {
			t.Fatalf("last hand: %d tricks, last trick %+v; want 6 and 4 cards", lh.Tricks, lh.LastTrick)
		}
		for i, tc := range lh.LastTrick {
			if tc.Seat != int(last[i].Seat) || tc.Card != last[i].Card {
				t.Errorf("last trick card %d: seat %d %s, want %s", i, tc.Seat, tc.Card, last[i])
			}
		}
		s, err := rec.State()
		if err != nil {
			t.Fatal(err)
		}
		if v := s.View(-1); lh.LastWinner != v.LastWon {
			t.Errorf("last winner %d, want %d", lh.LastWinner, v.LastWon)
		}
		checkMessages(t, ts.st, tab.ID, h.clients)
	})
}

// TestHints: a seated player may ask for a hint on its own decision and
// gets the options, legal ones only, best first; not on another's turn,
// not as a spectator, and not at a table that turned hints off.
func TestHints(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tab := ts.create(`{"variant":"ten-point","seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		h := newHub(t, ts, tab.ID, 3)
		c := h.connect("seat 0", 0, ts.join(tab.ID, 0, "Ann"), false)
		spec := h.connect("spectator", -1, "", false)
		h.run(20*time.Second, "seat 0 to act", func() bool { return c.last != nil && c.toAct(c.last) })
		spec.refusedText(`{"type":"hint"}`, "spectators may not ask for hints")
		c.send(map[string]string{"type": "hint"})
		var hint *wire
		h.run(20*time.Second, "the hint", func() bool {
			for _, m := range c.msgs {
				if m.Type == "hint" {
					hint = m
				}
			}
			return hint != nil
		})
		if len(hint.Options) == 0 {
			t.Fatal("a hint with no options")
		}
		legal := map[string]bool{}
		for _, r := range c.last.Legal {
			legal[string(r)] = true
		}
		for i, o := range hint.Options {
			var a pitch.Action
			if err := json.Unmarshal(o.Action, &a); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(a)
			if !legal[string(b)] {
				t.Errorf("hint option %s is not among the legal actions", b)
			}
			if i > 0 && o.Value > hint.Options[i-1].Value {
				t.Errorf("hint options not best first: %v after %v", o.Value, hint.Options[i-1].Value)
			}
			if o.Make != nil && (*o.Make < 0 || *o.Make > 1) {
				t.Errorf("hint option %s: chance to make %v", b, *o.Make)
			}
		}
		if hint.Seq != c.last.Seq {
			t.Errorf("hint for seq %d, want %d", hint.Seq, c.last.Seq)
		}
		// Act, then ask while the bots are to act (hold seat 0's next turn).
		c.action(c.last.Legal[0])
		c.actedSeq = c.last.Seq
		h.run(20*time.Second, "a bot to act", func() bool { return c.last.Seq > c.actedSeq && c.last.View.Turn != 0 || c.last.Over })
		if !c.last.Over && c.last.View.Turn != 0 {
			c.refusedText(`{"type":"hint"}`, "not your turn")
			h.run(10*time.Second, "the refusal", func() bool { return len(c.bad) == 0 })
		}

		off := ts.create(`{"variant":"auction","hints":false,"seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		h2 := newHub(t, ts, off.ID, 4)
		d := h2.connect("seat 0", 0, ts.join(off.ID, 0, "Ann"), false)
		h2.run(20*time.Second, "seat 0 to act", func() bool { return d.last != nil && d.toAct(d.last) })
		if d.last.Table.Hints {
			t.Error("the table says hints are on, though created with hints false")
		}
		d.refusedText(`{"type":"hint"}`, "hints are turned off at this table")
		h2.run(10*time.Second, "the refusal", func() bool { return len(d.bad) == 0 })
	})
}

// TestChat: table talk goes to the seated players (not to spectators),
// kept for a player who comes back; empty, long or control-character lines
// and a player talking too fast are refused with the reason.
func TestChat(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tab := ts.create(`{"variant":"auction","seats":` + seatsBody("h", "h", "easy", "easy") + `}`)
		h := newHub(t, ts, tab.ID, 6)
		tok1 := ts.join(tab.ID, 1, "Bea")
		c0 := h.connect("seat 0", 0, ts.join(tab.ID, 0, "Ann"), false)
		c1 := h.connect("seat 1", 1, tok1, false)
		spec := h.connect("spectator", -1, "", false)
		chats := func(c *client) []string {
			var out []string
			for _, m := range c.msgs {
				if m.Type == "chat" {
					out = append(out, fmt.Sprintf("%d %s: %s", m.Seat, m.Name, m.Text))
				}
			}
			return out
		}
		c0.send(map[string]string{"type": "chat", "text": "  hello <b>all</b>  "})
		c0.send(map[string]string{"type": "chat", "text": "γειά σας"})
		c1.send(map[string]string{"type": "chat", "text": "hi"})
		h.run(10*time.Second, "three lines at seat 1", func() bool { return len(chats(c1)) == 3 })
		want := []string{"0 Ann: hello <b>all</b>", "0 Ann: γειά σας", "1 Bea: hi"} // seat 0's in order; seat 1's may come first
		if got := chats(c1); !slices.Contains(got, want[2]) || fmt.Sprint(slices.DeleteFunc(got, func(s string) bool { return s == want[2] })) != fmt.Sprint(want[:2]) {
			t.Errorf("seat 1 heard %q, want %q", got, want)
		}
		c0.refusedText(`{"type":"chat","text":"   "}`, "an empty line is not sent")
		c0.refusedText(`{"type":"chat","text":"`+strings.Repeat("é", 201)+`"}`, "at most 200 characters")
		c0.refusedText(`{"type":"chat","text":"ring\u0007"}`, "without control characters")
		// Not UTF-8: the raw byte is refused, not delivered as U+FFFD; so is
		// the U+FFFD a lone surrogate escape becomes. Bidirectional
		// overrides and isolates are refused as names refuse them.
		c0.refusedText("{\"type\":\"chat\",\"text\":\"raw \xff byte\"}", "byte 27 of the message (0xFF)")
		c0.refusedText(`{"type":"chat","text":"half \ud800"}`, "U+FFFD")
		c0.refusedText(`{"type":"chat","text":"abc\u202Edef"}`, "may not hold U+202E")
		c0.refusedText(`{"type":"chat","text":"abc\u2066def"}`, "may not hold U+2066")
		spec.refusedText(`{"type":"chat","text":"psst"}`, "only seated players may talk")
		c1.send(map[string]string{"type": "chat", "text": "two"})
		c1.send(map[string]string{"type": "chat", "text": "three"})
		c1.refusedText(`{"type":"chat","text":"four"}`, "too fast")
		h.run(10*time.Second, "the refusals", func() bool {
			return len(c0.bad) == 0 && len(c1.bad) == 0 && len(spec.bad) == 0 && len(chats(c0)) == 5
		})
		if got := chats(spec); len(got) != 0 {
			t.Errorf("the spectator heard %q", got)
		}
		var codes []string
		for _, m := range c0.msgs {
			if m.Type == "error" {
				codes = append(codes, m.Code)
			}
		}
		if want := []string{"chat_empty", "chat_long", "chat_control", "chat_utf8", "chat_utf8", "chat_control", "chat_control"}; !slices.Equal(codes, want) {
			t.Errorf("seat 0's refusals are coded %q, want %q", codes, want)
		}
		// Seat 1 comes back on a new connection: it gets the talk so far.
		again := h.connect("seat 1 again", 1, tok1, false)
		h.run(10*time.Second, "the talk so far", func() bool { return len(chats(again)) == 5 })
	})
}

// TestRematch: at a finished table a seated player starts the next match:
// the same game and seats at a new table where each player's token still
// holds their seat, and the old table points everyone to it. Asked again
// it answers the same table; others and unfinished tables are refused.
func TestRematch(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		dsn := fresh(t)
		st, err := store.Open(bg, dsn)
		if err != nil {
			t.Fatal(err)
		}
		id := finishedTable(t, st)
		st.Close()
		ts := startServer(t, dsn, fastOptions())

		resp, b := ts.do("POST", "/api/tables/"+id+"/rematch", `{"token":"not a seat"}`)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "only a player seated") {
			t.Errorf("rematch with a bad token: %d %s", resp.StatusCode, b)
		}
		resp, b = ts.do("POST", "/api/tables/"+id+"/rematch", `{"token":"tok-0"}`)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("rematch: %d %s", resp.StatusCode, b)
		}
		var next struct{ ID string }
		if err := json.Unmarshal(b, &next); err != nil || next.ID == "" || next.ID == id {
			t.Fatalf("rematch answered %s (%v)", b, err)
		}
		resp, b = ts.do("POST", "/api/tables/"+id+"/rematch", `{"token":"tok-0"}`)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), next.ID) {
			t.Errorf("rematch asked again: %d %s, want 200 and %s", resp.StatusCode, b, next.ID)
		}
		var old, nt struct {
			tableJSON
			Next string `json:"next"`
		}
		_, b = ts.do("GET", "/api/tables/"+id, "")
		_ = json.Unmarshal(b, &old)
		_, b = ts.do("GET", "/api/tables/"+next.ID, "")
		_ = json.Unmarshal(b, &nt)
		if old.Next != next.ID {
			t.Errorf("the old table's next is %q, want %q", old.Next, next.ID)
		}
		if nt.Variant != "auction" || nt.Finished || len(nt.Seats) != 4 || nt.Seats[0].Name != "Ann" || !nt.Seats[0].Taken ||
			nt.Seats[1].Level != "easy" || nt.Options["target"] != float64(1) {
			t.Errorf("the new table %+v, want the old one's game and seats", nt.tableJSON)
		}
		// The old token holds seat 0 at the new table, and the old table's
		// state points there.
		h := newHub(t, ts, next.ID, 1)
		c := h.connect("seat 0", 0, "tok-0", false)
		h.run(10*time.Second, "seat 0's state at the new table", func() bool { return c.last != nil })
		if c.last.Seat != 0 {
			t.Errorf("seat %d at the new table, want 0", c.last.Seat)
		}
		h2 := newHub(t, ts, id, 2)
		o := h2.connect("seat 0 at the old table", 0, "tok-0", false)
		h2.run(10*time.Second, "the old table's state", func() bool { return o.last != nil })
		if o.last.NextTable != next.ID || !o.last.Over {
			t.Errorf("old table: next_table %q, over %v; want %q, true", o.last.NextTable, o.last.Over, next.ID)
		}
		// It names who started the next match, so that the page moving
		// the others there can tell them.
		if o.last.NextBy == nil || *o.last.NextBy != 0 {
			t.Errorf("old table: next_by %v, want seat 0, who started it", o.last.NextBy)
		}
		// Not before the match is over.
		running := ts.create(`{"variant":"auction","seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		tok := ts.join(running.ID, 0, "Cy")
		resp, b = ts.do("POST", "/api/tables/"+running.ID+"/rematch", `{"token":"`+tok+`"}`)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), "not over") {
			t.Errorf("rematch of a running match: %d %s", resp.StatusCode, b)
		}
	})
}

// finishedTable stores an auction table (target 1, seat 0 human "Ann" with
// token "tok-0", bots) whose match is over: its log is a match played out
// by random legal actions from the first seed, of a fixed list, that ends
// within 30 hands. The engine is deterministic, so this needs no luck.
func finishedTable(t *testing.T, st store.Store) string {
	t.Helper()
	g := pitch.MustNewGame(pitch.Auction, pitch.WithTarget(1))
	for seed := uint64(1); seed <= 50; seed++ {
		m := pitch.NewMatch(g, seed)
		rng := pitch.NewRand(seed)
		var actions []pitch.Action
		for len(m.Records()) < 30 && !m.Over() {
			a := m.State().RandomAction(rng)
			if err := m.Apply(a); err != nil {
				t.Fatal(err)
			}
			actions = append(actions, a)
		}
		if !m.Over() {
			continue
		}
		opts, _ := json.Marshal(g.OptionMap())
		h := sha256.Sum256([]byte("tok-0"))
		id := fmt.Sprintf("done%d", seed)
		tb := &store.Table{ID: id, Variant: "auction", Options: opts, Seed: seed, Created: time.Now().UTC(),
			Seats: []store.Seat{{Seat: 0, Kind: "human", Name: "Ann", TokenHash: h[:]},
				{Seat: 1, Kind: "bot", Level: "easy"}, {Seat: 2, Kind: "bot", Level: "easy"}, {Seat: 3, Kind: "bot", Level: "easy"}}}
		if err := st.CreateTable(bg, tb); err != nil {
			t.Fatal(err)
		}
		for i, a := range actions {
			raw, _ := json.Marshal(a)
			if err := st.Append(bg, id, store.Append{Event: store.Event{Seq: i, Action: raw}, Finished: i == len(actions)-1}); err != nil {
				t.Fatal(err)
			}
		}
		return id
	}
	t.Fatal("no seed of 1 to 50 ends an auction match to 1 within 30 hands")
	return ""
}

// TestErrorCodes: errors carry a stable code and their parameters beside
// the English words, so that a client can say them in its language: an
// engine refusal with its rule and numbers (C-7), a server refusal, and an
// HTTP error.
func TestErrorCodes(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tab := ts.create(`{"variant":"auction","seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		h := newHub(t, ts, tab.ID, 2)
		c := h.connect("seat 0", 0, ts.join(tab.ID, 0, "Ann"), false)
		spec := h.connect("spectator", -1, "", false)
		h.run(20*time.Second, "seat 0 to bid", func() bool { return c.last != nil && c.toAct(c.last) && c.last.View.Phase == "bid" })
		c.refused(pitch.Bid(0, 7), "may not bid 7", 0)
		spec.refusedText(`{"type":"action","action":{"seat":0,"pass":true}}`, "spectators may not act")
		h.run(10*time.Second, "the refusals", func() bool { return len(c.bad) == 0 && len(spec.bad) == 0 })
		var got []*wire
		for _, cl := range []*client{c, spec} {
			for _, m := range cl.msgs {
				if m.Type == "error" {
					got = append(got, m)
				}
			}
		}
		if len(got) != 2 {
			t.Fatalf("%d errors, want 2", len(got))
		}
		if e := got[0]; e.Code != "bid_not_allowed" || e.Params["Rule"] != "AP-BID-1" || e.Params["Bid"] != float64(7) || e.Params["Seat"] != float64(0) {
			t.Errorf("the refused bid: code %q params %v", e.Code, e.Params)
		}
		if e := got[1]; e.Code != "spectator_act" {
			t.Errorf("the spectator's action: code %q", e.Code)
		}
		resp, b := ts.do("GET", "/api/tables/nosuchtable", "")
		var body struct {
			Error, Code string
		}
		if err := json.Unmarshal(b, &body); err != nil || resp.StatusCode != http.StatusNotFound || body.Code != "no_table" || body.Error == "" {
			t.Errorf("GET of no table: %d %s", resp.StatusCode, b)
		}
	})
}

// TestPageLanguage: the page the server renders (/, /t/ID) is marked with
// the language the browser asks for (Accept-Language), English when it
// asks for one the site does not speak.
func TestPageLanguage(t *testing.T) {
	opts := fastOptions()
	opts.Static = fstest.MapFS{"index.html": {Data: []byte("<!doctype html>\n<html lang=\"en\">\n<p>page</p>")}}
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	for _, c := range []struct{ path, accept, want string }{
		{"/", "fr-CH,fr;q=0.9,en;q=0.8", "fr"},
		{"/", "", "en"},
		{"/t/abc", "ja-JP", "ja"},
		{"/", "de-DE", "en"},
	} {
		req, _ := http.NewRequest("GET", ts.hs.URL+c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Language", c.accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), `<html lang="`+c.want+`">`) || resp.Header.Get("Content-Language") != c.want {
			t.Errorf("GET %s with Accept-Language %q: %d, Content-Language %q, page %q; want %s",
				c.path, c.accept, resp.StatusCode, resp.Header.Get("Content-Language"), body, c.want)
		}
	}
}
