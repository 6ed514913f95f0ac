package bot

import (
	"math"

	"pitch"
)

// Heuristic plays by rules of thumb: it bids what its hand can expect to
// take in its best suit, counting the cost of being set; it plays to take
// points with its boss trumps, guard the jack and the 3, feed points to a
// partner who is winning, and take tricks from the bidder's side.
type Heuristic struct {
	// BidShift moves its bids by this many points (bidShifted); it is
	// how the expert's model of other players is fitted.
	BidShift float64
	Label    string // the name it reports; "heuristic" by default
}

// Name returns the bot's label, "heuristic" by default.
func (h Heuristic) Name() string {
	if h.Label != "" {
		return h.Label
	}
	return "heuristic"
}

// Act decides from the view. It reasons on a world drawn from the view but
// reads only what the seat knows: its own cards and the public facts.
func (h Heuristic) Act(req Request) pitch.Action {
	w := req.View.Resample(req.Rand)
	a := model{Bid: h.BidShift}.act(&w)
	for _, l := range req.Legal {
		if l == a {
			return a
		}
	}
	return req.Legal[0] // not reached while policy stays legal; tests check it
}

// policy is the heuristic decision for the seat to act in s. It reads the
// seat's own hand and public facts only, so it can serve both the
// heuristic bot (on a world drawn from its view) and search rollouts.
func policy(s *pitch.State) pitch.Action {
	seat := s.Turn()
	switch s.Phase() {
	case pitch.PhaseBid:
		return bidAction(s, seat)
	case pitch.PhaseCall:
		return pitch.Call(seat, callCard(s, seat))
	case pitch.PhaseTrump:
		t, _ := bestSuit(s, seat)
		return pitch.NameTrump(seat, t)
	case pitch.PhaseGiveStock:
		// The fill is done (TP-TR-4): every hand now holds only trumps,
		// and how many is public. Trumps over 6 are burned or passed, so
		// the rest of the stock is worth more to whichever partner holds
		// fewer; on a tie the pitcher keeps it (it leads, and its trumps
		// are the ones it knows).
		partner := (seat + 2) % 4
		return pitch.GiveStock(seat, s.Hand(partner).Len() < s.Hand(seat).Len())
	case pitch.PhasePassBurn:
		if lim := s.PassLimit(); lim > 0 {
			// Trumps over 6 are burned unless passed: pass the lowest.
			return pitch.PassTrumps(seat, lowestN(s, s.Hand(seat), lim))
		}
		must, pool, k := s.DiscardChoice()
		return pitch.Discard(seat, must|lowestN(s, pool, k))
	case pitch.PhaseDiscard:
		must, pool, k := s.DiscardChoice()
		return pitch.Discard(seat, must|lowestN(s, pool, k))
	case pitch.PhasePlay:
		return pitch.Play(seat, playCard(s, seat))
	}
	return pitch.Action{}
}

// --- bidding ---

// bestSuit returns the trump suit in which seat's hand expects the most
// points for its side, and that expectation.
func bestSuit(s *pitch.State, seat int) (pitch.Suit, float64) {
	best, bestE := pitch.Clubs, -1.0
	for t := pitch.Clubs; t < pitch.NoSuit; t++ {
		if e := estimate(s, seat, t); e > bestE {
			best, bestE = t, e
		}
	}
	return best, bestE
}

// estimate is the points seat's side can expect with t as trump, from the
// seat's own cards (and, in team games, a share for the partner).
func estimate(s *pitch.State, seat int, t pitch.Suit) float64 {
	pts := s.Points()
	if s.Trump() != t { // points for a suit not (yet) trump
		pts = pointsFor(s.Game().Variant, t)
	}
	return estimateHand(s.Game(), s.Hand(seat), t, pts)
}

// estimateHand is estimate for a given hand, with pts the point cards
// of t as trump.
func estimateHand(g *pitch.Game, hand pitch.CardSet, t pitch.Suit, pts pitch.CardSet) float64 {
	tr := hand & pitch.Trumps(t, g.Jokers())
	if tr == 0 {
		return 0
	}
	order := trumpOrders[b2i(g.Jokers())][t]
	higherHeld := func(c pitch.Card) int {
		n := 0
		for _, o := range order {
			if o == c {
				break
			}
			if tr.Has(o) {
				n++
			}
		}
		return n
	}
	above := func(c pitch.Card) int { // trumps above c, held or not
		for i, o := range order {
			if o == c {
				return i
			}
		}
		return 0
	}
	top, bottom := pitch.NoCard, pitch.NoCard
	for _, o := range order {
		if tr.Has(o) {
			if top == pitch.NoCard {
				top = o
			}
			bottom = o
		}
	}
	switch g.Variant {
	case pitch.Auction:
		n := float64(g.Seats())
		pOther := 6 * (n - 1) / (52 - 6)                 // chance a card I cannot see was dealt to someone
		e := math.Pow(1-pOther, float64(above(top)))     // High
		below := float64(len(order) - 1 - above(bottom)) // trumps below my lowest
		e += math.Pow(1-pOther, below) * (0.45 + 0.12*math.Min(3, float64(tr.Len()-1)))
		if j := pitch.NewCard(pitch.Jack, t); tr.Has(j) {
			e += math.Min(0.95, 0.5+0.15*float64(higherHeld(j))+0.05*float64(tr.Len()))
		} else {
			e += 0.2 * pOther * float64(higherHeld(j))
		}
		tens := (hand & pitch.RankSet(pitch.Ten)).Len()
		aces := (hand & pitch.RankSet(pitch.Ace)).Len()
		e += math.Min(0.8, 0.6/n*2+0.1*float64(tens)+0.06*float64(aces)+0.04*float64(tr.Len()))
		return e
	default:
		e := 0.0
		for c := tr & pts; c != 0; c &= c - 1 {
			card := c.First()
			p := math.Min(0.95, 0.3+0.13*float64(higherHeld(card)))
			if above(card) == 0 {
				p = 1
			}
			e += p * pointValue(card)
		}
		for _, o := range order[:4] { // A K Q J capture others' points
			if tr.Has(o) {
				e += 0.45
			}
		}
		e += 0.22 * math.Max(0, float64(tr.Len()-3))
		if g.Variant == pitch.TenPoint {
			e += 1.2 // the partner's share
		} else {
			if above(top) == 0 {
				e += 1 // High: the ace is always played
			} else if above(top) == 1 {
				e += 0.6
			}
			if bottom.Rank() == pitch.Two && !bottom.IsJoker() {
				e += 0.9 // Low: the 2 is kept and played
			}
			e += 2.0 // the called partner and the widow
		}
		return e
	}
}

func pointsFor(v pitch.Variant, t pitch.Suit) pitch.CardSet {
	p := pitch.SetOf(pitch.NewCard(pitch.Jack, t), pitch.OffJack(t), pitch.BigJoker, pitch.LittleJoker,
		pitch.NewCard(pitch.Ten, t), pitch.NewCard(pitch.Three, t))
	if v == pitch.TenPoint {
		p |= pitch.SetOf(pitch.NewCard(pitch.Ace, t), pitch.NewCard(pitch.Two, t))
	}
	return p
}

// pointValue is what a point card is worth when captured: 3 for the three.
func pointValue(c pitch.Card) float64 {
	if !c.IsJoker() && c.Rank() == pitch.Three {
		return 3
	}
	return 1
}

func bidAction(s *pitch.State, seat int) pitch.Action { return bidShifted(s, seat, 0) }

// bidShifted is bidAction with the points the hand expects to take moved
// by shift: above 0 it bids more often and higher.
func bidShifted(s *pitch.State, seat int, shift float64) pitch.Action {
	bids, canPass := s.BidOptions()
	_, e := bestSuit(s, seat)
	g := s.Game()
	// Expected points for the side, calibrated against heuristic play
	// (bot/calibrate_test.go), less a margin for the cost of being set.
	var taken float64
	switch g.Variant {
	case pitch.Auction:
		taken = 1.65*e - 0.84 - 0.45
	case pitch.TenPoint:
		taken = 4.43 + 0.64*e - 1.0
	default:
		taken = 4.47 + 0.64*e - 0.6
	}
	want := int(taken + shift)
	if g.Variant == pitch.Auction && want < 2 {
		want = 0
	}
	if want >= 10 {
		want = 9 // the moon only on a sure thing, which this estimate never is
	}
	// The lowest legal bid, unless a one-round auction asks for the
	// whole value now (ten-point scores the bid itself).
	lowest, highest := -1, -1
	for b := 0; b < 16; b++ {
		if bids&(1<<b) != 0 && b <= want {
			if lowest < 0 {
				lowest = b
			}
			highest = b
		}
	}
	switch {
	case lowest < 0 && canPass:
		return pitch.Pass(seat)
	case lowest < 0: // forced: the smallest bid
		for b := 0; b < 16; b++ {
			if bids&(1<<b) != 0 {
				return pitch.Bid(seat, b)
			}
		}
	case g.Variant == pitch.TenPoint:
		return pitch.Bid(seat, highest)
	case g.Variant == pitch.Auction && seat == s.Dealer():
		return pitch.Bid(seat, lowest) // steal or win as cheaply as allowed
	case g.Variant == pitch.Auction:
		return pitch.Bid(seat, highest)
	}
	return pitch.Bid(seat, lowest)
}

// callCard names the pawnee card: trump is the best suit, and the partner
// is whoever holds its highest card the bidder lacks.
func callCard(s *pitch.State, seat int) pitch.Card {
	t, _ := bestSuit(s, seat)
	hand := s.Hand(seat)
	for _, c := range trumpOrders[1][t] {
		if !c.IsJoker() && c.Suit() == t && !hand.Has(c) {
			return c
		}
	}
	return pitch.NewCard(pitch.Ace, t) // holds the whole suit: call its ace and play alone
}

// --- discards ---

// lowestN returns the n weakest cards of set: non-trumps first, then the
// lowest trumps, point cards last.
func lowestN(s *pitch.State, set pitch.CardSet, n int) pitch.CardSet {
	var out pitch.CardSet
	for ; n > 0 && set != 0; n-- {
		c := weakest(s, set)
		out |= c.Set()
		set &^= c.Set()
	}
	return out
}

// weakest returns the card of set a seat would most like to be rid of:
// non-trumps by rank, then trumps by strength, point cards last (and the
// cheapest card to give up when a trick cannot or need not be won).
func weakest(s *pitch.State, set pitch.CardSet) pitch.Card {
	best, bestScore := pitch.NoCard, math.MaxInt
	pts := s.Points()
	for c := set; c != 0; c &= c - 1 {
		card := c.First()
		score := s.TrumpStrength(card) + 100 // a trump is worth keeping
		if score == 99 {
			score = int(card.Rank())
		}
		if pts.Has(card) {
			score += 50 * int(pointValue(card))
		}
		if score < bestScore {
			best, bestScore = card, score
		}
	}
	return best
}

// --- play ---

func playCard(s *pitch.State, seat int) pitch.Card {
	if s.Game().Variant == pitch.Auction {
		return playAuction(s, seat)
	}
	return playTrumps(s, seat)
}

// unseen returns the cards seat cannot place: not in its hand, not played,
// not shown, and not the trumps it passed to its partner (ten-point).
func unseen(s *pitch.State, seat int) pitch.CardSet {
	return s.Game().Deck() &^ s.Hand(seat) &^ s.PlayedAll() &^ s.Shown() &^ s.PassedTrumps(seat)
}

// boss reports whether c is higher than every trump seat cannot place.
func boss(s *pitch.State, seat int, c pitch.Card) bool {
	st := s.TrumpStrength(c)
	for u := unseen(s, seat) & s.Trumps(); u != 0; u &= u - 1 {
		if s.TrumpStrength(u.First()) > st {
			return false
		}
	}
	return st >= 0
}

func strongest(s *pitch.State, set pitch.CardSet) pitch.Card {
	best, bs := pitch.NoCard, -2
	for c := set; c != 0; c &= c - 1 {
		if st := s.TrumpStrength(c.First()); st > bs {
			best, bs = c.First(), st
		}
	}
	return best
}

// trickPoints values the trick in progress for the seat deciding whether
// to take it.
func trickPoints(s *pitch.State) float64 {
	v := 0.0
	pts := s.Points()
	for i := range s.TrickLen() {
		c, _ := s.TrickCard(i)
		if pts.Has(c) {
			v += pointValue(c)
		}
		if s.Game().Variant == pitch.Auction {
			v += float64(gameValueOf(c)) / 10
			if s.Trumps().Has(c) && c.Rank() <= pitch.Four {
				v += 0.5 // may be Low
			}
		}
	}
	return v
}

func gameValueOf(c pitch.Card) int {
	switch {
	case c.IsJoker():
		return 0
	case c.Rank() == pitch.Ten:
		return 10
	case c.Rank() == pitch.Ace:
		return 4
	case c.Rank() == pitch.King:
		return 3
	case c.Rank() == pitch.Queen:
		return 2
	case c.Rank() == pitch.Jack:
		return 1
	}
	return 0
}

func playTrumps(s *pitch.State, seat int) pitch.Card {
	legal := s.LegalPlays()
	pts := s.Points()
	if s.TrickLen() == 0 {
		top := strongest(s, legal)
		if boss(s, seat, top) {
			return top // take what the others must play
		}
		if low := legal &^ pts; low != 0 {
			return weakest(s, low)
		}
		return top
	}
	_, winSeat := s.Winning()
	winCard, _ := s.Winning()
	var winners pitch.CardSet
	for c := legal; c != 0; c &= c - 1 {
		if s.Beats(c.First()) {
			winners |= c.First().Set()
		}
	}
	if s.SameSide(winSeat, seat) && boss(s, seat, winCard) {
		// The partner has it: feed it a point card, the three first.
		if p := legal & pts; p != 0 {
			return mostValuable(s, p)
		}
		return weakest(s, legal)
	}
	if winners != 0 && (trickPoints(s) > 0 || bossIn(s, seat, winners)) {
		if b := bossCheapest(s, seat, winners); b != pitch.NoCard {
			return b
		}
		return weakest(s, winners)
	}
	if low := legal &^ pts; low != 0 {
		return weakest(s, low)
	}
	return weakest(s, legal)
}

func bossIn(s *pitch.State, seat int, set pitch.CardSet) bool {
	return boss(s, seat, strongest(s, set))
}

// bossCheapest returns the weakest card of set that no unseen trump beats.
func bossCheapest(s *pitch.State, seat int, set pitch.CardSet) pitch.Card {
	best, bs := pitch.NoCard, 1<<30
	for c := set; c != 0; c &= c - 1 {
		card := c.First()
		if st := s.TrumpStrength(card); boss(s, seat, card) && st < bs {
			best, bs = card, st
		}
	}
	return best
}

func mostValuable(s *pitch.State, set pitch.CardSet) pitch.Card {
	best, bv := pitch.NoCard, -1.0
	for c := set; c != 0; c &= c - 1 {
		card := c.First()
		if v := pointValue(card) - float64(s.TrumpStrength(card))/100; v > bv {
			best, bv = card, v
		}
	}
	return best
}

func playAuction(s *pitch.State, seat int) pitch.Card {
	legal := s.LegalPlays()
	hand := s.Hand(seat)
	if s.Trump() == pitch.NoSuit { // the pitcher's first lead names trump
		t, _ := bestSuit(s, seat)
		return highestRank(hand & pitch.SuitSet(t))
	}
	tr := s.Trumps()
	jack := pitch.NewCard(pitch.Jack, s.Trump())
	if s.TrickLen() == 0 {
		if mine := hand & tr; mine != 0 && boss(s, seat, highestRank(mine)) {
			return highestRank(mine)
		}
		if plain := legal &^ tr; plain != 0 {
			return junk(s, plain)
		}
		w := legal &^ jack.Set()
		if w == 0 {
			w = legal
		}
		return lowestRank(w)
	}
	winCard, winSeat := s.Winning()
	var winners pitch.CardSet
	for c := legal; c != 0; c &= c - 1 {
		if s.Beats(c.First()) {
			winners |= c.First().Set()
		}
	}
	last := s.TrickLen() == s.Seats()-1
	if s.SameSide(winSeat, seat) && winSeat != seat && (last || boss(s, seat, winCard)) {
		if tens := legal & pitch.RankSet(pitch.Ten) &^ tr; tens != 0 {
			return tens.First()
		}
		return junk(s, legal)
	}
	if winners != 0 && (trickPoints(s) > 0 || last || winners&^tr != 0) {
		if plainWin := winners &^ tr; plainWin != 0 {
			return highestRank(plainWin) // win with the suit led, keep trumps
		}
		w := winners &^ jack.Set()
		if w == 0 {
			w = winners
		}
		return lowestRank(w)
	}
	return junk(s, legal)
}

// junk returns the card of set worth least to throw away: a plain card
// of the lowest game value, then rank; a trump only when it must, and then
// the cheapest: never the jack of trump, a ten or a low trump that may be
// Low (it would give that point to the trick's taker) before a middle one.
func junk(s *pitch.State, set pitch.CardSet) pitch.Card {
	best, bv := pitch.NoCard, math.MaxInt
	tr := s.Trumps()
	jack := pitch.NoCard
	if t := s.Trump(); t != pitch.NoSuit {
		jack = pitch.NewCard(pitch.Jack, t)
	}
	for c := set; c != 0; c &= c - 1 {
		card := c.First()
		v := gameValueOf(card)*20 + int(card.Rank())
		if tr.Has(card) {
			v = 1000 + 20*s.TrumpStrength(card) + gameValueOf(card)*30
			switch {
			case card == jack:
				v += 600
			case card.Rank() <= pitch.Four:
				v += 500 // may be Low
			}
		}
		if v < bv {
			best, bv = card, v
		}
	}
	return best
}

func highestRank(set pitch.CardSet) pitch.Card {
	best := pitch.NoCard
	for c := set; c != 0; c &= c - 1 {
		if best == pitch.NoCard || c.First().Rank() > best.Rank() {
			best = c.First()
		}
	}
	return best
}

func lowestRank(set pitch.CardSet) pitch.Card {
	best := pitch.NoCard
	for c := set; c != 0; c &= c - 1 {
		if best == pitch.NoCard || c.First().Rank() < best.Rank() {
			best = c.First()
		}
	}
	return best
}

// trumpOrders caches pitch.TrumpOrder, which copies, for the hot paths.
var trumpOrders = func() (o [2][4][]pitch.Card) {
	for j := range 2 {
		for t := pitch.Clubs; t < pitch.NoSuit; t++ {
			o[j][t] = pitch.TrumpOrder(t, j == 1)
		}
	}
	return o
}()

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
