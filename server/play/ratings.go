package play

import (
	"context"
	"errors"
	"slices"
	"time"

	"pitch/rating"
	"pitch/server/wire"
	"pitch/store"
)

// ratingChanges turns stored changes into what the state says.
func ratingChanges(cs []store.RatingChange) []wire.RatingChange {
	out := make([]wire.RatingChange, 0, len(cs))
	for _, c := range cs {
		out = append(out, wire.RatingChange{Seat: c.Seat, Rating: rating.Shown(c.After), Provisional: rating.Provisional(c.After), Change: rating.Shown(c.After) - rating.Shown(c.Before)})
	}
	return out
}

// seatChanges is what the state says of stored changes: each change of
// an account holding its seat now (at a play-now table a person who left
// a seat was rated for it, as a loss, and its bot holds it: their change
// is on their profile, not beside the bot's name).
func (t *table) seatChanges(cs []store.RatingChange) []wire.RatingChange {
	if t.info.PlayNow {
		cs = slices.DeleteFunc(slices.Clone(cs), func(c store.RatingChange) bool {
			return c.Seat < 0 || c.Seat >= len(t.info.Seats) || t.info.Seats[c.Seat].Account != c.Account
		})
	}
	return ratingChanges(cs)
}

// rate rates the table's finished rated match (once: the store refuses a
// second rating, from this process or another, and gives back the
// stored changes instead) and keeps the changes for the states. The
// lock must be held.
func (t *table) rate(ctx context.Context) {
	if !t.info.Rated || !t.match.Over() || t.ratings != nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	st, err := rating.RankMatch(t.match)
	if err != nil {
		t.logger().Error("rating: ranking the match", "err", err.Error())
		return
	}
	// A person whose seat the stand-in played at the end, with nobody
	// back at it since, left the match: they lose it (docs/ratings.md).
	var left []int
	hands := len(t.match.Records())
	var who []ratedFor // a play-now table's: who each seat is rated for
	if t.info.PlayNow {
		who = playNowRated(t.info.Seats, hands)
	}
	for i := range t.game.Seats() {
		if who != nil && who[i].forfeit || t.bots[i] == nil && t.away[i] && (who == nil || who[i].account != "") {
			left = append(left, i)
		}
	}
	if st, err = st.Forfeit(left); err != nil {
		t.logger().Error("rating: placing the players who left", "err", err.Error())
		return
	}
	scores := t.match.State().NewScores()
	// At the time of the last action, so that a process that rates the
	// match later (loadRatings) counts the pair bound on the same day.
	m := store.RatedMatch{Table: t.id, Variant: t.info.Variant, Standing: st, PairLimit: RatedPairsPerDay, At: t.turnAt}
	for i, s := range t.info.Seats {
		rs := store.RatedSeat{Seat: i, Account: s.Account, Hands: len(t.sheet), Points: scores[i]}
		if who != nil { // the person who played their share of it, or its bot
			rs.Account, rs.Hands = who[i].account, who[i].hands
		}
		if s.Kind == "bot" && who == nil || rs.Account == "" {
			rs.Account = ""
			level := s.Level
			if s.Kind != "bot" || who != nil {
				level = playNowLevel // a play-now seat nobody is rated for counts as its bot
			}
			rs.Bot, _ = rating.Bot(t.info.Variant, level)
			if rs.Bot.Sigma == 0 {
				rs.Bot = rating.Default().New()
			}
		}
		for _, row := range t.sheet {
			if row.Bidder != i {
				continue
			}
			rs.Bids++
			if !row.Made {
				rs.Sets++
			}
			if moon := t.game.MoonBid(); moon > 0 && row.Bid == moon {
				rs.Moons++
			}
		}
		m.Seats = append(m.Seats, rs)
	}
	changes, err := t.srv.store.RateMatch(sctx, m)
	if errors.Is(err, store.ErrPairLimit) {
		t.unrated, t.ratings = "pair_limit", []wire.RatingChange{}
		t.infoVer++
		return
	}
	if err != nil && !errors.Is(err, store.ErrConflict) {
		t.logger().Error("rating: storing the match's ratings", "err", err.Error())
		return
	}
	t.ratings = t.seatChanges(changes)
	t.unrated = "" // rated after all (a day began since the table filled)
	t.infoVer++
}

// loadRatings reads the changes of a finished rated table loaded from
// the store, and rates it if no process did (one that stopped between
// the last action and the rating). The lock must be held.
func (t *table) loadRatings(ctx context.Context) {
	if !t.info.Rated || !t.match.Over() || t.ratings != nil {
		return
	}
	cs, err := t.srv.store.MatchRatings(ctx, t.id)
	if err != nil {
		t.logger().Warn("rating: reading the match's ratings", "err", err.Error())
		return
	}
	if len(cs) > 0 {
		t.ratings = t.seatChanges(cs)
		return
	}
	t.rate(ctx)
}

// RatedPairsPerDay is how many rated matches of a game two accounts may
// play together in a UTC day; their next ones that day are played
// unrated, and the table says so (docs/ratings.md).
const RatedPairsPerDay = 3

// checkPairs marks a full rated table whose match will be played unrated
// because two of its accounts have played RatedPairsPerDay rated matches
// of the game together today, so that the table says so from the start
// (rate decides at the end, in the store's transaction). The lock must
// be held.
func (t *table) checkPairs(ctx context.Context) {
	if !t.info.Rated || t.unrated != "" || t.match.Over() || !t.full() {
		return
	}
	var accounts []string
	for _, s := range t.info.Seats {
		if s.Account != "" && !slices.Contains(accounts, s.Account) {
			accounts = append(accounts, s.Account)
		}
	}
	if len(accounts) < 2 {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	n, err := t.srv.store.RatedTogether(sctx, accounts, t.info.Variant, time.Now())
	if err != nil {
		t.logger().Warn("rating: counting the pairs' rated matches today", "err", err.Error())
		return
	}
	if n >= RatedPairsPerDay {
		t.unrated = "pair_limit"
		t.infoVer++
	}
}
