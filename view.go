package pitch

// View is what one seat may know of a hand (the public view when Seat is
// -1): its own cards, every public action and what the rules reveal, and
// nothing else. It is the only way code outside this package should look
// at a hand in progress. Arrays are indexed by seat; entries past the
// number of seats are zero.
type View struct {
	Game   *Game
	Seat   int // -1 for a spectator
	Phase  Phase
	Dealer int
	Turn   int // -1 when the hand is done

	Scores [MaxSeats]int // match scores before the hand

	Hand        CardSet           // the seat's own cards
	Counts      [MaxSeats]int     // cards each seat holds
	Out         CardSet           // the seat's own cards put out of play (discards, burns, dropped non-trumps)
	Hidden      [MaxSeats]int     // how many cards each seat has put out of play face down
	Shown       CardSet           // cards out of play face up (burns, revealed trump discards)
	NotIn       [MaxSeats]CardSet // cards every seat knows are not in each seat's hand (voids shown by play)
	KnownIn     [MaxSeats]CardSet // cards in other seats' hands that this seat knows of (trumps it passed)
	PassedCards CardSet           // ten-point: the trumps this seat passed to its partner

	Bid    int   // high bid, 0 for none
	Bidder int   // high bidder, -1 for none
	Passed uint8 // seats that passed in the auction
	// Auction is every bid and pass so far, in order (the auction is
	// public).
	Auction []Action

	Trump        Suit
	Called       Card
	Partner      int     // pawnee: the partner when PartnerKnown; -1 for alone
	PartnerKnown bool    // pawnee: whether this seat knows who holds the called card
	Widow        CardSet // pawnee: the widow, for the bidder once taken and for everyone once the hand is done

	StockLeft int           // ten-point: stock cards not yet handed out
	Give      bool          // ten-point: whether the pitcher handed the stock to the partner
	Receiver  int           // ten-point: who got the rest of the stock, -1 before
	FillGot   [MaxSeats]int // ten-point: cards each seat was given from the stock
	PassCount [MaxSeats]int // ten-point: trumps each seat passed to its partner
	PassBurn  int           // ten-point: seats that have had their pass/burn turn
	Discards  int           // pawnee: seats that have discarded

	Played    [MaxSeats]CardSet // cards each seat has played
	Won       [MaxSeats]CardSet // cards in the tricks each seat won
	TrickWins [MaxSeats]int
	Trick     []Card // the trick in progress, in play order
	TrickSeat []int
	Leader    int
	Tricks    int
	Last      []Card // the last finished trick
	LastSeat  []int
	LastWon   int
}

// View returns what seat may see of the hand; seat -1 gives the public
// view a spectator gets.
func (s *State) View(seat int) View {
	v := View{Game: s.g, Seat: seat, Phase: s.phase, Dealer: int(s.dealer), Turn: int(s.turn),
		Bid: int(s.bid), Bidder: int(s.bidder), Passed: s.passed, Trump: s.trump, Called: s.called,
		Partner: -1, Give: s.give, Receiver: int(s.receiver), PassBurn: int(s.passBurn), Discards: int(s.discards),
		Shown: s.shown, Leader: int(s.leader), Tricks: int(s.tricks), LastWon: int(s.lastWon)}
	v.Auction = s.Auction()
	pawneeDiscarding := s.variant == Pawnee && s.phase == PhaseDiscard
	for i := range s.n {
		v.Scores[i] = int(s.scores[i])
		v.Counts[i] = s.hands[i].Len()
		v.Hidden[i] = s.hidden[i].Len()
		if pawneeDiscarding {
			v.Hidden[i] = s.out[i].Len() // trumps stay face down until all have discarded (PW-DIS-2)
		}
		v.NotIn[i] = s.notIn[i]
		v.FillGot[i] = int(s.fillGot[i])
		v.PassCount[i] = s.passedTo[i].Len()
		v.Played[i] = s.played[i]
		v.Won[i] = s.won[i]
		v.TrickWins[i] = int(s.trickWins[i])
	}
	if pawneeDiscarding {
		// Public knowledge drawn from trump discards waits for the reveal too.
		for i := range s.n {
			v.NotIn[i] = 0
		}
	}
	if s.variant == TenPoint && s.phase <= PhaseGiveStock {
		v.StockLeft = len(s.stock) - int(s.stockTop)
	}
	for i := range s.trickLen {
		v.Trick = append(v.Trick, s.trick[i])
		v.TrickSeat = append(v.TrickSeat, int(s.trickSeat[i]))
	}
	for i := range s.lastLen {
		v.Last = append(v.Last, s.last[i])
		v.LastSeat = append(v.LastSeat, int(s.lastSeat[i]))
	}
	s.seatView(&v, seat)
	return v
}

// SeatView is View(seat) made from pub, View(-1) of s as it is now: a
// copy of pub with what seat alone may see added. It shares pub's
// slices (the auction, the trick, the last trick), which neither view
// may change. A broadcast makes one public view and each seat's from it.
func (s *State) SeatView(pub *View, seat int) View {
	if pub.Seat != -1 || pub.Game != s.g {
		return s.View(seat)
	}
	v := *pub
	v.Seat = seat
	s.seatView(&v, seat)
	return v
}

// seatView adds to v, s's public view, what seat may see: the pawnee
// partner and widow as seat knows them, and seat's own cards.
func (s *State) seatView(v *View, seat int) {
	if s.variant == Pawnee && s.called != NoCard {
		holder := s.bidder
		if s.partner >= 0 {
			holder = s.partner
		}
		// The holder knows at once; everyone knows when it leads the
		// called card, which opens play (PW-CALL-1, PW-PLAY-1).
		if s.phase >= PhasePlay || seat == int(holder) {
			v.PartnerKnown, v.Partner = true, int(s.partner)
		}
		if s.phase == PhaseDone || seat == int(s.bidder) {
			v.Widow = s.widow
		}
	}
	if seat < 0 || seat >= int(s.n) {
		return
	}
	v.Hand = s.hands[seat]
	v.Out = s.out[seat]
	if s.variant == TenPoint {
		p := (seat + 2) % 4
		v.PassedCards = s.passedTo[seat]
		v.KnownIn[p] = s.passedTo[seat] &^ s.played[p]
	}
}
