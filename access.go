package pitch

// Read-only accessors for code that works on whole states it is allowed to
// see: a search bot's resampled worlds, tests, and the engine's own
// consumers of finished hands. A player is shown a View, never a State.

// LegalPlays returns the cards the seat to act may play (empty outside play).
func (s *State) LegalPlays() CardSet {
	if s.phase != PhasePlay {
		return 0
	}
	return s.legalPlays()
}

// BidOptions returns the bids the seat to act may make (bit b set for a bid
// of b) and whether it may pass; zero outside the auction.
func (s *State) BidOptions() (bids uint16, canPass bool) {
	if s.phase != PhaseBid {
		return 0, false
	}
	return s.bidOptions()
}

// DiscardChoice describes the discard (pawnee) or burn (ten-point) the
// seat to act must make: all of must and k cards of pool.
func (s *State) DiscardChoice() (must, pool CardSet, k int) {
	if s.phase != PhaseDiscard && !(s.phase == PhasePassBurn && s.hands[s.turn].Len() > 6) {
		return 0, 0, 0
	}
	c := s.discardChoice()
	return c.must, c.pool, c.k
}

// PassLimit returns how many trumps the seat to act may pass to its
// partner now (ten-point, TP-TR-5); 0 when it may not.
func (s *State) PassLimit() int {
	if s.phase != PhasePassBurn {
		return 0
	}
	return s.passLimit()
}

// Trumps returns the trump cards of this hand (empty before trump is known).
func (s *State) Trumps() CardSet { return s.tmask }

// Played returns the cards seat has played this hand.
func (s *State) Played(seat int) CardSet { return s.played[seat] }

// PlayedAll returns every card played this hand, the trick in progress included.
func (s *State) PlayedAll() CardSet {
	var all CardSet
	for i := range s.n {
		all |= s.played[i]
	}
	return all
}

// Won returns the cards in the tricks seat has won.
func (s *State) Won(seat int) CardSet { return s.won[seat] }

// TrickLen returns how many cards the trick in progress holds.
func (s *State) TrickLen() int { return int(s.trickLen) }

// TrickCard returns the i-th card of the trick in progress and who played it.
func (s *State) TrickCard(i int) (Card, int) { return s.trick[i], int(s.trickSeat[i]) }

// Winning returns the card winning the trick in progress and its player,
// or NoCard and -1 when the trick is empty.
func (s *State) Winning() (Card, int) {
	if s.trickLen == 0 {
		return NoCard, -1
	}
	b := s.best()
	return s.trick[b], int(s.trickSeat[b])
}

// Beats reports whether c would beat the card winning the trick in
// progress (true for any card when the trick is empty).
func (s *State) Beats(c Card) bool {
	if s.trickLen == 0 {
		return true
	}
	return s.beats(c)
}

// TrumpStrength returns the rank of c among this hand's trumps (higher
// wins), or -1 when c is not a trump or trump is not known.
func (s *State) TrumpStrength(c Card) int {
	if s.tord == nil {
		return -1
	}
	return int(s.tord.strength[c])
}

// SameSide reports whether seats a and b are on the same side this hand
// (pawnee: as the cards lie, known to a player only as its View says).
func (s *State) SameSide(a, b int) bool { return s.sameSide(int8(a), int8(b)) }

// Partner returns the pawnee partner (the called card's holder), -1 alone or before the call.
func (s *State) Partner() int { return int(s.partner) }

// Points returns the point cards of this hand for its game: those that
// score when captured (TP-PT-1, PW-PT-1); for auction the jack of trump.
func (s *State) Points() CardSet {
	switch {
	case s.trump == NoSuit:
		return 0
	case s.variant == TenPoint:
		return tenPointPoints(s.trump)
	case s.variant == Pawnee:
		return pawneePoints(s.trump)
	}
	return NewCard(Jack, s.trump).Set()
}

// Delta returns the match-score change of seat on a finished hand.
func (s *State) Delta(seat int) int { return int(s.res.delta[seat]) }

// Made reports whether the bidder's side made its bid on a finished hand.
func (s *State) Made() bool { return s.res.made }

// Taken returns the points seat's side took on a finished hand.
func (s *State) Taken(seat int) int { return int(s.res.taken[seat]) }

// Shown returns the cards put out of play face up (burns, revealed discards).
func (s *State) Shown() CardSet { return s.shown }

// ScoreBefore returns seat's match score before this hand.
func (s *State) ScoreBefore(seat int) int { return int(s.scores[seat]) }

// WonMatch reports whether seat won the match on this finished hand.
func (s *State) WonMatch(seat int) bool { return s.res.winners&(1<<seat) != 0 }

// MatchDecided reports whether this finished hand ended the match.
func (s *State) MatchDecided() bool { return s.res.winners != 0 }

// Dealt returns the cards seat was dealt. In a world drawn by
// View.Resample it is what the world implies: for ten-point after the
// trump is named, the trumps the seat held or played (the stock's share
// is not kept); for a pawnee bidder, without the widow.
func (s *State) Dealt(seat int) CardSet { return s.dealt[seat] }

// HasPassed reports whether seat has passed in the auction.
func (s *State) HasPassed(seat int) bool { return s.passed&(1<<seat) != 0 }

// logBid adds a bid or pass to the auction's log (State.bids).
func (s *State) logBid(a Action) {
	if s.nbids == maxBidTurns {
		return // cannot happen: maxBidTurns bounds every auction
	}
	e := uint8(a.Seat)
	if a.Kind == ActBid {
		e |= uint8(a.Bid) << 3
	}
	s.bids[s.nbids] = e
	s.nbids++
}

// Auction returns every bid and pass so far, in order.
func (s *State) Auction() []Action {
	out := make([]Action, s.nbids)
	for i, e := range s.bids[:s.nbids] {
		if bid := int(e >> 3); bid > 0 {
			out[i] = Bid(int(e&7), bid)
		} else {
			out[i] = Pass(int(e & 7))
		}
	}
	return out
}

// PassedTrumps returns the trumps seat passed to its partner (ten-point,
// TP-TR-5); empty elsewhere.
func (s *State) PassedTrumps(seat int) CardSet { return s.passedTo[seat] }

// PlayKey returns a hash of everything that decides the rest of a hand in
// play and how it scores: each seat's hand, the cards it has played and
// won and the tricks it has taken, the trick on the table, the trump and
// the seat to act. Two states of one deal with the same key play out
// alike and score alike, whatever order of play led to them (barring a
// 64-bit hash collision), so an endgame solver may key a transposition
// table on it. What only a view needs (the last trick, who is known to be
// void) is left out.
func (s *State) PlayKey() uint64 {
	h := Mix(0, uint64(s.turn)&0xff|uint64(s.trump)<<8|uint64(s.tricks)<<16|uint64(s.trickLen)<<24|uint64(s.leader)&0xff<<32|uint64(s.win)&0xffff<<40)
	for i := range s.n & 7 {
		h = Mix(h, uint64(s.hands[i]))
		h = Mix(h, uint64(s.played[i]))
		h = Mix(h, uint64(s.won[i]))
		h = Mix(h, uint64(s.trickWins[i]))
	}
	for i := range s.trickLen & 7 {
		h = Mix(h, uint64(s.trick[i])|uint64(s.trickSeat[i])<<8)
	}
	return h
}

// Mix folds x into the hash h (a splitmix64 step): for keys and seeds
// derived from several numbers, e.g. a run's seed with a deal and a seat.
func Mix(h, x uint64) uint64 {
	h ^= x + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
}

// DiscardKeep says why the seat to act may not throw the cards it holds
// outside DiscardChoice's must and pool: the called card (PW-DIS-2), point
// cards (PW-DIS-2 in pawnee; in ten-point the point cards a burn spares),
// and the other trumps, which a pawnee seat throws only when too few
// non-trumps are left. over is true when a pawnee seat holds more than 6
// protected cards, so that point cards are in the pool (PW-DIS-3).
func (s *State) DiscardKeep() (called, points, trumps CardSet, over bool) {
	must, pool, k := s.DiscardChoice()
	if k == 0 && must == 0 {
		return 0, 0, 0, false
	}
	kept := s.hands[s.turn] &^ must &^ pool
	pts := pawneePoints(s.trump)
	if s.variant == TenPoint {
		pts = tenPointPoints(s.trump)
	}
	called = kept & s.called.Set()
	points = kept & pts &^ called
	trumps = kept &^ called &^ points
	over = s.variant == Pawnee && pool&pts != 0
	return called, points, trumps, over
}
