package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"pitch"
	"pitch/tui"
)

// runPlay implements `pitch play`: a match against bots in the terminal.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "auction", "game: auction, ten-point or pawnee")
	seat := fs.Int("seat", 0, "your seat")
	level := fs.String("level", "medium", "the bots' level: easy, medium or hard")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "seed for the dealer and the shuffle (default: the clock)")
	target := fs.Int("target", 0, "target score (default: the game's)")
	players := fs.Int("players", 0, "players (auction only, 2 to 7)")
	delay := fs.Duration("delay", 600*time.Millisecond, "pause before each bot move")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "pitch play: "+format+"\n", args...)
		return 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	v, err := pitch.ParseVariant(*variant)
	if err != nil {
		return fail("%v", err)
	}
	var opts []pitch.Option
	if *players != 0 {
		opts = append(opts, pitch.WithPlayers(*players))
	}
	if *target != 0 {
		opts = append(opts, pitch.WithTarget(*target))
	}
	g, err := pitch.NewGame(v, opts...)
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
