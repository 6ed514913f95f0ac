package bot

// The expert's endgame solver: a position of one decision searched
// exactly with every card open (alpha-beta with a transposition table).

import (
	"math"

	"pitch"
)

// A solver solves positions of one decision exactly, for seat me scored
// by ob, and remembers what it found: the transposition table is keyed by
// the position (State.PlayKey), which holds every seat's cards, so the
// worlds and candidates of one decision share it.
type solver struct {
	me    int
	nodes int // positions visited so far
	ob    objective
	tab   []ttEntry
	stack []pitch.State // the position after each move of the line being searched, reused
}

// A ttEntry is what the search found for one position: its value, exact
// or a bound.
type ttEntry struct {
	key  uint64
	val  float64
	kind uint8      // ttEmpty, ttExact, ttLower (the value is at least val) or ttUpper
	best pitch.Card // the card that gave val, tried first when the position comes again
}

const (
	ttEmpty uint8 = iota
	ttExact
	ttLower
	ttUpper
)

// ttSize is the transposition table's entries (a power of two): 2^14,
// 384 KiB. A new position takes its slot from the old one, so a longer
// endgame is still solved exactly, with fewer positions remembered.
const ttSize = 1 << 14

// newSolver returns a solver for seat me scored by ob; its table is made
// at its first use.
func newSolver(me int, ob objective) *solver {
	return &solver{me: me, ob: ob}
}

// value returns me's outcome of the rest of the hand in s played with all
// cards open. With two sides (teams, or a pawnee bidder's side against
// the defenders) it is a minimax with alpha-beta pruning and the table;
// with every seat for itself, each seat picks what is best for itself
// (solve).
func (sv *solver) value(s *pitch.State) float64 {
	g := s.Game()
	if g.Variant == pitch.Auction && !g.FixedTeams() {
		return solve(s, sv.me, sv.ob)[sv.me]
	}
	if sv.tab == nil {
		sv.tab = make([]ttEntry, ttSize)
	}
	if len(sv.stack) == 0 {
		sv.stack = make([]pitch.State, 16)
	}
	return sv.alphaBeta(s, 0, math.Inf(-1), math.Inf(1))
}

// alphaBeta is a fail-soft minimax: me's side maximizes me's outcome, the
// other side minimizes it.
func (sv *solver) alphaBeta(s *pitch.State, depth int, alpha, beta float64) float64 {
	sv.nodes++
	if s.Terminal() {
		return sv.ob.of(s, sv.me)
	}
	key := s.PlayKey()
	e := &sv.tab[key&(ttSize-1)]
	first := pitch.NoCard
	if e.kind != ttEmpty && e.key == key {
		first = e.best
		switch e.kind {
		case ttExact:
			return e.val
		case ttLower:
			alpha = math.Max(alpha, e.val)
		case ttUpper:
			beta = math.Min(beta, e.val)
		}
		if alpha >= beta {
			return e.val
		}
	}
	a0, b0 := alpha, beta
	seat := s.Turn()
	maxing := s.SameSide(seat, sv.me)
	best := math.Inf(1)
	if maxing {
		best = math.Inf(-1)
	}
	rest := s.LegalPlays()
	card := first // the table's best card first: most cut-offs come from it
	if first == pitch.NoCard || !rest.Has(first) {
		card = rest.First()
	}
	bestCard := pitch.NoCard
	for rest != 0 {
		rest &^= card.Set()
		if depth == len(sv.stack) {
			sv.stack = append(sv.stack, pitch.State{})
		}
		x := &sv.stack[depth]
		*x = *s
		if err := x.Apply(pitch.Play(seat, card)); err != nil {
			panic("bot: solve: " + err.Error())
		}
		v := sv.alphaBeta(x, depth+1, alpha, beta)
		if maxing && v > best || !maxing && v < best {
			best, bestCard = v, card
		}
		if maxing {
			alpha = math.Max(alpha, v)
		} else {
			beta = math.Min(beta, v)
		}
		if alpha >= beta {
			break
		}
		card = rest.First()
	}
	kind := ttExact
	switch {
	case best <= a0:
		kind = ttUpper
	case best >= b0:
		kind = ttLower
	}
	*e = ttEntry{key: key, val: best, kind: kind, best: bestCard}
	return best
}

// solve plays the rest of the hand in s with all cards open, every seat
// choosing the card best for itself (its outcome, as outcome scores it;
// me's by ob), and returns each seat's outcome. Ties go to the first card.
func solve(s *pitch.State, me int, ob objective) [pitch.MaxSeats]float64 {
	var res [pitch.MaxSeats]float64
	if s.Terminal() {
		for i := range s.Seats() {
			res[i] = outcome(s, i)
		}
		res[me] = ob.of(s, me)
		return res
	}
	seat := s.Turn()
	first := true
	for c := s.LegalPlays(); c != 0; c &= c - 1 {
		x := *s
		if err := x.Apply(pitch.Play(seat, c.First())); err != nil {
			panic("bot: solve: " + err.Error())
		}
		r := solve(&x, me, ob)
		if first || r[seat] > res[seat] {
			res, first = r, false
		}
	}
	return res
}
