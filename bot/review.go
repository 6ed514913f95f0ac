package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"pitch"
)

// ReviewWorlds is the worlds a review draws per decision by default.
const ReviewWorlds = 200

// MistakeLoss and BlunderLoss are the expected losses, in match points,
// from which a reviewed decision is a mistake and a blunder.
const (
	MistakeLoss = 0.5
	BlunderLoss = 1.5
)

// hindsightLines bounds the lines of play (worldLines: the product over
// the seats of the factorial of the cards each may still play, in pawnee
// only trumps) of a position the review solves with all cards open:
// about the last three tricks.
const hindsightLines = 3000

// ReviewOptions sets how a hand is reviewed.
type ReviewOptions struct {
	Worlds int    // worlds drawn per decision; 0 means ReviewWorlds
	Seed   uint64 // mixed with each decision's place: the same record, seat and seed give the same review
	// Pause, when set, is called after each decision is weighed, with the
	// time that took: a server rests there so that reviews leave the
	// cores to live play. It does not change the review.
	Pause func(took time.Duration)
}

// ReviewOption is one action weighed at a reviewed decision.
type ReviewOption struct {
	Action pitch.Action `json:"action"`
	// Value is the mean result for the seat's side over the worlds drawn
	// from what the seat knew, in match points (with a bonus for winning
	// the match), as Search.Analyze measures it.
	Value float64 `json:"value"`
	// Made is, for a bid, the chance of making it in the worlds where the
	// seat won the auction with it; nil for other actions or when it never
	// won.
	Made *float64 `json:"made,omitempty"`
}

// Hindsight is the best card of a play decision with every card open,
// solved exactly: what the seat could not know, shown as hindsight.
type Hindsight struct {
	Best   pitch.Action `json:"best"`
	Value  float64      `json:"value"`  // the seat's result after Best, every seat then playing its best
	Played float64      `json:"played"` // the same after the card played
}

// Decision is one reviewed decision of the seat.
type Decision struct {
	Index   int            `json:"index"` // the action's place in the record, 0 for the first
	Phase   string         `json:"phase"` // bid, call, trump, give_stock, pass_burn, discard or play
	Played  pitch.Action   `json:"played"`
	Options []ReviewOption `json:"options"` // best first; the action played is always among them
	Best    pitch.Action   `json:"best"`
	// Loss is the best option's value less the played action's (0 when
	// the played action was the best).
	Loss float64 `json:"loss"`
	// Verdict is "mistake" (Loss at least MistakeLoss), "blunder" (at
	// least BlunderLoss) or "" (neither).
	Verdict string `json:"verdict"`
	// Hindsight is for card play when the rest of the hand is small
	// enough to solve exactly; nil otherwise.
	Hindsight *Hindsight `json:"hindsight,omitempty"`
}

// HandReview is the review of one seat's decisions in one hand record.
type HandReview struct {
	Seat      int        `json:"seat"`
	Worlds    int        `json:"worlds"`
	Seed      uint64     `json:"seed"`
	Decisions []Decision `json:"decisions"` // decisions with a single legal action are left out
	Mistakes  int        `json:"mistakes"`  // decisions marked "mistake" (blunders not counted)
	Blunders  int        `json:"blunders"`
	Loss      float64    `json:"loss"` // the sum of the decisions' losses
}

// Review replays a hand record and weighs each decision of seat from that
// seat's view at that moment (pitch.State.View): the search bot's options
// with their expected results, the action played among them, and, for
// card play near the end, the best card with all cards open. A record the
// rules refuse gives its *pitch.RecordError. The hand need not be
// finished: the decisions recorded are reviewed.
func Review(rec *pitch.Record, seat int, opts ReviewOptions) (*HandReview, error) {
	if seat < 0 || seat >= rec.Game.Seats() {
		return nil, fmt.Errorf("seat %d is not a seat: seats are 0 to %d", seat, rec.Game.Seats()-1)
	}
	if opts.Worlds <= 0 {
		opts.Worlds = ReviewWorlds
	}
	start := *rec
	start.Actions = nil
	s, err := start.State()
	if err != nil {
		return nil, err
	}
	out := &HandReview{Seat: seat, Worlds: opts.Worlds, Seed: opts.Seed, Decisions: []Decision{}}
	for i, a := range rec.Actions {
		// TP-TR-4: a give_stock absent right after trump means false.
		if s.Phase() == pitch.PhaseGiveStock && a.Kind != pitch.ActGiveStock {
			if err := s.Apply(pitch.GiveStock(s.Bidder(), false)); err != nil {
				return nil, &pitch.RecordError{Action: i, Message: err.Error()}
			}
		}
		if int(a.Seat) == seat && s.Turn() == seat && !s.Terminal() {
			legal := s.Legal(nil)
			if len(legal) > 1 && isLegal(legal, a) {
				t0 := time.Now()
				out.Decisions = append(out.Decisions, reviewDecision(&s, i, a, legal, opts))
				if opts.Pause != nil {
					opts.Pause(time.Since(t0))
				}
			}
		}
		if err := s.Apply(a); err != nil {
			return nil, &pitch.RecordError{Action: i, Message: err.Error()}
		}
	}
	for _, d := range out.Decisions {
		out.Loss += d.Loss
		switch d.Verdict {
		case "mistake":
			out.Mistakes++
		case "blunder":
			out.Blunders++
		}
	}
	out.Loss = round2(out.Loss)
	return out, nil
}

// reviewRand is the generator of the decision at action index i.
func reviewRand(seed uint64, seat, i int) *rand.Rand {
	return rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(seat)<<32|uint64(i)))
}

// ReviewBest returns the action a review of seat with opts finds best at
// the decision before action index i of a record whose state is s: the
// best option, which is what a review marks as no loss. It lets tests and
// tools play the reviewed best.
func ReviewBest(s *pitch.State, i int, opts ReviewOptions) pitch.Action {
	if opts.Worlds <= 0 {
		opts.Worlds = ReviewWorlds
	}
	legal := s.Legal(nil)
	if len(legal) == 1 {
		return legal[0]
	}
	d := reviewDecision(s, i, legal[0], legal, opts)
	return d.Best
}

func reviewDecision(s *pitch.State, i int, played pitch.Action, legal []pitch.Action, opts ReviewOptions) Decision {
	seat := s.Turn()
	v := s.View(seat)
	req := Request{View: &v, Legal: legal, Rand: reviewRand(opts.Seed, seat, i)}
	raw := analyzeWith(req, opts.Worlds, played)
	d := Decision{Index: i, Phase: s.Phase().String(), Played: played}
	for _, o := range raw {
		ro := ReviewOption{Action: o.Action, Value: o.Value}
		if o.Action.Kind == pitch.ActBid && o.Won > 0 {
			m := round2(o.Made)
			ro.Made = &m
		}
		d.Options = append(d.Options, ro)
	}
	// Best first; ties keep the candidates' order, so the result does not
	// depend on the sort.
	sort.SliceStable(d.Options, func(a, b int) bool { return d.Options[a].Value > d.Options[b].Value })
	d.Best = d.Options[0].Action
	for _, o := range d.Options {
		if o.Action == played {
			d.Loss = d.Options[0].Value - o.Value
		}
	}
	for k := range d.Options {
		d.Options[k].Value = round2(d.Options[k].Value)
	}
	d.Loss = round2(d.Loss)
	switch {
	case d.Loss >= BlunderLoss:
		d.Verdict = "blunder"
	case d.Loss >= MistakeLoss:
		d.Verdict = "mistake"
	}
	if s.Phase() == pitch.PhasePlay {
		d.Hindsight = HindsightPlay(s, played)
	}
	return d
}

// analyzeWith is Search.Analyze with the played action always among the
// candidates, so that its value is measured on the same worlds as theirs.
func analyzeWith(req Request, worlds int, played pitch.Action) []Option {
	return analyze(req, worlds, played)
}

// HindsightPlay solves the card play of s (a whole state: every card
// known, as in a finished hand's record) exactly for the seat to play and
// returns its best card and the results of that card and of played; nil
// when s is not a play decision or the rest of the hand has more than
// about three tricks' lines of play (too many to solve quickly).
func HindsightPlay(s *pitch.State, played pitch.Action) *Hindsight {
	if s.Phase() != pitch.PhasePlay || s.Terminal() {
		return nil
	}
	if worldLines(s, hindsightLines) > hindsightLines {
		return nil
	}
	seat := s.Turn()
	sv := newSolver(seat, sideObjective) // one table for every card tried
	h := &Hindsight{Value: math.Inf(-1)}
	for c := s.LegalPlays(); c != 0; c &= c - 1 {
		a := pitch.Play(seat, c.First())
		x := *s
		if err := x.Apply(a); err != nil {
			return nil
		}
		v := sv.value(&x)
		if v > h.Value {
			h.Best, h.Value = a, v
		}
		if a == played {
			h.Played = v
		}
	}
	if h.Played == h.Value {
		h.Best = played // the card played was as good as any
	}
	h.Value, h.Played = round2(h.Value), round2(h.Played)
	return h
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// SeatTally is one seat's reviews over the hands of a match, counted: the
// sums of its HandReviews' counts (a decision's verdict is Review's, from
// MistakeLoss and BlunderLoss).
type SeatTally struct {
	Seat      int     `json:"seat"`
	Hands     int     `json:"hands"` // hands reviewed for the seat
	Decisions int     `json:"decisions"`
	Mistakes  int     `json:"mistakes"` // decisions marked "mistake" (blunders not counted)
	Blunders  int     `json:"blunders"`
	Loss      float64 `json:"loss"` // the sum of the hands' losses
	// Marked are the hands, numbered from 1, with a mistake or a blunder
	// of the seat.
	Marked []int `json:"marked"`
}

// TallyBySeat counts the reviews of a match by seat: hands[k] holds the
// reviews (of any seats) of hand k+1. The tallies are in seat order; a
// seat with no review is left out.
func TallyBySeat(hands [][]*HandReview) []SeatTally {
	by := map[int]*SeatTally{}
	for k, reviews := range hands {
		for _, r := range reviews {
			t := by[r.Seat]
			if t == nil {
				t = &SeatTally{Seat: r.Seat, Marked: []int{}}
				by[r.Seat] = t
			}
			t.Hands++
			t.Decisions += len(r.Decisions)
			t.Mistakes += r.Mistakes
			t.Blunders += r.Blunders
			t.Loss += r.Loss
			if r.Mistakes+r.Blunders > 0 {
				t.Marked = append(t.Marked, k+1)
			}
		}
	}
	out := []SeatTally{}
	for _, t := range by {
		t.Loss = round2(t.Loss)
		out = append(out, *t)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Seat < out[b].Seat })
	return out
}
