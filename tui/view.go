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
	} else if v.Phase == pitch.PhasePlay && g.Variant == pitch.Auction {
		fmt.Fprintf(&b, "Trump: not yet — the pitcher's first card sets it\n")
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
		b.WriteString(bidPrompt(choices))
	case pitch.PhaseGiveStock:
		m.renderFill(b, s)
	case pitch.PhasePlay:
		if m.cfg.Game.Variant == pitch.Auction && s.Trump() == pitch.NoSuit {
			b.WriteString("You are the pitcher and lead: the suit of your first card becomes trump for the hand.\n")
		}
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
			label = m.what(c, true)
		}
		if i == m.cursor {
			label = "> " + label + " <"
		}
		b.WriteString(" " + label + " ")
	}
	b.WriteString("\n")
}

// bidPrompt introduces the bids offered. When passing is not among them,
// the seat is the dealer and everyone else passed: it says so, and which
// bids the rules leave (from the legal actions, not worked out again here).
func bidPrompt(legal []pitch.Action) string {
	var bids []string
	canPass := false
	for _, a := range legal {
		switch a.Kind {
		case pitch.ActPass:
			canPass = true
		case pitch.ActBid:
			bids = append(bids, fmt.Sprint(a.Bid))
		}
	}
	if canPass || len(bids) == 0 {
		return "Your bid:\n"
	}
	which := "exactly " + bids[0]
	if len(bids) > 1 {
		which = strings.Join(bids[:len(bids)-1], ", ") + " or " + bids[len(bids)-1]
	}
	return fmt.Sprintf("Everyone else passed, so you, the dealer, may not pass: you must bid %s.\nYour bid:\n", which)
}

// renderFill tells the pitcher deciding on the stock (TP-TR-3, TP-TR-4)
// what the fill gave each seat and what is left for the pitcher or the
// partner.
func (m *Model) renderFill(b *strings.Builder, s *pitch.State) {
	v := s.View(m.cfg.Seat)
	var drew []string
	for seat := range s.Seats() {
		drew = append(drew, fmt.Sprintf("%s drew %d", m.seatName(seat), v.FillGot[seat]))
	}
	fmt.Fprintf(b, "The fill: each seat drew from the stock up to 6 cards and kept only the trumps: %s.\n", strings.Join(drew, ", "))
	fmt.Fprintf(b, "%d cards are left in the stock, unseen: keep them, or give them to your partner.\n", v.StockLeft)
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
	outcome := map[bool]string{true: "made it", false: "was set"}[r.Made]
	if r.Bidder == m.cfg.Seat && !r.Made {
		outcome = "were set"
	}
	fmt.Fprintf(b, "Hand over: %s bid %d and %s.\n", m.seatName(r.Bidder), r.Bid, outcome)
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
