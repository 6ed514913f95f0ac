package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"pitch"
	"pitch/bot"
)

// adviceOption is one ranked option of `pitch advise --json`.
type adviceOption struct {
	Action pitch.Action `json:"action"`
	Text   string       `json:"text"`
	Value  float64      `json:"value"`          // expected result for the seat's side, in match points
	Made   *float64     `json:"made,omitempty"` // bids: chance of making it when it wins the auction
	Won    *float64     `json:"won,omitempty"`  // bids: chance that it wins the auction
}

// advice is the output of `pitch advise --json`.
type advice struct {
	Variant string         `json:"variant"`
	Seat    int            `json:"seat"`
	Phase   string         `json:"phase"`
	Level   string         `json:"level"`
	Choice  pitch.Action   `json:"choice"` // what the level plays
	Options []adviceOption `json:"options"`
}

// analyzer is a bot that can show the options it weighed.
type analyzer interface {
	Analyze(req bot.Request) []bot.Option
}

// runAdvise implements `pitch advise`: the options a bot level sees for
// the seat to act at the end of a hand record.
func runAdvise(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("advise", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "advise [--level L] [--seed N] [--json] [FILE]",
		"Reads a hand record (FILE, or standard input) that stops at a decision and\n"+
			"prints the options of the seat to act, best first, as a bot level sees\n"+
			"them from that seat's view: the expected result for its side in match\n"+
			"points and, for bids, the chance of making it when it wins the auction.\n"+
			"The choice marked * is the level's (a bid it rates too unlikely to make\n"+
			"is not chosen even when its average is better).\n\n"+
			"example:\n  pitch advise --level expert testdata/positions/auction-dealer-steal-1.json")
	level := fs.String("level", "expert", "the bot level that analyses: expert, hard, medium or search")
	seed := fs.Uint64("seed", 1, "seed for the worlds the bot draws")
	asJSON := fs.Bool("json", false, "print the options as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(format string, args ...any) int { return usageError(stderr, "advise", format, args...) }
	if fs.NArg() > 1 {
		return fail("give at most one FILE")
	}
	in, done, err := input(fs, stdin)
	if err != nil {
		return fail("open %s: %v", fs.Arg(0), err)
	}
	defer done()
	name := "standard input"
	if fs.NArg() == 1 {
		name = fs.Arg(0)
	}
	b, err := bot.New(*level)
	if err != nil {
		return fail("--level: %v", err)
	}
	an, ok := b.(analyzer)
	if !ok {
		return fail("--level %s does not weigh options; use expert, hard, medium or search", *level)
	}
	rec, err := pitch.ReadRecord(in)
	if err != nil {
		return fail("%s: %v", name, err)
	}
	s, err := rec.State()
	if err != nil {
		return fail("%s: %v", name, err)
	}
	if s.Terminal() {
		return fail("%s: the hand is over; give a record that stops at a decision", name)
	}
	seat := s.Turn()
	v := s.View(seat)
	legal := s.Legal(nil)
	req := bot.Request{View: &v, Legal: legal, Rand: pitch.NewRand(*seed)}
	opts := an.Analyze(req)
	req.Rand = pitch.NewRand(*seed)
	choice := b.Act(req)
	slices.SortStableFunc(opts, func(x, y bot.Option) int {
		switch {
		case x.Value > y.Value:
			return -1
		case x.Value < y.Value:
			return 1
		}
		return 0
	})
	out := advice{Variant: s.Game().Variant.String(), Seat: seat, Phase: s.Phase().String(), Level: b.Name(), Choice: choice}
	for _, o := range opts {
		ao := adviceOption{Action: o.Action, Text: actionText(o.Action), Value: o.Value}
		if o.Action.Kind == pitch.ActBid {
			made, won := o.Made, o.Won
			ao.Made, ao.Won = &made, &won
		}
		out.Options = append(out.Options, ao)
	}
	if *asJSON {
		data, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(stdout, "%s\n", data)
		return 0
	}
	fmt.Fprintf(stdout, "%s, seat %d to act (%s), as %s sees it:\n\n", out.Variant, seat, out.Phase, out.Level)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\toption\tvalue\tmade\twins auction")
	for _, o := range out.Options {
		mark := " "
		if o.Action == choice {
			mark = "*"
		}
		made, won := "", ""
		if o.Made != nil {
			if *o.Won > 0 {
				made = fmt.Sprintf("%.0f%%", 100**o.Made)
			}
			won = fmt.Sprintf("%.0f%%", 100**o.Won)
		}
		fmt.Fprintf(tw, "%s\t%s\t%+.2f\t%s\t%s\n", mark, o.Text, o.Value, made, won)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nvalue: the expected change of the seat's side's match score less the others',\nin match points; made: the chance of making a bid when it wins the auction.\n")
	return 0
}

// actionText names an action without its seat, e.g. "plays TH", "bids 2".
func actionText(a pitch.Action) string {
	return strings.TrimPrefix(a.String(), fmt.Sprintf("seat %d ", a.Seat))
}
