package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"pitch"
)

// runScore implements `pitch score [FILE]` (docs/hand-record.md): the result
// on standard output and exit 0, or {"error": ..., "action": ...} and exit 1.
func runScore(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "score [FILE]",
		"Reads a hand record (JSON, docs/hand-record.md) from FILE, or from standard\n"+
			"input without one, replays its actions and prints the result as JSON:\n"+
			"whether the hand is complete, the bidder, bid and trump, the sides, the\n"+
			"points and who took them, whether the bid was made, the score changes,\n"+
			"the new scores and any match winner. Exit 0; for a record that does not\n"+
			"read or replay, {\"error\": …, \"action\": N} and exit 1.\n\n"+
			"examples:\n"+
			"  pitch deal --variant ten-point --seed 7 --play easy | pitch score\n"+
			"  pitch score testdata/records/auction-dealer-steal.json")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "pitch score: give at most one FILE (standard input without one)")
		return 2
	}
	in, done, err := input(fs, stdin)
	if err != nil {
		return printRecordError(stdout, &pitch.RecordError{Action: -1, Message: fmt.Sprintf("cannot open %s: %v", fs.Arg(0), err)})
	}
	defer done()
	out, err := pitch.ScoreRecord(in)
	if err != nil {
		return printRecordError(stdout, err)
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

func printRecordError(w io.Writer, err error) int {
	var re *pitch.RecordError
	if !errors.As(err, &re) {
		re = &pitch.RecordError{Action: -1, Message: err.Error()}
	}
	b, _ := json.Marshal(re)
	fmt.Fprintf(w, "%s\n", b)
	return 1
}
