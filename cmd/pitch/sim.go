package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"pitch"
	"pitch/bot"
	"pitch/sim"
)

// runSim implements `pitch sim`: bots against bots, with statistics.
func runSim(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "sim --variant V (--seats B,B,... | --a B --b B) (--hands N | --matches N) [flags]\n"+
		"       pitch sim --variant V --ratings [--levels L,L,...] --matches N [flags]",
		"Plays bots against bots and prints a table (or --json) of points per hand,\n"+
			"bids made and set, match wins and decision speed, with 95% intervals.\n"+
			"The bots: "+botNames()+";\nand, in pitch sim only, the references "+
			strings.Join(sim.ReferenceNames, " and ")+",\nwhich see the deal (docs/bots.md, \"The ceiling\").\n"+
			"With --matches, a match with no winner after --max-hands hands (random\n"+
			"players can go on for ever) is stopped and counted as unfinished.\n\n"+
			"examples:\n"+
			"  pitch sim --variant ten-point --a search --b heuristic --hands 2000 --duplicate\n"+
			"  pitch sim --variant auction --a random --b random --matches 50\n"+
			"  pitch sim --variant pawnee --a expert --b hard --against hard --hands 400\n\n"+
			"With --ratings it rates the bot levels against each other instead (docs/ratings.md):\n"+
			"every match seats --levels in a random order, and the matches are rated in turn\n"+
			"as players are. --json prints the ratings as rating/bots/VARIANT.json holds them:\n"+
			"  pitch sim --variant auction --ratings --matches 120 --json > rating/bots/auction.json")
	gf := addGameFlags(fs)
	seats := fs.String("seats", "", "a bot per seat, comma-separated (e.g. search,heuristic,heuristic,heuristic)")
	a := fs.String("a", "", "side A's bot (with --b): partners in team games, one seat among B's otherwise")
	b := fs.String("b", "", "side B's bot")
	against := fs.String("against", "", "compare --a and --b in one seat among these bots, every seat in turn, on the same cards and random streams (with --hands)")
	hands := fs.Int("hands", 0, "number of deals, each played as one hand from zero scores")
	matches := fs.Int("matches", 0, "number of whole matches (instead of --hands)")
	maxHands := fs.Int("max-hands", sim.DefaultMaxHands, "with --matches: stop a match that has no winner after this many hands and count it as unfinished")
	seed := fs.Uint64("seed", 1, "seed for the deals and the bots")
	dup := fs.Bool("duplicate", false, "replay every deal with the seating rotated so the luck of the cards cancels")
	workers := fs.Int("workers", 0, "parallel workers; 0 uses every core")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	svg := fs.String("svg", "", "write an SVG of the cumulative score difference to this file")
	ratings := fs.Bool("ratings", false, "rate --levels against each other over --matches matches (docs/ratings.md)")
	levels := fs.String("levels", strings.Join(bot.Levels, ","), "with --ratings: the bots rated, weakest first, comma-separated")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	fail := func(format string, args ...any) int { return usageError(stderr, "sim", format, args...) }
	g, err := gf.game()
	if err != nil {
		return fail("%v", err)
	}
	if *ratings {
		if *hands > 0 || *seats != "" || *a != "" || *b != "" || *against != "" || *dup || *svg != "" {
			return fail("--ratings seats --levels itself over --matches: it takes none of --hands, --seats, --a, --b, --against, --duplicate, --svg")
		}
		return runSimRatings(g, strings.Split(*levels, ","), *matches, *maxHands, *seed, *workers, *asJSON, stdout, stderr)
	}
	if (*hands > 0) == (*matches > 0) {
		return fail("give either --hands N or --matches N (a number above 0)")
	}
	if *maxHands < 1 {
		return fail("--max-hands %d: give a number of hands above 0", *maxHands)
	}
	cfg := sim.Config{Game: g, A: *a, B: *b, Hands: *hands, Matches: *matches, MaxHands: *maxHands, Seed: *seed, Duplicate: *dup, Against: *against, Workers: *workers}
	if *seats != "" {
		if *a != "" || *b != "" {
			return fail("give --seats or --a/--b, not both")
		}
		cfg.Seats = strings.Split(*seats, ",")
	}
	total, unit := *hands, "deals"
	if *matches > 0 {
		total, unit = *matches, "matches"
	}
	cfg.Progress = progress(stderr, total, unit)
	res, err := sim.Run(cfg)
	if err != nil {
		return fail("%v", err)
	}
	if *svg != "" {
		f, err := os.Create(*svg)
		if err == nil {
			err = res.WriteSVG(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return fail("writing %s: %v", *svg, err)
		}
	}
	if *asJSON {
		out, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	res.WriteTable(stdout)
	return 0
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress returns the progress report of a run of total units: a bar on
// a terminal, a line every 10 s otherwise.
func progress(stderr io.Writer, total int, unit string) func(done, total int) {
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit), progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetDescription("pitch sim"), progressbar.OptionClearOnFinish())
		return func(done, _ int) { bar.Set(done) }
	}
	start, last := time.Now(), time.Now()
	return func(done, total int) {
		if time.Since(last) < 10*time.Second && done != total {
			return
		}
		last = time.Now()
		el := time.Since(start)
		rate := float64(done) / el.Seconds()
		left := time.Duration(float64(total-done)/rate) * time.Second
		fmt.Fprintf(stderr, "pitch sim: %d/%d %s, %.1f %s/s, %s left\n", done, total, unit, rate, unit, left.Round(time.Second))
	}
}

// runSimRatings implements `pitch sim --ratings`.
func runSimRatings(g *pitch.Game, levels []string, matches, maxHands int, seed uint64, workers int, asJSON bool, stdout, stderr io.Writer) int {
	if matches <= 0 {
		return usageError(stderr, "sim", "--ratings: give --matches N (a number above 0)")
	}
	if maxHands < 1 {
		return usageError(stderr, "sim", "--max-hands %d: give a number of hands above 0", maxHands)
	}
	res, err := sim.RunRatings(sim.RatingsConfig{Game: g, Levels: levels, Matches: matches, MaxHands: maxHands, Seed: seed,
		Workers: workers, Progress: progress(stderr, matches, "matches")})
	if err != nil {
		return usageError(stderr, "sim", "%v", err)
	}
	if asJSON {
		out, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	res.WriteTable(stdout)
	return 0
}
