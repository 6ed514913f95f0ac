package main

import (
	"flag"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"pitch/tui"
)

// runPlay implements `pitch play`: a match against bots in the terminal.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gf := addGameFlags(fs)
	seat := fs.Int("seat", 0, "your seat")
	level := fs.String("level", "medium", "the bots' level: easy, medium or hard")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "seed for the dealer and the shuffle (default: the clock)")
	delay := fs.Duration("delay", 600*time.Millisecond, "pause before each bot move")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	fail := func(format string, args ...any) int { return usageError(stderr, "play", format, args...) }
	g, err := gf.game()
	if err != nil {
		return fail("%v", err)
	}
	m, err := tui.New(tui.Config{Game: g, Seat: *seat, Level: *level, Seed: *seed, Delay: *delay})
	if err != nil {
		return fail("%v", err)
	}
	p := tea.NewProgram(m, tea.WithInput(stdin), tea.WithOutput(stdout))
	if _, err := p.Run(); err != nil {
		return fail("%v", err)
	}
	return 0
}
