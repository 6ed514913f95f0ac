package sim

import (
	"fmt"
	"math/rand/v2"

	"pitch"
	"pitch/bot"
)

// ReferenceNames are the perfect-information references, players that
// only pitch sim seats, since they see cards no seat may see:
//
//   - "perfect": the expert's own search given the true deal (one world,
//     every hidden card known) at every decision, with no calibration
//     of its bids (a known world needs none);
//   - "perfect-play": the expert until the auction ends (the same bids),
//     then that search given the true deal for every decision after it
//     (the call, the stock, passes, discards and play).
//
// Neither is a bot.Level nor a name bot.New accepts: a table, pitch play
// and pitch advise cannot seat them. Held against the expert, they split
// what it lacks in two: the play after the auction with the cards known
// (perfect-play − expert) and the bidding with the cards known
// (perfect − perfect-play).
var ReferenceNames = []string{"perfect", "perfect-play"}

// A reference is one of ReferenceNames at one seat.
type reference struct {
	name string
	// play only: it sees the deal once the auction is over, not before.
	play bool
	ex   *bot.Expert
}

// newReference returns the reference called name, or nil when name is
// not one.
func newReference(name string) *reference {
	switch name {
	case "perfect":
		b, _ := bot.New("expert:raw") // a name bot.New always accepts
		return &reference{name: name, ex: b.(*bot.Expert)}
	case "perfect-play":
		b, _ := bot.New("expert")
		return &reference{name: name, play: true, ex: b.(*bot.Expert)}
	}
	return nil
}

// Name returns the reference's name.
func (r *reference) Name() string { return r.name }

// Act decides from the view alone, as the expert does: a reference sees
// the deal only when pitch sim asks it with the state (decide).
func (r *reference) Act(req bot.Request) pitch.Action { return r.ex.Act(req) }

// Forecast implements bot.Forecaster for its bids.
func (r *reference) Forecast(hand pitch.CardSet, bid int) (float64, bool) {
	return r.ex.Forecast(hand, bid)
}

// decide returns the reference's action for the seat to act in s, the
// true state.
func (r *reference) decide(s *pitch.State, rng *rand.Rand) pitch.Action {
	legal := s.Legal(nil)
	if len(legal) == 1 {
		return legal[0]
	}
	v := s.View(s.Turn())
	req := bot.Request{View: &v, Legal: legal, Rand: rng}
	if r.play && s.Phase() == pitch.PhaseBid {
		return r.ex.Act(req)
	}
	return r.ex.ActIn(req, []pitch.State{*s})
}

// newPlayer returns the bot or reference called name for a seat: a
// reference (ReferenceNames) or whatever bot.New accepts.
func newPlayer(name string) (bot.Bot, error) {
	if r := newReference(name); r != nil {
		return r, nil
	}
	b, err := bot.New(name)
	if err != nil {
		return nil, fmt.Errorf("%v; pitch sim also seats the references %v", err, ReferenceNames)
	}
	return b, nil
}
