package event

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomResult is a result for a table of seats from rng: each hand's
// changes of score (a side's shared at a game of partnerships), summed.
func randomResult(e *Event, seats int, rng *rand.Rand) Result {
	teams := e.Settings.Teams() && seats%2 == 0
	res := Result{Scores: make([]int, seats)}
	for range 2 {
		d := make([]int, seats)
		for s := range d {
			if teams && s >= 2 {
				d[s] = d[s%2]
				continue
			}
			d[s] = rng.IntN(9) - 2
		}
		for s := range d {
			res.Scores[s] += d[s]
		}
		res.Hands = append(res.Hands, d)
	}
	return res
}

// playAll records a random result at every table of round r.
func playAll(t *testing.T, e *Event, r int, rng *rand.Rand) {
	t.Helper()
	for ti, tab := range e.Rounds[r].Tables {
		if err := e.Record(r, ti, randomResult(e, len(tab.Seats), rng)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestByesRotation: with byes, over many rounds and sizes, every round
// seats only full tables (no bot anywhere), everyone present is seated
// once or sits out, as many sit out as do not fill a table, and nobody
// sits out twice before everyone has sat out once.
func TestByesRotation(t *testing.T) {
	games := []struct {
		name string
		s    Settings
		size int
	}{
		{"ten-point", Settings{Variant: "ten-point"}, 4},
		{"pawnee", Settings{Variant: "pawnee"}, 5},
		{"auction 6 partners", Settings{Variant: "auction", Options: map[string]json.RawMessage{"players": json.RawMessage("6"), "partnerships": json.RawMessage("true")}}, 6},
	}
	for _, g := range games {
		for _, mv := range []Movement{Progressive, Mixed, Duplicate} {
			for _, n := range []int{6, 7, 9, 11, 13, 14, 17, 23} {
				if n < g.size {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%d", g.name, mv, n), func(t *testing.T) {
					s := g.s
					s.Rounds, s.End, s.Hands, s.Movement, s.SwitchPartners = MaxRounds, EndHands, 2, mv, true
					e, err := New(s, uint64(n)*31+uint64(len(mv)))
					if err != nil {
						t.Fatal(err)
					}
					if e.Settings.Fill != FillByes {
						t.Fatalf("a new event's fill is %q, want %q", e.Settings.Fill, FillByes)
					}
					for i := range n {
						e.Join(fmt.Sprint(i))
					}
					rng := rand.New(rand.NewPCG(uint64(n), 9))
					for r := range MaxRounds {
						round, err := e.NextRound()
						if err != nil {
							t.Fatalf("round %d: %v", r+1, err)
						}
						var seen []int
						for ti, tab := range round.Tables {
							if len(tab.Seats) != g.size || slices.Contains(tab.Seats, Bot) {
								t.Fatalf("round %d table %d: %v, want %d people and no bot", r+1, ti+1, tab.Seats, g.size)
							}
							seen = append(seen, tab.Seats...)
						}
						if got, want := len(round.Byes), n%g.size; got != want {
							t.Errorf("round %d: %d byes, want %d", r+1, got, want)
						}
						seen = append(seen, round.Byes...)
						slices.Sort(seen)
						if len(seen) != n || slices.Compact(seen)[n-1] != n-1 || len(slices.Compact(slices.Clone(seen))) != n {
							t.Fatalf("round %d: seated and sitting out %v, want each of 0 to %d once", r+1, seen, n-1)
						}
						had := e.byesBefore(r + 1)
						lo, hi := MaxRounds, 0
						for i := range n {
							lo, hi = min(lo, had[i]), max(hi, had[i])
						}
						if hi-lo > 1 {
							t.Fatalf("after round %d byes range %d to %d: someone sat out twice before everyone once (%v)", r+1, lo, hi, had)
						}
						playAll(t, e, r, rng)
					}
				})
			}
		}
	}
}

// TestByesLatecomer: under byes a latecomer is never seated with bots:
// with 13 people one sits out, one of those who were there from the
// start, and the latecomer plays at the bottom table of the ladder.
func TestByesLatecomer(t *testing.T) {
	e, _ := New(Settings{Variant: "ten-point", Rounds: 3, End: EndMatch, Movement: Progressive, SwitchPartners: true}, 5)
	for i := range 12 {
		e.Join(fmt.Sprint(i))
	}
	e.NextRound()
	late, _ := e.Join("late")
	rng := rand.New(rand.NewPCG(1, 2))
	playAll(t, e, 0, rng)
	r2, err := e.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.Tables) != 3 || len(r2.Byes) != 1 || r2.Byes[0] == late {
		t.Fatalf("round 2: %d tables, byes %v; want 3 tables and one bye, not the latecomer (%d)", len(r2.Tables), r2.Byes, late)
	}
	for ti, tab := range r2.Tables {
		if slices.Contains(tab.Seats, Bot) {
			t.Errorf("round 2 table %d: %v has a bot", ti+1, tab.Seats)
		}
	}
	if !slices.Contains(r2.Tables[2].Seats, late) {
		t.Errorf("round 2: the latecomer is not at the bottom table: %v", r2.Tables)
	}
	// The one who sat out is the lowest of the ladder: the head table's
	// second loser.
	_, lose := e.split(e.Rounds[0].Tables[0])
	if r2.Byes[0] != lose[1] {
		t.Errorf("round 2: %d sits out, want the bottom of the ladder %d (the head table's losers %v)", r2.Byes[0], lose[1], lose)
	}
	// Back from the bye, they re-enter at the bottom; someone else sits out.
	playAll(t, e, 1, rng)
	r3, _ := e.NextRound()
	if len(r3.Byes) != 1 || r3.Byes[0] == r2.Byes[0] || !slices.Contains(r3.Tables[2].Seats, r2.Byes[0]) {
		t.Errorf("round 3: byes %v, bottom table %v; want another to sit out and %d back at the bottom", r3.Byes, r3.Tables[2].Seats, r2.Byes[0])
	}
}

// TestByesTooFew: too few people for one table is refused, saying how
// many are needed and that bots may fill instead; nothing changes.
func TestByesTooFew(t *testing.T) {
	auction := map[string]json.RawMessage{}
	for _, tt := range []struct {
		variant string
		opts    map[string]json.RawMessage
		fill    Fill
		n       int
		want    string // part of the error; "" for none
		tables  []int  // the table sizes when seated
	}{
		{"ten-point", nil, FillByes, 3, "3 present, 4 needed", nil},
		{"pawnee", nil, FillByes, 4, "4 present, 5 needed", nil},
		{"auction", auction, FillByes, 2, "2 present, 3 needed", nil},
		{"auction", auction, FillByes, 3, "", []int{3}},
		{"ten-point", nil, FillBots, 3, "", []int{4}},
		{"ten-point", nil, FillByes, 4, "", []int{4}},
	} {
		e, err := New(Settings{Variant: tt.variant, Options: tt.opts, Rounds: 1, End: EndMatch, Movement: Mixed, Fill: tt.fill}, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tt.n {
			e.Join(fmt.Sprint(i))
		}
		_, err = e.NextRound()
		if tt.want != "" {
			if !errors.Is(err, ErrTooFew) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `"bots"`) || len(e.Rounds) != 0 {
				t.Errorf("%s, %d people: %v (%d rounds), want ErrTooFew saying %q and naming \"bots\", no round", tt.variant, tt.n, err, len(e.Rounds), tt.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s, %d people: %v", tt.variant, tt.fill, tt.n, err)
			continue
		}
		var sizes []int
		for _, tab := range e.Rounds[0].Tables {
			sizes = append(sizes, len(tab.Seats))
		}
		if !slices.Equal(sizes, tt.tables) {
			t.Errorf("%s %s, %d people: tables %v, want %v", tt.variant, tt.fill, tt.n, sizes, tt.tables)
		}
	}
}

// TestByeScore: a bye scores the round's average of those who played it,
// rounded to the nearest point, halves up; it counts as a round, not as
// a table won nor as a best round. At a duplicate event a bye is not
// compared: the percentage is over the deals played.
func TestByeScore(t *testing.T) {
	for _, tt := range []struct {
		variant string
		n       int
		scores  [][]int // per table
		want    int
	}{
		{"ten-point", 5, [][]int{{7, 0, 7, 0}}, 4},                    // 3.5 → 4
		{"ten-point", 5, [][]int{{-7, 0, -7, 0}}, -3},                 // −3.5 → −3
		{"ten-point", 6, [][]int{{52, 40, 52, 40}}, 46},               // exact
		{"pawnee", 6, [][]int{{10, 11, 0, 0, 0}}, 4},                  // 4.2 → 4
		{"pawnee", 6, [][]int{{-3, -4, 0, 0, 0}}, -1},                 // −1.4 → −1
		{"pawnee", 11, [][]int{{10, 0, 0, 0, 0}, {1, 1, 1, 1, 2}}, 2}, // 16/10 = 1.6 → 2
	} {
		e, _ := New(Settings{Variant: tt.variant, Rounds: 1, End: EndMatch, Movement: Mixed}, 3)
		for i := range tt.n {
			e.Join(fmt.Sprint(i))
		}
		round, err := e.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		if e.ByeScore(0) != 0 {
			t.Errorf("a bye scores %d while the round plays, want 0", e.ByeScore(0))
		}
		for ti := range round.Tables {
			e.Record(0, ti, Result{Scores: tt.scores[ti]})
		}
		if got := e.ByeScore(0); got != tt.want {
			t.Errorf("%s %v: a bye scores %d, want %d", tt.variant, tt.scores, got, tt.want)
		}
		for _, s := range e.Standings() {
			if !slices.Contains(round.Byes, s.Entry) {
				continue
			}
			if s.Total != tt.want || s.Rounds != 1 || s.Byes != 1 || s.Won != 0 || s.Best != 0 {
				t.Errorf("%s %v: the bye's standing %+v, want total %d, 1 round, 1 bye, no table won, no best round", tt.variant, tt.scores, s, tt.want)
			}
		}
	}

	// Duplicate: 5 people at ten-point, one table a round: the one who
	// sits out is compared on nothing that round.
	e, _ := New(Settings{Variant: "ten-point", Rounds: 2, End: EndHands, Hands: 1, Movement: Duplicate}, 4)
	for i := range 9 {
		e.Join(fmt.Sprint(i))
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for r := range 2 {
		e.NextRound()
		playAll(t, e, r, rng)
	}
	for _, s := range e.Standings() {
		played := 0
		for _, m := range append(e.Matchpoints(0), e.Matchpoints(1)...) {
			if m.Entry == s.Entry {
				played++
			}
		}
		if s.Boards != played || s.Byes+s.Rounds != 2 || s.Byes > 1 {
			t.Errorf("duplicate %+v: want %d results compared (those played), byes + rounds played = 2, at most one bye", s, played)
		}
	}
}

// TestBotsAtTheBottom: with "fill with bots" the bots all sit at the
// bottom table and stay there, round after round, in every movement.
func TestBotsAtTheBottom(t *testing.T) {
	for _, mv := range []Movement{Progressive, Mixed} {
		for _, n := range []int{5, 13, 14, 15} {
			e, _ := New(Settings{Variant: "ten-point", Rounds: 8, End: EndMatch, Movement: mv, SwitchPartners: true, Fill: FillBots}, uint64(n))
			for i := range n {
				e.Join(fmt.Sprint(i))
			}
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			for r := range 8 {
				round, err := e.NextRound()
				if err != nil {
					t.Fatal(err)
				}
				last := len(round.Tables) - 1
				for ti, tab := range round.Tables {
					bots := 0
					for _, id := range tab.Seats {
						if id == Bot {
							bots++
						}
					}
					want := 0
					if ti == last {
						want = 4*len(round.Tables) - n
					}
					if bots != want {
						t.Errorf("%s %d people round %d table %d: %v has %d bots, want %d (all at the bottom table)", mv, n, r+1, ti+1, tab.Seats, bots, want)
					}
				}
				if len(round.Byes) != 0 {
					t.Errorf("%s round %d: byes %v with bots filling", mv, r+1, round.Byes)
				}
				playAll(t, e, r, rng)
			}
		}
	}
}

// TestStoredWithoutFill: an event stored before Fill existed (its
// settings have no "fill") keeps the seating it was made with when read
// back: bots spread one a table and moving with the ladder, no byes.
func TestStoredWithoutFill(t *testing.T) {
	const stored = `{"settings":{"variant":"ten-point","rounds":2,"end":"match","movement":"progressive","switch_partners":true,"head_stays":false,"bots":"medium"},"seed":9,"entries":[],"rounds":[]}`
	var e Event
	if err := json.Unmarshal([]byte(stored), &e); err != nil {
		t.Fatal(err)
	}
	if e.Settings.Fill != FillLegacy {
		t.Fatalf("fill %q read back, want none", e.Settings.Fill)
	}
	old := e // seated by the code before Fill existed: spread, progress
	for i := range 13 {
		e.Join(fmt.Sprint(i))
	}
	old.Entries = slices.Clone(e.Entries)
	r1, err := e.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	want := spread(shuffled(old.entrants(0), old.rng(0)), old.Settings.TableSizes(13))
	for ti, tab := range r1.Tables {
		if !slices.Equal(tab.Seats, want[ti].Seats) {
			t.Errorf("table %d: %v, want %v as before", ti+1, tab.Seats, want[ti].Seats)
		}
	}
	if len(r1.Byes) != 0 || !slices.Contains(r1.Tables[1].Seats, Bot) {
		t.Errorf("round 1: byes %v, table 2 %v; want bots spread, no bye", r1.Byes, r1.Tables[1].Seats)
	}
	e.Record(0, 0, teamResult(0, 52, 10))
	e.Record(0, 1, teamResult(1, 52, 10))
	e.Record(0, 2, teamResult(0, 52, 10))
	e.Record(0, 3, teamResult(1, 52, 10))
	e.NextRound()
	if got, want := e.Rounds[1].Tables, e.progress(1, e.entrants(1)); !equalTables(got, want) {
		t.Errorf("round 2: %v, want the old movement's %v", got, want)
	}
	b, _ := json.Marshal(e.Settings)
	if strings.Contains(string(b), "fill") {
		t.Errorf("stored again, the settings gained a fill: %s", b)
	}
}

func equalTables(a, b []Table) bool {
	return slices.EqualFunc(a, b, func(x, y Table) bool { return slices.Equal(x.Seats, y.Seats) })
}
