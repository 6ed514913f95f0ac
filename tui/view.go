package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"pitch"
)

// The screen is at most Cols columns wide and, unless the terminal says
// otherwise, Rows rows high: a whole screen of play fits an 80×24
// terminal, and no line is wider than 80 columns on a wider one.
const (
	Cols = 80
	Rows = 24
)

// View draws the table from the human seat's view only.
func (m *Model) View() tea.View {
	return tea.NewView(m.Render())
}

// size is the screen's width and height: the terminal's, at most Cols
// wide, Cols×Rows before the terminal has said.
func (m *Model) size() (int, int) {
	w, h := m.width, m.height
	if w <= 0 || w > Cols {
		w = Cols
	}
	if h <= 0 {
		h = Rows
	}
	return w, h
}

// Render returns the screen as text, one line per row (View wraps it for
// bubbletea). What must be seen comes first, cut to the screen's height
// only if nothing else is left: the header, the table's facts (the bid,
// trump, the trick's number, as the web table's), a row per seat with
// its score, its cards, its tricks, the card it played to the trick and
// its marks, the hand, the decision or the hand's result, a refusal, the
// advice asked for and the keys; then, in the rows left, the newest
// lines of this hand's log and of the score sheet.
func (m *Model) Render() string {
	w, h := m.size()
	var core []string
	add := func(text string) { core = append(core, wrap(text, w)...) }
	g := m.cfg.Game
	s := m.match.State()
	if m.recap != nil {
		s = m.recap
	}
	v := s.View(m.cfg.Seat)
	hand := len(m.match.Records()) + 1
	if m.recap != nil || m.match.Over() {
		hand--
	}
	add(m.t("tui.header", "Game", m.t(gameKeys[g.Variant]), "Target", g.Options.Target, "Seat", m.cfg.Seat+1) +
		" · " + m.t("table.handNo", "N", hand))
	add(m.info(&v))
	add("")
	for _, row := range m.seatRows(&v, s) {
		add(row)
	}
	if len(v.Trick) == 0 && len(v.Last) > 0 && m.recap == nil {
		add(m.t("trick.last", "Who", m.seatName(v.LastWon)))
	}
	if v.Shown != 0 {
		add(m.t("tui.shown", "Cards", m.cards(v.Shown)))
	}
	if v.Hand != 0 {
		add(m.t("tui.hand") + m.cardList(pitch.SortHand(v.Hand, v.Trump, v.Game.Jokers())))
	}
	add("")
	switch {
	case m.recap != nil:
		m.renderRecap(add, m.recap)
	case m.match.Over():
		add(m.t("tui.over", "Who", m.names(m.match.Winner())))
	case v.Turn == m.cfg.Seat:
		m.renderChoices(add)
	default:
		add(m.t("tui.waiting", "Who", m.seatName(v.Turn)))
	}
	if m.msg != "" {
		add("! " + m.msg)
	}
	if len(m.advice) > 0 {
		add(m.t("tui.advice"))
		for _, a := range m.advice {
			add("  " + a)
		}
	}
	keys := wrap(m.keysHelp(), w)
	room := h - len(core) - len(keys)
	var log, sheet []string
	if len(m.log) > 0 && m.recap == nil {
		log = m.tail(m.t("tui.log"), m.log, w, min(room, 9))
		room -= len(log)
	}
	if len(m.sheet) > 0 {
		sheet = m.tail(m.t("tui.sheet"), m.sheet, w, room)
	}
	lines := append(append(append(core, log...), sheet...), keys...)
	if len(lines) > h {
		// Only on a terminal too small for the table: the top of it.
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// tail is a titled section of the newest of items, in at most rows lines,
// none if not even the title and one line fit.
func (m *Model) tail(title string, items []string, w, rows int) []string {
	if rows < 2 {
		return nil
	}
	var body []string
	for i := len(items) - 1; i >= 0; i-- {
		l := wrap("  "+items[i], w)
		if len(body)+len(l) > rows-1 {
			break
		}
		body = append(l, body...)
	}
	if len(body) == 0 {
		return nil
	}
	return append([]string{title}, body...)
}

// keysHelp says which keys do what: arrows and enter on a terminal, typed
// lines in line mode.
func (m *Model) keysHelp() string {
	if m.lines {
		return m.t("tui.linesHelp")
	}
	return strings.TrimSpace(m.t("tui.keys"))
}

// gameKeys name the games in the catalog.
var gameKeys = map[pitch.Variant]string{pitch.Auction: "game.auction", pitch.TenPoint: "game.ten-point", pitch.Pawnee: "game.pawnee"}

// info is the table's facts, as the web table's bar of them says: the
// (high) bid and its bidder, trump, the called card and the partner
// (pawnee), the stock (ten-point), the trick being played.
func (m *Model) info(v *pitch.View) string {
	var items []string
	item := func(label, value string) { items = append(items, m.t("info.label", "Label", m.t(label))+value) }
	high := "info.bid"
	if v.Phase == pitch.PhaseBid {
		high = "info.highBid"
	}
	switch {
	case v.Bidder >= 0 && v.Bid == v.Game.MoonBid():
		item(high, m.t("info.moonBy", "Bid", v.Bid, "Who", m.seatName(v.Bidder)))
	case v.Bidder >= 0:
		item(high, m.t("info.bidBy", "Bid", v.Bid, "Who", m.seatName(v.Bidder)))
	case v.Phase == pitch.PhaseBid:
		item(high, m.t("info.noneYet"))
	}
	switch {
	case v.Trump != pitch.NoSuit:
		item("info.trump", m.suitName(v.Trump))
	case v.Game.Variant == pitch.Auction:
		item("info.trump", m.t("info.trumpByLead"))
	default:
		item("info.trump", m.t("info.notYet"))
	}
	if v.Game.Variant == pitch.Pawnee && v.Called != pitch.NoCard {
		item("info.called", m.card(v.Called))
		switch {
		case !v.PartnerKnown:
			item("info.partner", m.t("info.secret"))
		case v.Partner < 0:
			item("info.partner", m.t("info.alone"))
		default:
			item("info.partner", m.seatName(v.Partner))
		}
	}
	if v.Game.Variant == pitch.TenPoint && v.Phase != pitch.PhaseBid && v.Phase != pitch.PhasePlay && v.StockLeft > 0 {
		item("info.stock", m.t("count.cards", "Count", v.StockLeft))
	}
	if v.Phase == pitch.PhasePlay {
		item("info.trick", m.t("info.trickOf", "N", min(v.Tricks+1, 6)))
	}
	return strings.Join(items, " · ")
}

// seatRows is a row per seat, in columns: its name, its score and what it
// holds (or, once the hand is over, what it took and its new score), the
// card it played to the trick (the last trick's, faint, between tricks),
// and its marks (dealer, bid, partner, passed, team, to act).
func (m *Model) seatRows(v *pitch.View, s *pitch.State) []string {
	n := v.Game.Seats()
	names, stats, played, marks := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	if len(v.Trick) > 0 {
		for i, c := range v.Trick {
			played[v.TrickSeat[i]] = m.card(c)
		}
	} else if len(v.Last) > 0 && m.recap == nil {
		for i, c := range v.Last {
			played[v.LastSeat[i]] = m.faint(m.card(c))
		}
	}
	var r pitch.Result
	if m.recap != nil {
		r = s.Result()
	}
	for seat := range n {
		names[seat] = m.seatName(seat)
		if m.recap != nil {
			stats[seat] = m.t("tui.took", "Taken", r.Taken[seat], "Delta", fmt.Sprintf("%+d", r.Delta[seat]), "Score", r.Scores[seat])
		} else {
			stats[seat] = m.t("seat.score", "Score", v.Scores[seat]) + " · " + m.t("count.cards", "Count", v.Counts[seat])
			if v.Phase == pitch.PhasePlay || v.Tricks > 0 {
				stats[seat] += " · " + m.t("count.tricks", "Count", v.TrickWins[seat])
			}
		}
		var ms []string
		if seat == v.Dealer {
			ms = append(ms, m.t("badge.dealer"))
		}
		if seat == v.Bidder {
			key := "badge.bid"
			if v.Phase == pitch.PhaseBid {
				key = "badge.high"
			}
			ms = append(ms, m.t(key, "Bid", v.Bid))
		}
		if v.PartnerKnown && seat == v.Partner && seat != v.Bidder {
			ms = append(ms, m.t("badge.partner"))
		}
		if v.Phase == pitch.PhaseBid && v.Passed&(1<<seat) != 0 {
			ms = append(ms, m.t("badge.passed"))
		}
		if v.Game.FixedTeams() {
			ms = append(ms, m.t("badge.team", "Team", string(rune('A'+v.Game.Team(seat)))))
		}
		if seat == v.Turn && m.recap == nil && !m.match.Over() {
			ms = append(ms, strings.TrimSpace(m.t("tui.mark.toAct")))
		}
		marks[seat] = strings.Join(ms, m.t("tui.sep"))
	}
	nameW, statW, cardW := widest(names), widest(stats), widest(played)
	rows := make([]string, n)
	for seat := range n {
		row := "  " + pad(names[seat], nameW) + "  " + pad(stats[seat], statW)
		if cardW > 0 {
			row += "  " + pad(played[seat], cardW)
		}
		if marks[seat] != "" {
			row += "  " + marks[seat]
		}
		rows[seat] = strings.TrimRight(row, " ")
	}
	return rows
}

// widest is the display width of the widest of ss.
func widest(ss []string) int {
	w := 0
	for _, s := range ss {
		w = max(w, Width(s))
	}
	return w
}

func (m *Model) names(seats []int) string {
	var parts []string
	for _, s := range seats {
		parts = append(parts, m.seatName(s))
	}
	return strings.Join(parts, m.t("tui.and"))
}

func (m *Model) renderChoices(add func(string)) {
	s := m.match.State()
	choices := m.choices()
	switch s.Phase() {
	case pitch.PhaseCall:
		add(m.t("tui.callPrompt", "Typed", m.typed))
		return
	case pitch.PhaseDiscard:
		must, pool, k := s.DiscardChoice()
		add(m.t("tui.discardPrompt", "Count", k+must.Len(), "Rule", m.discardRule(must, pool, k)))
	case pitch.PhasePassBurn:
		must, pool, k := s.DiscardChoice()
		text := m.t("tui.burnPrompt", "Count", k+must.Len(), "Rule", m.discardRule(must, pool, k))
		if lim := s.PassLimit(); lim > 0 {
			text += m.t("tui.burnPass", "Count", lim)
		}
		add(text + ".")
	case pitch.PhaseBid:
		add(m.bidPrompt(choices))
	case pitch.PhaseGiveStock:
		m.renderFill(add, s)
	case pitch.PhasePlay:
		if m.cfg.Game.Variant == pitch.Auction && s.Trump() == pitch.NoSuit {
			add(m.t("tui.leadSetsTrump"))
		}
		add(m.t("tui.playPrompt"))
	}
	var b strings.Builder
	for i, c := range choices {
		label := ""
		if m.multi() {
			label = m.card(c.Card)
			if m.chosen.Has(c.Card) {
				label = "[" + label + "]"
			}
		} else {
			label = m.what(c, true)
		}
		switch {
		case m.lines:
			label = fmt.Sprintf("%d) %s", i+1, label)
		case i == m.cursor:
			label = "> " + label + " <"
		}
		b.WriteString(" " + label + " ")
	}
	add(b.String())
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
		return m.t("tui.bidPrompt")
	}
	which := m.t("tui.exactly", "Bid", bids[0])
	if len(bids) > 1 {
		which = m.t("tui.or", "List", strings.Join(bids[:len(bids)-1], m.t("tui.sep")), "Last", bids[len(bids)-1])
	}
	return m.t("tui.forced", "Bids", which) + "\n" + m.t("tui.bidPrompt")
}

// renderFill tells the pitcher deciding on the stock (TP-TR-3, TP-TR-4)
// what the fill gave each seat and what is left for the pitcher or the
// partner.
func (m *Model) renderFill(add func(string), s *pitch.State) {
	v := s.View(m.cfg.Seat)
	var drew []string
	for seat := range s.Seats() {
		drew = append(drew, m.t("tui.drew", "Who", m.seatName(seat), "Count", v.FillGot[seat]))
	}
	add(m.t("tui.fill", "Drew", strings.Join(drew, m.t("tui.sep"))))
	add(m.t("tui.stockLeft", "Count", v.StockLeft))
}

// discardRule explains the discard constraints before a wrong pick (PW-DIS, TP-TR-5).
func (m *Model) discardRule(must, pool pitch.CardSet, k int) string {
	switch {
	case must == 0:
		return m.t("tui.anyOf", "Count", k, "Cards", m.cards(pool))
	case k == 0:
		return m.t("tui.exactlyCards", "Cards", m.cards(must))
	}
	return m.t("tui.allAnd", "Must", m.cards(must), "Count", k, "Pool", m.cards(pool))
}

// pointKeys name the kinds of point in the catalog, as the web's hand
// result does.
var pointKeys = map[pitch.PointKind]string{
	pitch.PointHigh: "point.high", pitch.PointLow: "point.low", pitch.PointJack: "point.jack", pitch.PointOffJack: "point.off_jack",
	pitch.PointGame: "point.game", pitch.PointBigJoker: "point.big_joker", pitch.PointLittleJoker: "point.little_joker",
	pitch.PointTen: "point.ten", pitch.PointThree: "point.three", pitch.PointTwo: "point.two", pitch.PointAce: "point.ace",
}

// renderRecap tells the finished hand: the bid and whether it was made,
// the points and who took them (the seat rows say what each seat took
// and its new score), the match's winner, and how to go on.
func (m *Model) renderRecap(add func(string), s *pitch.State) {
	r := s.Result()
	outcome := m.t(map[bool]string{true: "tui.madeIt", false: "tui.wasSet"}[r.Made])
	if r.Bidder == m.cfg.Seat && !r.Made {
		outcome = m.t("tui.wereSet")
	}
	add(m.t("tui.handOver", "Who", m.seatName(r.Bidder), "Bid", r.Bid, "Outcome", outcome))
	var pts []string
	for _, p := range r.Points {
		pt := m.t(pointKeys[p.Kind])
		if p.Card != pitch.NoCard {
			pt += " " + m.card(p.Card)
		}
		pts = append(pts, pt+" → "+m.seatName(int(p.Seat)))
	}
	if len(pts) > 0 {
		add(strings.Join(pts, " · "))
	}
	if r.Winner != nil {
		add(m.t("tui.matchWon", "Who", m.names(r.Winner)))
	}
	if !m.lines || r.Winner == nil { // line mode ends with the match
		add(m.t("tui.continue"))
	}
}
