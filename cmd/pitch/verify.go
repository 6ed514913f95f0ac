package main

import (
	"flag"
	"fmt"
	"io"

	"pitch"
)

// runVerify implements `pitch verify [FILE]` (docs/fairness.md): it checks
// the fairness object of a hand record from a pitch serve table. Exit 0
// when every check holds, 1 when one fails (each failure is printed), 2
// for a usage error.
func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "verify [FILE]",
		"Checks that the hand in a hand record (docs/hand-record.md) from a pitch serve\n"+
			"table was dealt fairly (docs/fairness.md): the revealed secret's SHA-256 is\n"+
			"the commitment published before the deal, the commitment came before every\n"+
			"player's contribution, and re-dealing the seed made of the secret and the\n"+
			"contributions gives exactly the record's hands, widow and stock, and the\n"+
			"actions replay under the rules (a record pitch score refuses fails). Field\n"+
			"names are matched exactly. Reads FILE,\n"+
			"or standard input without one. Prints each check (and a WARNING for each\n"+
			"commitment the server abandoned before the deal, and for a deal no player's\n"+
			"value went into); exit 0 when all hold, 1\n"+
			"when one fails (saying what), 2 for a usage error.\n\n"+
			"example:\n"+
			"  curl -s http://localhost:8080/api/tables/ID/hands/1 | pitch verify")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "pitch verify: give at most one FILE (standard input without one)")
		return 2
	}
	in, done, err := input(fs, stdin)
	if err != nil {
		fmt.Fprintf(stdout, "FAILED: cannot open %s: %v\n", fs.Arg(0), err)
		return 1
	}
	defer done()
	r, err := pitch.ReadRecord(in)
	if err != nil {
		fmt.Fprintf(stdout, "FAILED: the hand record does not read: %v\n", err)
		return 1
	}
	rep := pitch.VerifyFairness(r)
	for _, c := range rep.Checks {
		fmt.Fprintf(stdout, "ok: %s\n", c)
	}
	if rep.Seed != "" {
		fmt.Fprintf(stdout, "seed: %s\n", rep.Seed)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stdout, "WARNING: %s\n", w)
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(stdout, "FAILED: %s\n", p)
	}
	if !rep.OK() {
		fmt.Fprintln(stdout, "NOT VERIFIED: this record does not prove a fair deal")
		return 1
	}
	if len(rep.Warnings) > 0 {
		fmt.Fprintln(stdout, "verified, with the warnings above: the deal is the one the commitment and the contributions fixed, but read the warnings: they say what the record does not prove")
		return 0
	}
	fmt.Fprintln(stdout, "verified: the deal is the one the commitment and the contributions fixed")
	return 0
}
