package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"pitch"
	"pitch/bot"
)

// runReview implements `pitch review [--seat S] [--worlds N] [--seed N]
// [--json] [FILE]`: each decision of the seats of a hand record weighed
// from what the seat knew (bot.Review).
func runReview(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seatFlag := fs.String("seat", "all", "the seat to review, or all")
	worlds := fs.Int("worlds", bot.ReviewWorlds, "worlds drawn per decision (more is steadier and slower)")
	seed := fs.Uint64("seed", 1, "the review's seed: the same record and seed give the same review")
	asJSON := fs.Bool("json", false, "print the review as JSON")
	setUsage(fs, "review [--seat S|all] [--worlds N] [--seed N] [--json] [FILE]",
		"Reads a hand record (JSON, docs/hand-record.md) from FILE, or from standard\n"+
			"input without one, and reviews each decision of the seat (every seat by\n"+
			"default) from what that seat could know at that moment: the search bot's\n"+
			"options with their expected results in match points and, for bids, the\n"+
			"chance of making them. A decision that cost 0.5 points or more in\n"+
			"expectation is a mistake, 1.5 a blunder. For card play near the end the\n"+
			"best card with all cards open is shown too, as hindsight.\n"+
			"Exit 0; for a record that does not read or replay, {\"error\": …} and exit 1.\n\n"+
			"examples:\n"+
			"  pitch review testdata/review/auction-pass-top-spades.json\n"+
			"  pitch deal --variant pawnee --seed 3 --play easy | pitch review --seat 0 --json")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "pitch review: give at most one FILE (standard input without one)")
		return 2
	}
	if *worlds < 1 || *worlds > 10000 {
		fmt.Fprintf(stderr, "pitch review: --worlds must be 1 to 10000, not %d\n", *worlds)
		return 2
	}
	in, done, err := input(fs, stdin)
	if err != nil {
		return printRecordError(stdout, &pitch.RecordError{Action: -1, Message: fmt.Sprintf("cannot open %s: %v", fs.Arg(0), err)})
	}
	defer done()
	rec, err := pitch.ReadRecord(in)
	if err != nil {
		return printRecordError(stdout, err)
	}
	if _, err := rec.State(); err != nil {
		return printRecordError(stdout, err)
	}
	var seats []int
	if *seatFlag == "all" {
		for i := range rec.Game.Seats() {
			seats = append(seats, i)
		}
	} else {
		n, err := strconv.Atoi(*seatFlag)
		if err != nil || n < 0 || n >= rec.Game.Seats() {
			fmt.Fprintf(stderr, "pitch review: --seat must be all or a seat 0 to %d, not %q\n", rec.Game.Seats()-1, *seatFlag)
			return 2
		}
		seats = []int{n}
	}
	reviews := []*bot.HandReview{}
	for _, seat := range seats {
		r, err := bot.Review(rec, seat, bot.ReviewOptions{Worlds: *worlds, Seed: *seed})
		if err != nil {
			return printRecordError(stdout, err)
		}
		reviews = append(reviews, r)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(map[string]any{"reviews": reviews}, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	writeReview(stdout, reviews)
	return 0
}

// writeReview prints reviews for people.
func writeReview(w io.Writer, reviews []*bot.HandReview) {
	for k, r := range reviews {
		if k > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "seat %d: decisions %d, mistakes %d, blunders %d, expected loss %.2f (%d worlds, seed %d)\n",
			r.Seat, len(r.Decisions), r.Mistakes, r.Blunders, r.Loss, r.Worlds, r.Seed)
		for _, d := range r.Decisions {
			mark := "ok"
			if d.Verdict != "" {
				mark = strings.ToUpper(d.Verdict)
			}
			fmt.Fprintf(w, "  action %d (%s): %s — %s", d.Index, d.Phase, what(d.Played), mark)
			if d.Loss > 0 {
				fmt.Fprintf(w, ", loss %.2f, best %s", d.Loss, what(d.Best))
			}
			fmt.Fprintln(w)
			for _, o := range d.Options {
				fmt.Fprintf(w, "      %-28s %+6.2f", what(o.Action), o.Value)
				if o.Made != nil {
					fmt.Fprintf(w, "  makes %3.0f%%", *o.Made*100)
				}
				if o.Action == d.Played {
					fmt.Fprint(w, "  ← played")
				}
				fmt.Fprintln(w)
			}
			if h := d.Hindsight; h != nil {
				fmt.Fprintf(w, "      hindsight, all cards open: best %s %+.2f, played %+.2f\n", what(h.Best), h.Value, h.Played)
			}
		}
	}
}

// what is an action without its seat: "bids 4", "plays AS".
func what(a pitch.Action) string {
	s := a.String()
	if i := strings.Index(s, " "); i >= 0 {
		if j := strings.Index(s[i+1:], " "); j >= 0 {
			return s[i+j+2:]
		}
	}
	return s
}
