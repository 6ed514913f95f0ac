// Package ratings serves the players' ratings as people see them
// (docs/ratings.md): the bots' fixed ratings, a player's profile and the
// leaderboard, and the JSON form of a rating that the tables' states and
// the lobby show too. Rating a finished match is the table's (package
// play); this package only reads what is stored.
package ratings

import (
	"pitch/rating"
)

// Shown is a rating as people see it (docs/ratings.md): its number
// (rating.Shown) and whether it is provisional.
type Shown struct {
	Rating      int  `json:"rating"`
	Provisional bool `json:"provisional"`
}

// ShownOf is r as people see it.
func ShownOf(r rating.Rating) Shown {
	return Shown{Rating: rating.Shown(r), Provisional: rating.Provisional(r)}
}

// Bot returns the fixed rating of a bot level in a game, or nil.
func Bot(variant, level string) *Shown {
	r, ok := rating.Bot(variant, level)
	if !ok {
		return nil
	}
	j := ShownOf(r)
	return &j
}
