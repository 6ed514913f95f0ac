package bot

import (
	"math/rand/v2"

	"pitch"
)

// A seenPlay is a card another seat played that the view shows in order
// (the trick in progress and the last trick), with the view of the
// expert's seat as it was just before that card was played: the moment
// at which the player chose it.
type seenPlay struct {
	seat   int
	card   pitch.Card
	before pitch.View
	// since is every card seat played from that moment on (the card
	// and any later one the view shows): the world's hand for seat,
	// with these, is the hand it held then.
	since [pitch.MaxSeats]pitch.CardSet
}

// seenPlays returns the plays of other seats that the view shows with the
// trick as it stood when each was made: the cards of the trick in
// progress and, when the view keeps it, of the last trick, each with the
// view rolled back to just before it (the card back in its player's
// hand, the trick cut there, the last trick's taking undone). Earlier
// tricks' order is not in the view, so their plays are not read.
func seenPlays(v *pitch.View) []seenPlay {
	if v.Phase != pitch.PhasePlay || v.Seat < 0 {
		return nil
	}
	var out []seenPlay
	var since [pitch.MaxSeats]pitch.CardSet
	cur := *v
	// The trick in progress, last card first.
	for j := len(v.Trick) - 1; j >= 0; j-- {
		seat, c := v.TrickSeat[j], v.Trick[j]
		since[seat] |= c.Set()
		cur.Trick, cur.TrickSeat = v.Trick[:j], v.TrickSeat[:j]
		cur.Counts[seat]++
		cur.Played[seat] &^= c.Set()
		cur.Turn = seat
		firstLead(&cur)
		if seat != v.Seat {
			out = append(out, seenPlay{seat: seat, card: c, before: cur, since: since})
		}
	}
	if len(v.Last) == 0 || v.Tricks == 0 || len(v.Trick) > 0 && v.TrickSeat[0] != v.LastWon {
		return out
	}
	// The last trick: undo its taking, then its cards, last first.
	var taken pitch.CardSet
	for _, c := range v.Last {
		taken |= c.Set()
	}
	cur.Won[v.LastWon] &^= taken
	cur.TrickWins[v.LastWon]--
	cur.Tricks--
	cur.Leader = v.LastSeat[0]
	cur.Last, cur.LastSeat, cur.LastWon = nil, nil, -1
	for j := len(v.Last) - 1; j >= 0; j-- {
		seat, c := v.LastSeat[j], v.Last[j]
		since[seat] |= c.Set()
		trick, seats := make([]pitch.Card, j), make([]int, j)
		copy(trick, v.Last[:j])
		copy(seats, v.LastSeat[:j])
		cur.Trick, cur.TrickSeat = trick, seats
		cur.Counts[seat]++
		cur.Played[seat] &^= c.Set()
		cur.Turn = seat
		firstLead(&cur)
		if seat == v.Seat {
			cur.Hand |= c.Set()
		} else {
			out = append(out, seenPlay{seat: seat, card: c, before: cur, since: since})
		}
	}
	return out
}

// firstLead undoes what the first card of an auction hand does: it names
// trump (AP-PLAY-1), so before it there is none.
func firstLead(v *pitch.View) {
	if v.Game.Variant == pitch.Auction && v.Tricks == 0 && len(v.Trick) == 0 {
		v.Trump = pitch.NoSuit
	}
}

// playMiss is how much less likely a world is for each seen play that
// the heuristic, holding that world's cards, would not have made: hard
// bots play the heuristic's card about 60% of the time they have a
// choice, so a play it would not make is evidence, but weak evidence.
const playMiss = 0.4

// playLikelihood is how likely the seen plays are in world w under the
// heuristic as the model of how others play: each play the heuristic
// would not have made with the cards w gives that seat then counts
// playMiss. The position before each play is rebuilt from the view
// rolled back (seenPlay.before) with every other seat's hand as w deals
// it, by View.Resample with those hands known.
func playLikelihood(w *pitch.State, v *pitch.View, plays []seenPlay, rng *rand.Rand) float64 {
	l := 1.0
	for k := range plays {
		p := &plays[k]
		before := p.before
		for i := range v.Game.Seats() {
			if i != v.Seat {
				before.KnownIn[i] = w.Hand(i) | p.since[i]
			}
		}
		s := before.Resample(rng)
		if legal := s.LegalPlays(); legal.Len() < 2 || !legal.Has(p.card) {
			continue // no choice, or the rebuilt position is not the one played in
		}
		if a := policy(&s); a.Card != p.card {
			l *= playMiss
		}
	}
	return l
}
