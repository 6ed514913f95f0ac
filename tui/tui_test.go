package tui

import (
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
	if !strings.Contains(m.msg, "must discard 4 cards") {
		t.Errorf("message %q does not say what to discard", m.msg)
	}
	if *m.Match().State() != before {
		t.Error("a refused discard changed the hand")
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	g := pitch.MustNewGame(pitch.TenPoint)
	if _, err := New(Config{Game: g, Seat: 4}); err == nil || !strings.Contains(err.Error(), "seats are 0 to 3") {
		t.Errorf("seat 4: err = %v", err)
	}
	if _, err := New(Config{Game: g, Level: "expert"}); err == nil || !strings.Contains(err.Error(), "easy, medium and hard") {
		t.Errorf("level expert: err = %v", err)
	}
}
