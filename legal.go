package pitch

import (
	"math/bits"
	"math/rand/v2"
)

// bidOptions returns the bids the seat to act may make, as a mask (bit b
// is a bid of b), and whether it may pass (AP-BID, TP-BID, PW-BID).
func (s *State) bidOptions() (bids uint16, canPass bool) {
	seat, high := s.turn, int(s.bid)
	span := func(lo, hi int) uint16 {
		if lo > hi {
			return 0
		}
		return uint16(1<<(hi+1)) - uint16(1<<lo)
	}
	switch s.variant {
	case Auction:
		if seat != s.dealer {
			return span(high+1, 4), true
		}
		if high == 0 { // AP-BID-4
			return span(2, 4), false
		}
		return span(high, 4), true // AP-BID-3: the dealer may steal at the same number
	case TenPoint:
		lo := max(4, high+1)
		if seat == s.dealer && high == 0 { // TP-BID-2: exactly 4, no moon
			return span(4, 4), false
		}
		return span(lo, 10), true
	default: // Pawnee
		hi := 10
		if s.scores[seat] < 0 { // PW-BID-4
			hi = 9
		}
		if seat == s.dealer && high == 0 && bits.OnesCount8(s.passed) == int(s.n)-1 { // PW-BID-3: exactly 5, no moon
			return span(5, 5), false
		}
		return span(max(5, high+1), hi), true
	}
}

// legalPlays returns the cards the seat to act may play (AP-PLAY-2,
// TP-PLAY-1, PW-PLAY-1, PW-PLAY-2): the rule of the trick in progress is
// kept in must and follow (see openTrick and lead).
func (s *State) legalPlays() CardSet {
	h := s.hands[s.turn&7]
	if h&s.must != 0 {
		return h & s.follow
	}
	return h
}

// choice describes a set of legal card choices: all of must, plus exactly
// k cards from pool.
type choice struct {
	must, pool CardSet
	k          int
}

func (c choice) allows(set CardSet) bool {
	return set&c.must == c.must && set&^c.must&^c.pool == 0 && (set&^c.must).Len() == c.k
}

// pawneePoints returns the pawnee point cards for trump t (PW-PT-1).
func pawneePoints(t Suit) CardSet { return pointSets[0][t&3] }

// tenPointPoints returns the ten-point point cards for trump t (TP-PT-1).
func tenPointPoints(t Suit) CardSet { return pointSets[1][t&3] }

// pointSets[0] are the pawnee point cards per trump suit, [1] ten-point's.
var pointSets = func() (p [2][4]CardSet) {
	for t := Clubs; t < NoSuit; t++ {
		p[0][t] = SetOf(NewCard(Jack, t), OffJack(t), BigJoker, LittleJoker, NewCard(Ten, t), NewCard(Three, t))
		p[1][t] = p[0][t] | SetOf(NewCard(Ace, t), NewCard(Two, t))
	}
	return p
}()

// discardChoice returns what the seat to act must discard: pawnee
// PW-DIS-1..3, or a ten-point burn TP-TR-5.
func (s *State) discardChoice() choice {
	h := s.hands[s.turn]
	d := h.Len() - 6
	if s.variant == TenPoint {
		pts := h & tenPointPoints(s.trump)
		non := h &^ pts
		if non.Len() >= d {
			return choice{pool: non, k: d}
		}
		return choice{must: non, pool: pts, k: d - non.Len()}
	}
	tr := s.trumps()
	prot := h & (pawneePoints(s.trump) | s.called.Set())
	non := h &^ tr
	unprot := h & tr &^ prot
	switch {
	case non.Len() >= d:
		return choice{pool: non, k: d}
	case non.Len()+unprot.Len() >= d:
		return choice{must: non, pool: unprot, k: d - non.Len()}
	default: // PW-DIS-3
		m := non | unprot
		return choice{must: m, pool: prot &^ s.called.Set(), k: d - m.Len()}
	}
}

// passLimit returns how many trumps the seat to act may pass to its
// partner (TP-TR-5); 0 when it may not pass.
func (s *State) passLimit() int {
	seat := s.turn
	if s.passedTo[seat] != 0 {
		return 0
	}
	mine, theirs := s.hands[seat].Len(), s.hands[(seat+2)%4].Len()
	if mine <= 6 || theirs >= 6 {
		return 0
	}
	return min(mine-6, 6-theirs)
}

// Legal appends every legal action of the seat to act to buf and returns
// it. Discards and passes are listed as every allowed set of cards, which
// can run to thousands; bots that need speed use RandomAction.
func (s *State) Legal(buf []Action) []Action {
	seat := int(s.turn)
	switch s.phase {
	case PhaseBid:
		bids, canPass := s.bidOptions()
		if canPass {
			buf = append(buf, Pass(seat))
		}
		for ; bids != 0; bids &= bids - 1 {
			buf = append(buf, Bid(seat, bits.TrailingZeros16(bids)))
		}
	case PhaseCall:
		for c := range Card(52) {
			if s.callAllowed(c) {
				buf = append(buf, Call(seat, c))
			}
		}
	case PhaseTrump:
		for t := Clubs; t < NoSuit; t++ {
			buf = append(buf, NameTrump(seat, t))
		}
	case PhaseGiveStock:
		buf = append(buf, GiveStock(seat, false), GiveStock(seat, true))
	case PhasePassBurn:
		h := s.hands[seat]
		for k := 1; k <= s.passLimit(); k++ {
			forSubsets(h, k, func(c CardSet) { buf = append(buf, PassTrumps(seat, c)) })
		}
		if h.Len() > 6 {
			ch := s.discardChoice()
			forSubsets(ch.pool, ch.k, func(c CardSet) { buf = append(buf, Discard(seat, ch.must|c)) })
		}
	case PhaseDiscard:
		ch := s.discardChoice()
		forSubsets(ch.pool, ch.k, func(c CardSet) { buf = append(buf, Discard(seat, ch.must|c)) })
	case PhasePlay:
		for p := s.legalPlays(); p != 0; p &= p - 1 {
			buf = append(buf, Play(seat, Card(bits.TrailingZeros64(uint64(p)))))
		}
	}
	return buf
}

func (s *State) callAllowed(c Card) bool {
	return c < BigJoker && (s.g.Options.CallOwnCard || !s.hands[s.turn].Has(c))
}

// forSubsets calls f with every k-card subset of pool.
func forSubsets(pool CardSet, k int, f func(CardSet)) {
	n := pool.Len()
	if k < 0 || k > n {
		return
	}
	if k == 0 {
		f(0)
		return
	}
	var idx [64]Card
	for i, p := 0, pool; p != 0; p &= p - 1 {
		idx[i] = Card(bits.TrailingZeros64(uint64(p)))
		i++
	}
	// Gosper's hack over n-bit patterns with k bits set.
	for x := uint64(1)<<k - 1; x < uint64(1)<<n; {
		var c CardSet
		for y := x; y != 0; y &= y - 1 {
			c |= idx[bits.TrailingZeros64(y)].Set()
		}
		f(c)
		lo := x & -x
		r := x + lo
		x = ((r ^ x) >> 2 / lo) | r
	}
}

// randomSubset returns k cards drawn uniformly from pool.
func randomSubset(pool CardSet, k int, rng *rand.Rand) CardSet {
	n := pool.Len()
	if 2*k > n { // fewer draws: pick the cards to leave out instead
		return pool &^ randomSubset(pool, n-k, rng)
	}
	var out CardSet
	var r uint64
	for ; k > 0; k-- {
		if r == 0 {
			r = rng.Uint64() | 1 // two draws of 32 bits each, as in PlayRandom
		}
		c := pool.Nth(int(r >> 32 * uint64(n) >> 32))
		r <<= 32
		out |= c.Set()
		pool &^= c.Set()
		n--
	}
	return out
}

// binom returns n choose k for the small numbers a hand can hold.
func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// randN returns a number in [0, n) from 32 random bits (Lemire's
// multiply-shift; the bias, under n in 2^32, is immaterial here).
func randN(rng *rand.Rand, n int) int {
	return int(uint64(uint32(rng.Uint64())) * uint64(n) >> 32)
}

// PlayRandom plays the hand out to its end with random legal actions, each
// legal action as likely as the next, as RandomAction draws them: a random
// playout.
func (s *State) PlayRandom(rng *rand.Rand) {
	// Each play draws from 16 random bits, four plays to a 64-bit number:
	// among at most 6 legal cards the bias is under 1 in 10,000.
	var r uint64
	var left int // 16-bit draws left in r
	for s.phase != PhaseDone {
		if s.phase == PhasePlay {
			if left == 0 {
				r, left = rng.Uint64(), 4
			}
			p := s.legalPlays()
			i := int(r >> 48 * uint64(p.Len()) >> 16)
			r <<= 16
			left--
			if i < 8 {
				s.play(Card(bits.TrailingZeros64(uint64(p.dropFew(i)))))
			} else {
				s.play(p.Nth(i))
			}
			continue
		}
		if err := s.Apply(s.RandomAction(rng)); err != nil {
			panic("pitch: RandomAction drew an illegal action: " + err.Error())
		}
	}
}

// RandomAction returns an action drawn uniformly from the legal actions of
// the seat to act, without listing them and without allocating. It returns
// an ActNone action when the hand is done.
func (s *State) RandomAction(rng *rand.Rand) Action {
	seat := int(s.turn)
	switch s.phase {
	case PhaseBid:
		bids, canPass := s.bidOptions()
		n := bits.OnesCount16(bids)
		i := randN(rng, n+b2i(canPass))
		if i == n {
			return Pass(seat)
		}
		for ; i > 0; i-- {
			bids &= bids - 1
		}
		return Bid(seat, bits.TrailingZeros16(bids))
	case PhaseCall:
		allowed := Deck52
		if !s.g.Options.CallOwnCard {
			allowed &^= s.hands[seat]
		}
		return Call(seat, allowed.Nth(randN(rng, allowed.Len())))
	case PhaseTrump:
		return NameTrump(seat, Suit(randN(rng, 4)))
	case PhaseGiveStock:
		return GiveStock(seat, randN(rng, 2) == 1)
	case PhasePassBurn:
		h := s.hands[seat]
		ch := s.discardChoice()
		burns := binom(ch.pool.Len(), ch.k)
		total, lim := burns, s.passLimit()
		for k := 1; k <= lim; k++ {
			total += binom(h.Len(), k)
		}
		i := randN(rng, total)
		if i < burns {
			return Discard(seat, ch.must|randomSubset(ch.pool, ch.k, rng))
		}
		i -= burns
		for k := 1; ; k++ {
			if b := binom(h.Len(), k); i < b || k == lim {
				return PassTrumps(seat, randomSubset(h, k, rng))
			} else {
				i -= b
			}
		}
	case PhaseDiscard:
		ch := s.discardChoice()
		return Discard(seat, ch.must|randomSubset(ch.pool, ch.k, rng))
	case PhasePlay:
		p := s.legalPlays()
		return Play(seat, p.Nth(randN(rng, p.Len())))
	}
	return Action{}
}
