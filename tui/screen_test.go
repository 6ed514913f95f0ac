package tui

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pitch"
	"pitch/bot"
	"pitch/i18n"
)

// games are the tables the screen tests play: each game, the most seats
// auction takes, and partnerships.
func games() []*pitch.Game {
	return []*pitch.Game{
		pitch.MustNewGame(pitch.Auction), pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(7)),
		pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(6), pitch.WithPartnerships(true)),
		pitch.MustNewGame(pitch.TenPoint), pitch.MustNewGame(pitch.Pawnee),
	}
}

var (
	colour  = Look{Symbols: true, Color: true}
	escapes = regexp.MustCompile("\x1b\\[[0-9;]*m")
	symbols = regexp.MustCompile("[♠♥♦♣]")
)

// checkScreen fails unless the screen fits cols×rows with nothing cut
// (it ends with the keys' help), and has escape codes and suit symbols
// only as the look allows.
func checkScreen(t *testing.T, m *Model, what string) {
	t.Helper()
	screen := m.Render()
	lines := strings.Split(screen, "\n")
	if len(lines) > Rows {
		t.Fatalf("%s: %d rows, more than %d:\n%s", what, len(lines), Rows, screen)
	}
	for i, l := range lines {
		if w := Width(l); w > Cols {
			t.Fatalf("%s: row %d is %d columns wide: %q", what, i+1, w, l)
		}
	}
	if help := wrap(m.keysHelp(), Cols); !slices.Equal(lines[len(lines)-len(help):], help) {
		t.Fatalf("%s: the screen was cut (it does not end with the keys' help):\n%s", what, screen)
	}
	plain := escapes.ReplaceAllString(screen, "")
	if strings.Contains(plain, "\x1b") {
		t.Fatalf("%s: an escape code other than a colour's: %q", what, screen)
	}
	if !m.cfg.Look.Color && plain != screen {
		t.Fatalf("%s: escape codes without colour: %q", what, screen)
	}
	if !m.cfg.Look.Symbols && symbols.MatchString(screen) {
		t.Fatalf("%s: suit symbols in letters: %q", what, screen)
	}
}

// TestScreenFits80x24 plays whole matches of every game in every language
// and both looks, the human's moves chosen by a bot, and checks the
// screen after every move: at most 24 rows and 80 columns (display
// width: Japanese counts two columns a character), nothing cut, no
// escape code without colour. Each match also shows advice and a refusal
// (C-7) once.
func TestScreenFits80x24(t *testing.T) {
	for _, g := range games() {
		for _, l := range i18n.Languages {
			for _, look := range []Look{{}, colour} {
				name := fmt.Sprintf("%s-%d/%s/symbols=%v", g.Variant, g.Seats(), l.Tag, look.Symbols)
				t.Run(name, func(t *testing.T) {
					m, err := New(Config{Game: g, Seat: g.Seats() - 1, Level: "easy", Seed: 7, Lang: l.Tag, Look: look})
					if err != nil {
						t.Fatal(err)
					}
					me, _ := bot.New("easy")
					advised, refused := false, false
					for steps := 0; !m.Match().Over(); steps++ {
						if steps > 20000 {
							t.Fatal("the match did not end")
						}
						checkScreen(t, m, name)
						switch s := m.Match().State(); {
						case m.recap != nil:
							press(t, m, "enter")
						case s.Turn() != m.cfg.Seat:
							m.botMove()
						case !advised && s.Phase() == pitch.PhasePlay:
							m.advise()
							advised = true
						case !refused && s.Phase() == pitch.PhasePlay:
							m.apply(pitch.Play(m.cfg.Seat, (g.Deck() &^ s.Hand(m.cfg.Seat)).First()))
							if m.msg == "" {
								t.Fatal("a card not held was not refused")
							}
							refused = true
						default:
							m.apply(bot.Decide(me, s, m.rng))
						}
					}
					checkScreen(t, m, name+" (over)")
					if !advised || !refused {
						t.Errorf("advised %v, refused %v: the match never showed both", advised, refused)
					}
				})
			}
		}
	}
}

// TestSeatsFromOne: people read seats numbered from 1 on the screen (the
// header, the seat rows, the log, the score sheet), whatever the seat.
func TestSeatsFromOne(t *testing.T) {
	g := pitch.MustNewGame(pitch.Auction)
	for seat := range 4 {
		m, err := New(Config{Game: g, Seat: seat, Level: "easy", Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		for m.recap == nil {
			if !m.botMove() {
				m.apply(m.choices()[0])
			}
		}
		screen := m.Render()
		if !strings.Contains(screen, fmt.Sprintf("you are seat %d", seat+1)) {
			t.Errorf("seat %d: the header does not say seat %d:\n%s", seat, seat+1, screen)
		}
		for n := 1; n <= 4; n++ {
			if want := fmt.Sprintf("seat %d ", n); n != seat+1 && !strings.Contains(screen, want) {
				t.Errorf("seat %d: no %q on the screen:\n%s", seat, want, screen)
			}
		}
		if strings.Contains(screen, "seat 0") || strings.Contains(screen, "seat 5") {
			t.Errorf("seat %d: a seat numbered from 0:\n%s", seat, screen)
		}
		if !strings.Contains(screen, "\n  you ") || strings.Contains(screen, fmt.Sprintf("\n  seat %d ", seat+1)) {
			t.Errorf("seat %d: the human's row is not \"you\":\n%s", seat, screen)
		}
	}
}

// TestCardLook: letters are the engine's codes (C-3); symbols are the rank and
// the suit's symbol, 10 for the ten, hearts and diamonds in red, jokers
// by name, as the web table writes cards in running text.
func TestCardLook(t *testing.T) {
	plain, _ := New(Config{Game: pitch.MustNewGame(pitch.Auction)})
	sym, _ := New(Config{Game: pitch.MustNewGame(pitch.Auction), Look: colour})
	ja, _ := New(Config{Game: pitch.MustNewGame(pitch.Auction), Look: colour, Lang: "ja"})
	for code, want := range map[string][2]string{
		"AS": {"AS", "A♠"}, "TH": {"TH", red + "10♥" + noFg}, "2D": {"2D", red + "2♦" + noFg}, "JC": {"JC", "J♣"},
		"BJ": {"BJ", "Big joker"}, "LJ": {"LJ", "Little joker"},
	} {
		c := pitch.MustParseCard(code)
		if got := plain.card(c); got != want[0] {
			t.Errorf("%s in letters: %q, want %q", code, got, want[0])
		}
		if got := sym.card(c); got != want[1] {
			t.Errorf("%s in symbols: %q, want %q", code, got, want[1])
		}
	}
	if got := ja.card(pitch.BigJoker); got != i18n.New("ja").T("card.bigJoker", nil) {
		t.Errorf("the big joker in Japanese: %q", got)
	}
	if got, want := sym.suitName(pitch.Hearts), red+"♥"+noFg+" hearts"; got != want {
		t.Errorf("hearts: %q, want %q", got, want)
	}
	if got := plain.suitName(pitch.Hearts); got != "hearts" {
		t.Errorf("hearts in letters: %q", got)
	}
}

// TestDetectLook: symbols and colour only on a terminal that is not dumb
// and without NO_COLOR (no-color.org: set to anything but "").
func TestDetectLook(t *testing.T) {
	for _, tc := range []struct {
		env         map[string]string
		terminal    bool
		look        Look
		interactive bool
	}{
		{map[string]string{"TERM": "xterm-256color"}, true, colour, true},
		{map[string]string{"TERM": "xterm-256color", "NO_COLOR": "1"}, true, Look{}, true},
		{map[string]string{"TERM": "xterm-256color", "NO_COLOR": ""}, true, colour, true},
		{map[string]string{"TERM": "dumb"}, true, Look{}, false},
		{map[string]string{}, true, Look{}, false},
		{map[string]string{"TERM": "xterm-256color"}, false, Look{}, false},
	} {
		getenv := func(k string) string { return tc.env[k] }
		if got := DetectLook(getenv, tc.terminal); got != tc.look {
			t.Errorf("%v, terminal %v: look %+v, want %+v", tc.env, tc.terminal, got, tc.look)
		}
		if got := Interactive(getenv, tc.terminal); got != tc.interactive {
			t.Errorf("%v, terminal %v: interactive %v, want %v", tc.env, tc.terminal, got, tc.interactive)
		}
	}
}

// TestTrickShownAsPlayed: each card played to the trick shows in the row
// of the seat that played it, at once; between tricks the rows show the
// last trick in brackets and a line names who took it (the taker the
// engine decided, AP-PLAY-3); the facts say which trick of 6 it is, as
// the web table shows the trick.
func TestTrickShownAsPlayed(t *testing.T) {
	g := pitch.MustNewGame(pitch.Auction)
	m, err := New(Config{Game: g, Seat: 0, Level: "easy", Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	me, _ := bot.New("easy")
	row := func(seat int) string {
		return strings.Split(m.Render(), "\n")[3+seat] // header, facts, a blank row, then the seats
	}
	for tricks := 0; tricks < 2 && m.recap == nil; {
		s := m.Match().State()
		a := bot.Decide(me, s, m.rng)
		m.apply(a)
		if a.Kind != pitch.ActPlay {
			continue
		}
		v := m.Match().State().View(0)
		if len(v.Trick) > 0 {
			if r := row(int(a.Seat)); !strings.Contains(r, " "+a.Card.String()) || strings.Contains(r, "("+a.Card.String()+")") {
				t.Fatalf("seat %d played %s; its row: %q", a.Seat+1, a.Card, r)
			}
			if !strings.Contains(m.Render(), fmt.Sprintf("Trick: %d of 6", v.Tricks+1)) {
				t.Fatalf("the facts do not say trick %d of 6:\n%s", v.Tricks+1, m.Render())
			}
			continue
		}
		tricks++
		for i, c := range v.Last {
			if r := row(v.LastSeat[i]); !strings.Contains(r, "("+c.String()+")") {
				t.Fatalf("between tricks, seat %d's row does not show (%s): %q", v.LastSeat[i]+1, c, r)
			}
		}
		if want := "Last trick: " + m.seatName(v.LastWon); !strings.Contains(m.Render(), want) {
			t.Fatalf("no %q:\n%s", want, m.Render())
		}
	}
}

// lineAnswers answers RunLines as a person would type, reading the model
// as it asks: a bot's choice typed as its number, a card's name ("10H"
// for the ten) or the cards' numbers; a wrong line first, once.
type lineAnswers struct {
	m     *Model
	b     bot.Bot
	lines int
	wrong bool
}

func (r *lineAnswers) Read(p []byte) (int, error) {
	r.lines++
	line := r.answer()
	if r.lines > 5000 {
		line = "q"
	}
	return copy(p, line+"\n"), nil
}

func (r *lineAnswers) answer() string {
	m := r.m
	if m.recap != nil {
		return ""
	}
	if !r.wrong {
		r.wrong = true
		return "xyz"
	}
	s := m.Match().State()
	a := bot.Decide(r.b, s, m.rng)
	switch {
	case a.Kind == pitch.ActCall:
		return strings.Replace(strings.ToLower(a.Card.String()), "t", "10", 1)
	case a.Kind == pitch.ActPlay:
		return strings.Replace(a.Card.String(), "T", "10", 1)
	case m.multi():
		var words []string
		for i, c := range m.choices() {
			if a.Cards.Has(c.Card) {
				words = append(words, fmt.Sprint(i+1))
			}
		}
		return strings.Join(words, " ")
	}
	for i, c := range m.choices() {
		if c == a {
			return fmt.Sprint(i + 1)
		}
	}
	return "q"
}

// TestLinesMode plays a whole match in line mode, answered by typed
// lines: plain text only (no escape code), choices numbered from 1, seats
// from 1, a wrong line refused with what may be typed, and the match
// played to its end.
func TestLinesMode(t *testing.T) {
	for _, v := range pitch.Variants {
		t.Run(v.String(), func(t *testing.T) {
			g := pitch.MustNewGame(v)
			m, err := New(Config{Game: g, Seat: 1, Level: "easy", Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := bot.New("easy")
			in := &lineAnswers{m: m, b: b}
			var out bytes.Buffer
			if err := RunLines(m, in, &out); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			if !m.Match().Over() {
				t.Fatalf("the match did not end after %d lines:\n%s", in.lines, text[max(0, len(text)-3000):])
			}
			if strings.ContainsRune(text, '\x1b') || symbols.MatchString(text) {
				t.Error("line mode wrote escape codes or suit symbols")
			}
			for _, want := range []string{"Not a choice: “xyz”. Type a number from 1 to", " 1) ", "you are seat 2", "Match won by "} {
				if !strings.Contains(text, want) {
					t.Errorf("the output lacks %q", want)
				}
			}
			if strings.Contains(text, "seat 0") || strings.Contains(text, " 0) ") {
				t.Error("a seat or a choice numbered from 0")
			}
		})
	}
}

// TestWrap: a long line is broken at spaces, or anywhere in Japanese,
// into lines of at most the width, never at a hyphen (a rule ID, a
// negative score), and loses nothing but the spaces it breaks at.
func TestWrap(t *testing.T) {
	for _, text := range []string{
		"その捨て方はできません。保護されたカードを残して4枚捨ててください（PW-DIS-2）。",
		"That discard is not allowed: discard 4 cards, keeping the protected ones (PW-DIS-2), score -12.",
		"Your hand: " + red + "A♥" + noFg + " K♠ " + red + "10♦" + noFg + " 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣",
	} {
		for _, width := range []int{20, 33} {
			lines := wrap(text, width)
			for _, l := range lines {
				if Width(l) > width {
					t.Errorf("%q is %d columns, more than %d", l, Width(l), width)
				}
			}
			joined := strings.Join(lines, "\n")
			if !strings.Contains(joined, "PW-DIS-2") && strings.Contains(text, "PW-DIS-2") || strings.Contains(text, "-12") && !strings.Contains(joined, "-12") {
				t.Errorf("broken at a hyphen: %q", lines)
			}
			if strings.Join(strings.Fields(strings.ReplaceAll(joined, "\n", "")), "") != strings.Join(strings.Fields(text), "") {
				t.Errorf("wrapping %q lost something: %q", text, lines)
			}
		}
	}
}

// TestRefusalInLanguage: a refused move (C-7) is said by its error code's
// message in the screen's language, its card in the screen's look, its
// seats counted from 1; an error with no code keeps the engine's words.
func TestRefusalInLanguage(t *testing.T) {
	m, err := New(Config{Game: pitch.MustNewGame(pitch.Auction), Seat: 0, Seed: 2, Lang: "fr", Look: colour})
	if err != nil {
		t.Fatal(err)
	}
	s := m.Match().State()
	m.apply(pitch.Play(s.Turn(), (s.Game().Deck() &^ s.Hand(s.Turn())).First())) // not held, and bidding besides
	if m.msg == "" || strings.Contains(m.msg, "seat ") {
		t.Fatalf("refusal %q: not in French", m.msg)
	}
	fr := i18n.New("fr")
	held := (s.Game().Deck() &^ s.Hand(0)).First()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&pitch.ActionError{Code: "not_held", Params: map[string]any{"Card": held.String()}}, fr.T("err.not_held", map[string]any{"Card": m.card(held)})},
		{&pitch.ActionError{Code: "not_your_turn", Rule: "C-7", Params: map[string]any{"Turn": 2, "Phase": "bid"}}, "c’est à la place 3 de jouer"},
		{&pitch.ActionError{Code: "no_such_code", Problem: "the engine's words"}, "the engine's words"},
	} {
		if got := m.refusal(tc.err); !strings.Contains(got, tc.want) {
			t.Errorf("%v reads %q, want %q", tc.err, got, tc.want)
		}
	}
}
