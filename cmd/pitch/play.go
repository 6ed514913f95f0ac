package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"pitch/tui"
)

// runPlay implements `pitch play`: a match against bots in the terminal.
// On a terminal it is driven by keys; when standard output is not a
// terminal, or TERM is dumb, it prints plain screens and reads lines
// (tui.RunLines). How cards are drawn follows tui.DetectLook.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "play [--variant V] [--seat S] [--level easy|medium|hard|expert] [--seed N] [--lang L]",
		"Plays a match against bots in the terminal: arrows choose, enter confirms,\n"+
			"space toggles a card, ? asks the search bot for advice, q quits.\n"+
			"Cards show as A♠ 10♥ with hearts and diamonds in red; as AS TH in letters,\n"+
			"with no colour, when NO_COLOR is set, TERM is dumb or the output is not a\n"+
			"terminal. With TERM dumb or output that is not a terminal, the game prints\n"+
			"each screen and reads a line: the number of a choice, a card (AH), ? or q.\n\n"+
			"example:\n  pitch play --variant pawnee --level hard")
	gf := addGameFlags(fs)
	seat := fs.Int("seat", 1, "your seat, from 1 to the number of players")
	level := fs.String("level", "medium", "the bots' level: easy, medium, hard or expert")
	seed := uint64(time.Now().UnixNano())
	fs.Func("seed", "a `number` that seeds the dealer and the shuffle, to play a match again (default: a new one each time)", func(v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not a whole number from 0 to %d", v, uint64(math.MaxUint64))
		}
		seed = n
		return nil
	})
	delay := fs.Duration("delay", 600*time.Millisecond, "pause before each bot move (on a terminal)")
	lang := langFlag(fs)
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	fail := func(format string, args ...any) int { return usageError(stderr, "play", format, args...) }
	g, err := gf.game()
	if err != nil {
		return fail("%v", err)
	}
	if *seat < 1 || *seat > g.Seats() {
		return fail("--seat %d is not a seat: seats are 1 to %d", *seat, g.Seats())
	}
	pr, ok := printerFor(*lang, "play", stderr)
	if !ok {
		return 2
	}
	terminal := false
	if f, ok := stdout.(*os.File); ok {
		terminal = term.IsTerminal(int(f.Fd()))
	}
	m, err := tui.New(tui.Config{Game: g, Seat: *seat - 1, Level: *level, Seed: seed, Delay: *delay, Lang: pr.Lang(),
		Look: tui.DetectLook(os.Getenv, terminal)})
	if err != nil {
		return fail("%v", err)
	}
	if !tui.Interactive(os.Getenv, terminal) {
		if err := tui.RunLines(m, stdin, stdout); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	p := tea.NewProgram(m, tea.WithInput(stdin), tea.WithOutput(stdout))
	if _, err := p.Run(); err != nil {
		return fail("%v", err)
	}
	return 0
}
