package server_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"pitch"
)

// --- events as a client reads them ---

type evWire struct {
	ID      string `json:"id"`
	State   string `json:"state"`
	Round   int    `json:"round"`
	Entries []struct {
		Entry  int    `json:"entry"`
		Name   string `json:"name"`
		Joined int    `json:"joined"`
		Left   int    `json:"left"`
	} `json:"entries"`
	Commitments [][]string `json:"commitments"`
	Byes        [][]int    `json:"byes"`
	Rounds      [][]struct {
		Table string `json:"table"`
		Seats []struct {
			Entry int    `json:"entry"`
			Name  string `json:"name"`
			Bot   bool   `json:"bot"`
		} `json:"seats"`
		Result *struct {
			Scores []int   `json:"scores"`
			Hands  [][]int `json:"hands"`
			Winner []int   `json:"winner"`
		} `json:"result"`
		Winners []int `json:"winners"`
	} `json:"rounds"`
	Standings []struct {
		Entry   int     `json:"entry"`
		Name    string  `json:"name"`
		Place   int     `json:"place"`
		Total   int     `json:"total"`
		Rounds  int     `json:"rounds"`
		Percent float64 `json:"percent"`
		Boards  int     `json:"boards"`
		Left    bool    `json:"left"`
	} `json:"standings"`
}

type meWire struct {
	Entry     int    `json:"entry"`
	Round     int    `json:"round"`
	Table     string `json:"table"`
	Seat      int    `json:"seat"`
	SeatToken string `json:"seat_token"`
}

// post sends body to path and decodes the answer into v, failing unless
// the status is want.
func (ts *testServer) post(path, body string, want int, v any) {
	ts.t.Helper()
	resp, b := ts.do("POST", path, body)
	if resp.StatusCode != want {
		ts.t.Fatalf("POST %s %s: status %d, want %d: %s", path, body, resp.StatusCode, want, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			ts.t.Fatalf("POST %s: %v: %s", path, err, b)
		}
	}
}

func (ts *testServer) event(id string) evWire {
	ts.t.Helper()
	resp, b := ts.do("GET", "/api/events/"+id, "")
	if resp.StatusCode != 200 {
		ts.t.Fatalf("GET event: %d %s", resp.StatusCode, b)
	}
	var e evWire
	if err := json.Unmarshal(b, &e); err != nil {
		ts.t.Fatal(err)
	}
	return e
}

// waitEvent polls the event until done holds (a table's result reaches
// the event just after its last action).
func (ts *testServer) waitEvent(id string, what string, done func(evWire) bool) evWire {
	ts.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		e := ts.event(id)
		if done(e) {
			return e
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("waiting for %s: event %+v", what, e)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// playRound connects every seated person (tokens by entry; skip: those
// who stay away) to their table as a protocol client playing legal
// actions, and plays each table to its end, one table at a time. It
// returns each table's clients.
func playRound(t *testing.T, ts *testServer, id string, tokens map[int]string, skip map[int]bool, seed uint64) map[string][]*client {
	t.Helper()
	byTable := map[string][]meWire{}
	var order []string
	for i := range len(tokens) {
		if skip[i] {
			continue
		}
		var me meWire
		ts.post("/api/events/"+id+"/me", fmt.Sprintf(`{"token":%q}`, tokens[i]), 200, &me)
		if me.Table == "" {
			continue
		}
		if _, ok := byTable[me.Table]; !ok {
			order = append(order, me.Table)
		}
		byTable[me.Table] = append(byTable[me.Table], me)
	}
	out := map[string][]*client{}
	for k, table := range order {
		h := newHub(t, ts, table, seed+uint64(k))
		for _, me := range byTable[table] {
			out[table] = append(out[table], h.connect(fmt.Sprintf("entry %d", me.Entry), me.Seat, me.SeatToken, true))
		}
		h.run(60*time.Second, "table "+table+" to end its round", func() bool {
			for _, c := range h.clients {
				if c.last == nil || !c.last.Over {
					return false
				}
			}
			return true
		})
		for _, c := range h.clients {
			c.close()
		}
	}
	return out
}

// finalScores replays a table from the store: each hand's record (its
// deal) and changes of score, and the scores at the end.
func finalScores(t *testing.T, ts *testServer, id string) (deals []string, deltas [][]int, scores []int) {
	t.Helper()
	hands, err := ts.st.Hands(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hands {
		rec, err := pitch.ReadRecord(bytes.NewReader(h.Record))
		if err != nil {
			t.Fatal(err)
		}
		deals = append(deals, fmt.Sprint(rec.Dealer, rec.Hands, rec.Stock))
		st, err := rec.State()
		if err != nil {
			t.Fatal(err)
		}
		r := st.Result()
		deltas, scores = append(deltas, r.Delta), r.Scores
	}
	return deals, deltas, scores
}

// sameSet reports whether a and b hold the same numbers.
func sameSet(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestEventProgressive runs a 12-player progressive 10 Point Pitch event
// of 3 rounds of 2 hands with protocol clients: the movement (winners up
// one table, the head table's losers to the bottom, partners switched but
// at the head table), a latecomer who enters at the next round at the
// bottom while one of the others sits it out (byes: no bots), a leaver
// who is seated nowhere after, a restart in the middle of a round, and
// standings that are the sum of the tables' results (and the bye's
// average) as the store has them.
func TestEventProgressive(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		dsn := fresh(t)
		opts := fastOptions()
		opts.AwayDelay = 20 * time.Millisecond // the leaver's stand-in
		ts := startServer(t, dsn, opts)
		var created struct {
			ID    string `json:"id"`
			Token string `json:"token"`
			URL   string `json:"url"`
		}
		ts.post("/api/events", `{"variant":"ten-point","rounds":3,"end":"hands","hands":2,"movement":"progressive","switch_partners":true,"head_stays":true}`, 201, &created)
		id, host := created.ID, created.Token
		if created.URL != "/e/"+id || host == "" {
			t.Fatalf("created %+v", created)
		}
		tokens := map[int]string{}
		join := func(name string) int {
			var j struct {
				Entry int    `json:"entry"`
				Token string `json:"token"`
			}
			ts.post("/api/events/"+id+"/join", fmt.Sprintf(`{"name":%q}`, name), 200, &j)
			tokens[j.Entry] = j.Token
			return j.Entry
		}
		for i := range 12 {
			join(fmt.Sprintf("Player %d", i+1))
		}
		start := func() {
			t.Helper()
			ts.post("/api/events/"+id+"/start", fmt.Sprintf(`{"token":%q}`, host), 200, nil)
		}
		ts.post("/api/events/"+id+"/start", fmt.Sprintf(`{"token":%q}`, tokens[0]), http.StatusForbidden, nil) // not the host
		start()
		ts.post("/api/events/"+id+"/start", fmt.Sprintf(`{"token":%q}`, host), http.StatusConflict, nil) // tables playing

		// A latecomer arrives during round 1.
		late := join("Latecomer")
		var me meWire
		ts.post("/api/events/"+id+"/me", fmt.Sprintf(`{"token":%q}`, tokens[late]), 200, &me)
		if me.Table != "" {
			t.Errorf("the latecomer is seated in round 1 (%+v); they enter at the next", me)
		}
		playRound(t, ts, id, tokens, nil, 1)
		roundDone := func(r int) func(evWire) bool {
			return func(e evWire) bool {
				if len(e.Rounds) <= r {
					return false
				}
				for _, tab := range e.Rounds[r] {
					if tab.Result == nil {
						return false
					}
				}
				return true
			}
		}
		ts.waitEvent(id, "round 1's results", roundDone(0))
		start()

		// The leaver: seated in round 2, never comes, and leaves.
		e := ts.event(id)
		if len(e.Rounds[1]) != 3 || len(e.Byes[1]) != 1 {
			t.Fatalf("round 2 has %d tables and byes %v, want 3 and one sitting out (13 people)", len(e.Rounds[1]), e.Byes[1])
		}
		leaver := e.Rounds[1][1].Seats[0].Entry
		ts.post("/api/events/"+id+"/leave", fmt.Sprintf(`{"token":%q}`, tokens[leaver]), 200, nil)
		playRound(t, ts, id, tokens, map[int]bool{leaver: true}, 2)
		ts.waitEvent(id, "round 2's results", roundDone(1))
		start()
		// A restart in the middle of round 3: the tables come back with
		// their round's end (2 hands) and their results reach the event.
		ts.stop()
		ts = startServer(t, dsn, opts)
		playRound(t, ts, id, tokens, map[int]bool{leaver: true}, 3)
		e = ts.waitEvent(id, "the event's end", func(e evWire) bool { return e.State == "over" })

		seatsOf := func(r, ti int) []int {
			var ids []int
			for _, s := range e.Rounds[r][ti].Seats {
				ids = append(ids, s.Entry)
			}
			return ids
		}
		// Each table's result is the store's: 2 hands (fewer only if the
		// match ended, a moon say), the final scores.
		total := map[int]int{}
		for r, round := range e.Rounds {
			for ti, tab := range round {
				_, deltas, scores := finalScores(t, ts, tab.Table)
				n := len(tab.Result.Hands)
				if !slices.Equal(tab.Result.Scores, scores) || n != len(deltas) || (n != 2 && (n > 2 || tab.Result.Winner == nil)) ||
					!slices.Equal(tab.Result.Hands[n-1], deltas[n-1]) {
					t.Errorf("round %d table %d: result %+v, the store has scores %v after %d hands %v", r+1, ti+1, tab.Result, scores, len(deltas), deltas)
				}
				w := tab.Winners
				if len(w) != 2 || w[0]%2 != w[1]%2 || (tab.Result.Winner == nil && scores[w[0]] < scores[1-w[0]%2]) {
					t.Errorf("round %d table %d: winners %v with scores %v", r+1, ti+1, w, scores)
				}
				for s, seat := range tab.Seats {
					if seat.Entry < 0 || (seat.Entry == leaver && r > 1) {
						continue
					}
					total[seat.Entry] += scores[s]
				}
			}
		}
		// The movement from each round to the next: the order W1 W2 L2 …
		// Wk Lk L1 of those still playing, then those back from a bye,
		// then the newcomers; the lowest of those who never sat out sits
		// out; the rest are cut into tables of four.
		for r := 1; r < 3; r++ {
			prev := e.Rounds[r-1]
			side := func(ti, parity int) []int {
				s := seatsOf(r-1, ti)
				return []int{s[parity], s[parity+2]}
			}
			W := func(ti int) []int { return side(ti, prev[ti].Winners[0]%2) }
			L := func(ti int) []int { return side(ti, 1-prev[ti].Winners[0]%2) }
			var seq []int
			seq = append(seq, W(0)...)
			for ti := 1; ti < len(prev); ti++ {
				seq = append(append(seq, W(ti)...), L(ti)...)
			}
			seq = append(append(seq, L(0)...), e.Byes[r-1]...)
			if r == 1 {
				seq = append(seq, late)
			}
			seq = slices.DeleteFunc(seq, func(id int) bool { return id == leaver && r == 2 })
			if r == 1 && (len(e.Byes[1]) != 1 || e.Byes[1][0] != L(0)[1]) {
				t.Errorf("round 2 byes %v, want the bottom of the ladder, %d", e.Byes[1], L(0)[1])
			}
			seq = slices.DeleteFunc(seq, func(id int) bool { return slices.Contains(e.Byes[r], id) })
			for ti := range e.Rounds[r] {
				got := seatsOf(r, ti)
				if want := seq[4*ti : 4*ti+4]; !sameSet(got, want) {
					t.Errorf("round %d table %d: %v, want %v", r+1, ti+1, got, want)
				}
				if slices.Contains(got, -1) {
					t.Errorf("round %d table %d: %v has a bot", r+1, ti+1, got)
				}
				if r != 1 {
					continue
				}
				for s, p := range got {
					partnerNow := got[(s+2)%4]
					for pti := range prev {
						ps := seatsOf(r-1, pti)
						if i := slices.Index(ps, p); i >= 0 && p >= 0 {
							switched := ps[(i+2)%4] != partnerNow
							if switched == (ti == 0) {
								t.Errorf("round %d table %d: %d with partner %d, was %d: partners switch but at the head table", r+1, ti+1, p, partnerNow, ps[(i+2)%4])
							}
						}
					}
				}
			}
		}
		if got := seatsOf(1, 2); !slices.Contains(got, late) {
			t.Errorf("round 2's bottom table: %v, want the latecomer there", got)
		}
		for _, tab := range e.Rounds[2] {
			for _, s := range tab.Seats {
				if s.Entry == leaver {
					t.Errorf("round 3: the leaver is seated: %+v", tab.Seats)
				}
			}
		}
		// The one who sat out round 2 scores its average.
		sum, n := 0, 0
		for _, tab := range e.Rounds[1] {
			for s := range tab.Seats {
				sum += tab.Result.Scores[s]
				n++
			}
		}
		total[e.Byes[1][0]] += int(math.Floor(float64(2*sum+n) / float64(2*n)))
		if len(e.Standings) != 13 {
			t.Fatalf("%d standings, want 13", len(e.Standings))
		}
		for i, s := range e.Standings {
			if s.Total != total[s.Entry] {
				t.Errorf("%s: total %d, want %d (the sum of their side's scores)", s.Name, s.Total, total[s.Entry])
			}
			if i > 0 && e.Standings[i-1].Total < s.Total {
				t.Errorf("standings out of order at %d", i)
			}
			if s.Entry == leaver && (!s.Left || s.Rounds != 2) {
				t.Errorf("the leaver: %+v, want left with 2 rounds counted", s)
			}
			if s.Entry == late && s.Rounds != 2 {
				t.Errorf("the latecomer: %+v, want 2 rounds counted", s)
			}
			if s.Entry == e.Byes[1][0] && s.Rounds != 3 {
				t.Errorf("the one who sat out round 2: %+v, want 3 rounds counted (the bye among them)", s)
			}
		}
		// The CSV: a header and one row per person, in order.
		resp, b := ts.do("GET", "/api/events/"+id+"/standings.csv", "")
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil || resp.StatusCode != 200 || len(rows) != 14 || rows[0][1] != "name" || rows[1][1] != e.Standings[0].Name ||
			rows[1][2] != fmt.Sprint(e.Standings[0].Total) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
			t.Errorf("CSV: status %d, %v, %d rows: %q", resp.StatusCode, err, len(rows), b)
		}
		ts.post("/api/events/"+id+"/start", fmt.Sprintf(`{"token":%q}`, host), http.StatusConflict, nil) // over
	})
}

// TestEventDuplicate runs a duplicate round of 2 hands at 3 ten-point
// tables: every table is dealt the same cards in the same order (as the
// store's hand records show), and the matchpoints and standings are what
// a computation by hand from those records gives.
// startDuplicate creates a duplicate ten-point event of one round of two
// deals, joins n people (named prefix0, prefix1, …) and starts its
// round; it returns the event's ID and each entry's token.
func startDuplicate(ts *testServer, n int, prefix string) (string, map[int]string) {
	ts.t.Helper()
	var created struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	ts.post("/api/events", `{"variant":"ten-point","rounds":1,"end":"hands","hands":2,"movement":"duplicate"}`, 201, &created)
	tokens := map[int]string{}
	for i := range n {
		var j struct {
			Entry int    `json:"entry"`
			Token string `json:"token"`
		}
		ts.post("/api/events/"+created.ID+"/join", fmt.Sprintf(`{"name":"%s%d"}`, prefix, i), 200, &j)
		tokens[j.Entry] = j.Token
	}
	ts.post("/api/events/"+created.ID+"/start", fmt.Sprintf(`{"token":%q}`, created.Token), 200, nil)
	return created.ID, tokens
}

func TestEventDuplicate(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		id, tokens := startDuplicate(ts, 12, "D")
		playRound(t, ts, id, tokens, nil, 5)
		e := ts.waitEvent(id, "the event's end", func(e evWire) bool { return e.State == "over" })
		tabs := e.Rounds[0]
		if len(tabs) != 3 {
			t.Fatalf("%d tables, want 3", len(tabs))
		}
		var deals [3][]string
		var deltas [3][][]int
		for ti, tab := range tabs {
			deals[ti], deltas[ti], _ = finalScores(t, ts, tab.Table)
			// 2 hands, or 1 if the match ended (a moon) after it.
			if n := len(deals[ti]); n != 2 && (n != 1 || tab.Result.Winner == nil) {
				t.Fatalf("table %d played %d hands, want 2", ti+1, n)
			}
		}
		// One fair-deal commitment per deal, shared by every table and
		// published when the round began: each table's hand d is dealt
		// from it, and its record verifies as any fair deal does (the
		// check of pitch verify).
		if len(e.Commitments) != 1 || len(e.Commitments[0]) != 2 {
			t.Fatalf("commitments %v, want one round of 2", e.Commitments)
		}
		for ti, tab := range tabs {
			hands, err := ts.st.Hands(bg, tab.Table)
			if err != nil {
				t.Fatal(err)
			}
			for d, h := range hands {
				rec, err := pitch.ReadRecord(bytes.NewReader(h.Record))
				if err != nil {
					t.Fatal(err)
				}
				if rec.Fairness == nil {
					t.Fatalf("table %d hand %d: no fairness object", ti+1, d+1)
				}
				if rep := pitch.VerifyFairness(rec); !rep.OK() {
					t.Errorf("table %d hand %d does not verify: %v", ti+1, d+1, rep.Problems)
				}
				f, err := pitch.ParseFairness(rec.Fairness)
				if err != nil {
					t.Fatal(err)
				}
				if f.Commitment != e.Commitments[0][d] || len(f.Contributions) != 0 {
					t.Errorf("table %d hand %d: commitment %s with %d values, want the round's %s with none", ti+1, d+1, f.Commitment, len(f.Contributions), e.Commitments[0][d])
				}
			}
		}
		for ti := 1; ti < 3; ti++ {
			for d := range min(len(deals[ti]), len(deals[0])) {
				if deals[ti][d] != deals[0][d] {
					t.Errorf("hand %d: table %d was dealt %v, table 1 %v: duplicate tables must get the same deals", d+1, ti+1, deals[ti][d], deals[0][d])
				}
			}
		}
		// Matchpoints by hand: per deal and seat, among the tables that
		// played the deal, 2 for each other table beaten, 1 for each tie,
		// on the net (ten-point's fixed sides: the seat's side's change
		// less the other side's).
		net := func(d []int, seat int) int { return d[seat] - d[(seat+1)%len(d)] }
		pct := map[int][]float64{}
		for d := range 2 {
			var at []int
			for ti := range 3 {
				if len(deltas[ti]) > d {
					at = append(at, ti)
				}
			}
			if len(at) < 2 {
				continue
			}
			for seat := range 4 {
				for _, ti := range at {
					pts := 0
					for _, tj := range at {
						switch x, y := net(deltas[ti][d], seat), net(deltas[tj][d], seat); {
						case tj == ti:
						case x > y:
							pts += 2
						case x == y:
							pts++
						}
					}
					who := tabs[ti].Seats[seat].Entry
					pct[who] = append(pct[who], 100*float64(pts)/float64(2*(len(at)-1)))
				}
			}
		}
		if len(e.Standings) != 12 {
			t.Fatalf("%d standings, want 12", len(e.Standings))
		}
		for i, s := range e.Standings {
			sum := 0.0
			for _, p := range pct[s.Entry] {
				sum += p
			}
			want := sum / float64(len(pct[s.Entry]))
			if math.Abs(s.Percent-want) > 1e-9 || s.Boards != len(pct[s.Entry]) {
				t.Errorf("%s: %.2f%% of %d results, want %.2f%% of %d", s.Name, s.Percent, s.Boards, want, len(pct[s.Entry]))
			}
			if i > 0 && e.Standings[i-1].Percent < s.Percent {
				t.Errorf("standings not by percentage at %d", i)
			}
		}
	})
}

// TestEventBadInput: bad settings, names and tokens are refused with a
// message saying what is allowed, and change nothing.
func TestEventBadInput(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	for _, c := range []struct{ body, want string }{
		{`{"variant":"whist","rounds":1,"end":"match","movement":"mixed"}`, "unknown variant"},
		{`{"variant":"ten-point","rounds":0,"end":"match","movement":"mixed"}`, "rounds must be 1 to 20"},
		{`{"variant":"ten-point","rounds":1,"end":"match","movement":"duplicate"}`, "duplicate rounds end after a number of hands"},
		{`{"variant":"ten-point","rounds":1,"end":"match","movement":"mixed","colour":"red"}`, "colour"},
	} {
		resp, b := ts.do("POST", "/api/events", c.body)
		if resp.StatusCode != 400 || !strings.Contains(string(b), c.want) {
			t.Errorf("create %s: %d %s, want 400 saying %q", c.body, resp.StatusCode, b, c.want)
		}
	}
	var created struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	ts.post("/api/events", `{"variant":"pawnee","rounds":2,"end":"clock","minutes":30,"movement":"mixed"}`, 201, &created)
	ts.post("/api/events/"+created.ID+"/join", `{"name":""}`, 400, nil)
	ts.post("/api/events/"+created.ID+"/me", `{"token":"nobody"}`, 403, nil)
	ts.post("/api/events/"+created.ID+"/leave", `{"token":"nobody","entry":0}`, 403, nil)
	ts.post("/api/events/"+created.ID+"/extend", fmt.Sprintf(`{"token":%q,"minutes":5}`, created.Token), 409, nil) // no round yet
	ts.post("/api/events/"+created.ID+"/start", fmt.Sprintf(`{"token":%q}`, created.Token), 409, nil)              // nobody joined
	ts.post("/api/events/nosuch/join", `{"name":"A"}`, 404, nil)
	if e := ts.event(created.ID); e.State != "waiting" || len(e.Entries) != 0 || e.Round != 0 {
		t.Errorf("after refusals: %+v, want waiting with nobody", e)
	}
}

// TestEventQR: the QR code draws the event's join link at the origin the
// page gives, module for module as the QR library encodes it; a bad
// origin is refused.
func TestEventQR(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	var created struct {
		ID string `json:"id"`
	}
	ts.post("/api/events", `{"variant":"ten-point","rounds":1,"end":"match","movement":"mixed"}`, 201, &created)
	resp, b := ts.do("GET", "/api/events/"+created.ID+"/qr.svg?origin="+url.QueryEscape("https://club.example:8443"), "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("qr: %d %s", resp.StatusCode, b)
	}
	qrSays(t, b, "https://club.example:8443/e/"+created.ID)
	for _, bad := range []string{"", "javascript:alert(1)", "https://x.example/path", "ftp://x.example"} {
		resp, b := ts.do("GET", "/api/events/"+created.ID+"/qr.svg?origin="+url.QueryEscape(bad), "")
		if resp.StatusCode != 400 || !strings.Contains(string(b), "origin must be the site's address") {
			t.Errorf("origin %q: %d %s, want 400", bad, resp.StatusCode, b)
		}
	}
}
