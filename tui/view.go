package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"pitch"
)

// View draws the table from the human seat's view only.
func (m *Model) View() tea.View {
	return tea.NewView(m.Render())
}

// Render returns the screen as text (View wraps it for bubbletea).
func (m *Model) Render() string {
	var b strings.Builder
	g := m.cfg.Game
	s := m.match.State()
	if m.recap != nil {
		s = m.recap
	}
	v := s.View(m.cfg.Seat)
	fmt.Fprintf(&b, "pitch — %s, target %d, you are seat %d", g.Variant, g.Options.Target, m.cfg.Seat)
	fmt.Fprintf(&b, "   (arrows choose, enter confirms, space toggles a card, ? advice, q quits)\n\n")

	// Scores and seats.
	for seat := range g.Seats() {
		marks := ""
		if seat == v.Dealer {
			marks += " dealer"
		}
		if seat == v.Bidder && v.Phase > pitch.PhaseBid {
			marks += fmt.Sprintf(" bidder (%d)", v.Bid)
		}
		if v.PartnerKnown && seat == v.Partner {
			marks += " partner"
		}
		if seat == v.Turn {
			marks += "  ← to act"
		}
		fmt.Fprintf(&b, "  %-7s score %4d  cards %2d%s\n", m.seatName(seat), v.Scores[seat], v.Counts[seat], marks)
	}
	b.WriteString("\n")
	if v.Trump != pitch.NoSuit {
		fmt.Fprintf(&b, "Trump: %s", suitName(v.Trump))
		if v.Called != pitch.NoCard {
			fmt.Fprintf(&b, "   called card: %s", v.Called)
		}
		b.WriteString("\n")
	} else if v.Phase == pitch.PhaseBid {
		fmt.Fprintf(&b, "Bidding: high bid %d", v.Bid)
		if v.Bidder >= 0 {
			fmt.Fprintf(&b, " by %s", m.seatName(v.Bidder))
		}
		b.WriteString("\n")
	}
	if v.Shown != 0 {
		fmt.Fprintf(&b, "Shown out of play: %s\n", v.Shown)
	}
	if len(v.Trick) > 0 {
		b.WriteString("Trick: ")
		for i, c := range v.Trick {
			fmt.Fprintf(&b, "%s %s   ", m.seatName(v.TrickSeat[i]), c)
		}
		b.WriteString("\n")
	}
	if len(v.Last) > 0 {
		b.WriteString("Last trick: ")
		for i, c := range v.Last {
			fmt.Fprintf(&b, "%s %s  ", m.seatName(v.LastSeat[i]), c)
		}
		fmt.Fprintf(&b, "→ %s\n", m.seatName(v.LastWon))
	}
	b.WriteString("\nYour hand: ")
	for _, c := range sortedHand(v.Hand, s.Trumps()) {
		b.WriteString(c.String() + " ")
	}
	b.WriteString("\n\n")

	if m.recap != nil {
		m.renderRecap(&b, m.recap)
	} else if m.match.Over() {
		fmt.Fprintf(&b, "Match over. Winner: %s. Press q to quit.\n", m.names(m.match.Winner()))
	} else if v.Turn == m.cfg.Seat {
		m.renderChoices(&b)
	} else {
		fmt.Fprintf(&b, "Waiting for %s…\n", m.seatName(v.Turn))
	}
	if m.msg != "" {
		fmt.Fprintf(&b, "\n! %s\n", m.msg)
	}
	if len(m.advice) > 0 {
		b.WriteString("\nAdvice (search bot):\n")
		for _, a := range m.advice {
			b.WriteString("  " + a + "\n")
		}
	}
	if len(m.log) > 0 {
		b.WriteString("\nThis hand:\n")
		start := max(0, len(m.log)-8)
		for _, l := range m.log[start:] {
			b.WriteString("  " + l + "\n")
		}
	}
	if len(m.sheet) > 0 {
		b.WriteString("\nScore sheet:\n")
		for _, l := range m.sheet {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

func (m *Model) names(seats []int) string {
	var parts []string
	for _, s := range seats {
		parts = append(parts, m.seatName(s))
	}
	return strings.Join(parts, " and ")
}

func suitName(s pitch.Suit) string {
	return [...]string{"clubs ♣", "diamonds ♦", "hearts ♥", "spades ♠", "-"}[s]
}

func (m *Model) renderChoices(b *strings.Builder) {
	s := m.match.State()
	choices := m.choices()
	switch s.Phase() {
	case pitch.PhaseCall:
		fmt.Fprintf(b, "Call a card (not a joker): its suit becomes trump and its holder your partner.\nType it, e.g. AH, then enter: %s_\n", m.typed)
		return
	case pitch.PhaseDiscard:
		must, pool, k := s.DiscardChoice()
		fmt.Fprintf(b, "Discard %d cards: %s.\n", k+must.Len(), discardRule(must, pool, k))
	case pitch.PhasePassBurn:
		must, pool, k := s.DiscardChoice()
		fmt.Fprintf(b, "You hold more than 6 trumps. Burn %d (%s)", k+must.Len(), discardRule(must, pool, k))
		if lim := s.PassLimit(); lim > 0 {
			fmt.Fprintf(b, ", or first pass 1 to %d trumps to your partner (toggle them, enter)", lim)
		}
		b.WriteString(".\n")
	case pitch.PhaseBid:
		b.WriteString("Your bid:\n")
	case pitch.PhasePlay:
		b.WriteString("Play a card:\n")
	}
	for i, c := range choices {
		label := ""
		if m.multi() {
			label = c.Card.String()
			if m.chosen.Has(c.Card) {
				label = "[" + label + "]"
			}
		} else {
			label = strings.TrimPrefix(m.describe(c), "you ")
		}
		if i == m.cursor {
			label = "> " + label + " <"
		}
		b.WriteString(" " + label + " ")
	}
	b.WriteString("\n")
}

// discardRule explains the discard constraints before a wrong pick (PW-DIS, TP-TR-5).
func discardRule(must, pool pitch.CardSet, k int) string {
	switch {
	case must == 0:
		return fmt.Sprintf("any %d of %s", k, pool)
	case k == 0:
		return fmt.Sprintf("exactly %s", must)
	}
	return fmt.Sprintf("all of %s, and %d of %s", must, k, pool)
}

func (m *Model) renderRecap(b *strings.Builder, s *pitch.State) {
	r := s.Result()
	fmt.Fprintf(b, "Hand over: %s bid %d and was %s.\n", m.seatName(r.Bidder), r.Bid, map[bool]string{true: "made", false: "set"}[r.Made])
	for _, p := range r.Points {
		card := ""
		if p.Card != pitch.NoCard {
			card = " (" + p.Card.String() + ")"
		}
		fmt.Fprintf(b, "  %-12s%s → %s\n", p.Kind, card, m.seatName(int(p.Seat)))
	}
	for seat := range s.Seats() {
		fmt.Fprintf(b, "  %-7s took %2d  score %+d → %d\n", m.seatName(seat), r.Taken[seat], r.Delta[seat], r.Scores[seat])
	}
	if r.Winner != nil {
		fmt.Fprintf(b, "Match won by %s!\n", m.names(r.Winner))
	}
	b.WriteString("Press enter to continue.\n")
}
