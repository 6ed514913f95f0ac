package bot

import (
	"testing"

	"pitch"
)

// fixedDeal describes a deal by the cards each seat gets: hands[i] lists
// seat i's cards (a seat listed short, or not at all, is filled up with
// the lowest cards no one else was given), and rest the widow (pawnee), the
// stock top first (ten-point) or undealt cards (auction), likewise filled.
type fixedDeal struct {
	g      *pitch.Game
	dealer int
	hands  []string
	rest   string
	scores []int // the match scores before the hand; nil for zero
}

// state deals d through the public API, pitch.NewHand, by putting the
// cards in the deck order the deal hands them out in (AP-3, TP-3, PW-3:
// packets from the dealer's left, then widow or stock), and checks that
// every seat got the cards it was meant to.
func (d fixedDeal) state(t *testing.T) pitch.State {
	t.Helper()
	g := d.g
	n, size := g.Seats(), g.HandSize()
	hands := make([][]pitch.Card, n)
	var used pitch.CardSet
	take := func(s string) []pitch.Card {
		cs, err := pitch.ParseCards(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if used.Has(c) {
				t.Fatalf("card %v given twice", c)
			}
			used |= c.Set()
		}
		return cs
	}
	for i := range n {
		if i < len(d.hands) {
			hands[i] = take(d.hands[i])
		}
	}
	rest := take(d.rest)
	free := (g.Deck() &^ used).Cards()
	for i := range hands {
		for len(hands[i]) < size {
			hands[i] = append(hands[i], free[0])
			free = free[1:]
		}
		if len(hands[i]) > size {
			t.Fatalf("seat %d is given %d cards, a hand is %d", i, len(hands[i]), size)
		}
	}
	rest = append(rest, free...)
	packet := 3
	if g.Variant == pitch.Pawnee {
		packet = 5
	}
	var deck []pitch.Card
	for r := 0; r < size/packet; r++ {
		for k := 1; k <= n; k++ {
			seat := (d.dealer + k) % n
			deck = append(deck, hands[seat][r*packet:(r+1)*packet]...)
		}
	}
	deck = append(deck, rest...)
	s, err := pitch.NewHand(g, d.dealer, d.scores, deck)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if got, want := s.Hand(i), pitch.SetOf(hands[i]...); got != want {
			t.Fatalf("seat %d was dealt %v, want %v", i, got, want)
		}
	}
	return s
}

// play applies actions to s, failing the test on a refusal.
func play(t *testing.T, s *pitch.State, actions ...pitch.Action) {
	t.Helper()
	for _, a := range actions {
		if err := s.Apply(a); err != nil {
			t.Fatalf("setting up: %v refused: %v", a, err)
		}
	}
}

func card(s string) pitch.Card { return pitch.MustParseCard(s) }

func cards(s string) pitch.CardSet {
	cs, err := pitch.ParseCards(s)
	if err != nil {
		panic(err)
	}
	return pitch.SetOf(cs...)
}

// scenario is a position with a clear right decision for the seat to act.
type scenario struct {
	name  string // with the rule IDs the decision turns on
	setup func(t *testing.T) pitch.State
	good  func(a pitch.Action) bool
	want  string
}

func isPlay(c string) func(pitch.Action) bool {
	return func(a pitch.Action) bool { return a == pitch.Action{Kind: pitch.ActPlay, Seat: a.Seat, Card: card(c)} }
}

func isPass(a pitch.Action) bool { return a.Kind == pitch.ActPass }

func notMoon(a pitch.Action) bool { return !(a.Kind == pitch.ActBid && a.Bid == 10) }

// tenPointTrick: ten-point, trump hearts, every trump dealt, the stock all
// non-trumps, so that after TP-TR-2..4 the hands are exactly the trumps
// listed. Seat 0 bids 5 and names hearts; the first trick runs KH (seat
// 0), 2H (seat 1), 3H (seat 2, feeding its partner). Seat 3 holds the only
// card that beats the king: AH.
func tenPointTrick(t *testing.T) pitch.State {
	s := fixedDeal{g: pitch.MustNewGame(pitch.TenPoint), dealer: 3, hands: []string{
		"KH QH JH JD 9H 8H 2C 3C 4C",
		"2H 7H 6H 5C 6C 7C 8C 9C TC",
		"3H BJ LJ TH JC QC KC AC 2S",
		"AH 4H 5H 3S 4S 5S 6S 7S 8S",
	}}.state(t)
	play(t, &s, pitch.Bid(0, 5), pitch.Pass(1), pitch.Pass(2), pitch.Pass(3),
		pitch.NameTrump(0, pitch.Hearts), pitch.GiveStock(0, false))
	if s.Phase() != pitch.PhasePlay || s.Hand(3) != cards("AH 4H 5H") {
		t.Fatalf("setup: phase %s, seat 3 holds %v", s.Phase(), s.Hand(3))
	}
	play(t, &s, pitch.Play(0, card("KH")), pitch.Play(1, card("2H")), pitch.Play(2, card("3H")))
	return s
}

// pawneeDeal: pawnee, dealer 4, trump hearts. Seat 0 bids 5 and calls AH,
// held by seat 2, its partner; everyone discards its non-trumps down to 6.
// Trumps: seat 0 3H 7H JH JD BJ LJ, seat 1 KH 9H 8H, seat 2 AH QH TH,
// seat 3 5H 2H, seat 4 6H 4H.
func pawneeDeal(t *testing.T) pitch.State {
	s := fixedDeal{g: pitch.MustNewGame(pitch.Pawnee), dealer: 4, hands: []string{
		"3H 7H JH JD BJ LJ 2C 3C 4C 5C",
		"KH 9H 8H 6C 7C 8C 9C TC JC QC",
		"AH QH TH KC AC 2D 3D 4D 5D 6D",
		"5H 2H 7D 8D 9D TD QD KD AD 2S",
		"6H 4H 3S 4S 5S 6S 7S 8S 9S TS",
	}, rest: "JS QS KS AS"}.state(t)
	play(t, &s, pitch.Bid(0, 5), pitch.Pass(1), pitch.Pass(2), pitch.Pass(3), pitch.Pass(4),
		pitch.Call(0, card("AH")))
	play(t, &s,
		pitch.Discard(0, cards("2C 3C 4C 5C JS QS KS AS")),
		pitch.Discard(1, cards("6C 7C 8C 9C")),
		pitch.Discard(2, cards("KC AC 2D 3D")),
		pitch.Discard(3, cards("7D 8D 9D TD")),
		pitch.Discard(4, cards("3S 4S 5S 6S")))
	if s.Phase() != pitch.PhasePlay || s.Turn() != 2 || s.Partner() != 2 {
		t.Fatalf("setup: phase %s, seat %d to act, partner %d", s.Phase(), s.Turn(), s.Partner())
	}
	return s
}

// pawneeTrick: the pawnee deal after trick 1 (AH 5H 6H 7H 8H, won by seat
// 2) and three cards of trick 2: QH (seat 2), 2H, 4H, and the bidder's 3H
// fed to its partner. Seat 1, an opponent, holds KH, the only card left
// that beats the queen.
func pawneeTrick(t *testing.T) pitch.State {
	s := pawneeDeal(t)
	play(t, &s, pitch.Play(2, card("AH")), pitch.Play(3, card("5H")), pitch.Play(4, card("6H")),
		pitch.Play(0, card("7H")), pitch.Play(1, card("8H")))
	play(t, &s, pitch.Play(2, card("QH")), pitch.Play(3, card("2H")), pitch.Play(4, card("4H")),
		pitch.Play(0, card("3H")))
	if s.Turn() != 1 || s.Hand(1)&s.Trumps() != cards("KH 9H") {
		t.Fatalf("setup: seat %d to act holding %v", s.Turn(), s.Hand(s.Turn()))
	}
	return s
}

// auctionDeal: four players, dealer 0; AH and KH are not dealt.
var auctionDeal = fixedDeal{g: pitch.MustNewGame(pitch.Auction), dealer: 0, hands: []string{
	"QH 3H 2S 3S 4S 5S",
	"9H AS KS QS 2C 3C",
	"JH 4C 5C 6C 7C 8C",
	"5H 9C TC JC QC KC",
}, rest: "AH KH"}

// auctionStrongDealer gives the dealer (seat 0) A K J T 3 2 of spades.
func auctionStrongDealer(t *testing.T, high int) pitch.State {
	s := fixedDeal{g: pitch.MustNewGame(pitch.Auction), dealer: 0, hands: []string{
		"AS KS JS TS 3S 2S",
		"AH QH 9D 8C 5D 4C",
		"KD 7H 6C 5H 9C 3D",
		"QC JD 8H 6D 4H 2C",
	}}.state(t)
	play(t, &s, pitch.Bid(1, high), pitch.Pass(2), pitch.Pass(3))
	return s
}

// weakTenPoint: seat 0 (the first to bid) or seat 1 holds nine low cards
// without a point card in any suit (TP-PT-1: no A, J, T, 3, 2, no joker).
func weakTenPoint(t *testing.T, seat int) pitch.State {
	hands := make([]string, 4)
	hands[seat] = "4C 5C 6D 7D 8H 9H 4S 5S 6S"
	return fixedDeal{g: pitch.MustNewGame(pitch.TenPoint), dealer: 3, hands: hands}.state(t)
}

// weakPawnee: seat 0 or 1 holds ten low cards without a point card
// (PW-PT-1: no J, T, 3, joker) and without an ace or king.
func weakPawnee(t *testing.T, seat int) pitch.State {
	hands := make([]string, 5)
	hands[seat] = "4C 5C 6C 4D 5D 6D 7H 8H 4S 5S"
	return fixedDeal{g: pitch.MustNewGame(pitch.Pawnee), dealer: 4, hands: hands}.state(t)
}

var scenarios = []scenario{
	{
		name:  "ten-point: take the 3 of trump with the only card that can (TP-PT-1, TP-PLAY-2)",
		setup: tenPointTrick,
		good:  isPlay("AH"), want: "AH",
	},
	{
		name:  "pawnee: take the 3 of trump with the only card that can (PW-PT-1, PW-PLAY-2)",
		setup: pawneeTrick,
		good:  isPlay("KH"), want: "KH",
	},
	{
		name:  "pawnee: the called card's holder leads it (PW-PLAY-1)",
		setup: pawneeDeal,
		good:  isPlay("AH"), want: "AH",
	},
	{
		name: "auction: win the trick holding the jack of trump (AP-PT-3, AP-PLAY-3)",
		setup: func(t *testing.T) pitch.State {
			s := auctionDeal.state(t)
			play(t, &s, pitch.Bid(1, 2), pitch.Pass(2), pitch.Pass(3), pitch.Pass(0),
				pitch.Play(1, card("9H")), pitch.Play(2, card("JH")), pitch.Play(3, card("5H")))
			return s
		},
		good: isPlay("QH"), want: "QH",
	},
	{
		// Trick 1: AH 4H 5H 3H, won by the pitcher (seat 1), who leads 2C;
		// seat 2, void in clubs, trumps with the jack, seat 3 follows 9C.
		// Seat 0 may follow with KC or trump with QH (AP-PLAY-2).
		name: "auction: overtrump the jack of trump played on a plain lead (AP-PT-3, AP-PLAY-2)",
		setup: func(t *testing.T) pitch.State {
			s := fixedDeal{g: pitch.MustNewGame(pitch.Auction), dealer: 0, hands: []string{
				"3H QH KC 7S 8S 9S",
				"AH 2C 3D 4D 5D 6D",
				"4H JH 7D 8D 9D TD",
				"5H 9C JD QD KD AD",
			}}.state(t)
			play(t, &s, pitch.Bid(1, 2), pitch.Pass(2), pitch.Pass(3), pitch.Pass(0),
				pitch.Play(1, card("AH")), pitch.Play(2, card("4H")), pitch.Play(3, card("5H")), pitch.Play(0, card("3H")),
				pitch.Play(1, card("2C")), pitch.Play(2, card("JH")), pitch.Play(3, card("9C")))
			if got := s.LegalPlays(); got != cards("QH KC") {
				t.Fatalf("setup: seat 0 may play %v", got)
			}
			return s
		},
		good: isPlay("QH"), want: "QH",
	},
	{
		name:  "auction: the dealer with A K J T 3 2 of a suit steals a bid of 2 or outbids it (AP-BID-3)",
		setup: func(t *testing.T) pitch.State { return auctionStrongDealer(t, 2) },
		good:  func(a pitch.Action) bool { return a.Kind == pitch.ActBid && a.Bid >= 2 }, want: "a bid of 2 or more",
	},
	{
		name:  "auction: the dealer with A K J T 3 2 of a suit steals a bid of 3 or outbids it (AP-BID-3)",
		setup: func(t *testing.T) pitch.State { return auctionStrongDealer(t, 3) },
		good:  func(a pitch.Action) bool { return a.Kind == pitch.ActBid && a.Bid >= 3 }, want: "a bid of 3 or more",
	},
	{
		name: "auction: no trump prospects, the first bidder passes (AP-BID-1)",
		setup: func(t *testing.T) pitch.State {
			return fixedDeal{g: pitch.MustNewGame(pitch.Auction), dealer: 0, hands: []string{
				"AS KS QS AH KH QH", "3C 5D 7H 8S 4C 6D", "AD KD QD AC KC QC", "JS TS JH TH JD TD",
			}}.state(t)
		},
		good: isPass, want: "pass",
	},
	{
		// Not when opening: the pitcher's side takes the rest of the stock
		// (TP-TR-4), so even this hand expects 4 points at the lowest bid.
		name: "ten-point: no point card in any suit, facing a bid of 6, pass (TP-BID-1)",
		setup: func(t *testing.T) pitch.State {
			s := weakTenPoint(t, 1)
			play(t, &s, pitch.Bid(0, 6))
			return s
		},
		good: isPass, want: "pass",
	},
	{
		name:  "ten-point: a weak hand does not shoot the moon (TP-BID-1, TP-MOON-1)",
		setup: func(t *testing.T) pitch.State { return weakTenPoint(t, 0) },
		good:  notMoon, want: "no bid of 10",
	},
	{
		name: "ten-point: a weak hand facing a bid of 9 passes rather than shoot the moon (TP-BID-1, TP-MOON-1)",
		setup: func(t *testing.T) pitch.State {
			s := weakTenPoint(t, 1)
			play(t, &s, pitch.Bid(0, 9))
			return s
		},
		good: isPass, want: "pass",
	},
	{
		name:  "pawnee: a weak hand does not shoot the moon (PW-BID-1, PW-MOON-1)",
		setup: func(t *testing.T) pitch.State { return weakPawnee(t, 0) },
		good:  notMoon, want: "no bid of 10",
	},
	{
		name: "pawnee: a weak hand facing a bid of 9 passes rather than shoot the moon (PW-BID-1, PW-MOON-1)",
		setup: func(t *testing.T) pitch.State {
			s := weakPawnee(t, 1)
			play(t, &s, pitch.Bid(0, 9))
			return s
		},
		good: isPass, want: "pass",
	},
	{
		name: "pawnee: no trump prospects facing a bid of 6, pass (PW-BID-1)",
		setup: func(t *testing.T) pitch.State {
			s := weakPawnee(t, 1)
			play(t, &s, pitch.Bid(0, 6))
			return s
		},
		good: isPass, want: "pass",
	},
}

// TestScenarios puts each clear decision to the heuristic and to the
// search bot at its default strength, with several seeds: each must
// choose right every time.
func TestScenarios(t *testing.T) {
	bots := []Bot{Heuristic{}, &Search{}}
	seeds := []uint64{1, 2, 3, 4, 5}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			base := sc.setup(t)
			for _, b := range bots {
				for _, seed := range seeds {
					s := base
					a := Decide(b, &s, pitch.NewRand(seed))
					if !sc.good(a) {
						t.Errorf("%s (seed %d) chose %v, want %s", b.Name(), seed, a, sc.want)
					}
					if a.Seat != int8(base.Turn()) || !legalHas(&base, a) {
						t.Errorf("%s chose %v for seat %d: not a legal action", b.Name(), a, base.Turn())
					}
				}
			}
		})
	}
}

// TestForcedLeadAct: the called card's lead is the only legal action
// (PW-PLAY-1), and each bot returns it when asked directly too, not only
// through Decide's shortcut for a single legal action.
func TestForcedLeadAct(t *testing.T) {
	s := pawneeDeal(t)
	legal := s.Legal(nil)
	want := pitch.Play(2, card("AH"))
	if len(legal) != 1 || legal[0] != want {
		t.Fatalf("legal actions %v, want only %v", legal, want)
	}
	for _, b := range []Bot{Random{}, Heuristic{}, &Search{Worlds: 20}} {
		v := s.View(2)
		if got := b.Act(Request{View: &v, Legal: legal, Rand: pitch.NewRand(1)}); got != want {
			t.Errorf("%s.Act = %v, want %v", b.Name(), got, want)
		}
	}
	// The heuristic policy itself, on worlds drawn from the view.
	v := s.View(2)
	for seed := range uint64(20) {
		w := v.Resample(pitch.NewRand(seed))
		if got := policy(&w); got != want {
			t.Fatalf("policy on world %d = %v, want %v", seed, got, want)
		}
	}
}

// TestSearchBidDiscipline: facing a bid of 9 with a weak hand, the moon
// bid's analysis shows why it is refused (PW-MOON-1, TP-MOON-1): it wins
// the auction in every world and is made in well under MinMake of them.
func TestSearchBidDiscipline(t *testing.T) {
	for _, setup := range []func(*testing.T, int) pitch.State{weakTenPoint, weakPawnee} {
		s := setup(t, 1)
		play(t, &s, pitch.Bid(0, 9))
		v := s.View(1)
		opts := (&Search{Worlds: 60}).Analyze(Request{View: &v, Legal: s.Legal(nil), Rand: pitch.NewRand(5)})
		var moon *Option
		for i := range opts {
			if opts[i].Action == pitch.Bid(1, 10) {
				moon = &opts[i]
			}
		}
		if len(opts) != 2 || moon == nil {
			t.Fatalf("%s: options %+v, want pass and a bid of 10", s.Game().Variant, opts)
		}
		if moon.Won != 1 || moon.Made >= MinMake {
			t.Errorf("%s: moon bid won in %.2f of worlds, made in %.2f: want won 1, made < %v",
				s.Game().Variant, moon.Won, moon.Made, MinMake)
		}
		t.Logf("%s: %+v", s.Game().Variant, opts)
	}
}

// TestGiveStockReadsTheFill: the pitcher's stock choice comes after the
// fill (TP-TR-4), and the heuristic uses what the fill showed: the rest of
// the stock goes to whichever partner holds fewer trumps. Dealer 3, trump
// hearts; the fill draws from the top of the stock (diamonds and spades)
// and leaves trumps in the rest (5H 6H 9H TH).
func TestGiveStockReadsTheFill(t *testing.T) {
	for _, c := range []struct {
		name     string
		pitcher  string // seat 0's hand; seat 2, its partner, holds no trump
		partner  string
		wantGive bool
	}{
		{"pitcher long, partner void: give", "AH KH QH JH JD BJ LJ 2C 3C", "TC JC QC KC AC 3S 4S 5S 6S", true},
		{"pitcher short, partner long: keep", "AH KH 2C 3C TC JC QC KC AC", "QH JH JD BJ LJ 3S 4S 5S 6S", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := fixedDeal{g: pitch.MustNewGame(pitch.TenPoint), dealer: 3, hands: []string{
				c.pitcher, "2H 3H 4H 4C 5C 6C 7C 8C 9C", c.partner, "8H 7H 8S 9S TS JS QS KS AS",
			}, rest: "2D 3D 4D 5D 6D 7D 8D 9D TD QD KD AD 2S 7S 5H 6H 9H TH"}.state(t)
			play(t, &s, pitch.Bid(0, 5), pitch.Pass(1), pitch.Pass(2), pitch.Pass(3), pitch.NameTrump(0, pitch.Hearts))
			v := s.View(0)
			if s.Phase() != pitch.PhaseGiveStock || v.StockLeft < 5 {
				t.Fatalf("setup: phase %s, %d stock cards left; want give_stock, 5 or more", s.Phase(), v.StockLeft)
			}
			for _, seed := range []uint64{1, 2, 3} {
				a := Decide(Heuristic{}, &s, pitch.NewRand(seed))
				if a.Kind != pitch.ActGiveStock || a.Give != c.wantGive {
					t.Errorf("seed %d: heuristic chose %v with seat 0 at %d trumps and seat 2 at %d; want give %v",
						seed, a, s.Hand(0).Len(), s.Hand(2).Len(), c.wantGive)
				}
				if b := Decide(&Search{}, &s, pitch.NewRand(seed)); b.Kind != pitch.ActGiveStock {
					t.Errorf("seed %d: search chose %v at give_stock", seed, b)
				}
			}
		})
	}
}
