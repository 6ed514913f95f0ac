package sim

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"time"

	"pitch"
	"pitch/bot"
	"pitch/rating"
)

// RatingsConfig says how to rate bots against each other (`pitch sim
// --ratings`): whole matches, each seating the levels in a random order,
// rated one after the other with package rating as players are.
type RatingsConfig struct {
	Game *pitch.Game
	// Levels are the bots rated, weakest first as far as the caller
	// knows (Ordered says whether the ratings agree). A match seats them
	// in a random order; a game with more seats than levels fills the
	// rest with levels drawn at random, and one with fewer seats draws
	// which levels play.
	Levels   []string
	Matches  int
	MaxHands int // 0 means DefaultMaxHands
	Seed     uint64
	Workers  int                   // 0 means every core
	Progress func(done, total int) // called as matches finish (from one goroutine at a time)
}

// LevelRating is one level's rating from the matches. The online rating
// follows the level match by match and, since tau lets a skill drift,
// keeps wandering by about its sigma around the level's strength;
// Rating's Mu is therefore the mean of the level's mu after each match of
// the second half, and its Sigma the last sigma. Last is the rating after
// the last match.
type LevelRating struct {
	Level   string        `json:"level"`
	Rating  rating.Rating `json:"rating"`
	Last    rating.Rating `json:"last"`
	Shown   int           `json:"shown"`   // rating.Shown of Rating
	Matches int           `json:"matches"` // finished matches it was rated in
	Wins    int           `json:"wins"`    // of those, matches its side won
}

// RatingsResult is what RunRatings found.
type RatingsResult struct {
	Variant    string        `json:"variant"`
	Matches    int           `json:"matches"`
	Unfinished int           `json:"unfinished_matches"` // stopped after MaxHands, not rated
	Levels     []LevelRating `json:"levels"`
	// Ordered reports whether the levels' ratings (Rating.Mu) rise in
	// the order Levels gives them.
	Ordered bool `json:"ordered"`
	// Over the second half of the finished matches, each predicted from
	// the ratings before it (rating.Model.PredictWin): how often the
	// side given the best chance won (Hits of Predicted, HitRate with the
	// half-width of its 95% interval), against Chance, the mean of 1/sides,
	// what guessing would get.
	Predicted int     `json:"predicted"`
	Hits      int     `json:"hits"`
	HitRate   float64 `json:"hit_rate"`
	HitCI     float64 `json:"hit_rate_ci95"`
	Chance    float64 `json:"chance"`
	// NewcomerMatches is how many of these matches a new player, put in
	// seat 0 in place of its bot against the others at their final
	// ratings, plays before its rating stops being provisional (0: it
	// still was after every match).
	NewcomerMatches int     `json:"newcomer_matches"`
	Elapsed         float64 `json:"elapsed_seconds"`
}

// ratedMatch is one match played for RunRatings.
type ratedMatch struct {
	at  []string        // the level at every seat
	st  rating.Standing // its ranking, when over
	won bool            // the match was over within MaxHands
	err error
}

// RunRatings plays c.Matches matches among c.Levels on every core, then
// rates them in order, starting every level at a new player's rating.
// When a level holds more than one seat of a match, every such seat plays
// with the level's rating and the first one's new rating is kept.
func RunRatings(c RatingsConfig) (*RatingsResult, error) {
	if c.Matches <= 0 {
		return nil, fmt.Errorf("give a number of matches greater than 0")
	}
	if len(c.Levels) < 2 {
		return nil, fmt.Errorf("rating needs at least 2 levels, not %d", len(c.Levels))
	}
	for i, l := range c.Levels {
		if _, err := bot.New(l); err != nil {
			return nil, err
		}
		for _, k := range c.Levels[:i] {
			if k == l {
				return nil, fmt.Errorf("level %q is named twice: name each level once", l)
			}
		}
	}
	maxHands := c.MaxHands
	if maxHands <= 0 {
		maxHands = DefaultMaxHands
	}
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	start := time.Now()
	played := make([]ratedMatch, c.Matches)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range jobs {
				played[d] = playRated(&c, maxHands, d)
				if c.Progress != nil {
					mu.Lock()
					done++
					c.Progress(done, c.Matches)
					mu.Unlock()
				}
			}
		}()
	}
	for d := range c.Matches {
		jobs <- d
	}
	close(jobs)
	wg.Wait()
	for _, p := range played {
		if p.err != nil {
			return nil, p.err
		}
	}
	res := rateMatches(c.Levels, played)
	res.Variant = c.Game.Variant.String()
	res.Elapsed = time.Since(start).Seconds()
	return res, nil
}

// rateMatches rates the played matches in order (RunRatings without the
// playing).
func rateMatches(levels []string, played []ratedMatch) *RatingsResult {
	model := rating.Default()
	res := &RatingsResult{Matches: len(played)}
	index := map[string]int{}
	cur := make([]rating.Rating, len(levels))
	for i, l := range levels {
		index[l] = i
		cur[i] = model.New()
		res.Levels = append(res.Levels, LevelRating{Level: l})
	}
	var finished []ratedMatch
	for _, p := range played {
		if p.won {
			finished = append(finished, p)
		} else {
			res.Unfinished++
		}
	}
	sum := make([]float64, len(levels)) // Σ mu over the second half
	for k, p := range finished {
		before := make([]rating.Rating, len(p.at))
		for seat, l := range p.at {
			before[seat] = cur[index[l]]
		}
		second := k >= len(finished)/2
		if second {
			teams := make([][]rating.Rating, len(p.st.Sides))
			for i, side := range p.st.Sides {
				for _, seat := range side {
					teams[i] = append(teams[i], before[seat])
				}
			}
			chances, _ := model.PredictWin(teams)
			best := 0
			for i := range chances {
				if chances[i] > chances[best] {
					best = i
				}
			}
			res.Predicted++
			res.Chance += 1 / float64(len(teams))
			if p.st.Ranks[best] == 1 {
				res.Hits++
			}
		}
		after, err := model.RateMatch(p.st, before)
		if err != nil {
			continue // cannot happen: RankMatch made st from this game
		}
		rank := make([]float64, len(p.at)) // seat → its side's place
		for i, side := range p.st.Sides {
			for _, seat := range side {
				rank[seat] = p.st.Ranks[i]
			}
		}
		seen := map[string]bool{}
		for seat, l := range p.at {
			if seen[l] {
				continue
			}
			seen[l] = true
			cur[index[l]] = after[seat]
			res.Levels[index[l]].Matches++
			if rank[seat] == 1 {
				res.Levels[index[l]].Wins++
			}
		}
		if second {
			for i := range cur {
				sum[i] += cur[i].Mu
			}
		}
	}
	if res.Predicted > 0 {
		p := float64(res.Hits) / float64(res.Predicted)
		res.HitRate, res.HitCI = p, 1.96*math.Sqrt(p*(1-p)/float64(res.Predicted))
		res.Chance /= float64(res.Predicted)
	}
	res.Ordered = true
	for i := range res.Levels {
		l := &res.Levels[i]
		l.Last, l.Rating = cur[i], cur[i]
		if n := len(finished) - len(finished)/2; n > 0 {
			l.Rating.Mu = sum[i] / float64(n)
		}
		l.Shown = rating.Shown(l.Rating)
		if i > 0 && l.Rating.Mu <= res.Levels[i-1].Rating.Mu {
			res.Ordered = false
		}
	}
	// The newcomer: seat 0 of each match, the others at their ratings.
	me := model.New()
	for k, p := range finished {
		before := make([]rating.Rating, len(p.at))
		for seat, l := range p.at {
			before[seat] = res.Levels[index[l]].Rating
		}
		before[0] = me
		after, err := model.RateMatch(p.st, before)
		if err != nil {
			continue
		}
		me = after[0]
		if !rating.Provisional(me) {
			res.NewcomerMatches = k + 1
			break
		}
	}
	return res
}

// ratedSeating returns the level at every seat of match d: the levels in
// a random order, any seats left filled by levels drawn at random.
func ratedSeating(c *RatingsConfig, d int) []string {
	rng := pitch.NewRand(seedFor(c.Seed, uint64(d), 0, 4))
	perm := rng.Perm(len(c.Levels))
	at := make([]string, c.Game.Seats())
	for i := range at {
		if i < len(perm) {
			at[i] = c.Levels[perm[i]]
		} else {
			at[i] = c.Levels[rng.IntN(len(c.Levels))]
		}
	}
	return at
}

// playRated plays match d of a RunRatings run.
func playRated(c *RatingsConfig, maxHands, d int) ratedMatch {
	at := ratedSeating(c, d)
	bots := make([]bot.Bot, len(at))
	for i, l := range at {
		bots[i], _ = bot.New(l) // every level was checked by RunRatings
	}
	rng := pitch.NewRand(seedFor(c.Seed, uint64(d), 0, 1))
	m := pitch.NewMatch(c.Game, seedFor(c.Seed, uint64(d), 0, 2))
	for !m.Over() && len(m.Records()) < maxHands {
		seat := m.State().Turn()
		if err := m.Apply(bot.Decide(bots[seat], m.State(), rng)); err != nil {
			return ratedMatch{err: fmt.Errorf("match %d: %s played an illegal action: %v", d, at[seat], err)}
		}
	}
	if !m.Over() {
		return ratedMatch{at: at}
	}
	st, err := rating.RankMatch(m)
	if err != nil {
		return ratedMatch{err: fmt.Errorf("match %d: %v", d, err)}
	}
	return ratedMatch{at: at, st: st, won: true}
}

// WriteTable writes the ratings as a table people read.
func (r *RatingsResult) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "%s: %d matches rated (%d unfinished, not rated)\n\n", r.Variant, r.Matches-r.Unfinished, r.Unfinished)
	fmt.Fprintf(w, "%-12s %6s %8s %7s %8s %6s\n", "level", "shown", "mu", "sigma", "matches", "won")
	for _, l := range r.Levels {
		fmt.Fprintf(w, "%-12s %6d %8.3f %7.3f %8d %5.1f%%\n", l.Level, l.Shown, l.Rating.Mu, l.Rating.Sigma, l.Matches, 100*float64(l.Wins)/math.Max(1, float64(l.Matches)))
	}
	order := "in the order given"
	if !r.Ordered {
		order = "NOT in the order given"
	}
	fmt.Fprintf(w, "\nratings %s\n", order)
	fmt.Fprintf(w, "winner predicted in %d of %d matches (second half): %.1f%% ± %.1f%%, chance %.1f%%\n",
		r.Hits, r.Predicted, 100*r.HitRate, 100*r.HitCI, 100*r.Chance)
	if r.NewcomerMatches > 0 {
		fmt.Fprintf(w, "a newcomer's rating stops being provisional after %d matches\n", r.NewcomerMatches)
	} else {
		fmt.Fprintf(w, "a newcomer's rating was still provisional after every match\n")
	}
}
