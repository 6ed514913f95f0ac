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
	b.WriteString(m.t("tui.header", "Game", g.Variant.String(), "Target", g.Options.Target, "Seat", m.cfg.Seat))
	b.WriteString(m.t("tui.keys") + "\n\n")

	// Scores and seats.
	for seat := range g.Seats() {
		marks := ""
		if seat == v.Dealer {
			marks += m.t("tui.mark.dealer")
		}
		if seat == v.Bidder && v.Phase > pitch.PhaseBid {
			marks += m.t("tui.mark.bidder", "Bid", v.Bid)
		}
		if v.PartnerKnown && seat == v.Partner {
			marks += m.t("tui.mark.partner")
		}
		if seat == v.Turn {
			marks += m.t("tui.mark.toAct")
		}
		fmt.Fprintf(&b, "  %-7s %s%s\n", m.seatName(seat), m.t("tui.seatStats", "Score", fmt.Sprintf("%4d", v.Scores[seat]), "Count", fmt.Sprintf("%2d", v.Counts[seat])), marks)
	}
	b.WriteString("\n")
	if v.Trump != pitch.NoSuit {
		b.WriteString(m.t("tui.trump", "Suit", m.suitName(v.Trump)))
		if v.Called != pitch.NoCard {
			b.WriteString(m.t("tui.called", "Card", v.Called.String()))
		}
		b.WriteString("\n")
	} else if v.Phase == pitch.PhaseBid {
		b.WriteString(m.t("tui.bidding", "Bid", v.Bid))
		if v.Bidder >= 0 {
			b.WriteString(m.t("tui.biddingBy", "Who", m.seatName(v.Bidder)))
		}
		b.WriteString("\n")
	} else if v.Phase == pitch.PhasePlay && g.Variant == pitch.Auction {
		b.WriteString(m.t("tui.trumpByLead") + "\n")
	}
	if v.Shown != 0 {
		b.WriteString(m.t("tui.shown", "Cards", v.Shown.String()) + "\n")
	}
	if len(v.Trick) > 0 {
		b.WriteString(m.t("tui.trick"))
		for i, c := range v.Trick {
			fmt.Fprintf(&b, "%s %s   ", m.seatName(v.TrickSeat[i]), c)
		}
		b.WriteString("\n")
	}
	if len(v.Last) > 0 {
		b.WriteString(m.t("tui.lastTrick"))
		for i, c := range v.Last {
			fmt.Fprintf(&b, "%s %s  ", m.seatName(v.LastSeat[i]), c)
		}
		fmt.Fprintf(&b, "→ %s\n", m.seatName(v.LastWon))
	}
	b.WriteString("\n" + m.t("tui.hand"))
	for _, c := range pitch.SortHand(v.Hand, v.Trump, v.Game.Jokers()) {
		b.WriteString(c.String() + " ")
	}
	b.WriteString("\n\n")

	if m.recap != nil {
		m.renderRecap(&b, m.recap)
	} else if m.match.Over() {
		b.WriteString(m.t("tui.over", "Who", m.names(m.match.Winner())) + "\n")
	} else if v.Turn == m.cfg.Seat {
		m.renderChoices(&b)
	} else {
		b.WriteString(m.t("tui.waiting", "Who", m.seatName(v.Turn)) + "\n")
	}
	if m.msg != "" {
		fmt.Fprintf(&b, "\n! %s\n", m.msg)
	}
	if len(m.advice) > 0 {
		b.WriteString("\n" + m.t("tui.advice") + "\n")
		for _, a := range m.advice {
			b.WriteString("  " + a + "\n")
		}
	}
	if len(m.log) > 0 {
		b.WriteString("\n" + m.t("tui.log") + "\n")
		start := max(0, len(m.log)-8)
		for _, l := range m.log[start:] {
			b.WriteString("  " + l + "\n")
		}
	}
	if len(m.sheet) > 0 {
		b.WriteString("\n" + m.t("tui.sheet") + "\n")
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
	return strings.Join(parts, m.t("tui.and"))
}

// suitKeys name the suits in the catalog.
var suitKeys = [...]string{pitch.Clubs: "suit.C", pitch.Diamonds: "suit.D", pitch.Hearts: "suit.H", pitch.Spades: "suit.S"}

func (m *Model) suitName(s pitch.Suit) string {
	if s >= pitch.NoSuit {
		return "-"
	}
	return m.t(suitKeys[s]) + " " + [...]string{"♣", "♦", "♥", "♠"}[s]
}

func (m *Model) renderChoices(b *strings.Builder) {
	s := m.match.State()
	choices := m.choices()
	switch s.Phase() {
	case pitch.PhaseCall:
		b.WriteString(m.t("tui.callPrompt", "Typed", m.typed) + "\n")
		return
	case pitch.PhaseDiscard:
		must, pool, k := s.DiscardChoice()
		b.WriteString(m.t("tui.discardPrompt", "Count", k+must.Len(), "Rule", m.discardRule(must, pool, k)) + "\n")
	case pitch.PhasePassBurn:
		must, pool, k := s.DiscardChoice()
		b.WriteString(m.t("tui.burnPrompt", "Count", k+must.Len(), "Rule", m.discardRule(must, pool, k)))
		if lim := s.PassLimit(); lim > 0 {
			b.WriteString(m.t("tui.burnPass", "Count", lim))
		}
		b.WriteString(".\n")
	case pitch.PhaseBid:
		b.WriteString(m.bidPrompt(choices))
	case pitch.PhaseGiveStock:
		m.renderFill(b, s)
	case pitch.PhasePlay:
		if m.cfg.Game.Variant == pitch.Auction && s.Trump() == pitch.NoSuit {
			b.WriteString(m.t("tui.leadSetsTrump") + "\n")
		}
		b.WriteString(m.t("tui.playPrompt") + "\n")
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
func (m *Model) bidPrompt(legal []pitch.Action) string {
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
		return m.t("tui.bidPrompt") + "\n"
	}
	which := m.t("tui.exactly", "Bid", bids[0])
	if len(bids) > 1 {
		which = m.t("tui.or", "List", strings.Join(bids[:len(bids)-1], ", "), "Last", bids[len(bids)-1])
	}
	return m.t("tui.forced", "Bids", which) + "\n" + m.t("tui.bidPrompt") + "\n"
}

// renderFill tells the pitcher deciding on the stock (TP-TR-3, TP-TR-4)
// what the fill gave each seat and what is left for the pitcher or the
// partner.
func (m *Model) renderFill(b *strings.Builder, s *pitch.State) {
	v := s.View(m.cfg.Seat)
	var drew []string
	for seat := range s.Seats() {
		drew = append(drew, m.t("tui.drew", "Who", m.seatName(seat), "Count", v.FillGot[seat]))
	}
	b.WriteString(m.t("tui.fill", "Drew", strings.Join(drew, ", ")) + "\n")
	b.WriteString(m.t("tui.stockLeft", "Count", v.StockLeft) + "\n")
}

// discardRule explains the discard constraints before a wrong pick (PW-DIS, TP-TR-5).
func (m *Model) discardRule(must, pool pitch.CardSet, k int) string {
	switch {
	case must == 0:
		return m.t("tui.anyOf", "Count", k, "Cards", pool.String())
	case k == 0:
		return m.t("tui.exactlyCards", "Cards", must.String())
	}
	return m.t("tui.allAnd", "Must", must.String(), "Count", k, "Pool", pool.String())
}

func (m *Model) renderRecap(b *strings.Builder, s *pitch.State) {
	r := s.Result()
	outcome := m.t(map[bool]string{true: "tui.madeIt", false: "tui.wasSet"}[r.Made])
	if r.Bidder == m.cfg.Seat && !r.Made {
		outcome = m.t("tui.wereSet")
	}
	b.WriteString(m.t("tui.handOver", "Who", m.seatName(r.Bidder), "Bid", r.Bid, "Outcome", outcome) + "\n")
	for _, p := range r.Points {
		card := ""
		if p.Card != pitch.NoCard {
			card = " (" + p.Card.String() + ")"
		}
		fmt.Fprintf(b, "  %-12s%s → %s\n", p.Kind, card, m.seatName(int(p.Seat)))
	}
	for seat := range s.Seats() {
		fmt.Fprintf(b, "  %-7s %s\n", m.seatName(seat), m.t("tui.took", "Taken", fmt.Sprintf("%2d", r.Taken[seat]), "Delta", fmt.Sprintf("%+d", r.Delta[seat]), "Score", r.Scores[seat]))
	}
	if r.Winner != nil {
		b.WriteString(m.t("tui.matchWon", "Who", m.names(r.Winner)) + "\n")
	}
	b.WriteString(m.t("tui.continue") + "\n")
}
