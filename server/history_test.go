package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"pitch"
	"pitch/store"
)

// playedTable stores a table of variant whose match is played at random
// for hands hands (to its end when over is set), with every hand's record,
// as the server would have stored them. It returns the table's id and the
// records.
func playedTable(t *testing.T, st store.Store, id string, v pitch.Variant, seed uint64, hands int, over bool, created time.Time) []pitch.Record {
	t.Helper()
	g := pitch.MustNewGame(v, pitch.WithTarget(3))
	m := pitch.NewMatch(g, seed)
	rng := pitch.NewRand(seed)
	opts, _ := json.Marshal(g.OptionMap())
	h := sha256.Sum256([]byte("tok-0"))
	tb := &store.Table{ID: id, Variant: v.String(), Options: opts, Seed: seed, Created: created,
		Seats: []store.Seat{{Seat: 0, Kind: "human", Name: "Ann", TokenHash: h[:]}}}
	for i := 1; i < g.Seats(); i++ {
		tb.Seats = append(tb.Seats, store.Seat{Seat: i, Kind: "bot", Level: "easy"})
	}
	if err := st.CreateTable(bg, tb); err != nil {
		t.Fatal(err)
	}
	seq := 0
	for !m.Over() && (over || len(m.Records()) < hands) {
		a := m.State().RandomAction(rng)
		before := len(m.Records())
		if err := m.Apply(a); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(a)
		ap := store.Append{Event: store.Event{Seq: seq, Action: raw}, Finished: m.Over()}
		if recs := m.Records(); len(recs) > before {
			rec, _ := json.Marshal(recs[len(recs)-1])
			ap.Hand = &store.Hand{N: len(recs), Record: rec}
		}
		if err := st.Append(bg, id, ap); err != nil {
			t.Fatal(err)
		}
		seq++
	}
	return m.Records()
}

type replayResp struct {
	Table string `json:"table"`
	Hand  int    `json:"hand"`
	Moon  int    `json:"moon"`
	Steps []struct {
		Index  int             `json:"index"`
		Action json.RawMessage `json:"action"`
		Auto   bool            `json:"auto"`
		Hands  [][]pitch.Card  `json:"hands"`
		Taken  []int           `json:"taken"`
	} `json:"steps"`
	Result *struct {
		Scores []int `json:"scores"`
		Made   bool  `json:"made"`
	} `json:"result"`
}

// checkReplay checks a replay against its record: a step per action (and
// per give_stock the record leaves out) with every seat's hand as the
// engine has it after that action, and the hand's result.
func checkReplay(t *testing.T, what string, rec pitch.Record, got replayResp) {
	t.Helper()
	start := rec
	start.Actions = nil
	s, _ := start.State()
	k := 0
	check := func(i int) {
		if k >= len(got.Steps) {
			t.Fatalf("%s: %d steps, ran out at action %d", what, len(got.Steps), i)
		}
		st := got.Steps[k]
		if st.Index != i {
			t.Fatalf("%s: step %d is of action %d, want %d", what, k, st.Index, i)
		}
		for seat := range s.Seats() {
			if pitch.SetOf(st.Hands[seat]...) != s.Hand(seat) {
				t.Fatalf("%s: step %d, seat %d holds %v, the engine %v", what, k, seat, st.Hands[seat], s.Hand(seat))
			}
			if want := pitch.SortHand(s.Hand(seat), s.Trump(), s.Game().Jokers()); !slices.Equal(st.Hands[seat], want) {
				t.Fatalf("%s: step %d, seat %d's hand is %v, not sorted as %v (C-5)", what, k, seat, st.Hands[seat], want)
			}
		}
		k++
	}
	if got.Moon != s.Game().MoonBid() { // TP-BID-1, PW-BID-1
		t.Errorf("%s: the replay says the moon is %d, want %d", what, got.Moon, s.Game().MoonBid())
	}
	check(-1)
	for i, a := range rec.Actions {
		if s.Phase() == pitch.PhaseGiveStock && a.Kind != pitch.ActGiveStock {
			s.Apply(pitch.GiveStock(s.Bidder(), false))
			check(i)
		}
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		check(i)
	}
	if k != len(got.Steps) {
		t.Errorf("%s: %d steps, want %d", what, len(got.Steps), k)
	}
	r := s.Result()
	if got.Result == nil || fmt.Sprint(got.Result.Scores) != fmt.Sprint(r.Scores) || got.Result.Made != r.Made {
		t.Errorf("%s: result %+v, want scores %v made %v", what, got.Result, r.Scores, r.Made)
	}
}

func TestReplayEveryGame(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	for i, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		id := "replay-" + v.String()
		recs := playedTable(t, ts.st, id, v, uint64(3+i), 2, false, time.Now())
		for n, rec := range recs {
			resp, b := ts.do("GET", fmt.Sprintf("/api/tables/%s/hands/%d/replay", id, n+1), "")
			if resp.StatusCode != 200 {
				t.Fatalf("%s hand %d: %d %s", v, n+1, resp.StatusCode, b)
			}
			var got replayResp
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if got.Table != id || got.Hand != n+1 {
				t.Errorf("replay of %s hand %d says table %q hand %d", id, n+1, got.Table, got.Hand)
			}
			checkReplay(t, fmt.Sprintf("%s hand %d", v, n+1), rec, got)
			// The same record posted replays the same.
			raw, _ := json.Marshal(rec)
			resp, b2 := ts.do("POST", "/api/replay", string(raw))
			var posted replayResp
			if resp.StatusCode != 200 || json.Unmarshal(b2, &posted) != nil {
				t.Fatalf("POST /api/replay: %d %s", resp.StatusCode, b2)
			}
			checkReplay(t, fmt.Sprintf("posted %s hand %d", v, n+1), rec, posted)
		}
		// The hand in progress is not replayed: its cards are secret.
		resp, b := ts.do("GET", fmt.Sprintf("/api/tables/%s/hands/%d/replay", id, len(recs)+1), "")
		if resp.StatusCode != 404 || !strings.Contains(string(b), "is not finished") {
			t.Errorf("the hand in progress: %d %s", resp.StatusCode, b)
		}
	}
	for path, want := range map[string]int{
		"/api/tables/replay-auction/hands/0/replay":        400,
		"/api/tables/replay-auction/hands/x/review":        400,
		"/api/tables/nope/hands/1/replay":                  404,
		"/api/tables/replay-auction/hands/1/review":        400, // no seat
		"/api/tables/replay-auction/hands/1/review?seat=4": 400,
	} {
		if resp, b := ts.do("GET", path, ""); resp.StatusCode != want {
			t.Errorf("GET %s: %d %s, want %d", path, resp.StatusCode, b, want)
		}
	}
}

func TestPostReplayRefusesBadRecords(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	b, err := os.ReadFile("../testdata/review/auction-pass-top-spades.json")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), `"pass": true`, `"bid": 9`, 1)
	for _, c := range []struct{ body, want string }{
		{bad, `"code":"bad_record"`},
		{bad, `may not bid 9`},
		{`{"variant":"bridge"}`, `unknown variant`},
		{`not json`, `not a JSON object`},
		{`{"variant":"auction","x":` + strings.Repeat(" ", 70<<10) + `1}`, `"code":"record_large"`},
	} {
		resp, got := ts.do("POST", "/api/replay", c.body)
		if resp.StatusCode != 400 || !strings.Contains(string(got), c.want) {
			t.Errorf("POST /api/replay %.40q: %d %s, want 400 with %s", c.body, resp.StatusCode, got, c.want)
		}
	}
}

func TestHistoryPagesAndFilter(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		t0 := time.Now().Add(-time.Hour)
		for i, v := range []pitch.Variant{pitch.Auction, pitch.Pawnee, pitch.Auction, pitch.TenPoint, pitch.Auction} {
			playedTable(t, ts.st, fmt.Sprintf("h%d", i), v, uint64(20+i), 1, i == 0, t0.Add(time.Duration(i)*time.Minute))
		}
		type page struct {
			Tables []struct {
				ID       string `json:"id"`
				Variant  string `json:"variant"`
				Finished bool   `json:"finished"`
				Hands    int    `json:"hands"`
				Scores   []int  `json:"scores"`
				Winner   []int  `json:"winner"`
				Seats    []struct {
					Name string `json:"name"`
				} `json:"seats"`
			} `json:"tables"`
			Total int `json:"total"`
		}
		get := func(q string) page {
			t.Helper()
			resp, b := ts.do("GET", "/api/history"+q, "")
			var p page
			if resp.StatusCode != 200 || json.Unmarshal(b, &p) != nil {
				t.Fatalf("GET /api/history%s: %d %s", q, resp.StatusCode, b)
			}
			return p
		}
		p := get("?limit=2")
		if p.Total != 5 || len(p.Tables) != 2 || p.Tables[0].ID != "h4" || p.Tables[1].ID != "h3" {
			t.Errorf("page 1: %+v", p)
		}
		if p.Tables[0].Hands != 1 || len(p.Tables[0].Scores) != 4 || p.Tables[0].Seats[0].Name != "Ann" {
			t.Errorf("h4: %+v", p.Tables[0])
		}
		p = get("?game=auction&offset=2&limit=2")
		if p.Total != 3 || len(p.Tables) != 1 || p.Tables[0].ID != "h0" || !p.Tables[0].Finished || len(p.Tables[0].Winner) == 0 {
			t.Errorf("auction page 2: %+v", p)
		}
		p = get("?tables=h1,h3,nosuchtable")
		if p.Total != 2 || p.Tables[0].ID != "h3" || p.Tables[1].ID != "h1" {
			t.Errorf("tables h1,h3: %+v", p)
		}
		ids := make([]string, 100)
		for i := range ids {
			ids[i] = fmt.Sprintf("h%d", i)
		}
		if p = get("?tables=" + strings.Join(ids, ",")); p.Total != 5 {
			t.Errorf("100 ids, 5 of them tables: total %d", p.Total)
		}
		for _, c := range []struct{ q, want string }{
			{"?game=bridge", ""}, {"?limit=0", ""}, {"?limit=101", ""}, {"?offset=-1", ""}, {"?sort=new", ""},
			{"?tables=h1,h3,bad!id", `tables holds \"bad!id\", not a table id`},
			{"?tables=h1,,h3", `tables holds \"\", not a table id`},
			{"?tables=" + strings.Join(append(ids, "h100"), ","), "tables lists 101 ids: it takes at most 100"},
		} {
			resp, b := ts.do("GET", "/api/history"+c.q, "")
			if resp.StatusCode != 400 || !strings.Contains(string(b), c.want) {
				t.Errorf("GET /api/history%.40s: %d %s, want 400 saying %q", c.q, resp.StatusCode, b, c.want)
			}
			if c.want != "" && !strings.Contains(string(b), `"code":"bad_tables"`) {
				t.Errorf("GET /api/history%.40s: %s, want the code bad_tables", c.q, b)
			}
		}
		// The whole match in one file: every finished hand's record.
		resp, b := ts.do("GET", "/api/tables/h0/match", "")
		var m struct {
			Table struct {
				ID string `json:"id"`
			} `json:"table"`
			Hands []json.RawMessage `json:"hands"`
		}
		if resp.StatusCode != 200 || json.Unmarshal(b, &m) != nil || m.Table.ID != "h0" {
			t.Fatalf("GET match: %d %.200s", resp.StatusCode, b)
		}
		hands, _ := ts.st.Hands(bg, "h0")
		if len(m.Hands) != len(hands) || len(hands) == 0 {
			t.Fatalf("the match file has %d hands, the store %d", len(m.Hands), len(hands))
		}
		for i, h := range hands {
			if !bytes.Equal(m.Hands[i], h.Record) {
				t.Errorf("hand %d of the match file differs from its record", i+1)
			}
		}
		if cd := resp.Header.Get("Content-Disposition"); !strings.Contains(cd, "pitch-h0-match.json") {
			t.Errorf("Content-Disposition %q", cd)
		}
	})
}

func TestReviewQueuedAndKept(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	playedTable(t, ts.st, "rv", pitch.Auction, 7, 1, false, time.Now())
	path := "/api/tables/rv/hands/1/review?seat=1"
	resp, b := ts.do("GET", path, "")
	if resp.StatusCode != 202 || !strings.Contains(string(b), `"pending"`) {
		t.Fatalf("first request: %d %s, want 202 pending", resp.StatusCode, b)
	}
	deadline := time.Now().Add(60 * time.Second)
	for resp.StatusCode == 202 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		resp, b = ts.do("GET", path, "")
	}
	var got struct {
		Status string `json:"status"`
		Review struct {
			Seat      int `json:"seat"`
			Decisions []struct {
				Options []json.RawMessage `json:"options"`
			} `json:"decisions"`
		} `json:"review"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(b, &got) != nil || got.Status != "done" || got.Review.Seat != 1 {
		t.Fatalf("after polling: %d %.300s", resp.StatusCode, b)
	}
	kept, _ := ts.st.Reviews(bg, "rv")
	if len(kept) != 1 || kept[0].N != 1 || kept[0].Seat != 1 {
		t.Errorf("the store keeps %+v", kept)
	}
	resp, b = ts.do("GET", "/api/tables/rv/reviews", "")
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"hand":1,"seat":1`) {
		t.Errorf("GET reviews: %d %s", resp.StatusCode, b)
	}
}

func TestPostReviewMarksTheMistake(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	b, err := os.ReadFile("../testdata/review/auction-pass-top-spades.json")
	if err != nil {
		t.Fatal(err)
	}
	resp, got := ts.do("POST", "/api/review?seat=0", string(b))
	var r struct {
		Review struct {
			Blunders  int `json:"blunders"`
			Decisions []struct {
				Index   int    `json:"index"`
				Verdict string `json:"verdict"`
			} `json:"decisions"`
		} `json:"review"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(got, &r) != nil {
		t.Fatalf("POST /api/review: %d %.300s", resp.StatusCode, got)
	}
	if r.Review.Blunders < 1 || r.Review.Decisions[0].Index != 0 || r.Review.Decisions[0].Verdict != "blunder" {
		t.Errorf("the pass holding the top spades is not marked a blunder: %+v", r.Review)
	}
	if resp, got := ts.do("POST", "/api/review?seat=9", string(b)); resp.StatusCode != 400 {
		t.Errorf("seat 9: %d %s", resp.StatusCode, got)
	}
}

type matchReviewResp struct {
	Status  string `json:"status"`
	Hands   int    `json:"hands"`
	Seats   []int  `json:"seats"`
	Wanted  int    `json:"wanted"`
	Done    int    `json:"done"`
	Pending int    `json:"pending"`
	Waiting int    `json:"waiting"`
	Failed  int    `json:"failed"`
	Busy    bool   `json:"busy"`
	Reviews []struct {
		Hand     int `json:"hand"`
		Seat     int `json:"seat"`
		Mistakes int `json:"mistakes"`
	} `json:"reviews"`
}

// TestMatchReview: POST /api/tables/{id}/reviews queues the reviews of
// every finished hand a few at a time and says how far they are, until
// all are made (200); for one seat, then for every seat; bad requests
// change nothing.
func TestMatchReview(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	recs := playedTable(t, ts.st, "mr", pitch.Auction, 11, 6, false, time.Now())
	hands := len(recs)
	post := func(q string) (int, matchReviewResp) {
		t.Helper()
		resp, b := ts.do("POST", "/api/tables/mr/reviews"+q, "")
		var m matchReviewResp
		if resp.StatusCode != 200 && resp.StatusCode != 202 || json.Unmarshal(b, &m) != nil {
			t.Fatalf("POST reviews%s: %d %s", q, resp.StatusCode, b)
		}
		if (resp.StatusCode == 200) != (m.Status == "done") || resp.StatusCode == 202 && resp.Header.Get("Retry-After") == "" {
			t.Fatalf("POST reviews%s: %d with status %q, Retry-After %q", q, resp.StatusCode, m.Status, resp.Header.Get("Retry-After"))
		}
		if m.Done+m.Pending+m.Waiting+m.Failed != m.Wanted || m.Wanted != m.Hands*len(m.Seats) || m.Hands != hands {
			t.Fatalf("POST reviews%s: the counts do not add up: %+v", q, m)
		}
		return resp.StatusCode, m
	}
	until := func(q string) matchReviewResp {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			code, m := post(q)
			if m.Pending > 4 {
				t.Fatalf("a match review has %d of the table's reviews queued at once, want at most 4", m.Pending)
			}
			if code == 200 {
				return m
			}
			if time.Now().After(deadline) {
				t.Fatalf("the match review is not done after 2 minutes: %+v", m)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	code, first := post("?seat=2")
	if code != 202 || first.Done != 0 || first.Pending != 4 || first.Waiting != hands-4 || fmt.Sprint(first.Seats) != "[2]" {
		t.Fatalf("the first request: %d %+v, want 202 with 4 queued and %d waiting", code, first, hands-4)
	}
	m := until("?seat=2")
	if m.Done != hands || m.Failed != 0 {
		t.Errorf("seat 2: %+v, want %d done", m, hands)
	}
	kept, _ := ts.st.Reviews(bg, "mr")
	if len(kept) != hands {
		t.Errorf("the store keeps %d reviews, want %d", len(kept), hands)
	}
	m = until("")
	if m.Wanted != hands*4 || m.Done != hands*4 || len(m.Reviews) != hands*4 {
		t.Errorf("every seat: %+v, want %d done and counted", m, hands*4)
	}
	// GET reviews counts them too, with the hands finished.
	resp, b := ts.do("GET", "/api/tables/mr/reviews", "")
	var all struct {
		Hands   int               `json:"hands"`
		Reviews []json.RawMessage `json:"reviews"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(b, &all) != nil || all.Hands != hands || len(all.Reviews) != hands*4 {
		t.Errorf("GET reviews: %d %.300s", resp.StatusCode, b)
	}
	for q, want := range map[string]string{
		"?seat=4":     "bad_seat",
		"?seat=x":     "bad_seat",
		"?seats=1":    "bad_query",
		"?seat=1&x=2": "bad_query",
	} {
		if resp, b := ts.do("POST", "/api/tables/mr/reviews"+q, ""); resp.StatusCode != 400 || !strings.Contains(string(b), want) {
			t.Errorf("POST reviews%s: %d %s, want 400 %s", q, resp.StatusCode, b, want)
		}
	}
	if resp, b := ts.do("POST", "/api/tables/nope/reviews", ""); resp.StatusCode != 404 {
		t.Errorf("POST reviews of no table: %d %s", resp.StatusCode, b)
	}
	if after, _ := ts.st.Reviews(bg, "mr"); len(after) != hands*4 {
		t.Errorf("the bad requests changed the stored reviews: %d, want %d", len(after), hands*4)
	}
}
