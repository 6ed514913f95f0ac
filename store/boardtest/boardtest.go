// Package boardtest fills a store with players whose ratings are settled,
// for the tests of the leaderboard and the profile pages (server, web).
package boardtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"pitch/rating"
	"pitch/store"
)

// Settle creates an account for each name (its ID "board-" and the name)
// and rates pawnee matches of five of them in turn, each player's
// result its place in the list (the first the strongest) blurred by a
// seeded noise, until every rating is settled (not provisional): the
// leaderboard of pawnee then lists them in about the order given. Names
// are URL-safe (letters, digits, "-"); at least five.
func Settle(ctx context.Context, st store.Store, names []string) error {
	if len(names) < 5 {
		return fmt.Errorf("boardtest: %d names, want at least five", len(names))
	}
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = "board-" + n
		a := &store.Account{ID: ids[i], Name: n, NameKey: strings.ToLower(n), Created: time.Now()}
		if err := st.CreateAccount(ctx, a); err != nil {
			return err
		}
	}
	start := time.Now().Add(-24 * time.Hour)
	rng := rand.New(rand.NewPCG(27, 1)) // the same matches every time
	match := 0
	for round := range 60 {
		for first := round % len(names); first < round%len(names)+len(names); first += 4 {
			// Five names in a row (from first, around the list), ranked
			// in the order of the list.
			seats := make([]int, 5)
			for i := range seats {
				seats[i] = (first + i) % len(names)
			}
			m := store.RatedMatch{Table: fmt.Sprintf("board-match-%d", match), Variant: "pawnee", At: start.Add(time.Duration(match) * time.Minute)}
			m.Standing = rating.Standing{Sides: [][]int{{0}, {1}, {2}, {3}, {4}}, Ranks: make([]float64, 5)}
			perf := make([]float64, 5)
			for i, p := range seats {
				perf[i] = -float64(p) + 3*rng.NormFloat64()
			}
			for i, p := range seats {
				place := 1
				for _, q := range perf {
					if q > perf[i] {
						place++
					}
				}
				m.Standing.Ranks[i] = float64(place)
				m.Seats = append(m.Seats, store.RatedSeat{Seat: i, Account: ids[p], Hands: 10, Bids: 3, Sets: 1, Points: 11 - place})
			}
			if _, err := st.RateMatch(ctx, m); err != nil {
				return err
			}
			match++
		}
		// Settled when all are on the board.
		page, err := st.Leaderboard(ctx, store.LeaderQuery{Variant: "pawnee", Since: start, Limit: len(names)})
		if err != nil {
			return err
		}
		if len(page.Rows) == len(names) {
			return nil
		}
	}
	return fmt.Errorf("boardtest: %d players not settled after 60 rounds", len(names))
}
