package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"pitch"
	"pitch/bot"
)

// parseFlags parses args with fs and refuses arguments left over; on
// failure it has already told stderr why and returns false (exit code 2).
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) bool {
	if err := fs.Parse(args); err != nil {
		return false // flag has printed the error and the usage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pitch %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return false
	}
	return true
}

// setUsage makes -h (and a flag error) print what the command does: the
// synopsis, a description with an example, then the flags, if it has any.
func setUsage(fs *flag.FlagSet, synopsis, text string) {
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: pitch %s\n\n%s\n", synopsis, text)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nflags:")
			fs.PrintDefaults()
		}
	}
}

// usageError tells stderr what was wrong with the command line and returns exit code 2.
func usageError(stderr io.Writer, name, format string, args ...any) int {
	fmt.Fprintf(stderr, "pitch "+name+": "+format+"\n", args...)
	return 2
}

// gameFlags are the flags that name a game and its house rules, shared by
// the commands that set up games.
type gameFlags struct {
	variant         *string
	players, target *int
}

func addGameFlags(fs *flag.FlagSet) *gameFlags {
	return &gameFlags{
		variant: fs.String("variant", "auction", "game: auction, ten-point or pawnee"),
		players: fs.Int("players", 0, "players (auction only: 2 to 7; default 4)"),
		target:  fs.Int("target", 0, "target score (default: the game's)"),
	}
}

// game returns the game the flags name, or an error that says what is allowed.
func (f *gameFlags) game() (*pitch.Game, error) {
	v, err := pitch.ParseVariant(*f.variant)
	if err != nil {
		return nil, err
	}
	var opts []pitch.Option
	if *f.players != 0 {
		opts = append(opts, pitch.WithPlayers(*f.players))
	}
	if *f.target != 0 {
		opts = append(opts, pitch.WithTarget(*f.target))
	}
	return pitch.NewGame(v, opts...)
}

// botNames lists the bots and levels bot.New accepts, for help text.
func botNames() string { return strings.Join(bot.Names, ", ") }

// input is where a command reads its one FILE argument: the file named, or
// stdin without one. close releases it; err says why the file cannot be
// opened, without the path repeated.
func input(fs *flag.FlagSet, stdin io.Reader) (in io.Reader, close func(), err error) {
	if fs.NArg() == 0 {
		return stdin, func() {}, nil
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		if u := errors.Unwrap(err); u != nil {
			err = u
		}
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// cpuProfile starts a CPU profile written to path (docs/performance.md)
// and returns what stops it and closes the file; with path "" it does
// nothing. The profile covers the command until stop is called.
func cpuProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
