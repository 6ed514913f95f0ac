package sim

import (
	"reflect"
	"strings"
	"testing"

	"pitch"
	"pitch/rating"
)

// TestRunRatings rates random against easy over ten-point matches: easy
// comes out above random, the winners are predicted better than chance,
// every finished match is counted for both, and the run gives the same
// result on any number of workers.
func TestRunRatings(t *testing.T) {
	g := pitch.MustNewGame(pitch.TenPoint)
	run := func(workers int) *RatingsResult {
		res, err := RunRatings(RatingsConfig{Game: g, Levels: []string{"random", "easy"}, Matches: 40, MaxHands: 200, Seed: 3, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(1)
	if !res.Ordered || res.Levels[1].Rating.Mu <= res.Levels[0].Rating.Mu {
		t.Errorf("easy not above random: %+v", res.Levels)
	}
	rated := res.Matches - res.Unfinished
	for _, l := range res.Levels {
		if l.Matches != rated {
			t.Errorf("%s rated in %d matches, want every finished one (%d)", l.Level, l.Matches, rated)
		}
		if l.Shown != rating.Shown(l.Rating) {
			t.Errorf("%s shown %d, want %d", l.Level, l.Shown, rating.Shown(l.Rating))
		}
	}
	if res.Predicted != rated-rated/2 || res.Chance != 0.5 || res.HitRate <= res.Chance {
		t.Errorf("predicted %d (want %d), hit rate %.2f against chance %.2f", res.Predicted, rated-rated/2, res.HitRate, res.Chance)
	}
	// Sitting together, random and easy are partners as often as rivals;
	// easy's side must still have won more.
	if res.Levels[1].Wins <= res.Levels[0].Wins {
		t.Errorf("easy won %d, random %d", res.Levels[1].Wins, res.Levels[0].Wins)
	}
	if res2 := run(2); !reflect.DeepEqual(withoutTime(res), withoutTime(res2)) {
		t.Errorf("1 worker: %+v\n2 workers: %+v", res, res2)
	}
	var b strings.Builder
	res.WriteTable(&b)
	for _, want := range []string{"ten-point: 40 matches rated", "random", "easy", "ratings in the order given", "winner predicted in"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func withoutTime(r *RatingsResult) RatingsResult {
	c := *r
	c.Elapsed = 0
	return c
}

// TestRateMatchesKeepsFirstSeat: a level holding two seats of a match is
// updated once, from its first seat, and the newcomer count is the match
// its sigma falls to rating.ProvisionalSigma.
func TestRateMatchesKeepsFirstSeat(t *testing.T) {
	st := rating.Standing{Sides: [][]int{{0}, {1}, {2}, {3}}, Ranks: []float64{1, 2, 3, 4}}
	played := []ratedMatch{{at: []string{"a", "b", "a", "b"}, st: st, won: true}, {at: []string{"a", "b", "a", "b"}}}
	res := rateMatches([]string{"a", "b"}, played)
	m := rating.Default()
	n := m.New()
	want, _ := m.RateMatch(st, []rating.Rating{n, n, n, n})
	if res.Levels[0].Last != want[0] || res.Levels[1].Last != want[1] || res.Levels[0].Rating != want[0] {
		t.Errorf("levels %+v, want a %+v b %+v", res.Levels, want[0], want[1])
	}
	if res.Unfinished != 1 || res.Levels[0].Matches != 1 || res.Levels[0].Wins != 1 || res.Levels[1].Wins != 0 {
		t.Errorf("unfinished %d, levels %+v", res.Unfinished, res.Levels)
	}
	var many []ratedMatch
	for range 200 {
		many = append(many, ratedMatch{at: []string{"a", "b", "a", "b"}, st: st, won: true})
	}
	res = rateMatches([]string{"a", "b"}, many)
	me := m.New()
	k := 0
	for rating.Provisional(me) && k < len(many) {
		before := []rating.Rating{me, res.Levels[1].Rating, res.Levels[0].Rating, res.Levels[1].Rating}
		after, _ := m.RateMatch(st, before)
		me = after[0]
		k++
	}
	if res.NewcomerMatches != k || k < 2 {
		t.Errorf("newcomer matches %d, want %d", res.NewcomerMatches, k)
	}
}

func TestRunRatingsRefuses(t *testing.T) {
	g := pitch.MustNewGame(pitch.Auction)
	for _, c := range []struct {
		cfg  RatingsConfig
		want string
	}{
		{RatingsConfig{Game: g, Levels: []string{"easy", "medium"}}, "number of matches"},
		{RatingsConfig{Game: g, Levels: []string{"easy"}, Matches: 1}, "at least 2 levels"},
		{RatingsConfig{Game: g, Levels: []string{"easy", "easy"}, Matches: 1}, "named twice"},
		{RatingsConfig{Game: g, Levels: []string{"easy", "grandmaster"}, Matches: 1}, "unknown bot"},
	} {
		if _, err := RunRatings(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.cfg.Levels, err, c.want)
		}
	}
}
