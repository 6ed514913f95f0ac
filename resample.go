package pitch

import (
	"math/rand/v2"
)

// group is a place hidden cards can be: a hand, a face-down discard pile,
// the widow, the stock or the undealt cards.
type group struct {
	count   int
	allowed CardSet
	got     CardSet
}

// Resample returns a full state drawn at random among those consistent
// with the view: the seat's own cards and knowledge as they are, every
// public fact as it is, and the hidden cards spread over the other hands,
// discards, widow and stock in the right numbers, never where the view
// shows a card cannot be (voids shown by play, trumps dropped, the called
// card). Viewing the result from the same seat gives back the same view.
func (v *View) Resample(rng *rand.Rand) State {
	g := v.Game
	n := int8(g.seats)
	s := State{g: g, variant: g.Variant, phase: v.Phase, n: n, dealer: int8(v.Dealer), turn: int8(v.Turn),
		bid: int8(v.Bid), bidder: int8(v.Bidder), passed: v.Passed, trump: NoSuit, called: v.Called,
		partner: -1, give: v.Give, receiver: int8(v.Receiver), passBurn: int8(v.PassBurn),
		discards: int8(v.Discards), shown: v.Shown, leader: int8(v.Leader), tricks: int8(v.Tricks),
		lastWon: int8(v.LastWon)}
	for _, a := range v.Auction {
		s.logBid(a)
	}
	for i := range n {
		s.scores[i] = int32(v.Scores[i])
		s.notIn[i] = v.NotIn[i]
		s.fillGot[i] = int8(v.FillGot[i])
		s.played[i] = v.Played[i]
		s.won[i] = v.Won[i]
		s.trickWins[i] = int8(v.TrickWins[i])
	}
	for i, c := range v.Trick {
		s.trick[i], s.trickSeat[i] = c, int8(v.TrickSeat[i])
		s.trickSet |= c.Set()
	}
	s.trickLen = int8(len(v.Trick))
	for i, c := range v.Last {
		s.last[i], s.lastSeat[i] = c, int8(v.LastSeat[i])
	}
	s.lastLen = int8(len(v.Last))

	if v.Trump != NoSuit {
		s.setTrump(v.Trump)
	}
	if s.phase == PhasePlay {
		s.openTrick()
	}
	if s.trickLen > 0 { // the trick in progress and the card winning it
		s.lead(s.trick[0])
		b := s.trickWinner()
		s.win = int16(s.keys[s.trick[b]]+1)<<3 | int16(b)
	}
	me := v.Seat
	tr := s.trumps()
	var played CardSet
	for i := range n {
		played |= v.Played[i]
	}
	known := played | v.Shown | v.Hand | v.Out
	var knownIn [MaxSeats]CardSet
	for i := range n {
		if int(i) != me {
			knownIn[i] = v.KnownIn[i]
			known |= v.KnownIn[i]
		}
	}
	if g.Variant == Pawnee && v.PartnerKnown && !played.Has(v.Called) {
		holder := v.Bidder
		if v.Partner >= 0 {
			holder = v.Partner
		}
		if holder != me {
			knownIn[holder] |= v.Called.Set()
			known |= v.Called.Set()
		}
	}
	if me >= 0 {
		s.hands[me], s.out[me] = v.Hand, v.Out
	}
	pawneeDiscarding := g.Variant == Pawnee && v.Phase == PhaseDiscard
	discarded := func(seat int8) bool { // pawnee: has seat discarded already?
		return (seat-s.dealer-1+2*n)%n < int8(v.Discards)
	}

	// The groups: 0..n-1 hands, n..2n-1 face-down discards, 2n the rest
	// (widow, stock or undealt cards).
	var gs [2*MaxSeats + 2]group
	for i := range n {
		if int(i) == me {
			continue
		}
		gs[i] = group{count: v.Counts[i] - knownIn[i].Len(), allowed: ^v.NotIn[i]}
		hid := group{count: v.Hidden[i], allowed: ^tr}
		if pawneeDiscarding {
			if discarded(i) {
				gs[i].count += v.Hidden[i] // drawn before the discard, then discarded again below
			}
			hid.count = 0
		}
		gs[n+i] = hid
	}
	rest := &gs[2*n]
	switch {
	case g.Variant == Pawnee && v.Phase <= PhaseCall:
		rest.count, rest.allowed = 4, Deck54
	case g.Variant == TenPoint && v.Phase <= PhaseGiveStock:
		rest.count, rest.allowed = v.StockLeft, Deck54 // after the fill, what is left of it
	case g.Variant == Auction:
		rest.count, rest.allowed = 52-g.seats*g.handSize, Deck52
	}
	// In play the seat to act holds a trump (TP-PLAY-1, PW-PLAY-2): one
	// card of its hand is drawn from the trumps.
	ng := 2*n + 1
	if g.Variant != Auction && v.Phase == PhasePlay && v.Turn != me && (knownIn[v.Turn]&tr) == 0 {
		gs[v.Turn].count--
		gs[ng] = group{count: 1, allowed: tr &^ v.NotIn[v.Turn]}
		ng++
	}
	pool := g.Deck() &^ known
	assign(gs[:ng], pool, rng)
	if ng > 2*n+1 {
		gs[v.Turn].got |= gs[2*n+1].got
	}

	for i := range n {
		if int(i) == me {
			continue
		}
		s.hands[i] = gs[i].got | knownIn[i]
		s.hidden[i] = gs[n+i].got
		s.out[i] = gs[n+i].got
	}
	// Cards out of play face up (burns, revealed trump discards) go back to
	// the seats that put them out; the view gives how many each, not which.
	if others := v.Shown &^ v.Out; others != 0 {
		for i := range n {
			if int(i) != me {
				got := randomSubset(others, min(v.shownCount(i), others.Len()), rng)
				s.out[i] |= got
				others &^= got
			}
		}
	}
	if me >= 0 {
		s.hidden[me] = v.Out &^ tr &^ v.Shown
		if g.Variant == Auction {
			s.hidden[me] = 0
		}
	}
	switch {
	case g.Variant == Auction:
		s.undlt = rest.got
	case g.Variant == TenPoint && v.Phase <= PhaseGiveStock:
		// The cards the fill took are in the hands and discards drawn
		// above; which of them came from the stock is not kept.
		s.stockTop = int8(len(s.stock) - v.StockLeft)
		k := int(s.stockTop)
		for i := range k {
			s.stock[i] = NoCard
		}
		for c := rest.got; c != 0; c &= c - 1 {
			s.stock[k] = c.First()
			k++
		}
		left := s.stock[s.stockTop:]
		rng.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
	case g.Variant == Pawnee && v.Phase <= PhaseCall:
		s.widow = rest.got
	case g.Variant == Pawnee:
		s.widow = v.Widow
		if v.Widow == 0 { // not this seat's to know: any 4 of the bidder's cards
			b := s.bidder
			from := (s.hands[b] | s.played[b] | s.out[b]) &^ knownIn[b]
			if !g.Options.CallOwnCard && from.Has(s.called) {
				s.widow = s.called.Set() | randomSubset(from&^s.called.Set(), 3, rng)
			} else {
				s.widow = randomSubset(from, 4, rng)
			}
		}
	}
	if pawneeDiscarding {
		// Seats that have discarded discard again, legally, from the
		// cards drawn for them (the view shows none of their discards).
		turn := s.turn
		for i := range n {
			if int(i) != me && discarded(i) {
				s.turn = i
				ch := s.discardChoice()
				d := ch.must | randomSubset(ch.pool, ch.k, rng)
				s.hands[i] &^= d
				s.out[i] = d
				s.hidden[i] = d &^ tr
				s.pending |= d & tr
			} else if int(i) == me {
				s.pending |= v.Out & tr
			}
			if d := s.out[i]; d&tr != 0 {
				s.notIn[i] |= ^tr
				if d&(pawneePoints(s.trump)|s.called.Set()) != 0 {
					s.notIn[i] |= ^(pawneePoints(s.trump) | s.called.Set())
				}
			}
		}
		s.turn = turn
	}
	// Derived facts: the deal, the partner, the trumps in play.
	for i := range n {
		s.dealt[i] = s.hands[i] | s.played[i] | s.out[i]
		if g.Variant == TenPoint {
			s.dealt[i] = s.hands[i] | s.played[i] // approximate: who got what from the stock is not kept
		}
	}
	if g.Variant == Pawnee && v.Phase > PhaseCall {
		s.dealt[s.bidder] &^= s.widow
		for i := range n {
			if i != s.bidder && (s.hands[i] | s.played[i]).Has(s.called) {
				s.partner = i
			}
		}
	}
	s.setSides()
	if g.Variant == TenPoint && v.Phase > PhaseGiveStock {
		s.assignPasses(v, rng)
	}
	if g.Variant != Auction && v.Phase >= PhasePlay {
		for i := range n {
			s.inPlay |= (s.hands[i] | s.played[i]) & tr
		}
	}
	if v.Phase == PhaseDone {
		s.score()
	}
	return s
}

// assignPasses gives every seat a passed set of the size the view shows
// (ten-point): the seat's own as it knows it, the others drawn from the
// receiving partner's trumps.
func (s *State) assignPasses(v *View, rng *rand.Rand) {
	for i := range s.n {
		if int(i) == v.Seat {
			s.passedTo[i] = v.PassedCards
			continue
		}
		p := (i + 2) % 4
		from := s.hands[p] | s.played[p]
		if int(p) == v.Seat {
			from &^= v.PassedCards
		}
		s.passedTo[i] = randomSubset(from, min(v.PassCount[i], from.Len()), rng)
	}
}

// assign deals pool over the groups so that each gets count cards it
// allows. It tries a random greedy fill, most constrained group first, a
// few times, then falls back to a flow over card classes that always finds
// a fill when one exists.
func assign(gs []group, pool CardSet, rng *rand.Rand) {
	for try := 0; try < 16; try++ {
		if greedy(gs, pool, rng) {
			return
		}
	}
	flowAssign(gs, pool, rng)
}

func greedy(gs []group, pool CardSet, rng *rand.Rand) bool {
	var done uint32
	left := pool
	for range gs {
		best, slack := -1, 1<<30
		for i := range gs {
			if done&(1<<i) != 0 {
				continue
			}
			if sl := (gs[i].allowed & left).Len() - gs[i].count; sl < slack {
				best, slack = i, sl
			}
		}
		if slack < 0 {
			return false
		}
		done |= 1 << best
		gs[best].got = randomSubset(gs[best].allowed&left, gs[best].count, rng)
		left &^= gs[best].got
	}
	return true
}

// flowAssign finds how many cards of each class (cards allowed by the same
// groups) go to each group with a max flow, then draws the cards of each
// class at random.
func flowAssign(gs []group, pool CardSet, rng *rand.Rand) {
	var classes []CardSet
	var sig []uint32
	for c := pool; c != 0; c &= c - 1 {
		card := c.First()
		var m uint32
		for i := range gs {
			if gs[i].allowed.Has(card) {
				m |= 1 << i
			}
		}
		found := false
		for k := range sig {
			if sig[k] == m {
				classes[k] |= card.Set()
				found = true
			}
		}
		if !found {
			sig = append(sig, m)
			classes = append(classes, card.Set())
		}
	}
	nc, ng := len(classes), len(gs)
	// nodes: 0 source, 1..nc classes, nc+1..nc+ng groups, nc+ng+1 sink
	N := nc + ng + 2
	capm := make([][]int, N)
	for i := range capm {
		capm[i] = make([]int, N)
	}
	sink := N - 1
	for k := range classes {
		capm[0][1+k] = classes[k].Len()
		for i := range gs {
			if sig[k]&(1<<i) != 0 {
				capm[1+k][1+nc+i] = 64
			}
		}
	}
	for i := range gs {
		capm[1+nc+i][sink] = gs[i].count
	}
	flow := make([][]int, N)
	for i := range flow {
		flow[i] = make([]int, N)
	}
	for {
		prev := make([]int, N)
		for i := range prev {
			prev[i] = -1
		}
		prev[0] = 0
		queue := []int{0}
		for len(queue) > 0 && prev[sink] < 0 {
			u := queue[0]
			queue = queue[1:]
			for w := range N {
				if prev[w] < 0 && capm[u][w]-flow[u][w] > 0 {
					prev[w] = u
					queue = append(queue, w)
				}
			}
		}
		if prev[sink] < 0 {
			break
		}
		aug := 1 << 30
		for w := sink; w != 0; w = prev[w] {
			aug = min(aug, capm[prev[w]][w]-flow[prev[w]][w])
		}
		for w := sink; w != 0; w = prev[w] {
			flow[prev[w]][w] += aug
			flow[w][prev[w]] -= aug
		}
	}
	for i := range gs {
		gs[i].got = 0
	}
	for k := range classes {
		left := classes[k]
		for i := range gs {
			if f := flow[1+k][1+nc+i]; f > 0 {
				got := randomSubset(left, f, rng)
				gs[i].got |= got
				left &^= got
			}
		}
	}
}

// shownCount returns how many cards seat i has put out of play face up:
// every card it was ever given is in its hand, played, or out of play.
func (v *View) shownCount(i int8) int {
	given := v.Game.handSize
	switch v.Game.Variant {
	case TenPoint:
		given += v.FillGot[i] + v.PassCount[(i+2)%4] - v.PassCount[i]
	case Pawnee:
		if int(i) == v.Bidder && v.Phase > PhaseCall {
			given += 4 // the widow (PW-WID-1)
		}
	}
	return given - v.Counts[i] - v.Played[i].Len() - v.Hidden[i]
}
