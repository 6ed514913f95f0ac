package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"pitch"
)

// run executes cmd and feeds the resulting messages back, as bubbletea's
// loop would, until nothing is left to do.
func run(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	for i := 0; cmd != nil; i++ {
		if i > 10000 {
			t.Fatal("the model never settles")
		}
		msg := cmd()
		if msg == nil {
			return
		}
		_, cmd = m.Update(msg)
	}
}

func press(t *testing.T, m *Model, keys ...string) {
	t.Helper()
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "space":
			msg = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		case "right":
			msg = tea.KeyPressMsg{Code: tea.KeyRight}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		_, cmd := m.Update(msg)
		run(t, m, cmd)
	}
}

// noHiddenCards fails if the screen shows a card another seat holds.
func noHiddenCards(t *testing.T, m *Model) {
	t.Helper()
	s := m.Match().State()
	screen := m.Render()
	for seat := range s.Seats() {
		if seat == m.cfg.Seat {
			continue
		}
		for _, c := range s.Hand(seat).Cards() {
			if c == s.Called() {
				continue // its name is public, not where it lies
			}
			if strings.Contains(screen, " "+c.String()+" ") || strings.Contains(screen, "["+c.String()+"]") {
				t.Fatalf("screen shows %s, held by seat %d:\n%s", c, seat, screen)
			}
		}
	}
}

// TestPlayScriptedHand drives `pitch play` with key presses to the end of a
// hand in every game: the human takes the first choice each time (toggling
// the first cards for a discard, typing a card for a call), bots play the
// other seats, and the hand's recap and score sheet appear.
func TestPlayScriptedHand(t *testing.T) {
	for _, v := range pitch.Variants {
		t.Run(v.String(), func(t *testing.T) {
			m, err := New(Config{Game: pitch.MustNewGame(v), Seat: 1, Level: "easy", Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			run(t, m, m.Init())
			for steps := 0; m.recap == nil; steps++ {
				if steps > 200 {
					t.Fatal("the hand did not end")
				}
				s := m.Match().State()
				if s.Turn() != 1 {
					t.Fatalf("waiting on seat %d with nothing scheduled", s.Turn())
				}
				noHiddenCards(t, m)
				switch s.Phase() {
				case pitch.PhaseCall:
					press(t, m, "A", "S", "enter")
				case pitch.PhaseDiscard, pitch.PhasePassBurn:
					must, pool, k := s.DiscardChoice()
					want := must | firstN(pool, k)
					for i, c := range m.choices() {
						for ; m.cursor < i; press(t, m, "right") {
						}
						if want.Has(c.Card) {
							press(t, m, "space")
						}
					}
					press(t, m, "enter")
				default:
					press(t, m, "enter")
				}
				if m.msg != "" {
					t.Fatalf("refused: %s", m.msg)
				}
			}
			screen := m.Render()
			for _, want := range []string{"Hand over", "Score sheet", "hand  1"} {
				if !strings.Contains(screen, want) {
					t.Errorf("screen lacks %q:\n%s", want, screen)
				}
			}
			if got := len(m.Match().Records()); got != 1 {
				t.Errorf("%d hands recorded, want 1", got)
			}
			rec := m.Match().Records()[0]
			res, err := rec.Score()
			if err != nil {
				t.Fatal(err)
			}
			for seat, want := range m.recap.Result().Scores {
				if res.Scores[seat] != want {
					t.Errorf("record scores seat %d at %d, the screen at %d", seat, res.Scores[seat], want)
				}
			}
			press(t, m, "enter") // on to the next hand
			if m.recap != nil && !m.Match().Over() {
				t.Error("enter did not close the recap")
			}
		})
	}
}

func firstN(set pitch.CardSet, k int) pitch.CardSet {
	var out pitch.CardSet
	for _, c := range set.Cards()[:k] {
		out |= c.Set()
	}
	return out
}

// TestPlayRefusalShown: a wrong discard is refused with the rule's reason
// and changes nothing (C-7, PW-DIS-2).
func TestPlayRefusalShown(t *testing.T) {
	m, err := New(Config{Game: pitch.MustNewGame(pitch.Pawnee), Seat: 0, Level: "easy", Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	run(t, m, m.Init())
	for m.Match().State().Phase() != pitch.PhaseDiscard || m.Match().State().Turn() != 0 {
		s := m.Match().State()
		if s.Turn() != 0 || m.recap != nil {
			t.Fatalf("stuck at %s, seat %d", s.Phase(), s.Turn())
		}
		if s.Phase() == pitch.PhaseCall {
			press(t, m, "K", "H", "enter")
			continue
		}
		press(t, m, "enter") // pass or the lowest bid
	}
	before := *m.Match().State()
	press(t, m, "enter") // nothing toggled: refused
	if !strings.Contains(m.msg, "discard 4 cards") || !strings.Contains(m.msg, "(PW-DIS-2)") {
		t.Errorf("message %q does not say what to discard", m.msg)
	}
	if *m.Match().State() != before {
		t.Error("a refused discard changed the hand")
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	g := pitch.MustNewGame(pitch.TenPoint)
	if _, err := New(Config{Game: g, Seat: 4}); err == nil || !strings.Contains(err.Error(), "seats are 1 to 4") {
		t.Errorf("seat 4: err = %v", err)
	}
	if _, err := New(Config{Game: g, Level: "master"}); err == nil || !strings.Contains(err.Error(), "easy, medium, hard, expert") {
		t.Errorf("level master: err = %v", err)
	}
	if _, err := New(Config{Game: g, Level: "expert"}); err != nil {
		t.Errorf("level expert: err = %v", err)
	}
}

// dealerModel returns a model whose human seat is the first hand's dealer,
// with every other seat's pass applied: the dealer is forced to bid.
func dealerModel(t *testing.T, g *pitch.Game) *Model {
	t.Helper()
	dealer := pitch.NewMatch(g, 5).State().Dealer()
	m, err := New(Config{Game: g, Seat: dealer, Level: "easy", Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for s := m.Match().State(); s.Turn() != dealer; {
		m.apply(pitch.Pass(s.Turn()))
	}
	return m
}

// TestPlayWords: the human's actions read "you bid 2", "you pass", the
// others' "seat 2 bids 2"; the forced dealer bid is explained with the
// bids the rules leave (AP-BID-4: 2, 3 or 4; TP-BID-2 and PW-BID-3:
// exactly the minimum) and marked as forced in the log.
func TestPlayWords(t *testing.T) {
	m := dealerModel(t, pitch.MustNewGame(pitch.Auction))
	me, other := m.cfg.Seat, (m.cfg.Seat+1)%4
	for a, want := range map[pitch.Action]string{
		pitch.Bid(me, 2): "you bid 2", pitch.Pass(me): "you pass", pitch.Play(me, pitch.MustParseCard("KD")): "you play KD",
		pitch.Bid(other, 2): fmt.Sprintf("seat %d bids 2", other+1), pitch.Pass(other): fmt.Sprintf("seat %d passes", other+1),
	} {
		if got := m.describe(a); got != want {
			t.Errorf("%v reads %q, want %q", a, got, want)
		}
	}
	for _, tc := range []struct {
		g    *pitch.Game
		want string
	}{
		{pitch.MustNewGame(pitch.Auction), "you must bid 2, 3 or 4"},
		{pitch.MustNewGame(pitch.TenPoint), "you must bid exactly 4"},
		{pitch.MustNewGame(pitch.Pawnee), "you must bid exactly 5"},
	} {
		m := dealerModel(t, tc.g)
		screen := m.Render()
		if !strings.Contains(screen, "Everyone else passed, so you, the dealer, may not pass: "+tc.want) {
			t.Errorf("%s: the forced bid is not explained as %q:\n%s", tc.g.Variant, tc.want, screen)
		}
		press(t, m, "enter")
		if !strings.Contains(m.Render(), "(the dealer, who may not pass when everyone else has)") {
			t.Errorf("%s: the log does not say the dealer's bid was forced:\n%s", tc.g.Variant, m.Render())
		}
	}
	// An unforced bid says nothing of the kind.
	if strings.Contains(m.Render(), "may not pass") && m.Match().State().Turn() != m.cfg.Seat {
		t.Errorf("a bid prompt while waiting:\n%s", m.Render())
	}
}

// TestPlayAuctionLead: the auction pitcher is told that its first card
// sets trump (AP-PLAY-1), and the choices come in the order the hand is
// shown.
func TestPlayAuctionLead(t *testing.T) {
	m := dealerModel(t, pitch.MustNewGame(pitch.Auction))
	press(t, m, "enter") // the forced bid of 2: the dealer pitches and leads
	s := m.Match().State()
	if s.Phase() != pitch.PhasePlay || s.Turn() != m.cfg.Seat {
		t.Fatalf("phase %s, seat %d to act; want the pitcher's lead", s.Phase(), s.Turn())
	}
	screen := m.Render()
	if !strings.Contains(screen, "the suit of your first card becomes trump") {
		t.Errorf("the first lead does not say it sets trump:\n%s", screen)
	}
	hand := pitch.SortHand(s.Hand(m.cfg.Seat), s.Trump(), s.Game().Jokers())
	choices := m.choices()
	if len(choices) != len(hand) {
		t.Fatalf("%d choices for a hand of %d", len(choices), len(hand))
	}
	for i, c := range choices {
		if c.Card != hand[i] {
			t.Fatalf("choices %v are not in the hand's order %v", choices, hand)
		}
	}
	press(t, m, "enter")
	if screen := m.Render(); strings.Contains(screen, "becomes trump") || !strings.Contains(screen, "Trump: ") {
		t.Errorf("after the lead the screen should name trump:\n%s", screen)
	}
}

// TestPlayFillShown: the ten-point pitcher deciding on the stock sees what
// the fill gave each seat and how many cards are left (TP-TR-3, TP-TR-4).
func TestPlayFillShown(t *testing.T) {
	m := dealerModel(t, pitch.MustNewGame(pitch.TenPoint))
	press(t, m, "enter") // bid 4
	press(t, m, "enter") // name the first suit offered
	s := m.Match().State()
	if s.Phase() != pitch.PhaseGiveStock || s.Turn() != m.cfg.Seat {
		t.Fatalf("phase %s, seat %d to act; want the pitcher's give_stock", s.Phase(), s.Turn())
	}
	v := s.View(m.cfg.Seat)
	screen := m.Render()
	var drew []string
	for seat := range 4 {
		drew = append(drew, fmt.Sprintf("%s drew %d", m.seatName(seat), v.FillGot[seat]))
	}
	flat := strings.Join(strings.Fields(screen), " ") // as read, across the lines it is wrapped to
	for _, want := range []string{"kept only the trumps: " + strings.Join(drew, ", ") + ".",
		fmt.Sprintf("%d cards are left in the stock", v.StockLeft)} {
		if !strings.Contains(flat, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
}

// TestAdviceSaysWhatItLeavesOut: the advice lists the best few options
// and says how many more it weighed and how many legal ones it did not.
func TestAdviceSaysWhatItLeavesOut(t *testing.T) {
	g := pitch.MustNewGame(pitch.Pawnee)
	m := dealerModel(t, g)
	press(t, m, "enter") // the forced 5: now the call, with 52 cards to call
	if m.Match().State().Phase() != pitch.PhaseCall {
		t.Fatalf("phase %s, want the call", m.Match().State().Phase())
	}
	press(t, m, "?")
	text := strings.Join(m.advice, "\n")
	if len(m.advice) < maxAdvice+2 || !strings.Contains(text, "more weighed, each expected to do worse") ||
		!strings.Contains(text, "other legal choices not weighed: ") {
		t.Errorf("advice for 52 calls:\n%s", text)
	}
}
