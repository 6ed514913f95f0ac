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
	gf := addGameFlags(fs)
	seats := fs.String("seats", "", "a bot per seat, comma-separated (e.g. search,heuristic,heuristic,heuristic)")
	a := fs.String("a", "", "side A's bot (with --b): partners in team games, one seat among B's otherwise")
	b := fs.String("b", "", "side B's bot")
	hands := fs.Int("hands", 0, "number of deals, each played as one hand from zero scores")
	matches := fs.Int("matches", 0, "number of whole matches (instead of --hands)")
	seed := fs.Uint64("seed", 1, "seed for the deals and the bots")
	dup := fs.Bool("duplicate", false, "replay every deal with the seating rotated so the luck of the cards cancels")
	workers := fs.Int("workers", 0, "parallel workers (default: all cores)")
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
	cfg := sim.Config{Game: g, A: *a, B: *b, Hands: *hands, Matches: *matches, Seed: *seed, Duplicate: *dup, Workers: *workers}
	if *seats != "" {
		if *a != "" || *b != "" {
			return fail("give --seats or --a/--b, not both")
		}
		cfg.Seats = strings.Split(*seats, ",")
	}
	total := max(*hands, *matches)
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("deals"), progressbar.OptionSetPredictTime(true),
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
			fmt.Fprintf(stderr, "pitch sim: %d/%d deals, %.1f deals/s, %s left\n", done, total, rate, left.Round(time.Second))
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
