// Package tui is `pitch play`: a match against bots in the terminal. The
// model is driven by key presses; legal moves only; `?` asks the search
// bot for advice.
package tui

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"pitch"
	"pitch/bot"
)

// Config sets up a match.
type Config struct {
	Game  *pitch.Game
	Seat  int    // the human's seat
	Level string // bot level for the other seats: easy, medium or hard
	Seed  uint64
	Delay time.Duration // pause before a bot acts, so people can follow
}

// Model is the bubbletea model of a match in the terminal.
type Model struct {
	cfg      Config
	match    *pitch.Match
	bots     []bot.Bot
	rng      *rand.Rand
	adv      *bot.Search
	cursor   int           // index into the choices of the human's decision
	chosen   pitch.CardSet // cards toggled for a discard, burn or pass
	typed    string        // a card being typed for a pawnee call
	msg      string        // the last refusal or notice
	advice   []string      // the last advice asked for with ?
	sheet    []string      // the score sheet, one line per finished hand
	recap    *pitch.State  // the finished hand being shown, until a key is pressed
	log      []string      // what happened in this hand, newest last
	seen     int           // actions of this hand already logged
	thinking bool          // a bot move is scheduled
	quit     bool
}

// botMsg asks the model to let the bot to act make its move.
type botMsg struct{}

// New returns the model of a fresh match.
func New(cfg Config) (*Model, error) {
	if cfg.Seat < 0 || cfg.Seat >= cfg.Game.Seats() {
		return nil, fmt.Errorf("seat %d is not a seat: seats are 0 to %d", cfg.Seat, cfg.Game.Seats()-1)
	}
	if cfg.Level == "" {
		cfg.Level = "medium"
	}
	if l := strings.ToLower(cfg.Level); l != "easy" && l != "medium" && l != "hard" {
		return nil, fmt.Errorf("unknown level %q: the levels are easy, medium and hard", cfg.Level)
	}
	m := &Model{cfg: cfg, match: pitch.NewMatch(cfg.Game, cfg.Seed), rng: pitch.NewRand(cfg.Seed ^ 0xb07),
		adv: &bot.Search{Worlds: 60}}
	for range cfg.Game.Seats() {
		b, _ := bot.New(cfg.Level)
		m.bots = append(m.bots, b)
	}
	return m, nil
}

// Match returns the match being played.
func (m *Model) Match() *pitch.Match { return m.match }

// Init schedules the first bot move, if a bot starts.
func (m *Model) Init() tea.Cmd { return m.schedule() }

func (m *Model) schedule() tea.Cmd {
	if m.match.Over() || m.recap != nil || m.thinking || m.match.State().Turn() == m.cfg.Seat {
		return nil
	}
	m.thinking = true
	if m.cfg.Delay <= 0 {
		return func() tea.Msg { return botMsg{} }
	}
	return tea.Tick(m.cfg.Delay, func(time.Time) tea.Msg { return botMsg{} })
}

// Update handles key presses and bot moves.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case botMsg:
		m.thinking = false
		s := m.match.State()
		if m.match.Over() || m.recap != nil || s.Turn() == m.cfg.Seat {
			return m, nil
		}
		m.apply(bot.Decide(m.bots[s.Turn()], s, m.rng))
		return m, m.schedule()
	case tea.KeyPressMsg:
		return m.key(msg.String())
	}
	return m, nil
}

func (m *Model) key(k string) (tea.Model, tea.Cmd) {
	if k == "q" || k == "ctrl+c" {
		m.quit = true
		return m, tea.Quit
	}
	if m.recap != nil {
		if k == "enter" || k == "space" {
			m.recap = nil
			m.log, m.seen = nil, 0
		}
		return m, m.schedule()
	}
	if m.match.Over() || m.match.State().Turn() != m.cfg.Seat {
		return m, nil
	}
	s := m.match.State()
	choices := m.choices()
	switch k {
	case "?":
		m.advise()
		return m, nil
	case "left", "up", "h", "k":
		if m.cursor > 0 {
			m.cursor--
		}
	case "right", "down", "l", "j":
		if m.cursor < len(choices)-1 {
			m.cursor++
		}
	case "space":
		if m.multi() && m.cursor < len(choices) {
			m.chosen ^= choices[m.cursor].Card.Set()
		}
	case "backspace":
		if len(m.typed) > 0 {
			m.typed = m.typed[:len(m.typed)-1]
		}
	case "enter":
		if a, ok := m.decision(choices); ok {
			m.apply(a)
			return m, m.schedule()
		}
	default:
		if s.Phase() == pitch.PhaseCall && len(k) == 1 {
			m.typed = strings.ToUpper(m.typed + k)
			if len(m.typed) > 3 {
				m.typed = m.typed[len(m.typed)-3:]
			}
		}
	}
	return m, nil
}

// multi reports whether the human picks several cards (discard, burn, pass).
func (m *Model) multi() bool {
	p := m.match.State().Phase()
	return p == pitch.PhaseDiscard || p == pitch.PhasePassBurn
}

// choices lists what the cursor moves over: the legal actions, or for
// several-card decisions the cards of the hand (Card set).
func (m *Model) choices() []pitch.Action {
	s := m.match.State()
	seat := m.cfg.Seat
	switch s.Phase() {
	case pitch.PhaseDiscard, pitch.PhasePassBurn:
		var out []pitch.Action
		for _, c := range sortedHand(s.Hand(seat), s.Trumps()) {
			out = append(out, pitch.Action{Kind: pitch.ActNone, Seat: int8(seat), Card: c})
		}
		return out
	case pitch.PhaseCall:
		return nil
	}
	legal := s.Legal(nil)
	if s.Phase() == pitch.PhasePlay {
		// In the order the hand is shown.
		pos := map[pitch.Card]int{}
		for i, c := range sortedHand(s.Hand(seat), s.Trumps()) {
			pos[c] = i
		}
		sort.SliceStable(legal, func(i, j int) bool { return pos[legal[i].Card] < pos[legal[j].Card] })
	}
	return legal
}

// decision turns the cursor, the toggled cards or the typed card into an action.
func (m *Model) decision(choices []pitch.Action) (pitch.Action, bool) {
	s := m.match.State()
	seat := m.cfg.Seat
	switch s.Phase() {
	case pitch.PhaseCall:
		c, err := pitch.ParseCard(m.typed)
		if err != nil {
			m.msg = err.Error()
			return pitch.Action{}, false
		}
		return pitch.Call(seat, c), true
	case pitch.PhaseDiscard:
		return pitch.Discard(seat, m.chosen), true
	case pitch.PhasePassBurn:
		_, _, k := s.DiscardChoice()
		if m.chosen.Len() == k && s.Hand(seat).Len()-k == 6 {
			return pitch.Discard(seat, m.chosen), true
		}
		return pitch.PassTrumps(seat, m.chosen), true
	}
	if m.cursor >= len(choices) {
		return pitch.Action{}, false
	}
	return choices[m.cursor], true
}

// apply carries out a, for the human or a bot, and keeps the log, sheet and recap.
func (m *Model) apply(a pitch.Action) {
	hands := len(m.match.Records())
	forced := a.Kind == pitch.ActBid && !slices.Contains(m.match.State().Legal(nil), pitch.Pass(int(a.Seat)))
	if err := m.match.Apply(a); err != nil {
		m.msg = err.Error() // C-7: the refusal says what is allowed
		return
	}
	m.msg, m.cursor, m.chosen, m.typed, m.advice = "", 0, 0, "", nil
	line := m.describe(a)
	if forced {
		line += " (the dealer, who may not pass when everyone else has)"
	}
	m.log = append(m.log, line)
	if len(m.match.Records()) > hands {
		last := m.match.LastHand()
		m.recap = last
		r := last.Result()
		m.sheet = append(m.sheet, fmt.Sprintf("hand %2d  bidder %s bid %d %s  %s  → %s", len(m.match.Records()),
			m.seatName(r.Bidder), r.Bid, madeWord(r.Made), ints(r.Delta), ints(r.Scores)))
	}
}

func madeWord(made bool) string {
	if made {
		return "made"
	}
	return "set "
}

func ints(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%+d", x)
	}
	return strings.Join(parts, " ")
}

func (m *Model) seatName(seat int) string {
	if seat == m.cfg.Seat {
		return "you"
	}
	return fmt.Sprintf("seat %d", seat)
}

// describe tells an action as the table sees it ("you bid 2", "seat 3
// bids 2"): hidden cards stay hidden.
func (m *Model) describe(a pitch.Action) string {
	who := m.seatName(int(a.Seat))
	return who + " " + m.what(a, int(a.Seat) == m.cfg.Seat)
}

// what tells an action without its subject, the verb in the second person
// for the human (you) and the third for the others.
func (m *Model) what(a pitch.Action, you bool) string {
	verb := func(v string) string {
		if you {
			return v
		}
		if strings.HasSuffix(v, "s") {
			return v + "es"
		}
		return v + "s"
	}
	switch a.Kind {
	case pitch.ActBid:
		return fmt.Sprintf("%s %d", verb("bid"), a.Bid)
	case pitch.ActPass:
		return verb("pass")
	case pitch.ActCall:
		return verb("call") + " " + a.Card.String()
	case pitch.ActTrump:
		return verb("name") + " trump " + suitName(a.Suit)
	case pitch.ActGiveStock:
		if a.Give {
			return verb("give") + " the rest of the stock to the partner"
		}
		return verb("keep") + " the rest of the stock"
	case pitch.ActDiscard:
		if you || m.cfg.Game.Variant == pitch.TenPoint {
			return fmt.Sprintf("%s %s", verb("discard"), a.Cards)
		}
		return fmt.Sprintf("%s %d cards", verb("discard"), a.Cards.Len())
	case pitch.ActPassTrumps:
		if you || (int(a.Seat)+2)%4 == m.cfg.Seat {
			return fmt.Sprintf("%s %s to the partner", verb("pass"), a.Cards)
		}
		return fmt.Sprintf("%s %d trumps to the partner", verb("pass"), a.Cards.Len())
	case pitch.ActPlay:
		return verb("play") + " " + a.Card.String()
	}
	if you {
		return "do nothing"
	}
	return "does nothing"
}

// advise asks the search bot what it would do, with its reasons.
func (m *Model) advise() {
	s := m.match.State()
	v := s.View(m.cfg.Seat)
	legal := s.Legal(nil)
	opts := m.adv.Analyze(bot.Request{View: &v, Legal: legal, Rand: pitch.NewRand(m.cfg.Seed + uint64(len(m.match.History())))})
	sort.SliceStable(opts, func(i, j int) bool { return opts[i].Value > opts[j].Value })
	m.advice = nil
	for i, o := range opts {
		if i == maxAdvice {
			break
		}
		line := fmt.Sprintf("%-36s expected %+.2f points", m.what(o.Action, true), o.Value)
		if o.Action.Kind == pitch.ActBid && o.Won > 0 {
			line += fmt.Sprintf(", makes it %.0f%% of the time when it wins the bid", 100*o.Made)
		}
		m.advice = append(m.advice, line)
	}
	// Say what the list leaves out, so that no legal choice goes missing
	// without a word.
	if n := len(opts) - maxAdvice; n > 0 {
		m.advice = append(m.advice, fmt.Sprintf("(%d more weighed, each expected to do worse)", n))
	}
	if n := len(legal) - len(opts); n > 0 {
		m.advice = append(m.advice, fmt.Sprintf("(%d other legal choices were not weighed: too many to try them all)", n))
	}
}

// maxAdvice is the number of options the advice lists, best first.
const maxAdvice = 5

// sortedHand orders a hand for display: by suit, trumps last, high to low.
func sortedHand(h, trumps pitch.CardSet) []pitch.Card {
	cards := h.Cards()
	key := func(c pitch.Card) int {
		k := int(c.Suit())*20 + int(c.Rank())
		if c.IsJoker() {
			k = 100 + int(c)
		}
		if trumps.Has(c) {
			k += 200
		}
		return k
	}
	sort.Slice(cards, func(i, j int) bool { return key(cards[i]) > key(cards[j]) })
	return cards
}
