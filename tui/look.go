package tui

import (
	"runtime"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"pitch"
)

// Look is how the screen draws cards. The zero Look is plain letters
// ("AS JS 10H" as "AS JS TH"), with no escape code anywhere: what a pipe,
// a file or a dumb terminal gets.
type Look struct {
	// Symbols draws a card as its rank and suit symbol ("A♠", "10♥"), the
	// jokers by name, as the web table writes cards in running text.
	Symbols bool
	// Color draws hearts and diamonds in red (SGR 31), and cards of the
	// last trick dim, with escape codes.
	Color bool
}

// DetectLook decides how to draw cards from the environment (getenv) and
// whether standard output is a terminal:
//
//   - not a terminal (a pipe, a file), or TERM "dumb" or unset (but on
//     Windows, whose consoles set none): letters,
//     no escape codes (and `pitch play` reads lines instead of keys);
//   - NO_COLOR set to anything but "" (no-color.org): letters, no colour;
//   - otherwise: suit symbols, hearts and diamonds in red.
//
// Symbols go with colour: without red, ♥ and ♦ are told from ♠ and ♣ by
// shape only, so a terminal asked for no colour gets the letters that
// people type (AS, TH) instead.
func DetectLook(getenv func(string) string, terminal bool) Look {
	if !Interactive(getenv, terminal) || getenv("NO_COLOR") != "" {
		return Look{}
	}
	return Look{Symbols: true, Color: true}
}

// Interactive reports whether the terminal can be driven by keys and
// escape codes: standard output is a terminal and TERM names one other
// than "dumb" (on Windows, where consoles set no TERM, any but "dumb").
func Interactive(getenv func(string) string, terminal bool) bool {
	term := getenv("TERM")
	return terminal && term != "dumb" && (term != "" || runtime.GOOS == "windows")
}

// suitSym is each suit's symbol, in the order of pitch.Suit.
var suitSym = [...]string{pitch.Clubs: "♣", pitch.Diamonds: "♦", pitch.Hearts: "♥", pitch.Spades: "♠"}

const (
	red   = "\x1b[31m"
	dim   = "\x1b[2m"
	undim = "\x1b[22m"
	noFg  = "\x1b[39m"
)

// card is c as the look draws it.
func (m *Model) card(c pitch.Card) string {
	l := m.cfg.Look
	if !l.Symbols {
		return c.String()
	}
	switch c {
	case pitch.BigJoker:
		return m.t("card.bigJoker")
	case pitch.LittleJoker:
		return m.t("card.littleJoker")
	}
	s := c.String()
	rank := s[:1]
	if rank == "T" {
		rank = "10"
	}
	text := rank + suitSym[c.Suit()]
	if l.Color && c.Suit().Red() {
		return red + text + noFg
	}
	return text
}

// cards draws a set of cards, separated by spaces.
func (m *Model) cards(set pitch.CardSet) string {
	return m.cardList(set.Cards())
}

func (m *Model) cardList(cs []pitch.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = m.card(c)
	}
	return strings.Join(parts, " ")
}

// faint marks s as past (the last trick's cards, between tricks): dim
// when the look has colour, in brackets otherwise.
func (m *Model) faint(s string) string {
	switch {
	case s == "":
		return s
	case !m.cfg.Look.Color:
		return "(" + s + ")"
	}
	return dim + s + undim
}

// suitName is a suit's name with its symbol (in red for hearts and
// diamonds when the look has colour), or the name alone in letters.
func (m *Model) suitName(s pitch.Suit) string {
	if s >= pitch.NoSuit {
		return "-"
	}
	name := m.t(suitKeys[s])
	if !m.cfg.Look.Symbols {
		return name
	}
	sym := suitSym[s]
	if m.cfg.Look.Color && s.Red() {
		sym = red + sym + noFg
	}
	return sym + " " + name
}

// suitKeys name the suits in the catalog.
var suitKeys = [...]string{pitch.Clubs: "suit.C", pitch.Diamonds: "suit.D", pitch.Hearts: "suit.H", pitch.Spades: "suit.S"}

// Width is the display width of a line of the screen: escape codes take
// no room, East Asian wide and fullwidth characters two columns, others
// (ambiguous ones among them: ♠, →, Greek letters) one, as terminals
// outside a CJK legacy mode draw them and as bubbletea counts them.
func Width(line string) int { return ansi.StringWidth(line) }

// pad fills s with spaces to w columns of display width.
func pad(s string, w int) string {
	if n := w - Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// nbHyphen stands for a hyphen while a line is wrapped.
const nbHyphen = "\u2011"

// wrap breaks text into lines of at most width columns, at spaces where
// it can (Japanese, with none, anywhere), keeping escape codes whole.
func wrap(text string, width int) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if Width(line) <= width {
			out = append(out, line)
			continue
		}
		// No break at a hyphen: not in a rule ID (PW-DIS-2) nor a score (-2).
		line = strings.ReplaceAll(line, "-", nbHyphen)
		for _, l := range strings.Split(ansi.Wrap(line, width, ""), "\n") {
			out = append(out, strings.ReplaceAll(strings.TrimRight(l, " "), nbHyphen, "-"))
		}
	}
	return out
}
