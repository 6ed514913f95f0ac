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

	"pitch/sim"
)

// runSim implements `pitch sim`: bots against bots, with statistics.
func runSim(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "sim --variant V (--seats B,B,... | --a B --b B) (--hands N | --matches N) [flags]",
		"Plays bots against bots and prints a table (or --json) of points per hand,\n"+
			"bids made and set, match wins and decision speed, with 95% intervals.\n"+
			"The bots: "+botNames()+".\n"+
			"With --matches, a match with no winner after --max-hands hands (random\n"+
			"players can go on for ever) is stopped and counted as unfinished.\n\n"+
			"examples:\n"+
			"  pitch sim --variant ten-point --a search --b heuristic --hands 2000 --duplicate\n"+
			"  pitch sim --variant auction --a random --b random --matches 50\n"+
			"  pitch sim --variant pawnee --a expert --b hard --against hard --hands 400")
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
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	fail := func(format string, args ...any) int { return usageError(stderr, "sim", format, args...) }
	g, err := gf.game()
	if err != nil {
		return fail("%v", err)
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
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit), progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetDescription("pitch sim"), progressbar.OptionClearOnFinish())
		cfg.Progress = func(done, _ int) { bar.Set(done) }
	} else {
		start, last := time.Now(), time.Now()
		cfg.Progress = func(done, total int) {
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
