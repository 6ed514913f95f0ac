package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"pitch"
)

// runDeal implements `pitch deal`: a hand record with a random deal and no actions.
func runDeal(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("deal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gf := addGameFlags(fs)
	seed := fs.Uint64("seed", 1, "seed for the dealer and the shuffle")
	dealer := fs.Int("dealer", -1, "dealer's seat (default: drawn from the seed)")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	g, err := gf.game()
	if err != nil {
		fmt.Fprintf(stderr, "pitch deal: %v\n", err)
		return 2
	}
	rng := pitch.NewRand(*seed)
	d := rng.IntN(g.Seats()) // C-2: the first dealer from the seed
	if *dealer >= 0 || fs.Lookup("dealer").Value.String() != "-1" {
		if *dealer < 0 || *dealer >= g.Seats() {
			fmt.Fprintf(stderr, "pitch deal: --dealer %d is not a seat: seats are 0 to %d\n", *dealer, g.Seats()-1)
			return 2
		}
		d = *dealer
	}
	s := pitch.Deal(g, d, nil, rng)
	b, _ := json.MarshalIndent(s.Record(nil), "", "  ")
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}
