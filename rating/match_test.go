package rating

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"pitch"
	"pitch/bot"
)

func TestRank(t *testing.T) {
	auction := pitch.MustNewGame(pitch.Auction)
	auction5 := pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(5))
	auctionTeams := pitch.MustNewGame(pitch.Auction, pitch.WithPartnerships(true))
	auction6Teams := pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(6), pitch.WithPartnerships(true))
	tenPoint := pitch.MustNewGame(pitch.TenPoint)
	pawnee := pitch.MustNewGame(pitch.Pawnee)
	for _, c := range []struct {
		name    string
		g       *pitch.Game
		scores  []int
		winners []int
		want    string // sides and ranks
	}{
		{"auction by score", auction, []int{3, 7, 5, -2}, []int{1}, "[[0] [1] [2] [3]] [3 1 2 4]"},
		// AP-END-1: the bidder who goes out wins whatever the others hold.
		{"auction winner below another", auction, []int{9, 7, 5, -2}, []int{1}, "[[0] [1] [2] [3]] [2 1 3 4]"},
		{"auction ties share a place", auction5, []int{4, 7, 4, 4, 1}, []int{1}, "[[0] [1] [2] [3] [4]] [2 1 2 2 5]"},
		{"auction tie with the winner", auction, []int{7, 7, 0, 0}, []int{0}, "[[0] [1] [2] [3]] [1 2 3 3]"},
		{"auction partnerships", auctionTeams, []int{3, 7, 3, 7}, []int{1, 3}, "[[0 2] [1 3]] [2 1]"},
		{"auction partnerships of three", auction6Teams, []int{8, 2, 8, 2, 8, 2}, []int{0, 2, 4}, "[[0 2 4] [1 3 5]] [1 2]"},
		{"ten-point partnerships", tenPoint, []int{-4, 52, -4, 52}, []int{1, 3}, "[[0 2] [1 3]] [2 1]"},
		// TP-MOON-1: a moon made from 0 or more wins even from behind.
		{"ten-point moon from behind", tenPoint, []int{60, 20, 60, 20}, []int{1, 3}, "[[0 2] [1 3]] [2 1]"},
		{"pawnee five alone", pawnee, []int{12, 42, 30, 30, -5}, []int{1}, "[[0] [1] [2] [3] [4]] [4 1 2 2 5]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := Rank(c.g, c.scores, c.winners)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(st.Sides) + " " + fmt.Sprint(st.Ranks); got != c.want {
				t.Errorf("Rank = %s, want %s", got, c.want)
			}
		})
	}
}

func TestRankRefuses(t *testing.T) {
	auction := pitch.MustNewGame(pitch.Auction)
	tenPoint := pitch.MustNewGame(pitch.TenPoint)
	for _, c := range []struct {
		name    string
		g       *pitch.Game
		scores  []int
		winners []int
		want    error
	}{
		{"no winner", auction, []int{1, 2, 3, 4}, nil, ErrNotOver},
		{"scores short", auction, []int{1, 2, 3}, []int{0}, ErrBadMatch},
		{"winner out of range", auction, []int{1, 2, 3, 4}, []int{4}, ErrBadMatch},
		{"winners on two sides", auction, []int{1, 2, 3, 4}, []int{0, 1}, ErrBadMatch},
		{"winners on two partnerships", tenPoint, []int{1, 2, 1, 2}, []int{0, 1}, ErrBadMatch},
	} {
		if _, err := Rank(c.g, c.scores, c.winners); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

// playMatch plays a whole match of g with the easy bot in every seat.
func playMatch(t testing.TB, g *pitch.Game, seed uint64) *pitch.Match {
	t.Helper()
	m := pitch.NewMatch(g, seed)
	rng := pitch.NewRand(seed + 1)
	for i := 0; !m.Over(); i++ {
		if i > 20000 {
			t.Fatalf("seed %d: no winner after %d actions", seed, i)
		}
		if err := m.Apply(bot.Decide(bot.Heuristic{}, m.State(), rng)); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestRankMatch ranks played matches of each game: the winners' side
// first, every seat on exactly one side, and a side ahead of another on
// score never placed behind it.
func TestRankMatch(t *testing.T) {
	games := []*pitch.Game{pitch.MustNewGame(pitch.Auction), pitch.MustNewGame(pitch.TenPoint), pitch.MustNewGame(pitch.Pawnee)}
	for _, g := range games {
		if _, err := RankMatch(pitch.NewMatch(g, 1)); !errors.Is(err, ErrNotOver) {
			t.Errorf("%v: a match just dealt: err = %v, want ErrNotOver", g.Variant, err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			m := playMatch(t, g, seed)
			st, err := RankMatch(m)
			if err != nil {
				t.Fatal(err)
			}
			scores := m.State().NewScores()
			seen := map[int]int{}
			for i, side := range st.Sides {
				for _, seat := range side {
					seen[seat]++
				}
				if st.Ranks[i] == 1 && !contains(m.Winner(), side[0]) {
					t.Errorf("%v seed %d: side %v ranked first but did not win (winners %v)", g.Variant, seed, side, m.Winner())
				}
				for j, other := range st.Sides {
					if st.Ranks[i] != 1 && st.Ranks[j] != 1 && scores[side[0]] > scores[other[0]] && st.Ranks[i] >= st.Ranks[j] {
						t.Errorf("%v seed %d: side %v (%d) not ahead of %v (%d): ranks %v", g.Variant, seed, side, scores[side[0]], other, scores[other[0]], st.Ranks)
					}
				}
			}
			if len(seen) != g.Seats() {
				t.Errorf("%v seed %d: sides %v do not cover the %d seats", g.Variant, seed, st.Sides, g.Seats())
			}
		}
	}
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// TestRateMatch: partners move together and the seats get the ratings
// Rate gives their sides.
func TestRateMatch(t *testing.T) {
	m := Default()
	st := Standing{Sides: [][]int{{0, 2}, {1, 3}}, Ranks: []float64{2, 1}}
	before := []Rating{m.New(), {Mu: 30, Sigma: 3}, {Mu: 20, Sigma: 6}, m.New()}
	after, err := m.RateMatch(st, before)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.Rate([][]Rating{{before[0], before[2]}, {before[1], before[3]}}, []float64{2, 1})
	for seat, w := range []Rating{want[0][0], want[1][0], want[0][1], want[1][1]} {
		if after[seat] != w {
			t.Errorf("seat %d = %+v, want %+v", seat, after[seat], w)
		}
	}
	if !(after[0].Mu < before[0].Mu && after[1].Mu > before[1].Mu) {
		t.Errorf("the losers did not go down or the winners up: %v → %v", before, after)
	}
	if _, err := m.RateMatch(st, before[:3]); !errors.Is(err, ErrBadMatch) {
		t.Errorf("three ratings for four seats: err = %v, want ErrBadMatch", err)
	}
}

func TestShown(t *testing.T) {
	m := Default()
	for _, c := range []struct {
		r    Rating
		want string
	}{
		{m.New(), "1500?"},
		{Rating{Mu: 27.51, Sigma: 5.01}, "1651?"},
		{Rating{Mu: 27.51, Sigma: 5}, "1651"},
		{Rating{Mu: -1, Sigma: 1}, "-60"},
	} {
		if got := Format(c.r); got != c.want {
			t.Errorf("Format(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
	if Shown(Rating{Mu: 25.0 + 0.5/Scale, Sigma: 1}) != 1501 || math.Abs(float64(Shown(m.New()))-1500) != 0 {
		t.Error("Shown does not round Scale·Mu")
	}
}

// BenchmarkRateMatch ranks a finished match and rates it: the whole
// work of rating a match apart from the store (target ≤ 1 ms).
func BenchmarkRateMatch(b *testing.B) {
	model := Default()
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		g := pitch.MustNewGame(v)
		match := playMatch(b, g, 7)
		before := make([]Rating, g.Seats())
		for i := range before {
			before[i] = Rating{Mu: 20 + float64(i), Sigma: 2 + float64(i)}
		}
		b.Run(v.String(), func(b *testing.B) {
			for b.Loop() {
				st, err := RankMatch(match)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := model.RateMatch(st, before); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestForfeit: a side one of whose players left the match is placed last,
// whatever its stand-in made of it; the others keep their order.
func TestForfeit(t *testing.T) {
	four := Standing{Sides: [][]int{{0}, {1}, {2}, {3}}, Ranks: []float64{3, 1, 2, 4}}
	teams := Standing{Sides: [][]int{{0, 2}, {1, 3}}, Ranks: []float64{1, 2}}
	ties := Standing{Sides: [][]int{{0}, {1}, {2}, {3}, {4}}, Ranks: []float64{4, 1, 2, 2, 5}}
	for _, c := range []struct {
		name string
		st   Standing
		left []int
		want string
	}{
		{"nobody left", four, nil, "[3 1 2 4]"},
		{"the winner left", four, []int{1}, "[2 4 1 3]"},
		{"the last left", four, []int{3}, "[3 1 2 4]"},
		{"two left, sharing the last place", four, []int{1, 0}, "[3 3 1 2]"},
		{"everyone left", four, []int{0, 1, 2, 3}, "[1 1 1 1]"},
		{"a winning partner left: the side loses", teams, []int{2}, "[2 1]"},
		{"a losing partner left", teams, []int{3}, "[1 2]"},
		{"a tied seat left", ties, []int{2}, "[3 1 5 2 4]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.st.Forfeit(c.left)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got.Ranks) != c.want {
				t.Errorf("Forfeit(%v) of %v = %v, want %s", c.left, c.st.Ranks, got.Ranks, c.want)
			}
			if fmt.Sprint(got.Sides) != fmt.Sprint(c.st.Sides) {
				t.Errorf("sides changed: %v", got.Sides)
			}
		})
	}
	if _, err := four.Forfeit([]int{7}); !errors.Is(err, ErrBadMatch) {
		t.Errorf("seat 7 left: err = %v, want ErrBadMatch", err)
	}
}

// TestBotFarm: thirty wins in a row against bots of one level, from a new
// player's rating, in every game, as a player who learnt to beat that bot
// would get them. Without a bound the rating climbs past every bot's
// (auction reaches about 3250 against easy bots); with RateMatchBots it
// stays at or below the larger of where it started (1500) and the bot's
// ceiling, its rating and 250 (docs/ratings.md says why).
func TestBotFarm(t *testing.T) {
	m := Default()
	for _, c := range []struct {
		game  string
		seats int
		teams bool // ten-point: the player and a bot partner against two bots
		level string
	}{
		{"auction", 4, false, "easy"},
		{"auction", 4, false, "expert"},
		{"ten-point", 4, true, "easy"},
		{"ten-point", 4, true, "expert"},
		{"pawnee", 5, false, "easy"},
		{"pawnee", 5, false, "expert"},
	} {
		t.Run(c.game+" "+c.level, func(t *testing.T) {
			bot, ok := Bot(c.game, c.level)
			if !ok || bot.Sigma > 2.5 {
				t.Fatalf("the %s bot of %s: %+v (found %v); bots have measured ratings, sigma below 2.5", c.level, c.game, bot, ok)
			}
			st := Standing{}
			if c.teams {
				st = Standing{Sides: [][]int{{0, 2}, {1, 3}}, Ranks: []float64{1, 2}}
			} else {
				for s := range c.seats {
					st.Sides = append(st.Sides, []int{s})
					st.Ranks = append(st.Ranks, float64(s+1)) // seat 0 wins
				}
			}
			isBot := make([]bool, c.seats)
			for s := 1; s < c.seats; s++ {
				isBot[s] = true
			}
			free, bounded := m.New(), m.New()
			for range 30 {
				before := []Rating{free}
				for s := 1; s < c.seats; s++ {
					before = append(before, bot)
				}
				after, err := m.RateMatch(st, before)
				if err != nil {
					t.Fatal(err)
				}
				free = after[0]
				before[0] = bounded
				after, err = m.RateMatchBots(st, before, isBot)
				if err != nil {
					t.Fatal(err)
				}
				if after[0].Sigma >= bounded.Sigma+m.Tau {
					t.Errorf("the deviation did not shrink: %v → %v", bounded.Sigma, after[0].Sigma)
				}
				bounded = after[0]
			}
			limit := max(Shown(m.New()), int(math.Round(m.BotCeiling(bot)*Scale)))
			if Shown(bounded) > limit {
				t.Errorf("30 wins against %s bots (%d): %d, above the bound %d", c.level, Shown(bot), Shown(bounded), limit)
			}
			if Shown(free) <= limit {
				t.Errorf("without the bound, 30 wins reach %d, not above %d: the test does not test the bound", Shown(free), limit)
			}
			t.Logf("%s against %s bots (%d): %d with the bound %d, %d without", c.game, c.level, Shown(bot), Shown(bounded), limit, Shown(free))
		})
	}
}

// TestRateMatchBots: the bound applies only to a player whose opponents
// are all bots, and only to gains.
func TestRateMatchBots(t *testing.T) {
	m := Default()
	easy := Rating{Mu: 20, Sigma: 1.7}
	me := Rating{Mu: 30, Sigma: 3}
	four := Standing{Sides: [][]int{{0}, {1}, {2}, {3}}, Ranks: []float64{1, 2, 3, 4}}
	lost := Standing{Sides: [][]int{{0}, {1}, {2}, {3}}, Ranks: []float64{4, 1, 2, 3}}
	for _, c := range []struct {
		name   string
		st     Standing
		before []Rating
		bot    []bool
		kept   bool // seat 0 keeps its mu (the bound), else it gets RateMatch's
	}{
		{"a win against bots, above their ceiling", four, []Rating{me, easy, easy, easy}, []bool{false, true, true, true}, true},
		{"a win against bots and a person", four, []Rating{me, easy, easy, m.New()}, []bool{false, true, true, false}, false},
		{"a loss against bots counts in full", lost, []Rating{me, easy, easy, easy}, []bool{false, true, true, true}, false},
		{"a win against strong bots, below their ceiling", four, []Rating{m.New(), {Mu: 30, Sigma: 1.7}, easy, easy}, []bool{false, true, true, true}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			free, _ := m.RateMatch(c.st, c.before)
			got, err := m.RateMatchBots(c.st, c.before, c.bot)
			if err != nil {
				t.Fatal(err)
			}
			if c.kept && (got[0].Mu != c.before[0].Mu || got[0].Sigma != free[0].Sigma) {
				t.Errorf("got %+v, want mu kept at %v and sigma %v", got[0], c.before[0].Mu, free[0].Sigma)
			}
			if !c.kept && got[0] != free[0] {
				t.Errorf("got %+v, want RateMatch's %+v", got[0], free[0])
			}
		})
	}
	if _, err := m.RateMatchBots(four, []Rating{me, easy, easy, easy}, []bool{false}); !errors.Is(err, ErrBadMatch) {
		t.Errorf("one bot mark for four seats: err = %v, want ErrBadMatch", err)
	}
}
