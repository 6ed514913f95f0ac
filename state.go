package pitch

import (
	"fmt"
	"math/rand/v2"
)

// Phase is the step of a hand, in the order data flows through it:
// bid → call (pawnee) or trump (ten-point) → give stock, pass and burn
// (ten-point) or discard (pawnee) → play → done.
type Phase uint8

// The phases of a hand.
const (
	PhaseBid       Phase = iota // the auction (AP-BID, TP-BID, PW-BID)
	PhaseCall                   // pawnee: the bidder calls a card (PW-CALL-1)
	PhaseTrump                  // ten-point: the pitcher names trump (TP-TR-1)
	PhaseGiveStock              // ten-point: the pitcher keeps or hands on the stock (TP-TR-4)
	PhasePassBurn               // ten-point: passing trumps and burning (TP-TR-5)
	PhaseDiscard                // pawnee: discarding down to 6 (PW-DIS)
	PhasePlay                   // the tricks
	PhaseDone                   // the hand is over and scored
)

var phaseNames = [...]string{"bid", "call", "trump", "give_stock", "pass_burn", "discard", "play", "done"}

// String returns the phase's name.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", p)
}

// slots is the size of a State's per-seat arrays: MaxSeats rounded up to
// a power of two, so that the hot paths can index them with seat&7 and
// the compiler can drop the bounds checks.
const slots = 8

// maxBidTurns bounds the bids and passes of one auction: a one-round
// auction has a turn per seat, and a pawnee one at most six rising bids
// (5 to 10) and four passes.
const maxBidTurns = 12

// State is one hand of a match: everything on the table, hidden or not.
// It is a plain value: assignment clones it. Nothing outside this package
// should show a State to a player; use View.
type State struct {
	g       *Game
	variant Variant // g.Variant, kept here for the hot paths
	phase   Phase
	n       int8
	dealer  int8
	turn    int8 // seat to act; -1 when the hand is done

	scores [slots]int32 // match scores before this hand

	dealt [slots]CardSet // as dealt
	hands [slots]CardSet // now
	widow CardSet        // pawnee, as dealt
	stock [18]Card       // ten-point, top first
	// stockTop is how many stock cards have been handed out (ten-point).
	stockTop int8
	undlt    CardSet // auction: cards not dealt

	// auction
	bid    int8 // high bid, 0 for none
	bidder int8 // high bidder, -1 for none
	passed uint8
	// bids is every bid and pass so far, in order, each as seat | bid<<3
	// (bid 0 for a pass); nbids counts them. The auction is public.
	bids  [maxBidTurns]uint8
	nbids int8

	trump   Suit
	tmask   CardSet      // the trumps, once trump is known
	tord    *trumpOrder  // their order, once trump is known
	sides   [slots]uint8 // seats on each seat's side this hand (itself included)
	called  Card
	partner int8 // pawnee: the called card's holder when not the bidder; -1 alone

	// ten-point stock and passing
	give     bool
	receiver int8
	fillGot  [slots]int8 // cards each seat was given from the stock (fill and rest)
	passedTo [slots]CardSet
	passBurn int8 // ten-point: how many seats from the dealer's left have had their turn

	out      [slots]CardSet // cards each seat put out of play (discards, burns, dropped non-trumps)
	hidden   [slots]CardSet // the face-down part of out
	shown    CardSet        // out of play face up: burns and revealed trump discards
	pending  CardSet        // pawnee trump discards, shown once all have discarded
	discards int8           // pawnee: seats that have discarded
	notIn    [slots]CardSet // cards every seat knows are not in this seat's hand

	inPlay    CardSet // trumps held when play began
	played    [slots]CardSet
	won       [slots]CardSet
	trickWins [slots]int8

	trick     [slots]Card
	trickSeat [slots]int8
	trickLen  int8
	win       int16     // the card winning so far: (its key in keys + 1)<<3 | its index in trick
	keys      *[64]int8 // this trick's card ranking (trickKeys)
	trickSet  CardSet   // the trick's cards as a set
	must      CardSet   // holding any of these, the seat to play must play from follow
	follow    CardSet   // see must; legal plays are hand&follow, or the whole hand when it holds no must card
	leader    int8
	tricks    int8
	last      [slots]Card // the last finished trick, in play order
	lastSeat  [slots]int8
	lastLen   int8
	lastWon   int8

	res outcome // set when the hand is done
}

// Game returns the game this hand belongs to.
func (s *State) Game() *Game { return s.g }

// Phase returns the hand's current phase.
func (s *State) Phase() Phase { return s.phase }

// Turn returns the seat to act, or -1 when the hand is done.
func (s *State) Turn() int { return int(s.turn) }

// Dealer returns the dealer's seat.
func (s *State) Dealer() int { return int(s.dealer) }

// Seats returns the number of seats.
func (s *State) Seats() int { return int(s.n) }

// Terminal reports whether the hand is over.
func (s *State) Terminal() bool { return s.phase == PhaseDone }

// Hand returns the cards seat holds now. Only for code that may see them.
func (s *State) Hand(seat int) CardSet { return s.hands[seat] }

// Trump returns the trump suit, or NoSuit before it is known.
func (s *State) Trump() Suit { return s.trump }

// Bidder returns the winning (or, during the auction, high) bidder, or -1.
func (s *State) Bidder() int { return int(s.bidder) }

// HighBid returns the high bid so far, 0 for none.
func (s *State) HighBid() int { return int(s.bid) }

// Called returns the pawnee called card, or NoCard.
func (s *State) Called() Card { return s.called }

// Scores returns the match scores before this hand.
func (s *State) Scores() []int {
	out := make([]int, s.n)
	for i := range out {
		out[i] = int(s.scores[i])
	}
	return out
}

// Tricks returns the number of finished tricks.
func (s *State) Tricks() int { return int(s.tricks) }

// next returns the seat to the left of seat. It multiplies by 0 or 1
// rather than branching: where the wrap falls is random in a playout.
func (s *State) next(seat int8) int8 {
	seat++
	return seat * int8(uint8(seat-s.n)>>7) // seat-n is negative until the wrap
}

func (s *State) trumps() CardSet { return s.tmask }

// setTrump fixes the trump suit (AP-PLAY-1, TP-TR-1, PW-CALL-1).
func (s *State) setTrump(su Suit) {
	s.trump = su
	s.tord = s.g.trump(su)
	s.tmask = s.tord.mask
}

// setSides works out the sides of this hand: fixed teams (seat%2), the
// pawnee bidder and partner against the rest once the card is called, or
// every seat for itself.
func (s *State) setSides() {
	var all uint8 = 1<<s.n - 1
	for seat := range s.n {
		switch {
		case s.g.teams:
			s.sides[seat] = 0x55 << (seat % 2) & all
		default:
			s.sides[seat] = 1 << seat
		}
	}
	if s.variant == Pawnee && s.called != NoCard {
		bs := uint8(1) << s.bidder
		if s.partner >= 0 {
			bs |= 1 << s.partner
		}
		for seat := range s.n {
			if bs&(1<<seat) != 0 {
				s.sides[seat] = bs
			} else {
				s.sides[seat] = all &^ bs
			}
		}
	}
}

// sameSide reports whether a and b are on the same side this hand.
func (s *State) sameSide(a, b int8) bool { return s.sides[a]&(1<<b) != 0 }

// Deal shuffles with rng and deals a new hand of g (AP-3, TP-3, PW-3);
// scores are the match scores before the hand (nil for all zero).
func Deal(g *Game, dealer int, scores []int, rng *rand.Rand) State {
	var s State
	s.Deal(g, dealer, scores, rng)
	return s
}

// Deal is the package-level Deal writing into s, for loops that reuse one
// State (random playouts) and want to skip a copy.
func (s *State) Deal(g *Game, dealer int, scores []int, rng *rand.Rand) {
	s.reset(g, int8(dealer), scores)
	deck := orderedDeck
	size := g.Deck().Len()
	dealt := g.seats * g.handSize // even in every game
	to := &g.dealTo[dealer&7]
	// Fisher-Yates, each card going to its seat as soon as it is in place.
	for i := 0; i < dealt; i += 2 {
		shuffleTwo(&deck, i, size, rng.Uint64())
		s.dealt[to[i]&7] |= deck[i].bit()
		s.dealt[to[i+1]&7] |= deck[i+1].bit()
	}
	// Auction's undealt cards are never seen, so they are left in order.
	// The widow is a set, and only the stock's order matters, but both
	// are shuffled to the end: a stored table is replayed from its seed,
	// and skipping those draws would change what every later hand of a
	// seed deals (TestSeedsDealTheSame).
	if g.Variant != Auction {
		for i := dealt; i < size; i += 2 {
			shuffleTwo(&deck, i, size, rng.Uint64())
		}
	}
	s.dealRest(deck[dealt:size])
}

// shuffleTwo takes Fisher-Yates steps i and i+1 over deck[:size] with two
// draws from the 64 random bits r (Lemire's multiply-shift; the bias, at
// most 54 in 2^32, is immaterial).
func shuffleTwo(deck *[54]Card, i, size int, r uint64) {
	j := i + int(uint64(uint32(r))*uint64(size-i)>>32)
	deck[i], deck[j] = deck[j], deck[i]
	j = i + 1 + int((r>>32)*uint64(size-i-1)>>32)
	deck[i+1], deck[j] = deck[j], deck[i+1]
}

// orderedDeck is every card in card-number order, copied to start a shuffle.
var orderedDeck = func() (d [54]Card) {
	for i := range d {
		d[i] = Card(i)
	}
	return d
}()

// NewHand deals deck (in the order given, top first) the way Deal does,
// so a test or a replay can fix the cards. It checks that deck is exactly
// the game's deck.
func NewHand(g *Game, dealer int, scores []int, deck []Card) (State, error) {
	if err := g.checkSeat(dealer, "dealer"); err != nil {
		return State{}, err
	}
	var seen CardSet
	for _, c := range deck {
		if !g.Deck().Has(c) || seen.Has(c) {
			return State{}, fmt.Errorf("deck holds %s twice or a card not in the %s deck", c, g.Variant)
		}
		seen |= c.Set()
	}
	if seen != g.Deck() {
		return State{}, fmt.Errorf("deck has %d cards; %s is played with %d", len(deck), g.Variant, g.Deck().Len())
	}
	if err := checkScores(g, scores); err != nil {
		return State{}, err
	}
	var s State
	s.deal(g, int8(dealer), scores, deck)
	return s, nil
}

func (g *Game) checkSeat(seat int, what string) error {
	if seat < 0 || seat >= g.seats {
		return fmt.Errorf("%s %d is not a seat: seats are 0 to %d", what, seat, g.seats-1)
	}
	return nil
}

func checkScores(g *Game, scores []int) error {
	if scores == nil {
		return nil
	}
	if len(scores) != g.seats {
		return fmt.Errorf("scores has %d entries; there are %d seats", len(scores), g.seats)
	}
	for i, v := range scores {
		if v < -1000000 || v > 1000000 {
			return fmt.Errorf("score %d of seat %d is out of range (-1000000 to 1000000)", v, i)
		}
		if g.teams && scores[i] != scores[i%2] {
			return fmt.Errorf("partners must hold equal scores: seat %d has %d, seat %d has %d", i%2, scores[i%2], i, v)
		}
	}
	return nil
}

// deal hands out deck, in the order given: to the seats as g.dealTo says
// (AP-3, TP-3, PW-3), then the widow, the stock or the undealt cards.
func (s *State) deal(g *Game, dealer int8, scores []int, deck []Card) {
	s.reset(g, dealer, scores)
	dealt := g.seats * g.handSize
	for k, c := range deck[:dealt] {
		s.dealt[g.dealTo[dealer][k]&7] |= c.Set()
	}
	s.dealRest(deck[dealt:])
}

// reset starts a new hand of g dealt by dealer: nothing dealt yet.
func (s *State) reset(g *Game, dealer int8, scores []int) {
	*s = State{g: g, variant: g.Variant, n: int8(g.seats), dealer: dealer, bidder: -1, partner: -1, receiver: -1,
		trump: NoSuit, called: NoCard, leader: -1, lastWon: -1}
	for i, v := range scores {
		s.scores[i] = int32(v)
	}
}

// dealRest finishes a deal once the hands are dealt: rest, the cards
// after the hands, is the pawnee widow, the ten-point stock (top first)
// or the cards auction leaves undealt.
func (s *State) dealRest(rest []Card) {
	left := s.g.Deck()
	for _, h := range s.dealt[:s.n] {
		left &^= h
	}
	switch s.variant {
	case Pawnee:
		s.widow = left
	case TenPoint:
		copy(s.stock[:], rest)
	default:
		s.undlt = left
	}
	s.hands = s.dealt
	s.turn = s.next(s.dealer)
	s.setSides()
}

// newFromDeal builds a hand from explicit hands, as a hand record gives
// them; stock is the ten-point stock, top first. The widow and the cards
// auction leaves undealt are what the hands do not hold.
func newFromDeal(g *Game, dealer int, scores []int, hands []CardSet, stock []Card) State {
	var s State
	s.reset(g, int8(dealer), scores)
	copy(s.dealt[:], hands)
	s.dealRest(stock)
	return s
}
