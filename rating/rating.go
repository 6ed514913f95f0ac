// Package rating is the Weng–Lin Bayesian online rating of players
// (Weng and Lin, "A Bayesian Approximation Method for Online Ranking",
// JMLR 12, 2011) with the Plackett–Luce model, computed exactly as the
// openskill npm package 5.0.1 computes it with its defaults, and the
// ranking of a finished pitch match that feeds it (match.go).
//
// A Rating is a belief about a player's skill: a normal distribution
// with mean Mu and standard deviation Sigma. Model.Rate takes the teams
// of one match, each a list of ratings, and their ranks, and returns every
// player's new rating. testdata/openskill.json holds golden vectors made by
// openskill itself (testdata/gen); the Go code agrees with them to 1e-9.
// See docs/ratings.md.
package rating

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Rating is a belief about one player's skill: normal with mean Mu and
// standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Model holds the constants of the Weng–Lin Plackett–Luce model. Default
// gives openskill's defaults; a zero Model is not usable.
type Model struct {
	Mu    float64 // a new player's mean (openskill: 25)
	Sigma float64 // a new player's deviation (25/3)
	Beta  float64 // the spread of one match's performance around skill (25/6)
	Kappa float64 // the floor of a deviation's shrink factor (0.0001)
	Tau   float64 // the deviation added before each match, so skills may drift (25/300)
	// LimitSigma keeps a match from raising a deviation above its value
	// before the match (openskill's limitSigma, off by default).
	LimitSigma bool
	Z          float64 // the deviations subtracted in Ordinal (3)
}

// Default returns the model with openskill 5.0.1's defaults: mu 25,
// sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300, limitSigma off, z 3.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 1e-4, Tau: 25.0 / 300, Z: 3}
}

// New returns a new player's rating under m.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Ordinal returns the conservative estimate Mu − Z·Sigma, openskill's
// ordinal: the skill the player is very likely above.
func (m Model) Ordinal(r Rating) float64 { return r.Mu - m.Z*r.Sigma }

// MaxTeams is the most teams one match may have; MaxTeamSize the most
// players a team may have. Pitch needs at most 7 of 1 and 3 of 2; the
// limits keep bad input from costing much.
const (
	MaxTeams    = 64
	MaxTeamSize = 16
)

// ErrBadMatch is wrapped by every error Rate returns for input it refuses.
var ErrBadMatch = errors.New("rating: bad match")

// check reports what is wrong with teams and ranks, or nil.
func check(teams [][]Rating, ranks []float64) error {
	if len(teams) < 2 || len(teams) > MaxTeams {
		return fmt.Errorf("%w: %d teams; a match has 2 to %d", ErrBadMatch, len(teams), MaxTeams)
	}
	if ranks != nil && len(ranks) != len(teams) {
		return fmt.Errorf("%w: %d ranks for %d teams; give one rank a team", ErrBadMatch, len(ranks), len(teams))
	}
	for i, t := range teams {
		if len(t) == 0 || len(t) > MaxTeamSize {
			return fmt.Errorf("%w: team %d has %d players; a team has 1 to %d", ErrBadMatch, i, len(t), MaxTeamSize)
		}
		for _, r := range t {
			if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || !(r.Sigma > 0) || math.IsInf(r.Sigma, 0) {
				return fmt.Errorf("%w: team %d has rating mu %v sigma %v; mu must be finite and sigma finite and above 0", ErrBadMatch, i, r.Mu, r.Sigma)
			}
		}
	}
	for i, r := range ranks {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return fmt.Errorf("%w: rank %d is %v; ranks are finite numbers, lower is better", ErrBadMatch, i, r)
		}
	}
	return nil
}

// Rate returns every player's rating after one match: teams[i][k] is
// player k of team i before it, and ranks[i] team i's place (lower is
// better; equal ranks are a tie; nil means the teams finished in the
// order given). The result has the shape of teams. It computes what
// openskill 5.0.1's rate(teams, {rank}) computes under m.
func (m Model) Rate(teams [][]Rating, ranks []float64) ([][]Rating, error) {
	if err := check(teams, ranks); err != nil {
		return nil, err
	}
	n := len(teams)
	if ranks == nil {
		ranks = make([]float64, n)
		for i := range ranks {
			ranks[i] = float64(i + 1)
		}
	}
	// order: the teams by rank, ties in the order given (openskill sorts
	// stably with sort-unwind).
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ranks[order[a]] < ranks[order[b]] })

	tau2 := m.Tau * m.Tau
	type team struct {
		mu, sigma2 float64 // sums over the players
		rank       int     // the position of the first team of its tie group
		players    []Rating
	}
	ts := make([]team, n)
	for j, i := range order {
		t := team{players: make([]Rating, len(teams[i])), rank: j}
		if j > 0 && ranks[order[j-1]] >= ranks[i] {
			t.rank = ts[j-1].rank
		}
		for k, p := range teams[i] {
			s := math.Sqrt(p.Sigma*p.Sigma + tau2)
			t.players[k] = Rating{Mu: p.Mu, Sigma: s}
			t.mu += p.Mu
			t.sigma2 += s * s
		}
		ts[j] = t
	}

	beta2 := m.Beta * m.Beta
	var c float64
	for _, t := range ts {
		c += t.sigma2 + beta2
	}
	c = math.Sqrt(c)
	// sumQ[q]: Σ exp(mu_i/c) over the teams ranked at q or below;
	// a[q]: the size of q's tie group.
	sumQ := make([]float64, n)
	a := make([]float64, n)
	exp := make([]float64, n)
	for i, t := range ts {
		exp[i] = math.Exp(t.mu / c)
	}
	for q, tq := range ts {
		for i, ti := range ts {
			if ti.rank >= tq.rank {
				sumQ[q] += exp[i]
			}
			if ti.rank == tq.rank {
				a[q]++
			}
		}
	}

	out := make([][]Rating, n)
	for i, ti := range ts {
		var omega, delta float64
		for q, tq := range ts {
			if tq.rank > ti.rank {
				continue
			}
			quotient := exp[i] / sumQ[q]
			if i == q {
				omega += (1 - quotient) / a[q]
			} else {
				omega -= quotient / a[q]
			}
			delta += quotient * (1 - quotient) / a[q]
		}
		gamma := math.Sqrt(ti.sigma2) / c
		iOmega := omega * (ti.sigma2 / c)
		iDelta := delta * (ti.sigma2 / (c * c)) * gamma
		res := make([]Rating, len(ti.players))
		orig := order[i]
		for k, p := range ti.players {
			share := p.Sigma * p.Sigma / ti.sigma2
			res[k] = Rating{
				Mu:    p.Mu + share*iOmega,
				Sigma: p.Sigma * math.Sqrt(math.Max(1-share*iDelta, m.Kappa)),
			}
			if m.Tau != 0 && m.LimitSigma {
				res[k].Sigma = math.Min(res[k].Sigma, teams[orig][k].Sigma)
			}
		}
		out[orig] = res
	}
	return out, nil
}

// PredictWin returns each team's chance of winning the match, as
// openskill 5.0.1's predictWin computes it: the mean over every pair of
// teams of the chance that one beats the other. The chances sum to 1.
func (m Model) PredictWin(teams [][]Rating) ([]float64, error) {
	if err := check(teams, nil); err != nil {
		return nil, err
	}
	n := len(teams)
	mu := make([]float64, n)
	s2 := make([]float64, n)
	for i, t := range teams {
		for _, p := range t {
			mu[i] += p.Mu
			s2[i] += p.Sigma * p.Sigma
		}
	}
	wins := make([]float64, n)
	nb := float64(n) * m.Beta * m.Beta
	for i := range n {
		for j := i + 1; j < n; j++ {
			p := phi((mu[i] - mu[j]) / math.Sqrt(nb+s2[i]+s2[j]))
			wins[i] += p
			wins[j] += 1 - p
		}
	}
	pairs := float64(n*(n-1)) / 2
	for i := range wins {
		wins[i] /= pairs
	}
	return wins, nil
}

// phi is the standard normal distribution function.
func phi(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }
