package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"

	"pitch"
	"pitch/bot"
)

// runDeal implements `pitch deal`: a hand record with a random deal, and
// with --play the hand played out by bots.
func runDeal(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("deal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "deal [--variant V] [--seed N] [--dealer D] [--players N] [--play BOT]",
		"Prints a hand record (JSON, docs/hand-record.md) of one random deal: the\n"+
			"first hand of a match with that seed. Without --play it has no actions,\n"+
			"so `pitch score` shows an unfinished hand; with --play a bot at every\n"+
			"seat plays it out, and the record scores.\n\n"+
			"example:\n  pitch deal --variant auction --seed 7 --play easy | pitch score")
	gf := addGameFlags(fs)
	seed := fs.Uint64("seed", 1, "seed for the dealer and the shuffle")
	dealer, dealerSet := 0, false
	fs.Func("dealer", "the dealer's `seat`, from 0 (default: drawn from the seed, as a match's first dealer)", func(v string) error {
		d, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%q is not a seat number (0, 1, …)", v)
		}
		dealer, dealerSet = d, true
		return nil
	})
	play := fs.String("play", "", "play the hand out with this `bot` at every seat: "+botNames())
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	fail := func(format string, args ...any) int { return usageError(stderr, "deal", format, args...) }
	g, err := gf.game()
	if err != nil {
		return fail("%v", err)
	}
	var b bot.Bot
	if *play != "" {
		if b, err = bot.New(*play); err != nil {
			return fail("--play: %v", err)
		}
	}
	rng := pitch.NewRand(*seed)
	d := rng.IntN(g.Seats()) // C-2: the first dealer from the seed
	if dealerSet {
		if dealer < 0 || dealer >= g.Seats() {
			return fail("--dealer %d is not a seat: seats are 0 to %d", dealer, g.Seats()-1)
		}
		d = dealer
	}
	s := pitch.Deal(g, d, nil, rng)
	var acts []pitch.Action
	if b != nil {
		brng := pitch.NewRand(*seed ^ 0xb075) // the bots' own, so the deal stays the seed's
		for !s.Terminal() {
			a := bot.Decide(b, &s, brng)
			if err := s.Apply(a); err != nil {
				return fail("the %s bot played an illegal action: %v", *play, err)
			}
			acts = append(acts, a)
		}
	}
	out, _ := json.MarshalIndent(s.Record(acts), "", "  ")
	fmt.Fprintf(stdout, "%s\n", out)
	return 0
}
