package sim

import (
	"math"

	"pitch"
)

// WinStats is how often a bot's seats won the match, per seat it held:
// with Config.Matches per seat-match (a match counted once for every seat
// the bot held in it, so a team's win counts for both partners), with
// Config.Hands per seat-hand, every deal from zero scores. Outright wins
// are won by a moon (TP-MOON-1, PW-MOON-1) whatever the scores; wins at
// the target by reaching it (AP-END-1, TP-END-1, PW-END-1). The
// intervals are 95%, with the deals (or match seeds) as clusters: the
// rotations of one deal share its cards and are not independent.
type WinStats struct {
	Games        int     `json:"seat_games"` // seat-matches, or seat-hands with Hands
	Won          int     `json:"won"`
	Rate         float64 `json:"rate"`
	CI           float64 `json:"ci95"`
	Outright     int     `json:"outright"`
	OutrightRate float64 `json:"outright_rate"`
	OutrightCI   float64 `json:"outright_ci95"`
	AtTarget     int     `json:"at_target"`
	TargetRate   float64 `json:"at_target_rate"`
	TargetCI     float64 `json:"at_target_ci95"`
}

// WinCompare sets the first two bots' match wins side by side, paired by
// deal (or match seed).
type WinCompare struct {
	// Share is the first bot's wins per seat over the sum of both bots'
	// wins per seat: of the wins that go to one of an A seat and a B
	// seat, the share A's takes. 50% is even. In a game of two sides
	// (ten-point, auction in partnerships) it is A's match win rate among
	// the finished matches.
	Share   float64 `json:"share"`
	ShareCI float64 `json:"share_ci95"`
	// Diff is A's wins per seat less B's; OutrightDiff and TargetDiff
	// split it into outright wins and wins at the target.
	Diff           float64 `json:"diff"`
	DiffCI         float64 `json:"diff_ci95"`
	OutrightDiff   float64 `json:"outright_diff"`
	OutrightDiffCI float64 `json:"outright_diff_ci95"`
	TargetDiff     float64 `json:"at_target_diff"`
	TargetDiffCI   float64 `json:"at_target_diff_ci95"`
	Deals          int     `json:"paired"` // deals (or match seeds) where both bots held a seat
}

// outright reports whether the finished hand s won the match by a moon
// rather than by a score reaching the target: in ten-point a moon made by
// a team that wins on it, or failed (the defenders win, TP-MOON-1); in
// pawnee a moon made (PW-MOON-1). Auction has no such rule.
func outright(s *pitch.State) bool {
	if !s.MatchDecided() || s.HighBid() != 10 {
		return false
	}
	switch s.Game().Variant {
	case pitch.TenPoint:
		return !s.Made() || s.WonMatch(s.Bidder())
	case pitch.Pawnee:
		return s.Made()
	}
	return false
}

// seatWins counts a seat's match: one more seat-game for the bot, and
// its win, outright or at the target.
func (r *dealResult) seatWins(name string, won, out bool) {
	r.seatGames[name]++
	if !won {
		return
	}
	r.seatWon[name]++
	if out {
		r.seatOut[name]++
	}
}

// winStats sums a bot's WinStats over the deals, with intervals
// clustered by deal.
func winStats(results []dealResult, name string) WinStats {
	var games, won, out, tgt []float64
	var st WinStats
	for _, r := range results {
		g := r.seatGames[name]
		if g == 0 {
			continue
		}
		w, o := r.seatWon[name], r.seatOut[name]
		st.Games += g
		st.Won += w
		st.Outright += o
		games = append(games, float64(g))
		won = append(won, float64(w))
		out = append(out, float64(o))
		tgt = append(tgt, float64(w-o))
	}
	st.AtTarget = st.Won - st.Outright
	st.Rate, st.CI = ratioCI(won, games)
	st.OutrightRate, st.OutrightCI = ratioCI(out, games)
	st.TargetRate, st.TargetCI = ratioCI(tgt, games)
	return st
}

// compareWins pairs bots a's and b's wins per seat by deal.
func compareWins(results []dealResult, a, b string) *WinCompare {
	var pa, pb, da, do, dt []float64
	for _, r := range results {
		ga, gb := float64(r.seatGames[a]), float64(r.seatGames[b])
		if ga == 0 || gb == 0 {
			continue
		}
		wa, wb := float64(r.seatWon[a])/ga, float64(r.seatWon[b])/gb
		oa, ob := float64(r.seatOut[a])/ga, float64(r.seatOut[b])/gb
		pa, pb = append(pa, wa), append(pb, wb)
		da = append(da, wa-wb)
		do = append(do, oa-ob)
		dt = append(dt, (wa-oa)-(wb-ob))
	}
	if len(pa) == 0 {
		return nil
	}
	c := &WinCompare{Deals: len(pa)}
	sum := make([]float64, len(pa))
	for i := range pa {
		sum[i] = pa[i] + pb[i]
	}
	c.Share, c.ShareCI = ratioCI(pa, sum)
	c.Diff, c.DiffCI = meanCI(da)
	c.OutrightDiff, c.OutrightDiffCI = meanCI(do)
	c.TargetDiff, c.TargetDiffCI = meanCI(dt)
	return c
}

// ratioCI returns Σnum/Σden and the half-width of its 95% interval, the
// pairs (num[i], den[i]) being independent clusters (the delta method:
// the interval of the mean of num[i] − R·den[i], over the mean den).
func ratioCI(num, den []float64) (ratio, ci float64) {
	var sn, sd float64
	for i := range num {
		sn += num[i]
		sd += den[i]
	}
	if sd == 0 {
		return 0, 0
	}
	ratio = sn / sd
	if len(num) < 2 {
		return ratio, 0
	}
	mean := sd / float64(len(den))
	z := make([]float64, len(num))
	for i := range num {
		z[i] = (num[i] - ratio*den[i]) / mean
	}
	_, ci = meanCI(z)
	return ratio, math.Abs(ci)
}
