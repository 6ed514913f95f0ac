package tui

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"pitch"
)

// RunLines plays the match in line mode, for output that is not a
// terminal (a pipe, a file) or a dumb terminal: no escape code and no
// raw keys. The bots move at once; whenever the human is to act, a hand
// is over or the match ends, the screen is printed (the same screen as
// on a terminal, its choices numbered from 1) and one line is read:
//
//   - a number: that choice; for a discard or a burn, the numbers (or the
//     names) of all the cards to put out, separated by spaces;
//   - a card (AH, 10H or TH): in a call, the card called; in play, the
//     card played;
//   - ? asks for advice, q quits; after a hand's result any line goes on.
//
// It returns when the match is over, q is typed or the input ends (nil),
// or when reading fails.
func RunLines(m *Model, in io.Reader, out io.Writer) error {
	m.lines = true
	sc := bufio.NewScanner(in)
	for first := true; ; first = false {
		for m.botMove() {
		}
		if !first {
			fmt.Fprintln(out) // a blank line between screens
		}
		if _, err := fmt.Fprintln(out, m.Render()); err != nil {
			return err
		}
		if m.match.Over() {
			return nil
		}
		fmt.Fprint(out, "> ")
		if !sc.Scan() {
			fmt.Fprintln(out)
			return sc.Err()
		}
		if !m.line(strings.TrimSpace(sc.Text())) {
			return nil
		}
	}
}

// line carries out a typed line, and reports false when it says to quit.
func (m *Model) line(text string) bool {
	if text == "q" || text == "Q" {
		m.key("q")
		return false
	}
	if m.recap != nil {
		m.key("enter")
		return true
	}
	if text == "?" {
		m.key("?")
		return true
	}
	m.msg = ""
	choices := m.choices()
	switch {
	case m.match.State().Phase() == pitch.PhaseCall:
		m.typed = text
		m.key("enter")
		return true
	case m.multi():
		var chosen pitch.CardSet
		for _, f := range strings.Fields(text) {
			c, ok := pickCard(f, choices)
			if !ok {
				m.msg = m.t("tui.badPick", "Typed", f, "Max", len(choices))
				return true
			}
			chosen |= c.Set()
		}
		m.chosen = chosen
		m.key("enter")
		return true
	}
	for i, a := range choices {
		if n, err := strconv.Atoi(text); (err == nil && n == i+1) ||
			(a.Kind == pitch.ActPlay && isCard(text, a.Card)) {
			m.cursor = i
			m.key("enter")
			return true
		}
	}
	m.msg = m.t("tui.badChoice", "Typed", text, "Max", len(choices))
	return true
}

// pickCard is the card a typed word names among choices: its number, or
// its name.
func pickCard(word string, choices []pitch.Action) (pitch.Card, bool) {
	if n, err := strconv.Atoi(word); err == nil {
		if n >= 1 && n <= len(choices) {
			return choices[n-1].Card, true
		}
		return pitch.NoCard, false
	}
	for _, a := range choices {
		if isCard(word, a.Card) {
			return a.Card, true
		}
	}
	return pitch.NoCard, false
}

// isCard reports whether word names c as people type cards (C-3: "AH",
// "th" or "10H").
func isCard(word string, c pitch.Card) bool {
	got, err := pitch.ParseCard(word)
	return err == nil && got == c
}
