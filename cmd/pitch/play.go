package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"pitch/tui"
)

// runPlay implements `pitch play`: a match against bots in the terminal.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "play [--variant V] [--seat S] [--level easy|medium|hard|expert] [--seed N] [--lang L]",
		"Plays a match against bots in the terminal: arrows choose, enter confirms,\n"+
			"space toggles a card, ? asks the search bot for advice, q quits.\n\n"+
			"example:\n  pitch play --variant pawnee --level hard")
	gf := addGameFlags(fs)
	seat := fs.Int("seat", 0, "your seat, from 0")
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
	delay := fs.Duration("delay", 600*time.Millisecond, "pause before each bot move")
	lang := langFlag(fs)
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	fail := func(format string, args ...any) int { return usageError(stderr, "play", format, args...) }
	g, err := gf.game()
	if err != nil {
		return fail("%v", err)
	}
	pr, ok := printerFor(*lang, "play", stderr)
	if !ok {
		return 2
	}
	m, err := tui.New(tui.Config{Game: g, Seat: *seat, Level: *level, Seed: seed, Delay: *delay, Lang: pr.Lang()})
	if err != nil {
		return fail("%v", err)
	}
	p := tea.NewProgram(m, tea.WithInput(stdin), tea.WithOutput(stdout))
	if _, err := p.Run(); err != nil {
		return fail("%v", err)
	}
	return 0
}
