package event

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// legacy makes e an event as stored before Settings.Fill existed (its
// settings have no fill): bots spread and move with the ladder.
func legacy(e *Event) { e.Settings.Fill = FillLegacy }

func settings(t *testing.T, s Settings) Settings {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Fatalf("Check(%+v): %v", s, err)
	}
	return s
}

func TestTableSizes(t *testing.T) {
	auction := func(opts string) Settings {
		s := Settings{Variant: "auction", Rounds: 1, End: EndMatch, Movement: Mixed}
		if opts != "" {
			if err := json.Unmarshal([]byte(opts), &s.Options); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	tests := []struct {
		s    Settings
		n    int
		want []int
	}{
		{Settings{Variant: "ten-point", Rounds: 1, End: EndMatch, Movement: Progressive}, 12, []int{4, 4, 4}},
		{Settings{Variant: "ten-point", Rounds: 1, End: EndMatch, Movement: Progressive}, 13, []int{4, 4, 4, 4}},
		{Settings{Variant: "ten-point", Rounds: 1, End: EndMatch, Movement: Progressive}, 1, []int{4}},
		{Settings{Variant: "pawnee", Rounds: 1, End: EndMatch, Movement: Progressive}, 12, []int{5, 5, 5}},
		{Settings{Variant: "pawnee", Rounds: 1, End: EndMatch, Movement: Progressive}, 10, []int{5, 5}},
		{auction(""), 2, []int{3}},
		{auction(""), 5, []int{5}},
		{auction(""), 7, []int{4, 3}},
		{auction(""), 8, []int{4, 4}},
		{auction(""), 10, []int{4, 3, 3}},
		{auction(""), 14, []int{4, 4, 3, 3}},
		{auction(`{"players":7}`), 20, []int{7, 7, 6}},
		{auction(`{"players":7}`), 22, []int{6, 6, 5, 5}}, // 3 tables would need one of 8
		{auction(`{"players":3}`), 10, []int{4, 3, 3}},
		{auction(`{"players":6,"partnerships":true}`), 7, []int{6, 6}},
	}
	for _, tt := range tests {
		s := settings(t, tt.s)
		if got := s.TableSizes(tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("%s %s: TableSizes(%d) = %v, want %v", s.Variant, s.Options, tt.n, got, tt.want)
		}
	}
}

func TestSettingsCheck(t *testing.T) {
	tests := []struct {
		s    Settings
		want string // part of the error
	}{
		{Settings{Variant: "whist", Rounds: 1, End: EndMatch, Movement: Mixed}, "unknown variant"},
		{Settings{Variant: "ten-point", Rounds: 0, End: EndMatch, Movement: Mixed}, "rounds must be 1 to 20"},
		{Settings{Variant: "ten-point", Rounds: 3, End: "sunset", Movement: Mixed}, `a round ends by "hands", "match" or "clock"`},
		{Settings{Variant: "ten-point", Rounds: 3, End: EndHands, Movement: Mixed}, "1 to 50 hands"},
		{Settings{Variant: "ten-point", Rounds: 3, End: EndClock, Movement: Mixed}, "1 to 240 minutes"},
		{Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: "swiss"}, `the movement is "progressive", "mixed" or "duplicate"`},
		{Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: Duplicate}, "duplicate rounds end after a number of hands"},
		{Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: Mixed, Bots: "genius"}, "bots are easy"},
		{Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: Mixed, Fill: "ghosts"}, `filled by "byes" (people sit out in turn) or "bots", not "ghosts"`},
		{Settings{Variant: "ten-point", Options: map[string]json.RawMessage{"players": json.RawMessage("5")}, Rounds: 3, End: EndMatch, Movement: Mixed}, `option "players" does not apply`},
	}
	for _, tt := range tests {
		err := tt.s.Check()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Check(%+v) = %v, want an error saying %q", tt.s, err, tt.want)
		}
	}
	s := Settings{Variant: "Ten-Point", Rounds: 3, End: EndHands, Hands: 4, Movement: Progressive}
	if err := s.Check(); err != nil || s.Bots != "medium" || s.Variant != "ten-point" || s.Fill != FillByes {
		t.Errorf("Check: %v, bots %q, variant %q, fill %q; want nil, medium, ten-point, byes", err, s.Bots, s.Variant, s.Fill)
	}
}

// teamResult is a ten-point table's result where side win (0: seats 0
// and 2; 1: seats 1 and 3) won, with the given scores.
func teamResult(win, winScore, loseScore int) Result {
	sc := make([]int, 4)
	for s := range sc {
		if s%2 == win {
			sc[s] = winScore
		} else {
			sc[s] = loseScore
		}
	}
	return Result{Scores: sc, Hands: [][]int{{sc[0], sc[1], sc[2], sc[3]}}}
}

// partner returns the entry seated opposite id at a four-seat table, or
// -2 when id is not at it.
func partner(tab Table, id int) int {
	i := slices.Index(tab.Seats, id)
	if i < 0 {
		return -2
	}
	return tab.Seats[(i+2)%4]
}

func sameSet(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// side returns the entries of side s (seat parity) at a table.
func side(tab Table, s int) []int { return []int{tab.Seats[s], tab.Seats[s+2]} }

// checkProgression checks round r's tables against round r-1's results:
// the winners of each table move up one, the losers stay, the head
// table's winners stay and its losers go to the bottom of the old
// tables; partners switch except the head table's winners (and the pair
// joining them).
func checkProgression(t *testing.T, e *Event, r int, win []int) {
	t.Helper()
	prev, next := e.Rounds[r-1].Tables, e.Rounds[r].Tables
	k := len(prev)
	W := func(i int) []int { return side(prev[i], win[i]) }
	L := func(i int) []int { return side(prev[i], 1-win[i]) }
	for i := range k {
		var want []int
		switch {
		case i == 0:
			want = append(W(0), W(1)...)
		case i == k-1:
			want = append(L(i), L(0)...)
		default:
			want = append(L(i), W(i+1)...)
		}
		if got := next[i].Seats; !sameSet(got, want) {
			t.Errorf("round %d table %d: seats %v, want %v (movement: winners up one, losers stay, head losers to the bottom)", r+1, i+1, got, want)
		}
	}
	for i := range k {
		for _, id := range next[i].Seats {
			if id == Bot {
				continue
			}
			old, now := -2, partner(next[i], id)
			for _, pt := range prev {
				if p := partner(pt, id); p != -2 {
					old = p
				}
			}
			headWinner := i == 0
			if headWinner && now != old {
				t.Errorf("round %d: %d at the head table changed partner (%d → %d); head winners stay together", r+1, id, old, now)
			}
			if !headWinner && now == old {
				t.Errorf("round %d table %d: %d kept partner %d; partners switch", r+1, i+1, id, now)
			}
		}
	}
}

// TestProgressiveTwelve plays a 12-player progressive ten-point event of
// 3 rounds on paper: the movement, a late joiner and a leaver, standings.
func TestProgressiveTwelve(t *testing.T) {
	e, err := New(Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: Progressive, SwitchPartners: true, HeadStays: true}, 42)
	if err != nil {
		t.Fatal(err)
	}
	legacy(e) // bots fill and move as before Fill existed
	for i := range 12 {
		if _, err := e.Join(fmt.Sprintf("p%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	r1, err := e.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	var seated []int
	for _, tab := range r1.Tables {
		if len(tab.Seats) != 4 {
			t.Fatalf("round 1 table of %d seats, want 4", len(tab.Seats))
		}
		seated = append(seated, tab.Seats...)
	}
	if !sameSet(seated, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}) {
		t.Fatalf("round 1 seats %v: want each of the 12 once, no bots", seated)
	}
	if _, err := e.NextRound(); err != ErrRoundOpen {
		t.Fatalf("NextRound with tables playing = %v, want ErrRoundOpen", err)
	}
	total := map[int]int{}
	play := func(r int, win []int, scores [][2]int) {
		t.Helper()
		for ti, tab := range e.Rounds[r].Tables {
			res := teamResult(win[ti], scores[ti][0], scores[ti][1])
			if err := e.Record(r, ti, res); err != nil {
				t.Fatal(err)
			}
			for s, id := range tab.Seats {
				if id != Bot && e.Counts(id, r) {
					total[id] += res.Scores[s]
				}
			}
		}
	}
	win1 := []int{1, 0, 1}
	play(0, win1, [][2]int{{52, 40}, {53, 12}, {54, -8}})
	if _, err := e.NextRound(); err != nil {
		t.Fatal(err)
	}
	checkProgression(t, e, 1, win1)

	// During round 2 a latecomer arrives and someone at table 2 leaves.
	late, err := e.Join("late")
	if err != nil {
		t.Fatal(err)
	}
	leaver := e.Rounds[1].Tables[1].Seats[0]
	if err := e.Leave(leaver); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := e.Seated(late); ok {
		t.Errorf("the latecomer is seated in the round in progress; they enter at the next")
	}
	win2 := []int{0, 1, 0}
	play(1, win2, [][2]int{{60, 20}, {52, 51}, {52, 0}})
	if _, err := e.NextRound(); err != nil {
		t.Fatal(err)
	}
	r3 := e.Rounds[2].Tables
	if len(r3) != 4 {
		t.Fatalf("round 3 has %d tables, want 4 (13 people)", len(r3))
	}
	// The movement holds for the three old tables; the latecomer starts
	// at the new bottom table with bots; the leaver's place is kept, played
	// by a bot.
	checkProgression(t, &Event{Settings: e.Settings, Entries: e.Entries, Rounds: []Round{e.Rounds[1], {Tables: r3[:3]}}}, 1, win2)
	if got, want := r3[3].Seats, []int{late, Bot, Bot, Bot}; !slices.Equal(got, want) {
		t.Errorf("bottom table %v, want %v (the latecomer and three bots)", got, want)
	}
	if _, _, ok := e.Seated(leaver); !ok || !e.BotPlays(leaver, 2) || e.BotPlays(leaver, 1) {
		t.Errorf("the leaver: seated %v, bot plays round 3 %v, round 2 %v; want true, true, false", ok, e.BotPlays(leaver, 2), e.BotPlays(leaver, 1))
	}
	play(2, []int{1, 1, 0, 0}, [][2]int{{52, 30}, {55, 50}, {52, 44}, {52, 10}})
	if !e.Over() {
		t.Fatal("the event is not over after 3 rounds")
	}
	if _, err := e.NextRound(); err != ErrOver {
		t.Errorf("a fourth round: %v, want ErrOver", err)
	}
	if _, err := e.Join("too late"); err == nil {
		t.Errorf("joining a finished event worked")
	}

	st := e.Standings()
	if len(st) != 13 {
		t.Fatalf("%d standings, want 13", len(st))
	}
	for i, s := range st {
		if s.Total != total[s.Entry] {
			t.Errorf("%s: total %d, want %d (the sum of their side's score at each table)", s.Name, s.Total, total[s.Entry])
		}
		if i > 0 && st[i-1].Total < s.Total {
			t.Errorf("standings out of order: %v before %v", st[i-1], s)
		}
		if s.Entry == leaver && (!s.Left || s.Rounds != 2) {
			t.Errorf("leaver %+v: want left, 2 rounds counted", s)
		}
		if s.Entry == late && s.Rounds != 1 {
			t.Errorf("latecomer %+v: want 1 round counted", s)
		}
	}
}

// TestProgressiveKeepPartners: without switching, each pair moves as one.
func TestProgressiveKeepPartners(t *testing.T) {
	e, _ := New(Settings{Variant: "ten-point", Rounds: 2, End: EndMatch, Movement: Progressive}, 7)
	for i := range 8 {
		e.Join(fmt.Sprint(i))
	}
	e.NextRound()
	e.Record(0, 0, teamResult(0, 52, 10))
	e.Record(0, 1, teamResult(1, 52, 10))
	e.NextRound()
	for ti, tab := range e.Rounds[1].Tables {
		for _, id := range tab.Seats {
			for _, old := range e.Rounds[0].Tables {
				if p := partner(old, id); p != -2 && partner(tab, id) != p {
					t.Errorf("table %d: %d's partner is %d, was %d; partners were to stay", ti+1, id, partner(tab, id), p)
				}
			}
		}
	}
}

// TestProgressiveIndividual: at pawnee the first half of each table's
// ranking (two of five) moves up.
func TestProgressiveIndividual(t *testing.T) {
	e, _ := New(Settings{Variant: "pawnee", Rounds: 2, End: EndMatch, Movement: Progressive}, 3)
	for i := range 10 {
		e.Join(fmt.Sprint(i))
	}
	e.NextRound()
	r := e.Rounds[0].Tables
	// Seat s scores 10*s at table 0 (seat 4 first) and 50-10*s at table 1.
	e.Record(0, 0, Result{Scores: []int{0, 10, 20, 30, 40}})
	e.Record(0, 1, Result{Scores: []int{50, 40, 30, 20, 10}, Winner: []int{4}})
	e.NextRound()
	n := e.Rounds[1].Tables
	// Order: W1 (seats 4, 3 of table 0), W2 (seat 4 by its match win, then
	// seat 0), L2 (seats 1, 2, 3), L1 (seats 2, 1, 0), cut by five.
	want0 := []int{r[0].Seats[4], r[0].Seats[3], r[1].Seats[4], r[1].Seats[0], r[1].Seats[1]}
	want1 := []int{r[1].Seats[2], r[1].Seats[3], r[0].Seats[2], r[0].Seats[1], r[0].Seats[0]}
	if !slices.Equal(n[0].Seats, want0) || !slices.Equal(n[1].Seats, want1) {
		t.Errorf("round 2: %v %v, want %v %v", n[0].Seats, n[1].Seats, want0, want1)
	}
}

func TestFirstRoundBotsSpread(t *testing.T) {
	e, _ := New(Settings{Variant: "ten-point", Rounds: 1, End: EndMatch, Movement: Progressive}, 1)
	legacy(e)
	for i := range 13 {
		e.Join(fmt.Sprint(i))
	}
	r, _ := e.NextRound()
	for i, tab := range r.Tables {
		bots := 0
		for _, id := range tab.Seats {
			if id == Bot {
				bots++
			}
		}
		if want := map[bool]int{true: 0, false: 1}[i == 0]; bots != want {
			t.Errorf("table %d has %d bots, want %d (13 people at 4 tables: one bot at each of the bottom three)", i+1, bots, want)
		}
	}
}

func TestRemovedBeforeStart(t *testing.T) {
	e, _ := New(Settings{Variant: "ten-point", Rounds: 1, End: EndMatch, Movement: Mixed}, 1)
	for i := range 5 {
		e.Join(fmt.Sprint(i))
	}
	if err := e.Leave(4); err != nil {
		t.Fatal(err)
	}
	if err := e.Leave(4); err == nil {
		t.Error("leaving twice worked")
	}
	r, _ := e.NextRound()
	if len(r.Tables) != 1 || slices.Contains(r.Tables[0].Seats, 4) {
		t.Errorf("round 1 %v: the person removed before the start is seated", r.Tables)
	}
	for _, s := range e.Standings() {
		if s.Entry == 4 || s.Rounds != 0 || s.Place != 1 {
			t.Errorf("standing %+v before any result: want the four seated, all first with nothing counted", s)
		}
	}
}

// repeats counts the pairs of round r that met in an earlier round.
func repeats(e *Event, r int) int {
	c := 0
	for _, tab := range e.Rounds[r].Tables {
		c += tableCost(tab.Seats, e.met(r))
	}
	return c
}

// fewestRepeats is the fewest pairs that met before round r of e any
// seating of 12 people at three tables of four can have, by trying them
// all (5,775).
func fewestRepeats(e *Event, r int) int {
	met := e.met(r)
	best := -1
	var rec func(rest []int, cost int)
	rec = func(rest []int, cost int) {
		if best >= 0 && cost >= best {
			return
		}
		if len(rest) == 0 {
			best = cost
			return
		}
		first := rest[0]
		for i := 1; i < len(rest); i++ {
			for j := i + 1; j < len(rest); j++ {
				for k := j + 1; k < len(rest); k++ {
					group := []int{first, rest[i], rest[j], rest[k]}
					var left []int
					for x, id := range rest[1:] {
						if x+1 != i && x+1 != j && x+1 != k {
							left = append(left, id)
						}
					}
					rec(left, cost+tableCost(group, met))
				}
			}
		}
	}
	rec([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 0)
	return best
}

func TestMixed(t *testing.T) {
	tests := []struct {
		players int
		want    []int // the fewest repeats possible in rounds 2, 3 (-1: by trying every seating)
	}{
		{16, []int{0, 0}},  // four tables of four: an affine plane of order 4 has five such rounds
		{12, []int{3, -1}}, // three old tables into three new: two of one old table sit together at each
	}
	for _, tt := range tests {
		e, _ := New(Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: Mixed}, 9)
		for i := range tt.players {
			e.Join(fmt.Sprint(i))
		}
		for r := range 3 {
			if _, err := e.NextRound(); err != nil {
				t.Fatal(err)
			}
			for ti := range e.Rounds[r].Tables {
				e.Record(r, ti, teamResult(0, 52, 0))
			}
			if r > 0 {
				want := tt.want[r-1]
				if want < 0 {
					want = fewestRepeats(e, r)
				}
				if got := repeats(e, r); got != want {
					t.Errorf("%d players, round %d: %d pairs met before, want %d", tt.players, r+1, got, want)
				}
			}
		}
	}
}

// TestDuplicateMatchpoints checks the matchpoints of a duplicate round at
// three tables against a computation by hand.
func TestDuplicateMatchpoints(t *testing.T) {
	e, _ := New(Settings{Variant: "ten-point", Rounds: 1, End: EndHands, Hands: 2, Movement: Duplicate}, 5)
	for i := range 12 {
		e.Join(fmt.Sprint(i))
	}
	e.NextRound()
	twin := &Event{Settings: e.Settings, Seed: e.Seed}
	if e.DealSeed(0, 4) != twin.DealSeed(0, 4) || e.DealSeed(0, 4) == e.DealSeed(1, 4) || e.DealSeed(0, 4) == e.DealSeed(0, 5) {
		t.Error("DealSeed: the same event and round must deal the same; another round or table size otherwise")
	}
	// Deal 1: seats 0/2 made 5 at tables 0 and 1 and went set at table 2.
	// Deal 2: table 0 +3/-3, table 1 +7/-7, table 2 +3/-3.
	hands := [3][][]int{
		{{5, 0, 5, 0}, {3, -3, 3, -3}},
		{{5, 0, 5, 0}, {7, -7, 7, -7}},
		{{-5, 4, -5, 4}, {3, -3, 3, -3}},
	}
	for ti := range 3 {
		sc := []int{0, 0, 0, 0}
		for _, h := range hands[ti] {
			for s := range sc {
				sc[s] += h[s]
			}
		}
		if err := e.Record(0, ti, Result{Scores: sc, Hands: hands[ti]}); err != nil {
			t.Fatal(err)
		}
	}
	// By hand: deal 1 seat 0: 5 ties 5 and beats -5: 3 of 4; -5: 0.
	// Seat 1: 0 ties 0, loses to 4: 1 of 4; 4 beats both: 4.
	// Deal 2 seat 0: 3 ties 3, loses to 7: 1; 7: 4. Seat 1: -3 ties -3 and beats -7: 3; -7: 0.
	want := map[[3]int]int{ // deal, seat, table → points
		{0, 0, 0}: 3, {0, 0, 1}: 3, {0, 0, 2}: 0,
		{0, 1, 0}: 1, {0, 1, 1}: 1, {0, 1, 2}: 4,
		{1, 0, 0}: 1, {1, 0, 1}: 4, {1, 0, 2}: 1,
		{1, 1, 0}: 3, {1, 1, 1}: 0, {1, 1, 2}: 3,
	}
	got := e.Matchpoints(0)
	if len(got) != 2*4*3 {
		t.Fatalf("%d results, want 24 (2 deals × 4 seats × 3 tables)", len(got))
	}
	pct := map[int][]float64{}
	for _, m := range got {
		w, ok := want[[3]int{m.Deal, m.Seat % 2, m.Table}]
		if !ok {
			t.Fatalf("unexpected %+v", m)
		}
		if m.Points != w || m.Max != 4 || math.Abs(m.Percent-25*float64(w)) > 1e-9 {
			t.Errorf("deal %d seat %d table %d: %d of %d (%.1f%%), want %d of 4", m.Deal+1, m.Seat, m.Table, m.Points, m.Max, m.Percent, w)
		}
		if m.Entry != e.Rounds[0].Tables[m.Table].Seats[m.Seat] {
			t.Errorf("%+v: wrong entry", m)
		}
		pct[m.Entry] = append(pct[m.Entry], m.Percent)
	}
	st := e.Standings()
	for i, s := range st {
		avg := (pct[s.Entry][0] + pct[s.Entry][1]) / 2
		if math.Abs(s.Percent-avg) > 1e-9 || s.Boards != 2 {
			t.Errorf("%s: %.2f%% over %d, want %.2f%% over 2", s.Name, s.Percent, s.Boards, avg)
		}
		if i > 0 && st[i-1].Percent < s.Percent {
			t.Errorf("standings not by percentage: %v before %v", st[i-1], s)
		}
	}
	// Table 1's seats 0 and 2 and table 2's seats 1 and 3 have (75+100)/2
	// and share first; table 0's four have 50; the rest 12.5.
	var places []int
	for _, s := range st {
		places = append(places, s.Place)
	}
	if want := []int{1, 1, 1, 1, 5, 5, 5, 5, 9, 9, 9, 9}; !slices.Equal(places, want) || st[0].Percent != 87.5 || st[4].Percent != 50 {
		t.Errorf("places %v, top %.1f%%, fifth %.1f%%: want %v, 87.5%%, 50%%", places, st[0].Percent, st[4].Percent, want)
	}
}

func TestRecordChecks(t *testing.T) {
	e, _ := New(Settings{Variant: "ten-point", Rounds: 1, End: EndMatch, Movement: Mixed, Fill: FillBots}, 1)
	e.Join("a")
	e.NextRound()
	for _, tt := range []struct {
		r, t int
		res  Result
		want string
	}{
		{1, 0, Result{Scores: []int{0, 0, 0, 0}}, "no such table"},
		{0, 0, Result{Scores: []int{0, 0}}, "needs 4 scores"},
		{0, 0, Result{Scores: []int{0, 0, 0, 0}, Hands: [][]int{{1}}}, "changes of score"},
		{0, 0, Result{Scores: []int{0, 0, 0, 0}, Winner: []int{4}}, "not a seat"},
	} {
		if err := e.Record(tt.r, tt.t, tt.res); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Record(%d, %d, %+v) = %v, want %q", tt.r, tt.t, tt.res, err, tt.want)
		}
	}
	if e.Rounds[0].Tables[0].Result != nil {
		t.Error("a refused result was kept")
	}
}

func TestRanking(t *testing.T) {
	tests := []struct {
		res  Result
		want []int
	}{
		{Result{Scores: []int{3, 9, 5}}, []int{1, 2, 0}},
		{Result{Scores: []int{5, 5, 1}, Hands: [][]int{{5, 0, 0}, {0, 5, 1}}}, []int{1, 0, 2}}, // the last hand where they differ
		{Result{Scores: []int{5, 5, 1}, Hands: [][]int{{5, 5, 1}}}, []int{0, 1, 2}},            // then seat order
		{Result{Scores: []int{40, 44, 2}, Winner: []int{0}}, []int{0, 1, 2}},                   // the match's winner first
	}
	for _, tt := range tests {
		if got := Ranking(&tt.res); !slices.Equal(got, tt.want) {
			t.Errorf("Ranking(%+v) = %v, want %v", tt.res, got, tt.want)
		}
	}
}

// TestLateJoinerTakesBotPlace: a latecomer takes the place a bot would
// have had in the movement, and the rest moves as without them.
func TestLateJoinerTakesBotPlace(t *testing.T) {
	seat := func(join bool) [][]int {
		e, _ := New(Settings{Variant: "ten-point", Rounds: 2, End: EndMatch, Movement: Progressive, SwitchPartners: true}, 11)
		legacy(e)
		for i := range 13 {
			e.Join(fmt.Sprint(i))
		}
		e.NextRound()
		for ti := range e.Rounds[0].Tables {
			e.Record(0, ti, teamResult(ti%2, 52, 10))
		}
		if join {
			e.Join("late")
		}
		e.NextRound()
		var out [][]int
		for _, tab := range e.Rounds[1].Tables {
			out = append(out, tab.Seats)
		}
		return out
	}
	without, with := seat(false), seat(true)
	diff := 0
	for ti := range without {
		for s := range without[ti] {
			if without[ti][s] != with[ti][s] {
				diff++
				if without[ti][s] != Bot || with[ti][s] != 13 {
					t.Errorf("table %d seat %d: %d with the latecomer, %d without; want only a bot's place taken by the latecomer (13)", ti+1, s, with[ti][s], without[ti][s])
				}
			}
		}
	}
	if diff != 1 {
		t.Errorf("%d seats differ with the latecomer: %v vs %v; want 1", diff, with, without)
	}
}

// TestSolo: a solo duplicate event seats each person alone at seat 0 of
// their own table of bots, one table each, whenever they come; results
// are compared with everyone's at seat 0 (matchpoints checked against a
// count by hand over every pair); the event is over once closed and
// every table has finished.
func TestSolo(t *testing.T) {
	s := settings(t, Settings{Variant: "auction", Options: map[string]json.RawMessage{"players": json.RawMessage("5")}, Rounds: 1, End: EndHands, Hands: 3,
		Movement: Duplicate, Solo: true, Bots: "hard"})
	if bad := (Settings{Variant: "ten-point", Rounds: 2, End: EndHands, Hands: 3, Movement: Duplicate, Solo: true}); bad.Check() == nil {
		t.Error("a solo event of 2 rounds was accepted")
	}
	e, err := New(s, 7)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := e.Join("A")
	if _, err := e.Sit(a); err == nil {
		t.Error("sat before the event opened")
	}
	if _, err := e.NextRound(); err != nil {
		t.Fatalf("opening a solo event with one person: %v", err)
	}
	b, _ := e.Join("B")
	c, _ := e.Join("C")
	late, _ := e.Join("Late") // joins, never plays: not in the standings
	deltas := map[int][][]int{a: {{2, 0, 1, 0, 0}, {-3, 1, 0, 0, 1}, {1, 0, 0, 2, 0}},
		b: {{2, 1, 0, 0, 0}, {0, 0, 0, 1, 1}, {4, 0, 0, 0, 0}},
		c: {{0, 1, 1, 1, 0}, {-3, 0, 1, 1, 0}}} // C's table ended after 2 hands
	for _, who := range []int{a, b, c} {
		ti, err := e.Sit(who)
		if err != nil {
			t.Fatalf("Sit(%d): %v", who, err)
		}
		tab := e.Rounds[0].Tables[ti]
		if len(tab.Seats) != 5 || tab.Seats[0] != who || slices.ContainsFunc(tab.Seats[1:], func(x int) bool { return x != Bot }) {
			t.Fatalf("%d's table %v, want them at seat 0 with 4 bots", who, tab.Seats)
		}
		if _, err := e.Sit(who); err != ErrPlayed {
			t.Errorf("a second try: %v, want %v", err, ErrPlayed)
		}
		if slices.ContainsFunc(e.Standings(), func(s Standing) bool { return s.Entry == who }) {
			t.Errorf("entry %d is in the standings while still playing", who)
		}
		if err := e.Record(0, ti, Result{Scores: make([]int, 5), Hands: deltas[who]}); err != nil {
			t.Fatal(err)
		}
	}
	if e.Over() || e.RoundOver(0) {
		t.Error("over before it was closed")
	}
	// By hand: deal 1, seat 0: A 2, B 2, C 0 → A 1 tie +2 beats C = 3 of 4.
	// Deal 2: A -3, B 0, C -3 → A ties C: 1 of 4; B beats both: 4; C 1.
	// Deal 3 only A and B: A 1 < B 4 → A 0 of 2, B 2 of 2.
	want := map[int][]float64{a: {75, 25, 0}, b: {75, 100, 100}, c: {0, 25}}
	got := map[int][]float64{}
	for _, m := range e.Matchpoints(0) {
		if m.Seat == 0 {
			got[m.Entry] = append(got[m.Entry], m.Percent)
		}
	}
	for who, w := range want {
		if !slices.Equal(got[who], w) {
			t.Errorf("entry %d: %v, want %v", who, got[who], w)
		}
	}
	st := e.Standings()
	if len(st) != 3 || st[0].Entry != b || st[1].Entry != a || st[2].Entry != c {
		t.Fatalf("standings %+v, want B, A, C (Late never played)", st)
	}
	if math.Abs(st[1].Percent-100.0/3) > 1e-9 || st[2].Percent != 12.5 {
		t.Errorf("A %.3f%%, C %.3f%%: want 33.333, 12.5", st[1].Percent, st[2].Percent)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if !e.Over() || !e.RoundOver(0) {
		t.Error("closed with every table done, but not over")
	}
	if _, err := e.Sit(late); err != ErrClosed {
		t.Errorf("sitting after the close: %v, want %v", err, ErrClosed)
	}
	if _, err := e.Join("After"); err != ErrClosed {
		t.Errorf("joining after the close: %v, want %v", err, ErrClosed)
	}
}

// TestEnd: the host ends an event of 3 rounds during round 1: the round
// in progress still counts, the event is over when it is done, and no
// round or person is added after.
func TestEnd(t *testing.T) {
	e, _ := New(Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: Mixed}, 5)
	for i := range 8 {
		e.Join(fmt.Sprint(i))
	}
	if _, err := e.NextRound(); err != nil {
		t.Fatal(err)
	}
	if err := e.End(); err != nil {
		t.Fatalf("End during round 1: %v", err)
	}
	if err := e.End(); !errors.Is(err, ErrEnded) {
		t.Errorf("End again: %v, want ErrEnded", err)
	}
	if e.Over() {
		t.Error("over while round 1 is played")
	}
	if _, err := e.Join("late"); !errors.Is(err, ErrEnded) {
		t.Errorf("Join after End: %v, want ErrEnded", err)
	}
	e.Record(0, 0, teamResult(0, 52, 10))
	e.Record(0, 1, teamResult(1, 52, 30))
	if !e.Over() {
		t.Error("not over once the round in progress is done")
	}
	if _, err := e.NextRound(); !errors.Is(err, ErrEnded) {
		t.Errorf("NextRound after End: %v, want ErrEnded", err)
	}
	if err := e.End(); !errors.Is(err, ErrOver) {
		t.Errorf("End when over: %v, want ErrOver", err)
	}
	st := e.Standings()
	if len(st) != 8 || st[0].Rounds != 1 || st[0].Total != 52 {
		t.Errorf("standings after round 1 ended it: %+v", st)
	}
	// Ended before any round: over at once.
	f, _ := New(Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: Mixed}, 5)
	f.Join("a")
	if err := f.End(); err != nil || !f.Over() {
		t.Errorf("End before round 1: %v, over %v", err, f.Over())
	}
}

// TestSoloUnranked: an unranked entry (a guest at a daily deal) plays
// the deals, but its results are compared with nobody's — the others'
// matchpoints are what they would be without it — and it has no place
// in the standings.
func TestSoloUnranked(t *testing.T) {
	s := settings(t, Settings{Variant: "auction", Rounds: 1, End: EndHands, Hands: 2, Movement: Duplicate, Solo: true, Bots: "hard"})
	play := func(guest bool) (*Event, []int) {
		e, err := New(s, 7)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.NextRound(); err != nil {
			t.Fatal(err)
		}
		deltas := [][][]int{{{2, 0, 0, 0}, {1, 0, 0, 0}}, {{1, 0, 0, 0}, {3, 0, 0, 0}}, {{5, 0, 0, 0}, {4, 0, 0, 0}}}
		var who []int
		for k, d := range deltas {
			if k == 2 && !guest {
				break
			}
			i, _ := e.Join(fmt.Sprintf("P%d", k))
			if k == 2 {
				e.Entries[i].Unranked = true // the guest beats both on every deal
			}
			ti, err := e.Sit(i)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Record(0, ti, Result{Scores: make([]int, 4), Hands: d}); err != nil {
				t.Fatal(err)
			}
			who = append(who, i)
		}
		return e, who
	}
	without, _ := play(false)
	with, who := play(true)
	if got, want := with.Matchpoints(0), without.Matchpoints(0); !reflect.DeepEqual(got, want) {
		t.Errorf("matchpoints with an unranked guest:\n%+v\nwant as without them:\n%+v", got, want)
	}
	st := with.Standings()
	if len(st) != 2 || slices.ContainsFunc(st, func(s Standing) bool { return s.Entry == who[2] }) {
		t.Errorf("standings %+v: want the two ranked players only", st)
	}
	if !reflect.DeepEqual(st, without.Standings()) {
		t.Errorf("standings with the guest %+v, without %+v", st, without.Standings())
	}
}

// TestNextRoundDuringLastRound: starting a round while the last one is
// played says the round is open, not that the event is over.
func TestNextRoundDuringLastRound(t *testing.T) {
	e, err := New(settings(t, Settings{Variant: "auction", Rounds: 1, End: EndHands, Hands: 1, Movement: Progressive}), 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if _, err := e.Join(fmt.Sprintf("P%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.NextRound(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.NextRound(); err != ErrRoundOpen {
		t.Errorf("a round during the last one: %v, want %v", err, ErrRoundOpen)
	}
	if err := e.Record(0, 0, Result{Scores: make([]int, 4), Hands: [][]int{{1, 0, 0, 0}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.NextRound(); err != ErrOver {
		t.Errorf("a round after the last: %v, want %v", err, ErrOver)
	}
}

// TestMatchpointsNet: in a game of fixed partnerships a duplicate deal
// is scored on the net (a side's change less the other side's), so a
// side that made its bid and set the opponents beats one that made its
// bid alone, and the two sides' matchpoints on a deal at a table sum to
// the top; where each plays for themselves, each seat's own change is
// compared.
func TestMatchpointsNet(t *testing.T) {
	e, err := New(settings(t, Settings{Variant: "ten-point", Rounds: 1, End: EndHands, Hands: 1, Movement: Duplicate}), 5)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		if _, err := e.Join(fmt.Sprintf("P%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	round, err := e.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	if len(round.Tables) != 3 {
		t.Fatalf("%d tables, want 3", len(round.Tables))
	}
	// The same side makes 9 at each table: opponents set at the first,
	// making 3 at the second, making nothing at the third.
	deals := [][]int{{9, -9, 9, -9}, {9, 3, 9, 3}, {9, 0, 9, 0}}
	for ti, d := range deals {
		if err := e.Record(0, ti, Result{Scores: d, Hands: [][]int{d}}); err != nil {
			t.Fatal(err)
		}
	}
	mp := map[[2]int]MP{} // table, seat → matchpoints
	for _, m := range e.Matchpoints(0) {
		mp[[2]int{m.Table, m.Seat}] = m
	}
	// Seat 0's side: nets 18, 6, 9 → first, last, second.
	for ti, want := range []int{4, 0, 2} {
		if got := mp[[2]int{ti, 0}]; got.Points != want || got.Result != deals[ti][0]-deals[ti][1] {
			t.Errorf("table %d seat 0: %+v, want %d points on net %d", ti+1, got, want, deals[ti][0]-deals[ti][1])
		}
	}
	for ti := range deals {
		for _, side := range [][2]int{{0, 1}, {2, 3}, {0, 3}} {
			a, b := mp[[2]int{ti, side[0]}], mp[[2]int{ti, side[1]}]
			if a.Points+b.Points != a.Max {
				t.Errorf("table %d seats %d and %d: %d + %d points, want the top %d", ti+1, side[0], side[1], a.Points, b.Points, a.Max)
			}
		}
	}
}
