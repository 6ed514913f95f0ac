// Package sim runs computer players against each other: duplicate deals,
// whole matches, and the statistics that say which is stronger.
package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"pitch"
	"pitch/bot"
)

// Config says what to simulate.
type Config struct {
	Game *pitch.Game
	// Seats names a bot per seat (e.g. search,heuristic,heuristic,heuristic).
	// Leave it empty to give two sides with A and B instead.
	Seats []string
	A, B  string
	// Hands plays that many deals, each a single hand from zero scores;
	// Matches plays that many whole matches instead. One of them is > 0.
	Hands, Matches int
	// MaxHands stops a match that is not over after that many hands
	// (0 means DefaultMaxHands). Random players may never end a match (in
	// auction only the pitcher can win), so such a match is counted as
	// unfinished rather than failing the run.
	MaxHands int
	Seed     uint64
	// Duplicate replays every deal (or match seed) with the seating
	// rotated, so that every bot sits at every seat on the same cards.
	Duplicate bool
	// Against, when set, compares A and B in one seat among Against bots
	// (playPaired): every deal is played once per seat with A there and once
	// with B, with the same cards and every decision drawing its own
	// random stream, so that the two games differ only where A and B
	// decide differently. Only with Hands.
	Against  string
	Workers  int                   // 0 means every core
	Progress func(done, total int) // called as deals finish (from one goroutine at a time)
}

// DefaultMaxHands is the number of hands after which a match that is not
// over is stopped and counted as unfinished, unless Config.MaxHands says
// otherwise.
const DefaultMaxHands = 1000

// SideStats is what one bot achieved.
type SideStats struct {
	Bot        string  `json:"bot"`
	SeatHands  int     `json:"seat_hands"`      // hands played, counted per seat it held
	PointsHand float64 `json:"points_per_hand"` // mean change of its seats' match score per hand
	PointsCI   float64 `json:"points_ci95"`     // half-width of the 95% interval of PointsHand
	BidTurns   int     `json:"bid_turns"`       // its turns in the auction with a choice, passing allowed
	PassRate   float64 `json:"pass_rate"`       // the share of BidTurns it passed
	Bids       int     `json:"bids"`            // hands it won the auction
	Set        int     `json:"set"`             // of those, hands it was set
	SetRate    float64 `json:"set_rate"`
	Matches    int     `json:"matches,omitempty"` // matches played, unfinished ones included
	MatchWins  int     `json:"match_wins,omitempty"`
	WinRate    float64 `json:"match_win_rate,omitempty"` // MatchWins / Matches
	WinCI      float64 `json:"match_win_ci95,omitempty"`
	// HandsWonMatch counts its seat-hands whose hand won the match for
	// that seat. With Config.Hands every deal starts from zero scores, so
	// only a moon does: made in pawnee (PW-MOON-1), made or failed in
	// ten-point (TP-MOON-1). Points/hand does not count it.
	HandsWonMatch int     `json:"hands_won_match"`
	Decisions     int     `json:"decisions"`
	DecisionSec   float64 `json:"decisions_per_second"` // per core: decisions / time spent deciding
	// Calibration compares, for a bot that forecasts its bids
	// (bot.Forecaster), the chance it gave its winning bids with how
	// often they were made, by bucket of the chance given. Bids it did
	// not choose (a forced bid, the only legal action) are not counted.
	Calibration []CalBucket `json:"calibration,omitempty"`
	// Wins is how often its seats won the match, outright and at the
	// target, per seat-match (or per seat-hand with Config.Hands).
	Wins WinStats `json:"wins_per_seat"`
}

// CalBucket is one row of a calibration table: the winning bids whose
// forecast chance was in [From, To).
type CalBucket struct {
	From      float64 `json:"from"`
	To        float64 `json:"to"`
	Bids      int     `json:"bids"`
	Predicted float64 `json:"predicted"` // mean forecast chance
	Made      float64 `json:"made"`      // share made
	MadeCI    float64 `json:"made_ci95"` // half-width of its 95% interval
}

// calBuckets are the lower bounds of the calibration buckets; the last
// one holds the forecasts from it to 1 included.
var calBuckets = []float64{0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95}

// calAcc sums forecasts per bucket, with a total row last.
type calAcc [8]struct {
	n, made int
	pred    float64
}

func (a *calAcc) add(p float64, made bool) {
	k := 0
	for i, lo := range calBuckets {
		if p >= lo {
			k = i
		}
	}
	for _, i := range []int{k, len(a) - 1} {
		a[i].n++
		a[i].pred += p
		if made {
			a[i].made++
		}
	}
}

func (a *calAcc) merge(b *calAcc) {
	for i := range a {
		a[i].n += b[i].n
		a[i].made += b[i].made
		a[i].pred += b[i].pred
	}
}

// table returns the non-empty buckets, then the total over all bids
// (From 0, To 1).
func (a *calAcc) table() []CalBucket {
	var out []CalBucket
	for i := range a {
		if a[i].n == 0 {
			continue
		}
		from, to := 0.0, 1.0
		if i < len(calBuckets) {
			from = calBuckets[i]
			if i+1 < len(calBuckets) {
				to = calBuckets[i+1]
			}
		}
		p := float64(a[i].made) / float64(a[i].n)
		out = append(out, CalBucket{From: from, To: to, Bids: a[i].n, Predicted: a[i].pred / float64(a[i].n),
			Made: p, MadeCI: 1.96 * math.Sqrt(p*(1-p)/float64(a[i].n))})
	}
	return out
}

// Result is what a simulation found.
type Result struct {
	Variant   string `json:"variant"`
	Deals     int    `json:"deals"` // deals, or matches when Matches is set
	Unit      string `json:"unit"`  // "deals" or "matches"
	Rotations int    `json:"rotations"`
	Hands     int    `json:"hands"`
	// In matches mode: the matches stopped after MaxHands hands without a
	// winner, and their share of all matches played (deals × rotations).
	Unfinished      int         `json:"unfinished_matches"`
	UnfinishedShare float64     `json:"unfinished_share"`
	MaxHands        int         `json:"max_hands,omitempty"`
	Sides           []SideStats `json:"sides"`
	// Diff is the first side's points per hand less the second's, from
	// paired deals, with its 95% interval; Cumulative is its running sum
	// over deals. With Config.Against it is the seat's standing
	// (bot.Standing: its score change less its rivals' mean) with A less
	// that with B.
	Diff       float64   `json:"diff"`
	DiffCI     float64   `json:"diff_ci95"`
	Cumulative []float64 `json:"-"`
	Elapsed    float64   `json:"elapsed_seconds"`
	// Against is Config.Against; Differ counts, then, the seat-hands whose
	// results differ between A and B, of SeatHands.
	Against   string `json:"against,omitempty"`
	Differ    int    `json:"differing_seat_hands,omitempty"`
	SeatHands int    `json:"paired_seat_hands,omitempty"`
	// WinVs compares the first two bots' match wins per seat, paired by
	// deal (nil with fewer than two bots).
	WinVs *WinCompare `json:"match_wins_a_vs_b,omitempty"`
}

// layout returns the bot name of every seat before rotation, and the
// number of rotations a duplicate deal is played with.
func layout(c *Config) ([]string, int, error) {
	n := c.Game.Seats()
	if len(c.Seats) > 0 {
		if len(c.Seats) != n {
			return nil, 0, fmt.Errorf("--seats names %d bots; %s with these options has %d seats", len(c.Seats), c.Game.Variant, n)
		}
		return c.Seats, n, nil
	}
	if c.A == "" || c.B == "" {
		return nil, 0, fmt.Errorf("give the bots per seat (--seats) or as two sides (--a and --b)")
	}
	seats := make([]string, n)
	if c.Game.FixedTeams() {
		for i := range seats { // partners sit opposite: A B A B
			seats[i] = []string{c.A, c.B}[i%2]
		}
		return seats, 2, nil
	}
	for i := range seats { // every player for itself: one A among the B
		seats[i] = c.B
	}
	seats[0] = c.A
	return seats, n, nil
}

// dealResult is what one deal (all its rotations) came to.
type dealResult struct {
	points     map[string]float64 // summed score change per bot
	count      map[string]int     // seat-hands per bot
	bidTurns   map[string]int     // turns in the auction with a choice, passing allowed
	passes     map[string]int     // of those, turns it passed
	bids       map[string]int
	set        map[string]int
	wins       map[string]int
	wonMatch   map[string]int // hands that won the match for a seat of the bot
	matches    int            // played, finished or not
	unfinished int            // stopped after MaxHands hands
	hands      int
	decs       map[string]int
	decTime    map[string]time.Duration
	// Per seat held (WinStats): seat-matches, or seat-hands in hands
	// mode, and of those the ones won, and won outright.
	seatGames, seatWon, seatOut map[string]int
	cal                         map[string]*calAcc
	err                         error
	// With Config.Against: the mean over the seats of the seat's
	// standing (bot.Standing) with A less with B, and how many seats'
	// results differ.
	pairDiff float64
	differ   int
}

// Run plays the simulation. The result depends only on the config, not
// on the number of workers.
func Run(c Config) (*Result, error) {
	if c.Hands <= 0 && c.Matches <= 0 {
		return nil, fmt.Errorf("give a number of hands or matches greater than 0")
	}
	seats, rots, err := layout(&c)
	if err != nil {
		return nil, err
	}
	if c.Against != "" {
		if len(c.Seats) > 0 {
			return nil, fmt.Errorf("--against compares --a and --b in one seat among its bots: give --a and --b, not --seats")
		}
		if c.A == c.B {
			return nil, fmt.Errorf("--a and --b are both %q: --against compares two different bots", c.A)
		}
		if c.Matches > 0 {
			return nil, fmt.Errorf("--against compares bots on single hands: give --hands, not --matches")
		}
		if _, err := newPlayer(c.Against); err != nil {
			return nil, err
		}
		seats, rots = []string{c.A, c.B}, c.Game.Seats()
		c.Duplicate = true // every seat in turn
	}
	var names []string
	for _, s := range seats {
		if _, err := newPlayer(s); err != nil {
			return nil, err
		}
		if !contains(names, s) {
			names = append(names, s)
		}
	}
	if !c.Duplicate {
		rots = 1
	}
	deals := c.Hands
	if c.Matches > 0 {
		deals = c.Matches
	}
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	start := time.Now()
	results := make([]dealResult, deals)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range jobs {
				if c.Against != "" {
					results[d] = playPaired(&c, d)
				} else {
					results[d] = playDeal(&c, seats, rots, d)
				}
				if c.Progress != nil {
					mu.Lock()
					done++
					c.Progress(done, deals)
					mu.Unlock()
				}
			}
		}()
	}
	for d := range deals {
		jobs <- d
	}
	close(jobs)
	wg.Wait()

	res := &Result{Variant: c.Game.Variant.String(), Deals: deals, Unit: "deals", Rotations: rots, Elapsed: time.Since(start).Seconds()}
	if c.Matches > 0 {
		res.Unit = "matches"
		res.MaxHands = c.MaxHands
		if res.MaxHands <= 0 {
			res.MaxHands = DefaultMaxHands
		}
	}
	perDeal := map[string][]float64{}
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		res.Hands += r.hands
		res.Unfinished += r.unfinished
		for _, n := range names {
			if r.count[n] > 0 {
				perDeal[n] = append(perDeal[n], r.points[n]/float64(r.count[n]))
			}
		}
	}
	if c.Matches > 0 {
		res.UnfinishedShare = float64(res.Unfinished) / float64(deals*rots)
	}
	for _, n := range names {
		st := SideStats{Bot: n}
		var t time.Duration
		var cal calAcc
		passes := 0
		for _, r := range results {
			if c := r.cal[n]; c != nil {
				cal.merge(c)
			}
			st.SeatHands += r.count[n]
			st.Bids += r.bids[n]
			st.BidTurns += r.bidTurns[n]
			passes += r.passes[n]
			st.Set += r.set[n]
			st.MatchWins += r.wins[n]
			st.HandsWonMatch += r.wonMatch[n]
			st.Matches += r.matches
			st.Decisions += r.decs[n]
			t += r.decTime[n]
		}
		st.PointsHand, st.PointsCI = meanCI(perDeal[n])
		if st.Bids > 0 {
			st.SetRate = float64(st.Set) / float64(st.Bids)
		}
		if st.BidTurns > 0 {
			st.PassRate = float64(passes) / float64(st.BidTurns)
		}
		if st.Matches > 0 {
			p := float64(st.MatchWins) / float64(st.Matches)
			st.WinRate, st.WinCI = p, 1.96*math.Sqrt(p*(1-p)/float64(st.Matches))
		} else {
			st.Matches = 0
		}
		if t > 0 {
			st.DecisionSec = float64(st.Decisions) / t.Seconds()
		}
		st.Calibration = cal.table()
		st.Wins = winStats(results, n)
		res.Sides = append(res.Sides, st)
	}
	if len(names) >= 2 {
		res.WinVs = compareWins(results, names[0], names[1])
	}
	if c.Against != "" {
		res.Against = c.Against
		sum := 0.0
		var diffs []float64
		for _, r := range results {
			diffs = append(diffs, r.pairDiff)
			sum += r.pairDiff
			res.Cumulative = append(res.Cumulative, sum)
			res.Differ += r.differ
			res.SeatHands += rots
		}
		res.Diff, res.DiffCI = meanCI(diffs)
	} else if len(names) >= 2 {
		a, b := names[0], names[1]
		var diffs []float64
		sum := 0.0
		for _, r := range results {
			if r.count[a] > 0 && r.count[b] > 0 {
				d := r.points[a]/float64(r.count[a]) - r.points[b]/float64(r.count[b])
				diffs = append(diffs, d)
				sum += d
				res.Cumulative = append(res.Cumulative, sum)
			}
		}
		res.Diff, res.DiffCI = meanCI(diffs)
	}
	return res, nil
}

func meanCI(xs []float64) (mean, ci float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(xs) - 1)
	return mean, 1.96 * math.Sqrt(v/float64(len(xs)))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// seedFor mixes the run's seed with a deal and rotation (pitch.Mix).
func seedFor(seed uint64, parts ...uint64) uint64 {
	for _, p := range parts {
		seed = pitch.Mix(seed, p)
	}
	return seed
}

// newDealResult returns an empty dealResult.
func newDealResult() dealResult {
	return dealResult{points: map[string]float64{}, count: map[string]int{}, bids: map[string]int{},
		bidTurns: map[string]int{}, passes: map[string]int{},
		set: map[string]int{}, wins: map[string]int{}, wonMatch: map[string]int{}, decs: map[string]int{}, decTime: map[string]time.Duration{},
		cal: map[string]*calAcc{}, seatGames: map[string]int{}, seatWon: map[string]int{}, seatOut: map[string]int{}}
}

// A seating is one game's players: the bot name and the bot at every
// seat.
type seating struct {
	at   []string
	bots []bot.Bot
}

// newSeating returns the seating with name(i) at seat i of n.
func newSeating(n int, name func(i int) string) seating {
	t := seating{at: make([]string, n), bots: make([]bot.Bot, n)}
	for i := range n {
		t.at[i] = name(i)
		t.bots[i], _ = newPlayer(t.at[i]) // every name was checked by Run
	}
	return t
}

// decide asks the seat to act in s for its action, and counts the
// decision, its time and, in the auction, whether it passed.
func (r *dealResult) decide(t *seating, s *pitch.State, rng *rand.Rand) pitch.Action {
	seat := s.Turn()
	start := time.Now()
	var a pitch.Action
	if ref, ok := t.bots[seat].(*reference); ok {
		a = ref.decide(s, rng) // it sees the deal
	} else {
		a = bot.Decide(t.bots[seat], s, rng)
	}
	r.decTime[t.at[seat]] += time.Since(start)
	r.decs[t.at[seat]]++
	if _, canPass := s.BidOptions(); s.Phase() == pitch.PhaseBid && canPass && len(s.Legal(nil)) > 1 {
		r.bidTurns[t.at[seat]]++
		if a.Kind == pitch.ActPass {
			r.passes[t.at[seat]]++
		}
	}
	return a
}

// account counts the finished hand s for the seats for which count is
// true: their score changes, match wins, bids and forecasts. With
// single, the hand is a deal of its own (hands mode) and counts as a
// seat-game for the seats' WinStats too.
func (r *dealResult) account(t *seating, s *pitch.State, single bool, count func(seat int) bool) {
	r.hands++
	for i := range t.at {
		if !count(i) {
			continue
		}
		r.points[t.at[i]] += float64(s.Delta(i))
		r.count[t.at[i]]++
		if s.WonMatch(i) {
			r.wonMatch[t.at[i]]++
		}
		if single {
			r.seatWins(t.at[i], s.WonMatch(i), outright(s))
		}
	}
	b := s.Bidder()
	if b < 0 || !count(b) {
		return
	}
	r.bids[t.at[b]]++
	if !s.Made() {
		r.set[t.at[b]]++
	}
	if f, ok := t.bots[b].(bot.Forecaster); ok {
		if p, ok := f.Forecast(s.Dealt(b), s.HighBid()); ok {
			if r.cal[t.at[b]] == nil {
				r.cal[t.at[b]] = new(calAcc)
			}
			r.cal[t.at[b]].add(p, s.Made())
		}
	}
}

func every(int) bool { return true }

func playDeal(c *Config, seats []string, rots, d int) dealResult {
	r := newDealResult()
	n := c.Game.Seats()
	rot0 := 0
	if !c.Duplicate {
		rot0 = d % len(seats) // spread the seats over deals
		if c.Game.FixedTeams() {
			rot0 = d % 2
		}
	}
	for k := range rots {
		rot := rot0 + k
		t := newSeating(n, func(i int) string { return seats[(i+rot)%n] })
		rng := pitch.NewRand(seedFor(c.Seed, uint64(d), uint64(rot), 1))
		if c.Matches > 0 {
			maxHands := c.MaxHands
			if maxHands <= 0 {
				maxHands = DefaultMaxHands
			}
			m := pitch.NewMatch(c.Game, seedFor(c.Seed, uint64(d), 0, 2))
			for !m.Over() && len(m.Records()) < maxHands {
				hands := len(m.Records())
				if err := m.Apply(r.decide(&t, m.State(), rng)); err != nil {
					r.err = fmt.Errorf("match %d: %s played an illegal action: %v", d, t.at[m.State().Turn()], err)
					return r
				}
				if len(m.Records()) > hands {
					r.account(&t, m.LastHand(), false, every)
				}
			}
			r.matches++
			for i := range n {
				r.seatWins(t.at[i], m.Over() && slices.Contains(m.Winner(), i), m.Over() && outright(m.LastHand()))
			}
			if !m.Over() {
				r.unfinished++ // no winner to credit
				continue
			}
			credited := map[string]bool{}
			for _, w := range m.Winner() {
				if !credited[t.at[w]] {
					credited[t.at[w]] = true
					r.wins[t.at[w]]++
				}
			}
			continue
		}
		s := pitch.Deal(c.Game, d%n, nil, pitch.NewRand(seedFor(c.Seed, uint64(d), 0, 3)))
		for !s.Terminal() {
			seat := s.Turn()
			if err := s.Apply(r.decide(&t, &s, rng)); err != nil {
				r.err = fmt.Errorf("deal %d: %s played an illegal action: %v", d, t.at[seat], err)
				return r
			}
		}
		r.account(&t, &s, true, every)
	}
	return r
}

// playPaired plays deal d for Config.Against: for every seat, once with
// A there and once with B, the other seats held by Against bots. Each
// seat's k-th decision of the hand draws from a random stream of its
// own, the same in both games, so a bot that meets the same position
// in both decides the same. Only A's and B's seats are counted.
func playPaired(c *Config, d int) dealResult {
	r := newDealResult()
	n := c.Game.Seats()
	for at := range n {
		var standing [2]float64
		for k, name := range []string{c.A, c.B} {
			t := newSeating(n, func(i int) string {
				if i == at {
					return name
				}
				return c.Against
			})
			s := pitch.Deal(c.Game, d%n, nil, pitch.NewRand(seedFor(c.Seed, uint64(d), 0, 3)))
			var decisions [pitch.MaxSeats]uint64
			for !s.Terminal() {
				i := s.Turn()
				rng := pitch.NewRand(seedFor(c.Seed, uint64(d), uint64(i), decisions[i], 4))
				decisions[i]++
				if err := s.Apply(r.decide(&t, &s, rng)); err != nil {
					r.err = fmt.Errorf("deal %d: %s played an illegal action: %v", d, t.at[i], err)
					return r
				}
			}
			r.account(&t, &s, true, func(i int) bool { return i == at })
			standing[k] = bot.Standing(&s, at)
		}
		x := standing[0] - standing[1]
		r.pairDiff += x / float64(n)
		if x != 0 {
			r.differ++
		}
	}
	return r
}
