package pitch

// Tests for Auction Pitch: rules AP-1 to AP-END-1 of RULES.md and the
// options players, partnerships, low_to_holder and target. Every expected
// value below was worked out by hand from the deals; none is computed by
// the engine.

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func init() {
	goldenCases = append(goldenCases,
		goldenCase{"auction-dealer-steal", "AP-BID-1 AP-BID-3 AP-PT-1 AP-PT-2 AP-PT-3 AP-PT-4 AP-SC-1 AP-SC-2"},
		goldenCase{"auction-pitch-4", "AP-BID-2 AP-SC-1 AP-END-1"},
		goldenCase{"auction-lone-trump", "AP-PT-5 AP-PT-3"},
		goldenCase{"auction-lone-jack", "AP-PT-5 AP-PT-3 AP-SC-1"},
		goldenCase{"auction-game-tie", "AP-1 AP-PT-4 AP-SC-1"},
		goldenCase{"auction-set-wins-at-target", "AP-END-1 AP-SC-1 AP-SC-2"},
		goldenCase{"auction-target-11", "AP-END-1 C-8"},
		goldenCase{"auction-low-to-holder", "AP-PT-2"},
		goldenCase{"auction-partnerships", "AP-1 AP-PT-4 AP-SC-1 AP-SC-2 AP-END-1"},
		goldenCase{"auction-partnerships-set", "AP-1 AP-BID-2 AP-SC-1 AP-SC-2"},
		goldenCase{"auction-incomplete-bidding", "AP-BID-1"},
		goldenCase{"auction-incomplete-first-trick", "AP-PLAY-1 AP-PT-1"},
		goldenCase{"auction-incomplete-play", "AP-PT-1 AP-PT-2 AP-PT-3 AP-PT-4"},
		goldenCase{"auction-refused-out-of-turn", "AP-BID-1 C-7"},
		goldenCase{"auction-refused-bid-too-low", "AP-BID-1 C-7"},
		goldenCase{"auction-refused-bid-5", "AP-BID-1 C-7"},
		goldenCase{"auction-refused-dealer-pass", "AP-BID-4 C-7"},
		goldenCase{"auction-refused-dealer-bid-1", "AP-BID-4 C-7"},
		goldenCase{"auction-refused-non-dealer-steal", "AP-BID-3 C-7"},
		goldenCase{"auction-refused-steal-pitch", "AP-BID-2 C-7"},
		goldenCase{"auction-refused-bid-in-play", "AP-BID-1 C-7"},
		goldenCase{"auction-refused-lead-out-of-turn", "AP-PLAY-1 C-7"},
		goldenCase{"auction-refused-card-not-held", "AP-PLAY-2 C-7"},
		goldenCase{"auction-refused-not-following", "AP-PLAY-2 C-7"},
		goldenCase{"auction-refused-not-following-trump", "AP-PLAY-2 C-7"},
	)
}

// apDeal is an auction hand given by its six tricks, each written as the
// plays in order ("1:AH 2:5H 3:6H 0:JH"); every seat is dealt exactly the
// cards it plays.
type apDeal struct {
	players, dealer int
	tricks          [6]string
}

// apBase: trump hearts, seat 1 leads. Tricks won by 1, 3, 0, 0, 1, 3.
// High AH and Jack JH (played by seat 0) go to seat 1; Low 2H (dealt to
// seat 2) is won by seat 3; card values: seat 0 24, seat 1 8, seat 3 5,
// seat 2 0, so Game goes to seat 0.
var apBase = apDeal{4, 0, [6]string{
	"1:AH 2:5H 3:6H 0:JH",
	"1:KC 2:2H 3:7H 0:QC", // seat 2 holds clubs and trumps instead; 7H beats 2H
	"3:3C 0:AC 1:4C 2:TC",
	"0:TD 1:3D 2:4D 3:5D",
	"0:2S 1:KS 2:3S 3:4S",
	"1:5C 2:6C 3:8H 0:7C",
}}

// apSweep: trump spades; seat 1 wins every trick, so High AS, Low 2S,
// Jack JS and Game (22 against 0).
var apSweep = apDeal{4, 0, [6]string{
	"1:AS 2:3S 3:4S 0:5S",
	"1:JS 2:6S 3:7S 0:8S",
	"1:2S 2:2C 3:3C 0:4C",
	"1:AC 2:5C 3:6C 0:7C",
	"1:TC 2:8C 3:9C 0:2H", // seat 0 is out of clubs,
	"1:KD 2:2D 3:3D 0:4D",
}}

// apLone returns a deal where the only heart dealt is lone, led by seat 1
// to the first trick, which seat 1 wins. Card values: seat 0 14 (Game),
// seat 3 3, seat 1 1 if lone is the jack, else 0.
func apLone(lone string) apDeal {
	return apDeal{4, 0, [6]string{
		"1:" + lone + " 2:2C 3:3C 0:4C",
		"1:5C 2:6C 3:7C 0:AC",
		"0:TD 1:2D 2:3D 3:4D",
		"0:2S 1:3S 2:4S 3:KS",
		"3:5S 0:6S 1:7S 2:8S",
		"2:5D 3:6D 0:7D 1:8D",
	}}
}

// apTie: two players, trump hearts, seat 1 leads. Seat 1 wins AH+2H, TD+AD
// and 2C+3C (18); seat 0 wins TC+AC, 3S+4S and AS+5S (18): Game is tied.
var apTie = apDeal{2, 0, [6]string{
	"1:AH 0:2H",
	"1:TC 0:AC",
	"0:TD 1:AD",
	"1:3S 0:4S",
	"0:AS 1:5S",
	"0:2C 1:3C",
}}

// apTeams: trump diamonds, seat 3 leads. High QD (AD and KD are not dealt)
// to seat 3; Low 2D and Jack JD to seat 1; card values: seat 1 11, seat 2
// 10, seat 0 6, seat 3 2, so seat 1 has the most alone but team 0+2 (16)
// beats team 1+3 (13).
var apTeams = apDeal{4, 0, [6]string{
	"3:QD 0:3D 1:4D 2:5D",
	"3:2C 0:KC 1:JD 2:4C",
	"1:2D 2:2H 3:3H 0:4H",
	"1:AS 2:2S 3:3S 0:KS",
	"1:5H 2:TH 3:7H 0:6H",
	"2:QC 3:7C 0:AC 1:6C",
}}

// apPlay3: two players, trump spades. Trick winners 0 (AS over 2S), 0 (an
// off-suit AD does not beat the 5C led), 1 (3S trumps KC), 0, 1, 1.
var apPlay3 = apDeal{2, 0, [6]string{
	"1:2S 0:AS",
	"0:5C 1:AD",
	"0:KC 1:3S",
	"1:2H 0:3H",
	"0:4H 1:KH",
	"1:QD 0:9C",
}}

// withDealer returns d dealt by another seat (the tricks are unchanged).
func (d apDeal) withDealer(dealer int) apDeal {
	d.dealer = dealer
	return d
}

// apActs reads a script of actions: "S:p" (pass), "S:bN" (bid N) or "S:CARD" (play).
func apActs(t testing.TB, script string) []Action {
	t.Helper()
	var out []Action
	for _, f := range strings.Fields(script) {
		seatStr, what, ok := strings.Cut(f, ":")
		seat, err := strconv.Atoi(seatStr)
		if !ok || err != nil || what == "" {
			t.Fatalf("bad script step %q", f)
		}
		switch {
		case what == "p":
			out = append(out, Pass(seat))
		case what[0] == 'b':
			n, err := strconv.Atoi(what[1:])
			if err != nil {
				t.Fatalf("bad bid %q", f)
			}
			out = append(out, Bid(seat, n))
		default:
			c, err := ParseCard(what)
			if err != nil {
				t.Fatalf("bad card %q: %v", f, err)
			}
			out = append(out, Play(seat, c))
		}
	}
	return out
}

// plays returns the 24 (or 12) plays of the deal.
func (d apDeal) plays(t testing.TB) []Action {
	t.Helper()
	return apActs(t, strings.Join(d.tricks[:], " "))
}

// hands returns what each seat is dealt: the cards it plays.
func (d apDeal) hands(t testing.TB) []CardSet {
	t.Helper()
	h := make([]CardSet, d.players)
	for _, a := range d.plays(t) {
		if h[a.Seat].Has(a.Card) {
			t.Fatalf("deal plays %s twice", a.Card)
		}
		h[a.Seat] |= a.Card.Set()
	}
	for seat, set := range h {
		if set.Len() != 6 {
			t.Fatalf("seat %d is dealt %d cards: %s", seat, set.Len(), set)
		}
	}
	return h
}

// apGame returns an auction game for d with extra options.
func apGame(d apDeal, opts ...Option) *Game {
	return MustNewGame(Auction, append([]Option{WithPlayers(d.players)}, opts...)...)
}

// start deals d under g.
func (d apDeal) start(t testing.TB, g *Game, scores []int) State {
	t.Helper()
	return newFromDeal(g, d.dealer, scores, d.hands(t), nil)
}

// apApply applies acts to s, failing the test on any refusal.
func apApply(t testing.TB, s *State, acts []Action) {
	t.Helper()
	for i, a := range acts {
		if err := s.Apply(a); err != nil {
			t.Fatalf("action %d (%s) refused: %v", i, a, err)
		}
	}
}

// run plays the whole hand d after the auction bids.
func (d apDeal) run(t testing.TB, g *Game, scores []int, bids string) State {
	t.Helper()
	s := d.start(t, g, scores)
	apApply(t, &s, append(apActs(t, bids), d.plays(t)...))
	if !s.Terminal() {
		t.Fatalf("hand not over after all plays")
	}
	return s
}

// apPoints writes points as "high AH 1, low 2H 3, game 0".
func apPoints(ps []Point) string {
	var parts []string
	for _, p := range ps {
		s := p.Kind.String()
		if p.Card != NoCard {
			s += " " + p.Card.String()
		}
		parts = append(parts, s+" "+strconv.Itoa(int(p.Seat)))
	}
	return strings.Join(parts, ", ")
}

// apBidLegal writes the bids the seat to act may make as "pass 2 3 4".
func apBidLegal(s *State) string {
	var parts []string
	for _, a := range s.Legal(nil) {
		switch a.Kind {
		case ActPass:
			parts = append([]string{"pass"}, parts...)
		case ActBid:
			parts = append(parts, strconv.Itoa(int(a.Bid)))
		default:
			parts = append(parts, "?"+a.String())
		}
	}
	return strings.Join(parts, " ")
}

// apPlayLegal writes the cards the seat to act may play.
func apPlayLegal(t *testing.T, s *State) string {
	t.Helper()
	var set CardSet
	for _, a := range s.Legal(nil) {
		if a.Kind != ActPlay || int(a.Seat) != s.Turn() {
			t.Fatalf("unexpected legal action %s in play", a)
		}
		set |= a.Card.Set()
	}
	return set.String()
}

// AP-1: 3 to 7 players (default 4), 2 as an option, partnerships of 4 or 6.
func TestAP1Players(t *testing.T) {
	if got := MustNewGame(Auction).Seats(); got != 4 {
		t.Errorf("default auction seats = %d, want 4", got)
	}
	tests := []struct {
		players int
		teams   bool
		ok      bool
	}{
		{1, false, false}, {2, false, true}, {3, false, true}, {4, false, true},
		{5, false, true}, {6, false, true}, {7, false, true}, {8, false, false},
		{2, true, false}, {3, true, false}, {4, true, true}, {5, true, false},
		{6, true, true}, {7, true, false},
	}
	for _, tc := range tests {
		g, err := NewGame(Auction, WithPlayers(tc.players), WithPartnerships(tc.teams))
		if got := err == nil; got != tc.ok {
			t.Errorf("players %d partnerships %v: accepted = %v, want %v (err %v)", tc.players, tc.teams, got, tc.ok, err)
			continue
		}
		if err == nil && (g.Seats() != tc.players || g.FixedTeams() != tc.teams) {
			t.Errorf("players %d partnerships %v: seats %d, fixed teams %v", tc.players, tc.teams, g.Seats(), g.FixedTeams())
		}
	}
	for _, o := range []Option{WithCallOwnCard(true), WithScoreTricks(true), WithFailBidderOnly(true)} {
		if _, err := NewGame(Auction, o); err == nil {
			t.Errorf("auction accepted a pawnee option")
		}
	}
}

// AP-1: individual play makes every seat its own side; partnerships seat
// the teams alternately (every other seat).
func TestAP1Sides(t *testing.T) {
	tests := []struct {
		name   string
		g      *Game
		dealer int
		bids   string
		want   string
	}{
		{"individual 4", MustNewGame(Auction), 0, "1:p 2:b2 3:p 0:p", "[[2] [0] [1] [3]]"},
		{"individual 2", MustNewGame(Auction, WithPlayers(2)), 1, "0:b1 1:p", "[[0] [1]]"},
		{"individual 7", MustNewGame(Auction, WithPlayers(7)), 6, "0:p 1:p 2:p 3:p 4:b3 5:p 6:p", "[[4] [0] [1] [2] [3] [5] [6]]"},
		{"partnerships 4", MustNewGame(Auction, WithPartnerships(true)), 0, "1:p 2:b2 3:p 0:p", "[[0 2] [1 3]]"},
		{"partnerships 6", MustNewGame(Auction, WithPlayers(6), WithPartnerships(true)), 0, "1:p 2:p 3:b2 4:p 5:p 0:p", "[[1 3 5] [0 2 4]]"},
	}
	for _, tc := range tests {
		s := Deal(tc.g, tc.dealer, nil, rand.New(rand.NewPCG(1, 2)))
		apApply(t, &s, apActs(t, tc.bids))
		if got := apTeamsString(s.Result().Teams); got != tc.want {
			t.Errorf("%s: teams %s, want %s", tc.name, got, tc.want)
		}
	}
}

// apTeamsString writes sides as "[[1 3] [0 2]]".
func apTeamsString(teams [][]int) string {
	var b strings.Builder
	b.WriteString("[")
	for i, side := range teams {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("[")
		for j, seat := range side {
			if j > 0 {
				b.WriteString(" ")
			}
			b.WriteString(strconv.Itoa(seat))
		}
		b.WriteString("]")
	}
	b.WriteString("]")
	return b.String()
}

// AP-2: 52 cards, no jokers, no off-jack; ace high, 2 low.
func TestAP2Deck(t *testing.T) {
	g := MustNewGame(Auction)
	if d := g.Deck(); d.Len() != 52 || d.Has(BigJoker) || d.Has(LittleJoker) {
		t.Errorf("auction deck = %d cards (%s), want the 52 without jokers", d.Len(), d)
	}
	for _, su := range []Suit{Clubs, Diamonds, Hearts, Spades} {
		if got := Trumps(su, g.Jokers()); got != SuitSet(su) {
			t.Errorf("auction trumps for %s = %s, want only the suit", su, got)
		}
	}
	// Hearts trump: JD (the off-jack elsewhere) is a plain diamond here, so
	// it neither follows a heart lead nor must be played to one.
	tests := []struct {
		seat0 string
		want  string
	}{
		{"KH JD 9C 8C 7C 6C", "KH"},
		{"JD 9C 8C 7C 6C 5C", "5C 6C 7C 8C 9C JD"},
	}
	for _, tc := range tests {
		cards, _ := ParseCards(tc.seat0)
		g2 := MustNewGame(Auction, WithPlayers(2))
		s := newFromDeal(g2, 0, nil, []CardSet{SetOf(cards...), SetOf(apCards(t, "AH 2S 3S 4S 5S 6S")...)}, nil)
		apApply(t, &s, apActs(t, "1:b2 0:p 1:AH"))
		if got := apPlayLegal(t, &s); got != tc.want {
			t.Errorf("hearts led, seat 0 holds %s: legal %s, want %s", tc.seat0, got, tc.want)
		}
	}
	// Ace high and 2 low in trump: High is AS, Low 2S (apSweep); in a plain
	// suit the ace wins (apBase trick 3) — see TestAPPlay3 and TestAPPoints.
}

func apCards(t testing.TB, s string) []Card {
	t.Helper()
	cards, err := ParseCards(s)
	if err != nil {
		t.Fatal(err)
	}
	return cards
}

// AP-3: 6 cards each, in packets of 3 from the dealer's left; the rest are not used.
func TestAP3Deal(t *testing.T) {
	deck := make([]Card, 52)
	for i := range deck {
		deck[i] = Card(i) // 2C 3C ... AC 2D ... AS
	}
	tests := []struct {
		players, dealer int
		want            []string // hands by seat
	}{
		{4, 3, []string{"2C 3C 4C AC 2D 3D", "5C 6C 7C 4D 5D 6D", "8C 9C TC 7D 8D 9D", "JC QC KC TD JD QD"}},
		{4, 0, []string{"JC QC KC TD JD QD", "2C 3C 4C AC 2D 3D", "5C 6C 7C 4D 5D 6D", "8C 9C TC 7D 8D 9D"}},
		{2, 0, []string{"5C 6C 7C JC QC KC", "2C 3C 4C 8C 9C TC"}},
	}
	for _, tc := range tests {
		g := MustNewGame(Auction, WithPlayers(tc.players))
		s, err := NewHand(g, tc.dealer, nil, deck)
		if err != nil {
			t.Fatal(err)
		}
		var dealt CardSet
		for seat, w := range tc.want {
			if got := s.Hand(seat).String(); got != w {
				t.Errorf("%d players, dealer %d: seat %d dealt %s, want %s", tc.players, tc.dealer, seat, got, w)
			}
			dealt |= s.Hand(seat)
		}
		if want := Deck52 &^ dealt; s.undlt != want || want.Len() != 52-6*tc.players {
			t.Errorf("%d players: undealt %d cards, want %d", tc.players, s.undlt.Len(), 52-6*tc.players)
		}
		if got, want := s.Turn(), (tc.dealer+1)%tc.players; got != want {
			t.Errorf("%d players, dealer %d: first to bid %d, want %d", tc.players, tc.dealer, got, want)
		}
	}
	// A jokered deck is not the auction deck.
	g := MustNewGame(Auction)
	if _, err := NewHand(g, 0, nil, append(append([]Card(nil), deck...), BigJoker, LittleJoker)); err == nil {
		t.Errorf("NewHand accepted 54 cards for auction")
	}
	// Random deals: 6 cards each from the 52, none twice.
	rng := rand.New(rand.NewPCG(3, 4))
	for players := 2; players <= 7; players++ {
		g := MustNewGame(Auction, WithPlayers(players))
		for range 50 {
			s := Deal(g, rng.IntN(players), nil, rng)
			var all CardSet
			for seat := range players {
				h := s.Hand(seat)
				if h.Len() != 6 || h&all != 0 || h&^Deck52 != 0 {
					t.Fatalf("%d players: seat %d dealt %s", players, seat, h)
				}
				all |= h
			}
			if all|s.undlt != Deck52 || all&s.undlt != 0 {
				t.Fatalf("%d players: dealt and undealt cards are not the deck", players)
			}
		}
	}
}

// AP-BID-1: each seat bids once from the dealer's left, the dealer last;
// a bid is pass or 1 to 4 and must beat the high bid.
func TestAPBid1Order(t *testing.T) {
	tests := []struct {
		players, dealer int
		script          string
		wantTurn        int
		wantLegal       string // bids open to the seat to act; "" once in play
		wantBidder      int    // -1 while bidding
		wantBid         int
	}{
		{4, 0, "", 1, "pass 1 2 3 4", -1, 0},
		{4, 0, "1:b1", 2, "pass 2 3 4", -1, 0},
		{4, 0, "1:b1 2:b3", 3, "pass 4", -1, 0},
		{4, 0, "1:p 2:p", 3, "pass 1 2 3 4", -1, 0},
		{4, 0, "1:b1 2:b3 3:p 0:p", 2, "", 2, 3},
		{4, 0, "1:b2 2:p 3:b3 0:p", 3, "", 3, 3},
		{4, 2, "", 3, "pass 1 2 3 4", -1, 0},
		{4, 2, "3:p 0:b1 1:p 2:p", 0, "", 0, 1},
		{2, 1, "0:b1 1:p", 0, "", 0, 1},
		{7, 3, "4:b1 5:p 6:b2 0:p 1:b3 2:p 3:p", 1, "", 1, 3},
	}
	for _, tc := range tests {
		g := MustNewGame(Auction, WithPlayers(tc.players))
		s := Deal(g, tc.dealer, nil, rand.New(rand.NewPCG(5, 6)))
		apApply(t, &s, apActs(t, tc.script))
		name := strconv.Itoa(tc.players) + "p dealer " + strconv.Itoa(tc.dealer) + " [" + tc.script + "]"
		if got := s.Turn(); got != tc.wantTurn {
			t.Errorf("%s: turn %d, want %d", name, got, tc.wantTurn)
		}
		if tc.wantLegal != "" {
			if got := apBidLegal(&s); got != tc.wantLegal {
				t.Errorf("%s: legal bids %q, want %q", name, got, tc.wantLegal)
			}
			if s.Phase() != PhaseBid {
				t.Errorf("%s: phase %s, want bid", name, s.Phase())
			}
			if r := s.Result(); r.Bidder != -1 || r.Teams != nil {
				t.Errorf("%s: result names bidder %d / teams %v during the auction", name, r.Bidder, r.Teams)
			}
			continue
		}
		// The auction is over: the pitcher leads (AP-PLAY-1).
		if s.Phase() != PhasePlay || s.Bidder() != tc.wantBidder || s.HighBid() != tc.wantBid {
			t.Errorf("%s: phase %s bidder %d bid %d, want play, %d, %d", name, s.Phase(), s.Bidder(), s.HighBid(), tc.wantBidder, tc.wantBid)
		}
		if r := s.Result(); r.Bidder != tc.wantBidder || r.Bid != tc.wantBid {
			t.Errorf("%s: result bidder %d bid %d", name, r.Bidder, r.Bid)
		}
	}
}

// AP-BID-1: a bid must be higher than the high bid, within pass or 1..4,
// by the seat whose turn it is; a refusal changes nothing (C-7).
func TestAPBid1Refused(t *testing.T) {
	g := MustNewGame(Auction)
	s := apBase.start(t, g, nil)
	assertRefused(t, &s, Bid(2, 1), "seat 1's turn", "not seat 2's")
	assertRefused(t, &s, Bid(1, 5), "may not bid 5", "pass, 1, 2, 3, 4")
	assertRefused(t, &s, Bid(1, 0), "may not bid 0", "pass, 1, 2, 3, 4")
	assertRefused(t, &s, Play(1, MustParseCard("AH")), "may not play now", "bid or pass")
	apApply(t, &s, apActs(t, "1:b2"))
	assertRefused(t, &s, Bid(2, 1), "may not bid 1", "pass, 3, 4")
	assertRefused(t, &s, Bid(1, 3), "seat 2's turn") // seat 1 has had its one bid
	apApply(t, &s, apActs(t, "2:b3 3:p 0:p"))
	assertRefused(t, &s, Bid(2, 4), "seat 2 may not bid now", "the action is play")
	assertRefused(t, &s, Pass(2), "seat 2 may not pass now", "the action is play")
}

// AP-BID-2: a bid of 4 ends the auction at once: nobody after the pitcher
// bids, the dealer may not steal it.
func TestAPBid2Pitch(t *testing.T) {
	tests := []struct {
		script string
		pitch  int
	}{
		{"1:b4", 1},
		{"1:b2 2:b4", 2},
		{"1:p 2:p 3:b4", 3},
		{"1:b1 2:p 3:b3 0:b4", 0},
	}
	for _, tc := range tests {
		s := apBase.start(t, MustNewGame(Auction), nil)
		apApply(t, &s, apActs(t, tc.script))
		if s.Phase() != PhasePlay || s.Bidder() != tc.pitch || s.HighBid() != 4 || s.Turn() != tc.pitch {
			t.Errorf("[%s]: phase %s bidder %d bid %d turn %d, want play by pitcher %d at 4",
				tc.script, s.Phase(), s.Bidder(), s.HighBid(), s.Turn(), tc.pitch)
		}
		for seat := range 4 {
			if seat != tc.pitch {
				assertRefused(t, &s, Bid(seat, 4), "seat "+strconv.Itoa(tc.pitch)+"'s turn to play")
				assertRefused(t, &s, Pass(seat), "seat "+strconv.Itoa(tc.pitch)+"'s turn to play")
			}
		}
		for _, a := range s.Legal(nil) {
			if a.Kind != ActPlay {
				t.Errorf("[%s]: after a pitch of 4, %s is legal", tc.script, a)
			}
		}
	}
	// The dealer never gets the chance to match 4: with a high bid of 3 the
	// dealer may steal 3 or bid 4, nothing more.
	s := apBase.start(t, MustNewGame(Auction), nil)
	apApply(t, &s, apActs(t, "1:b3 2:p 3:p"))
	if got := apBidLegal(&s); got != "pass 3 4" {
		t.Errorf("dealer after a 3: %q, want %q", got, "pass 3 4")
	}
}

// AP-BID-3: only the dealer may bid the same number as the high bid (1, 2
// or 3), and then becomes the pitcher.
func TestAPBid3Steal(t *testing.T) {
	tests := []struct {
		players int
		script  string // up to the dealer's turn (dealer 0)
		legal   string
		steal   int
	}{
		{4, "1:b1 2:p 3:p", "pass 1 2 3 4", 1},
		{4, "1:p 2:b2 3:p", "pass 2 3 4", 2},
		{4, "1:b1 2:b2 3:b3", "pass 3 4", 3},
		{2, "1:b2", "pass 2 3 4", 2},
		{2, "1:b3", "pass 3 4", 3},
	}
	for _, tc := range tests {
		g := MustNewGame(Auction, WithPlayers(tc.players))
		s := Deal(g, 0, nil, rand.New(rand.NewPCG(7, 8)))
		apApply(t, &s, apActs(t, tc.script))
		if got := apBidLegal(&s); got != tc.legal {
			t.Errorf("[%s] dealer may %q, want %q", tc.script, got, tc.legal)
		}
		apApply(t, &s, []Action{Bid(0, tc.steal)})
		if s.Phase() != PhasePlay || s.Bidder() != 0 || s.HighBid() != tc.steal || s.Turn() != 0 {
			t.Errorf("[%s] dealer steals %d: phase %s bidder %d bid %d turn %d", tc.script, tc.steal, s.Phase(), s.Bidder(), s.HighBid(), s.Turn())
		}
	}
	// A non-dealer may not match the high bid.
	s := apBase.start(t, MustNewGame(Auction), nil)
	apApply(t, &s, apActs(t, "1:b2"))
	assertRefused(t, &s, Bid(2, 2), "may not bid 2", "pass, 3, 4")
	apApply(t, &s, apActs(t, "2:p"))
	assertRefused(t, &s, Bid(3, 2), "may not bid 2", "pass, 3, 4")
}

// AP-BID-4: if everyone before the dealer passed, the dealer must bid 2 or more.
func TestAPBid4DealerMustBid(t *testing.T) {
	for _, players := range []int{2, 3, 4, 7} {
		g := MustNewGame(Auction, WithPlayers(players))
		s := Deal(g, 0, nil, rand.New(rand.NewPCG(9, 10)))
		for seat := 1; seat < players; seat++ {
			apApply(t, &s, []Action{Pass(seat)})
		}
		if got := apBidLegal(&s); got != "2 3 4" {
			t.Errorf("%d players, all passed: dealer may %q, want %q", players, got, "2 3 4")
		}
		assertRefused(t, &s, Pass(0), "dealer", "must bid", "2, 3, 4")
		assertRefused(t, &s, Bid(0, 1), "may not bid 1", "2, 3, 4")
		apApply(t, &s, []Action{Bid(0, 2)})
		if s.Phase() != PhasePlay || s.Bidder() != 0 || s.HighBid() != 2 {
			t.Errorf("%d players: dealer's forced 2: phase %s bidder %d bid %d", players, s.Phase(), s.Bidder(), s.HighBid())
		}
	}
	// Once someone has bid, the dealer may pass.
	s := apBase.start(t, MustNewGame(Auction), nil)
	apApply(t, &s, apActs(t, "1:p 2:p 3:b1 0:p"))
	if s.Bidder() != 3 || s.Phase() != PhasePlay {
		t.Errorf("dealer's pass after a 1: bidder %d phase %s, want 3, play", s.Bidder(), s.Phase())
	}
}

// AP-PLAY-1: the pitcher leads the first trick with any card; its suit is trump.
func TestAPPlay1PitcherLeads(t *testing.T) {
	for _, lead := range []string{"AH", "KC", "3D", "KS", "5C"} {
		s := apBase.start(t, MustNewGame(Auction), nil)
		apApply(t, &s, apActs(t, "1:b2 2:p 3:p 0:p"))
		if s.Turn() != 1 || s.Trump() != NoSuit {
			t.Fatalf("after the auction: turn %d trump %s, want pitcher 1, no trump", s.Turn(), s.Trump())
		}
		if got, want := apPlayLegal(t, &s), s.Hand(1).String(); got != want {
			t.Errorf("pitcher's lead: legal %s, want the whole hand %s", got, want)
		}
		for _, seat := range []int{0, 2, 3} {
			assertRefused(t, &s, Play(seat, s.Hand(seat).First()), "seat 1's turn to play")
		}
		c := MustParseCard(lead)
		apApply(t, &s, []Action{Play(1, c)})
		if s.Trump() != c.Suit() {
			t.Errorf("pitcher led %s: trump %s, want %s", c, s.Trump(), c.Suit())
		}
		if r := s.Result(); r.Trump != c.Suit() {
			t.Errorf("pitcher led %s: result trump %s", c, r.Trump)
		}
	}
}

// AP-PLAY-2: with a plain suit led, a seat holding it follows or trumps;
// with trump led, a seat holding trump plays trump; otherwise any card.
func TestAPPlay2Follow(t *testing.T) {
	tests := []struct {
		name   string
		deal   apDeal
		bids   string
		before int // plays made before the check
		want   string
	}{
		{"trump led, holds trump", apBase, "1:b2 2:p 3:p 0:p", 1, "2H 5H"},
		{"trump led, holds one trump", apBase, "1:b2 2:p 3:p 0:p", 3, "JH"},
		{"plain led, holds suit and trump", apBase, "1:b2 2:p 3:p 0:p", 5, "6C TC 2H"},
		{"plain led, holds suit and trumps", apBase, "1:b2 2:p 3:p 0:p", 6, "3C 7H 8H"},
		{"plain led, holds suit only", apBase, "1:b2 2:p 3:p 0:p", 7, "7C QC AC"},
		{"plain led, holds only trump", apBase, "1:b2 2:p 3:p 0:p", 22, "8H"},
		{"trump led, holds no trump", apTeams, "1:b2 2:p 3:b3 0:p", 9, "QC 2H TH 2S"},
		{"plain led, holds trump but not the suit", apPlay3, "1:b2 0:p", 3, "QD AD 2H KH 3S"},
		{"lone trump led", apLone("JH"), "1:b2 2:p 3:p 0:p", 1, "2C 6C 3D 5D 4S 8S"},
		{"leader, any card", apBase, "1:b2 2:p 3:p 0:p", 4, "4C 5C KC 3D KS"},
	}
	for _, tc := range tests {
		g := apGame(tc.deal)
		s := tc.deal.start(t, g, nil)
		apApply(t, &s, append(apActs(t, tc.bids), tc.deal.plays(t)[:tc.before]...))
		if got := apPlayLegal(t, &s); got != tc.want {
			t.Errorf("%s: legal %s, want %s", tc.name, got, tc.want)
		}
	}

	s := apBase.start(t, MustNewGame(Auction), nil)
	apApply(t, &s, apActs(t, "1:b2 2:p 3:p 0:p 1:AH"))
	assertRefused(t, &s, Play(2, MustParseCard("TC")), "seat 2 must follow trump", "2H, 5H")
	assertRefused(t, &s, Play(2, MustParseCard("AC")), "seat 2 does not hold AC", "may play 2H, 5H")
	apApply(t, &s, apActs(t, "2:5H 3:6H 0:JH 1:KC"))
	assertRefused(t, &s, Play(2, MustParseCard("AC")), "seat 2 does not hold AC", "may play 6C, TC, 2H")
	assertRefused(t, &s, Play(2, MustParseCard("4D")), "seat 2 must follow C or play a trump", "6C, TC, 2H")
}

// AP-PLAY-3: highest trump wins, else the highest of the suit led; the
// winner leads next; a hand is 6 tricks.
func TestAPPlay3Tricks(t *testing.T) {
	tests := []struct {
		name    string
		deal    apDeal
		bids    string
		winners [6]int
	}{
		{"apBase", apBase, "1:b2 2:p 3:p 0:p", [6]int{1, 3, 0, 0, 1, 3}},
		{"apPlay3", apPlay3, "1:b2 0:p", [6]int{0, 0, 1, 0, 1, 1}},
		{"apTeams", apTeams, "1:b2 2:p 3:b3 0:p", [6]int{3, 1, 1, 1, 2, 0}},
		{"apTie", apTie, "1:b2 0:p", [6]int{1, 0, 1, 0, 0, 1}},
	}
	for _, tc := range tests {
		g := apGame(tc.deal)
		s := tc.deal.start(t, g, nil)
		apApply(t, &s, apActs(t, tc.bids))
		plays := tc.deal.plays(t)
		per := tc.deal.players
		for trick := range 6 {
			if s.Terminal() {
				t.Fatalf("%s: hand over before trick %d", tc.name, trick+1)
			}
			apApply(t, &s, plays[trick*per:(trick+1)*per])
			if s.Tricks() != trick+1 {
				t.Errorf("%s: %d tricks finished, want %d", tc.name, s.Tricks(), trick+1)
			}
			w := tc.winners[trick]
			if got := int(s.lastWon); got != w {
				t.Errorf("%s trick %d (%s): won by %d, want %d", tc.name, trick+1, tc.deal.tricks[trick], got, w)
			}
			if trick < 5 && s.Turn() != w {
				t.Errorf("%s trick %d: next lead by %d, want winner %d", tc.name, trick+1, s.Turn(), w)
			}
		}
		if !s.Terminal() || s.Turn() != -1 || s.Phase() != PhaseDone {
			t.Errorf("%s: not over after 6 tricks (phase %s)", tc.name, s.Phase())
		}
		assertRefused(t, &s, Play(0, MustParseCard("AC")), "hand is over")
	}
}

// AP-PT-1 to AP-PT-5: High, Low, Jack and Game, and the lone trump.
func TestAPPoints(t *testing.T) {
	tests := []struct {
		name   string
		deal   apDeal
		opts   []Option
		bids   string
		points string
		taken  []int
	}{
		// AP-PT-1 High to the winner of AH; AP-PT-2 Low to the winner of the
		// trick holding 2H (not its holder); AP-PT-3 Jack to the winner of the
		// trick holding JH (played by seat 0); AP-PT-4 Game to seat 0 (24).
		{"base", apBase, nil, "1:b2 2:p 3:p 0:p", "high AH 1, low 2H 3, jack JH 1, game 0", []int{1, 2, 0, 1}},
		// AP-PT-2 option low_to_holder: Low to seat 2, who was dealt 2H.
		{"low_to_holder", apBase, []Option{WithLowToHolder(true)}, "1:b2 2:p 3:p 0:p", "high AH 1, low 2H 2, jack JH 1, game 0", []int{1, 2, 1, 0}},
		{"sweep", apSweep, nil, "1:b4", "high AS 1, low 2S 1, jack JS 1, game 1", []int{0, 4, 0, 0}},
		// AP-PT-1, AP-PT-2: "in play" is what was dealt: QD is high when AD
		// and KD lie undealt. AP-PT-4 in partnerships: team 0+2 (16) beats
		// team 1+3 (13) though seat 1 alone has the most (11); the point is
		// credited to seat 0, the team's lowest seat.
		{"teams", apTeams, []Option{WithPartnerships(true)}, "1:b2 2:p 3:b3 0:p", "high QD 3, low 2D 1, jack JD 1, game 0", []int{1, 3, 1, 3}},
		{"teams played alone", apTeams, nil, "1:b2 2:p 3:b3 0:p", "high QD 3, low 2D 1, jack JD 1, game 1", []int{0, 3, 0, 1}},
		// AP-PT-5: a lone trump is High and Low; AP-PT-3: JH undealt, no Jack.
		{"lone 9H", apLone("9H"), nil, "1:b2 2:p 3:p 0:p", "high 9H 1, low 9H 1, game 0", []int{1, 2, 0, 0}},
		// AP-PT-5: a lone jack scores 3.
		{"lone JH", apLone("JH"), nil, "1:b2 2:p 3:p 0:p", "high JH 1, low JH 1, jack JH 1, game 0", []int{1, 3, 0, 0}},
		// AP-PT-4: a tie for the most card value (18 each) gives no Game point.
		{"game tie", apTie, nil, "1:b2 0:p", "high AH 1, low 2H 1", []int{0, 2}},
	}
	for _, tc := range tests {
		s := tc.deal.run(t, apGame(tc.deal, tc.opts...), nil, tc.bids)
		r := s.Result()
		if got := apPoints(r.Points); got != tc.points {
			t.Errorf("%s: points %q, want %q", tc.name, got, tc.points)
		}
		if !slices.Equal(r.Taken, tc.taken) {
			t.Errorf("%s: taken %v, want %v", tc.name, r.Taken, tc.taken)
		}
	}
}

// AP-PT-*: before the hand is over, only points whose card lies in a
// finished trick count, and never Game (HAND-RECORD.md, incomplete records).
func TestAPPointsIncomplete(t *testing.T) {
	tests := []struct {
		plays  int
		points string
	}{
		{0, ""},
		{3, ""}, // AH and JH still in the open first trick
		{4, "high AH 1, jack JH 1"},
		{7, "high AH 1, jack JH 1"}, // 2H lies in the open second trick
		{8, "high AH 1, low 2H 3, jack JH 1"},
		{23, "high AH 1, low 2H 3, jack JH 1"}, // Game only once the hand is over
		{24, "high AH 1, low 2H 3, jack JH 1, game 0"},
	}
	for _, tc := range tests {
		s := apBase.start(t, MustNewGame(Auction), []int{1, 2, 3, 4})
		apApply(t, &s, append(apActs(t, "1:b2 2:p 3:p 0:p"), apBase.plays(t)[:tc.plays]...))
		r := s.Result()
		if got := apPoints(r.Points); got != tc.points {
			t.Errorf("after %d plays: points %q, want %q", tc.plays, got, tc.points)
		}
		if tc.plays < 24 && (r.Complete || !slices.Equal(r.Delta, []int{0, 0, 0, 0}) || !slices.Equal(r.Scores, []int{1, 2, 3, 4}) || r.Winner != nil) {
			t.Errorf("after %d plays: incomplete result %+v", tc.plays, r)
		}
	}
}

// AP-SC-1, AP-SC-2: a pitcher who makes the bid scores every point taken,
// else loses the bid (scores may go negative); the others score what they took.
func TestAPScore(t *testing.T) {
	tests := []struct {
		name   string
		deal   apDeal
		opts   []Option
		bids   string
		scores []int
		made   bool
		delta  []int
	}{
		{"made exactly", apBase, nil, "1:b2 2:p 3:p 0:p", []int{0, 0, 0, 0}, true, []int{1, 2, 0, 1}},
		{"made with more than the bid", apBase, nil, "1:b1 2:p 3:p 0:p", []int{0, 0, 0, 0}, true, []int{1, 2, 0, 1}},
		{"set", apBase, nil, "1:b3 2:p 3:p 0:p", []int{0, 1, 0, 0}, false, []int{1, -3, 0, 1}},
		{"set at 4", apBase, nil, "1:b4", []int{0, -2, 0, 0}, false, []int{1, -4, 0, 1}},
		{"dealer steals and is set", apBase.withDealer(1), nil, "2:p 3:b3 0:p 1:b3", []int{0, 0, 0, 0}, false, []int{1, -3, 0, 1}},
		{"pitch 4 made", apSweep, nil, "1:b4", []int{0, 0, 0, 0}, true, []int{0, 4, 0, 0}},
		{"lone jack makes 3", apLone("JH"), nil, "1:b3 2:p 3:p 0:p", []int{0, 0, 0, 0}, true, []int{1, 3, 0, 0}},
		{"game tie sets 3", apTie, nil, "1:b3 0:p", []int{2, 1}, false, []int{0, -3}},
		// In partnerships the team's points count toward the bid and both
		// partners score alike (AP-END-1: read "player" as "team").
		{"team makes on the partner's points", apTeams, []Option{WithPartnerships(true)}, "1:b2 2:p 3:b3 0:p", []int{0, 0, 0, 0}, true, []int{1, 3, 1, 3}},
		{"team set", apTeams, []Option{WithPartnerships(true)}, "1:b2 2:p 3:b4", []int{0, 0, 0, 0}, false, []int{1, -4, 1, -4}},
		{"same cards alone: pitcher set", apTeams, nil, "1:b2 2:p 3:b3 0:p", []int{0, 0, 0, 0}, false, []int{0, 3, 0, -3}},
	}
	for _, tc := range tests {
		s := tc.deal.run(t, apGame(tc.deal, tc.opts...), tc.scores, tc.bids)
		r := s.Result()
		if !r.Complete || r.Made != tc.made {
			t.Errorf("%s: complete %v made %v, want made %v", tc.name, r.Complete, r.Made, tc.made)
		}
		if !slices.Equal(r.Delta, tc.delta) {
			t.Errorf("%s: delta %v, want %v", tc.name, r.Delta, tc.delta)
		}
		want := make([]int, len(tc.scores))
		for i := range want {
			want[i] = tc.scores[i] + tc.delta[i]
		}
		if !slices.Equal(r.Scores, want) || !slices.Equal(s.NewScores(), want) {
			t.Errorf("%s: scores %v / %v, want %v", tc.name, r.Scores, s.NewScores(), want)
		}
	}
}

// AP-END-1: only the pitcher (pitcher's team) can win, at the end of a hand
// they pitched, with a score at least the target — even when set
// (reading 9). Others never win on a hand they did not pitch.
func TestAPEnd1(t *testing.T) {
	tests := []struct {
		name   string
		deal   apDeal
		opts   []Option
		bids   string
		scores []int
		winner []int
	}{
		// apBase: seat 1 pitches and takes 2; seat 0 takes 1, seat 3 takes 1.
		{"pitcher reaches 7", apBase, nil, "1:b2 2:p 3:p 0:p", []int{0, 5, 0, 0}, []int{1}},
		{"pitcher short of 7", apBase, nil, "1:b2 2:p 3:p 0:p", []int{0, 4, 0, 0}, nil},
		{"others reach 7, pitcher does not", apBase, nil, "1:b2 2:p 3:p 0:p", []int{6, 4, 0, 9}, nil},
		{"pitcher wins with less than another", apBase, nil, "1:b2 2:p 3:p 0:p", []int{20, 5, 0, 0}, []int{1}},
		{"pitcher set yet at 7", apBase, nil, "1:b3 2:p 3:p 0:p", []int{12, 10, 0, 6}, []int{1}},
		{"pitcher set below 7", apBase, nil, "1:b3 2:p 3:p 0:p", []int{12, 9, 0, 6}, nil},
		{"target 11 not reached", apBase, []Option{WithTarget(11)}, "1:b2 2:p 3:p 0:p", []int{0, 8, 0, 0}, nil},
		{"target 11 reached", apBase, []Option{WithTarget(11)}, "1:b2 2:p 3:p 0:p", []int{10, 9, 0, 0}, []int{1}},
		{"target 1", apTie, []Option{WithTarget(1)}, "1:b2 0:p", []int{0, 0}, []int{1}},
		{"team wins", apTeams, []Option{WithPartnerships(true)}, "1:b2 2:p 3:b3 0:p", []int{3, 5, 3, 5}, []int{1, 3}},
		{"other team at target does not win", apTeams, []Option{WithPartnerships(true)}, "1:b2 2:p 3:b3 0:p", []int{7, 0, 7, 0}, nil},
	}
	for _, tc := range tests {
		s := tc.deal.run(t, apGame(tc.deal, tc.opts...), tc.scores, tc.bids)
		if got := s.Result().Winner; !slices.Equal(got, tc.winner) {
			t.Errorf("%s: winner %v, want %v", tc.name, got, tc.winner)
		}
		if got := s.Winners(); !slices.Equal(got, tc.winner) {
			t.Errorf("%s: Winners() %v, want %v", tc.name, got, tc.winner)
		}
	}
}
