// Package tui is `pitch play`: a match against bots in the terminal. The
// model is driven by key presses; legal moves only; `?` asks the search
// bot for advice.
package tui

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"pitch"
	"pitch/bot"
	"pitch/i18n"
)

// Config sets up a match.
type Config struct {
	Game  *pitch.Game
	Seat  int    // the human's seat, from 0 (the screen numbers seats from 1)
	Level string // bot level for the other seats: easy, medium or hard
	Seed  uint64
	Delay time.Duration // pause before a bot acts, so people can follow
	Lang  string        // the language of the screen (i18n); "" for English
	Look  Look          // how cards are drawn; the zero Look is letters without escape codes
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
	p        *i18n.Printer // says the screen's words in cfg.Lang
	width    int           // the terminal's size, once it has said (0 before)
	height   int
	lines    bool // line mode (RunLines): choices numbered for typing
}

// t says message id of the catalog with its parameters, given as name,
// value pairs.
func (m *Model) t(id string, kv ...any) string {
	data := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		data[kv[i].(string)] = kv[i+1]
	}
	return m.p.T(id, data)
}

// botMsg asks the model to let the bot to act make its move.
type botMsg struct{}

// New returns the model of a fresh match.
func New(cfg Config) (*Model, error) {
	if cfg.Seat < 0 || cfg.Seat >= cfg.Game.Seats() {
		return nil, fmt.Errorf("seat %d is not a seat: seats are 1 to %d", cfg.Seat+1, cfg.Game.Seats())
	}
	if cfg.Level == "" {
		cfg.Level = "medium"
	}
	if l := strings.ToLower(cfg.Level); !slices.Contains(bot.Levels, l) {
		return nil, fmt.Errorf("unknown level %q: the levels are %s", cfg.Level, strings.Join(bot.Levels, ", "))
	}
	if cfg.Lang == "" {
		cfg.Lang = "en"
	}
	m := &Model{cfg: cfg, match: pitch.NewMatch(cfg.Game, cfg.Seed), rng: pitch.NewRand(cfg.Seed ^ 0xb07),
		adv: &bot.Search{Worlds: 60}, p: i18n.New(cfg.Lang)}
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
		if !m.botMove() {
			return m, nil
		}
		return m, m.schedule()
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		return m.key(msg.String())
	}
	return m, nil
}

// botMove lets the bot whose turn it is make its move, and reports
// whether one did (none does while the human is to act, a hand's result
// is shown or the match is over).
func (m *Model) botMove() bool {
	s := m.match.State()
	if m.match.Over() || m.recap != nil || s.Turn() == m.cfg.Seat {
		return false
	}
	m.apply(bot.Decide(m.bots[s.Turn()], s, m.rng))
	return true
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
		for _, c := range pitch.SortHand(s.Hand(seat), s.Trump(), s.Game().Jokers()) {
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
		for i, c := range pitch.SortHand(s.Hand(seat), s.Trump(), s.Game().Jokers()) {
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
			m.msg = m.t("tui.badCard", "Typed", m.typed)
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
		m.msg = m.refusal(err) // C-7: the refusal says what is allowed
		return
	}
	m.msg, m.cursor, m.chosen, m.typed, m.advice = "", 0, 0, "", nil
	line := m.describe(a)
	if forced {
		line += m.t("tui.forcedNote")
	}
	m.log = append(m.log, line)
	if len(m.match.Records()) > hands {
		last := m.match.LastHand()
		m.recap = last
		r := last.Result()
		made := m.t("tui.set")
		if r.Made {
			made = m.t("tui.made")
		}
		m.sheet = append(m.sheet, m.t("tui.sheetLine", "N", fmt.Sprintf("%2d", len(m.match.Records())),
			"Who", m.seatName(r.Bidder), "Bid", r.Bid, "Made", made, "Deltas", ints(r.Delta, "%+d", " "), "Scores", ints(r.Scores, "%d", " ")))
	}
}

// refusal is a refused action in the screen's language: its code's
// message (err.CODE, as the web table says it) with its parameters in
// words of the language, or the engine's English when the catalog has no
// message for the code.
func (m *Model) refusal(err error) string {
	var ae *pitch.ActionError
	if !errors.As(err, &ae) || ae.Code == "" {
		return err.Error()
	}
	id := "err." + ae.Code
	kv := []any{"Rule", ae.Rule}
	for k, v := range ae.Params {
		switch v := v.(type) {
		case []string:
			var cs []pitch.Card
			for _, x := range v {
				if c, err := pitch.ParseCard(x); err == nil {
					cs = append(cs, c)
				}
			}
			kv = append(kv, k, m.cardList(cs))
		case string:
			if c, err := pitch.ParseCard(v); err == nil {
				kv = append(kv, k, m.card(c))
			} else if i := strings.Index("CDHS", v); k == "Suit" && len(v) == 1 && i >= 0 {
				kv = append(kv, k, m.suitName(pitch.Suit(i)))
			} else {
				kv = append(kv, k, v)
			}
		case []int:
			kv = append(kv, k, ints(v, "%d", ", "))
		case int:
			if k == "Seat" || k == "Turn" {
				v++ // people count seats from 1
			}
			kv = append(kv, k, v)
		default:
			kv = append(kv, k, v)
		}
	}
	if text := m.t(id, kv...); text != id {
		return text
	}
	return ae.Problem
}

// ints writes xs with format, joined by sep.
func ints(xs []int, format, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf(format, x)
	}
	return strings.Join(parts, sep)
}

func (m *Model) seatName(seat int) string {
	if seat == m.cfg.Seat {
		return m.t("tui.you")
	}
	return m.t("tui.seatN", "N", seat+1)
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
	// Each verb has a message for "you" and one for the others.
	keys := verbKeys[0]
	if you {
		keys = verbKeys[1]
	}
	switch a.Kind {
	case pitch.ActBid:
		return m.t(keys["bid"], "Bid", a.Bid)
	case pitch.ActPass:
		return m.t(keys["pass"])
	case pitch.ActCall:
		return m.t(keys["call"], "Card", m.card(a.Card))
	case pitch.ActTrump:
		return m.t(keys["trump"], "Suit", m.suitName(a.Suit))
	case pitch.ActGiveStock:
		if a.Give {
			return m.t(keys["give"])
		}
		return m.t(keys["keep"])
	case pitch.ActDiscard:
		if you || m.cfg.Game.Variant == pitch.TenPoint {
			return m.t(keys["discard"], "Cards", m.cards(a.Cards))
		}
		return m.t("tui.they.discardN", "Count", a.Cards.Len())
	case pitch.ActPassTrumps:
		if you || (int(a.Seat)+2)%4 == m.cfg.Seat {
			return m.t(keys["passTrumps"], "Cards", m.cards(a.Cards))
		}
		return m.t("tui.they.passTrumpsN", "Count", a.Cards.Len())
	case pitch.ActPlay:
		return m.t(keys["play"], "Card", m.card(a.Card))
	}
	return m.t(keys["nothing"])
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
		line := pad(m.what(o.Action, true), 30) + " " + m.t("tui.adviceLine", "Points", fmt.Sprintf("%+.2f", o.Value))
		if o.Action.Kind == pitch.ActBid && o.Won > 0 {
			line += m.t("tui.adviceMake", "Pct", fmt.Sprintf("%.0f", 100*o.Made))
		}
		m.advice = append(m.advice, line)
	}
	// Say what the list leaves out, so that no legal choice goes missing
	// without a word.
	if n := len(opts) - maxAdvice; n > 0 {
		m.advice = append(m.advice, m.t("tui.adviceMore", "Count", n))
	}
	if n := len(legal) - len(opts); n > 0 {
		m.advice = append(m.advice, m.t("tui.adviceNotWeighed", "Count", n))
	}
}

// verbKeys are the messages of each action: [0] for others, [1] for you.
var verbKeys = [2]map[string]string{
	{"bid": "tui.they.bid", "pass": "tui.they.pass", "call": "tui.they.call", "trump": "tui.they.trump", "give": "tui.they.give",
		"keep": "tui.they.keep", "discard": "tui.they.discard", "passTrumps": "tui.they.passTrumps", "play": "tui.they.play", "nothing": "tui.they.nothing"},
	{"bid": "tui.you.bid", "pass": "tui.you.pass", "call": "tui.you.call", "trump": "tui.you.trump", "give": "tui.you.give",
		"keep": "tui.you.keep", "discard": "tui.you.discard", "passTrumps": "tui.you.passTrumps", "play": "tui.you.play", "nothing": "tui.you.nothing"},
}

// maxAdvice is the number of options the advice lists, best first.
const maxAdvice = 5
