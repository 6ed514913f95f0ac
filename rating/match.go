package rating

import (
	"errors"
	"fmt"
	"math"

	"pitch"
)

// Standing is how a finished match ranks its sides for rating: each side
// is a fixed partnership (ten-point, auction with partnerships) or one
// seat (auction, pawnee, whose partnerships last one hand only).
type Standing struct {
	Sides [][]int   // the seats of each side, in seat order
	Ranks []float64 // Ranks[i] is side i's place: 1 for the winner; equal places are a tie
}

// ErrNotOver is returned by RankMatch for a match that has no winner yet.
var ErrNotOver = errors.New("rating: the match is not over")

// RankMatch ranks the sides of a finished match by its result
// (Rank of its game, final scores and winners).
func RankMatch(m *pitch.Match) (Standing, error) {
	if !m.Over() {
		return Standing{}, ErrNotOver
	}
	return Rank(m.Game, m.State().NewScores(), m.Winner())
}

// Rank ranks the sides of a match of g that ended with scores (one a
// seat) and winners (the seats that won): the winning side first, then
// the others by final score, higher first, equal scores sharing a place
// (competition ranking: 1, 2, 2, 4). A seat whose player left is ranked
// by its final score like any other, since its stand-in played it out.
func Rank(g *pitch.Game, scores, winners []int) (Standing, error) {
	n := g.Seats()
	if len(scores) != n {
		return Standing{}, fmt.Errorf("%w: %d scores for %d seats", ErrBadMatch, len(scores), n)
	}
	if len(winners) == 0 {
		return Standing{}, ErrNotOver
	}
	var sides [][]int
	side := make([]int, n) // seat → its side
	if g.FixedTeams() {
		sides = [][]int{nil, nil}
		for seat := range n {
			side[seat] = g.Team(seat)
			sides[side[seat]] = append(sides[side[seat]], seat)
		}
	} else {
		for seat := range n {
			side[seat] = seat
			sides = append(sides, []int{seat})
		}
	}
	won := -1
	for _, w := range winners {
		if w < 0 || w >= n {
			return Standing{}, fmt.Errorf("%w: winner seat %d; seats are 0 to %d", ErrBadMatch, w, n-1)
		}
		if won >= 0 && side[w] != won {
			return Standing{}, fmt.Errorf("%w: winners %v are on more than one side", ErrBadMatch, winners)
		}
		won = side[w]
	}
	score := func(i int) int { return scores[sides[i][0]] }
	ranks := make([]float64, len(sides))
	for i := range sides {
		if i == won {
			ranks[i] = 1
			continue
		}
		place := 2
		for j := range sides {
			if j != won && j != i && score(j) > score(i) {
				place++
			}
		}
		ranks[i] = float64(place)
	}
	return Standing{Sides: sides, Ranks: ranks}, nil
}

// RateMatch returns every seat's rating after a match ranked by st, from
// before (one rating a seat). A partnership is one team of its players.
func (m Model) RateMatch(st Standing, before []Rating) ([]Rating, error) {
	teams := make([][]Rating, len(st.Sides))
	seats := 0
	for i, s := range st.Sides {
		teams[i] = make([]Rating, len(s))
		for k, seat := range s {
			if seat < 0 || seat >= len(before) {
				return nil, fmt.Errorf("%w: seat %d has no rating (%d given)", ErrBadMatch, seat, len(before))
			}
			teams[i][k] = before[seat]
		}
		seats += len(s)
	}
	if seats != len(before) {
		return nil, fmt.Errorf("%w: %d ratings for %d seats", ErrBadMatch, len(before), seats)
	}
	out, err := m.Rate(teams, st.Ranks)
	if err != nil {
		return nil, err
	}
	after := make([]Rating, len(before))
	for i, s := range st.Sides {
		for k, seat := range s {
			after[seat] = out[i][k]
		}
	}
	return after, nil
}

// Scale multiplies Mu into the number shown to people: a new player
// (mu 25) is shown as 1500.
const Scale = 60

// ProvisionalSigma is the deviation above which a rating is provisional
// and shown with a "?" (docs/ratings.md says how many matches it takes).
const ProvisionalSigma = 5.0

// Shown returns the one number a person sees for r: Scale·Mu, rounded.
func Shown(r Rating) int { return int(math.Round(r.Mu * Scale)) }

// Provisional reports whether r is still too uncertain to be shown
// without its "?" or to appear on a leaderboard.
func Provisional(r Rating) bool { return r.Sigma > ProvisionalSigma }

// Format returns r as shown: its number, with "?" while provisional.
func Format(r Rating) string {
	if Provisional(r) {
		return fmt.Sprintf("%d?", Shown(r))
	}
	return fmt.Sprint(Shown(r))
}

// Forfeit returns st with every side that holds one of the seats left
// placed last (docs/ratings.md): a player who walked away from a rated
// match loses it, whatever the stand-in that played the seat out made of
// it. The other sides keep their order, placed again from 1 (the first
// of them wins the rating, as the side that stayed); the sides that left
// share the last place. A seat out of range is an error; none left
// returns st unchanged.
func (st Standing) Forfeit(left []int) (Standing, error) {
	if len(left) == 0 {
		return st, nil
	}
	gone := make([]bool, len(st.Sides))
	for _, seat := range left {
		found := false
		for i, side := range st.Sides {
			for _, s := range side {
				if s == seat {
					gone[i], found = true, true
				}
			}
		}
		if !found {
			return Standing{}, fmt.Errorf("%w: seat %d left, but no side holds it", ErrBadMatch, seat)
		}
	}
	out := Standing{Sides: st.Sides, Ranks: make([]float64, len(st.Sides))}
	stayed := 0
	for i := range st.Sides {
		if gone[i] {
			continue
		}
		stayed++
		place := 1.0
		for j := range st.Sides {
			if !gone[j] && st.Ranks[j] < st.Ranks[i] {
				place++
			}
		}
		out.Ranks[i] = place
	}
	for i := range st.Sides {
		if gone[i] {
			out.Ranks[i] = float64(stayed + 1)
		}
	}
	return out, nil
}

// BotCeiling is how far above the strongest bot among its opponents a
// match against bots alone may lift a player's mu: one Beta, 250 as
// shown. A player that far above a bot is expected to beat it about two
// times in three head to head (PredictWin); more wins against it say
// little more, and bots play the same way every time, so that their
// weaknesses can be learnt and farmed (docs/ratings.md, "What a match
// against bots is worth").
func (m Model) BotCeiling(bot Rating) float64 { return bot.Mu + m.Beta }

// RateMatchBots is RateMatch for a match some of whose seats are bots
// (bot[seat]), which keep their fixed ratings: a player whose opponents
// (the seats on the other sides) are all bots gains no more than up to
// the strongest opponent's BotCeiling; one above it already keeps its
// mu when it wins. Losses count in full, and the deviation shrinks as
// RateMatch has it.
func (m Model) RateMatchBots(st Standing, before []Rating, bot []bool) ([]Rating, error) {
	if len(bot) != len(before) {
		return nil, fmt.Errorf("%w: %d bot marks for %d seats", ErrBadMatch, len(bot), len(before))
	}
	after, err := m.RateMatch(st, before)
	if err != nil {
		return nil, err
	}
	for i, side := range st.Sides {
		ceiling, people := math.Inf(-1), false
		for j, other := range st.Sides {
			if j == i {
				continue
			}
			for _, seat := range other {
				if !bot[seat] {
					people = true
				}
				ceiling = math.Max(ceiling, m.BotCeiling(before[seat]))
			}
		}
		if people {
			continue // a match against a person counts in full
		}
		for _, seat := range side {
			if !bot[seat] && after[seat].Mu > before[seat].Mu {
				after[seat].Mu = math.Min(after[seat].Mu, math.Max(before[seat].Mu, ceiling))
			}
		}
	}
	return after, nil
}
