package main

import (
	"bytes"
	"encoding/json"
	"errors"
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
// from what the seat knew (bot.Review); for a match file (GET
// /api/tables/{id}/match) every hand's, then the mistakes and blunders
// counted by seat (bot.TallyBySeat).
func runReview(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seatFlag := fs.String("seat", "all", "the seat to review, or all")
	worlds := fs.Int("worlds", bot.ReviewWorlds, "worlds drawn per decision (more is steadier and slower)")
	seed := fs.Uint64("seed", 1, "the review's seed: the same record and seed give the same review")
	asJSON := fs.Bool("json", false, "print the review as JSON")
	setUsage(fs, "review [--seat S|all] [--worlds N] [--seed N] [--json] [FILE]",
		"Reads a hand record (JSON, docs/hand-record.md) or a match file (the JSON\n"+
			"{\"table\": …, \"hands\": [hand records]} of a server's \"Download the whole\n"+
			"match\" link, GET /api/tables/{id}/match) from FILE, or from standard\n"+
			"input without one, and reviews each decision of the seat (every seat by\n"+
			"default) from what that seat could know at that moment: the search bot's\n"+
			"options with their expected results in match points and, for bids, the\n"+
			"chance of making them. A decision that cost 0.5 points or more in\n"+
			"expectation is a mistake, 1.5 a blunder. For card play near the end the\n"+
			"best card with all cards open is shown too, as hindsight.\n"+
			"A match file has every hand reviewed in turn, then the mistakes, blunders\n"+
			"and expected loss counted by seat, with the hands where they were made;\n"+
			"with --json {\"hands\": [{\"hand\": N, \"reviews\": […]}], \"summary\": […]}.\n"+
			"Exit 0; for input that is neither, or a record that does not read or\n"+
			"replay, {\"error\": …} (with \"hand\": N in a match) and exit 1.\n\n"+
			"examples:\n"+
			"  pitch review testdata/review/auction-pass-top-spades.json\n"+
			"  pitch deal --variant pawnee --seed 3 --play easy | pitch review --seat 0 --json\n"+
			"  pitch review --seat 2 pitch-Z8f_l7f4fxbPLPT5-match.json")
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
	recs, match, err := readReviewInput(in)
	if err != nil {
		return printReviewError(stdout, err)
	}
	seats, all := 0, *seatFlag == "all"
	if len(recs) > 0 {
		seats = recs[0].Game.Seats()
	}
	seat := -1
	if !all {
		n, err := strconv.Atoi(*seatFlag)
		if err != nil || n < 0 || len(recs) > 0 && n >= seats {
			which := "a seat number"
			if len(recs) > 0 {
				which = fmt.Sprintf("a seat 0 to %d", seats-1)
			}
			fmt.Fprintf(stderr, "pitch review: --seat must be all or %s, not %q\n", which, *seatFlag)
			return 2
		}
		seat = n
	}
	opts := bot.ReviewOptions{Worlds: *worlds, Seed: *seed}
	hands := [][]*bot.HandReview{}
	for k, rec := range recs {
		reviews := []*bot.HandReview{}
		for i := range rec.Game.Seats() {
			if !all && i != seat {
				continue
			}
			r, err := bot.Review(rec, i, opts)
			if err != nil {
				if match {
					err = &handError{Hand: k + 1, Err: err}
				}
				return printReviewError(stdout, err)
			}
			reviews = append(reviews, r)
		}
		hands = append(hands, reviews)
	}
	if !match {
		if *asJSON {
			b, _ := json.MarshalIndent(map[string]any{"reviews": hands[0]}, "", "  ")
			fmt.Fprintf(stdout, "%s\n", b)
			return 0
		}
		writeReview(stdout, hands[0])
		return 0
	}
	summary := bot.TallyBySeat(hands)
	if *asJSON {
		type handJSON struct {
			Hand    int               `json:"hand"`
			Reviews []*bot.HandReview `json:"reviews"`
		}
		out := struct {
			Hands   []handJSON      `json:"hands"`
			Summary []bot.SeatTally `json:"summary"`
		}{Hands: []handJSON{}, Summary: summary}
		for k, reviews := range hands {
			out.Hands = append(out.Hands, handJSON{k + 1, reviews})
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	for k, reviews := range hands {
		fmt.Fprintf(stdout, "hand %d of %d\n", k+1, len(hands))
		writeReview(stdout, reviews)
		fmt.Fprintln(stdout)
	}
	writeMatchSummary(stdout, len(hands), summary)
	return 0
}

// maxReviewInput is the largest file pitch review reads: a long match's
// records with room to spare.
const maxReviewInput = 64 << 20

// reviewInputs says what pitch review reads, for its errors.
const reviewInputs = "pitch review reads a hand record (an object with variant, deal, actions, …: docs/hand-record.md) " +
	"or a match file (an object {\"table\": …, \"hands\": [hand records]}: GET /api/tables/{id}/match)"

// readReviewInput reads what pitch review is given: a hand record, or a
// match file, whose hands are all read and replayed (match true). Errors
// are *pitch.RecordError, or *handError for a match's hand.
func readReviewInput(in io.Reader) (recs []*pitch.Record, match bool, err error) {
	data, err := io.ReadAll(io.LimitReader(in, maxReviewInput+1))
	if err != nil {
		return nil, false, &pitch.RecordError{Action: -1, Message: fmt.Sprintf("cannot read the input: %v", err)}
	}
	if len(data) > maxReviewInput {
		return nil, false, &pitch.RecordError{Action: -1, Message: fmt.Sprintf("the input is over %d MiB: %s", maxReviewInput>>20, reviewInputs)}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, false, &pitch.RecordError{Action: -1, Message: fmt.Sprintf("the input is not a JSON object (%v): %s", err, reviewInputs)}
	}
	_, isRecord := top["variant"]
	rawHands, isMatch := top["hands"]
	switch {
	case isRecord || !isMatch && hasRecordField(top):
		rec, err := pitch.ReadRecord(bytes.NewReader(data))
		if err != nil {
			return nil, false, err
		}
		if _, err := rec.State(); err != nil {
			return nil, false, err
		}
		return []*pitch.Record{rec}, false, nil
	case !isMatch:
		return nil, false, &pitch.RecordError{Action: -1, Message: "the input is neither a hand record nor a match file: " + reviewInputs}
	}
	for k, raw := range top {
		if k != "table" && k != "hands" {
			return nil, true, &pitch.RecordError{Action: -1, Message: fmt.Sprintf("unknown field %q in a match file: it has table and hands (%s)", k, reviewInputs)}
		}
		if k == "table" && (len(raw) == 0 || raw[0] != '{') {
			return nil, true, &pitch.RecordError{Action: -1, Message: "\"table\" of a match file must be an object (the table, as the server describes it)"}
		}
	}
	var hands []json.RawMessage
	if err := json.Unmarshal(rawHands, &hands); err != nil || hands == nil {
		return nil, true, &pitch.RecordError{Action: -1, Message: "\"hands\" of a match file must be an array of hand records"}
	}
	for k, raw := range hands {
		rec, err := pitch.ReadRecord(bytes.NewReader(raw))
		if err == nil {
			_, err = rec.State()
		}
		if err == nil && k > 0 && rec.Game.Seats() != recs[0].Game.Seats() {
			err = &pitch.RecordError{Action: -1, Message: fmt.Sprintf("the hand has %d seats and hand 1 has %d: a match's hands are of one game", rec.Game.Seats(), recs[0].Game.Seats())}
		}
		if err != nil {
			return nil, true, &handError{Hand: k + 1, Err: err}
		}
		recs = append(recs, rec)
	}
	return recs, true, nil
}

// hasRecordField reports whether top has a field only a hand record has,
// so that a record missing its variant gets the record's own error.
func hasRecordField(top map[string]json.RawMessage) bool {
	for _, k := range []string{"deal", "actions", "dealer", "scores", "options"} {
		if _, ok := top[k]; ok {
			return true
		}
	}
	return false
}

// handError is a fault in hand Hand (from 1) of a match file.
type handError struct {
	Hand int
	Err  error
}

func (e *handError) Error() string { return fmt.Sprintf("hand %d: %v", e.Hand, e.Err) }

func (e *handError) Unwrap() error { return e.Err }

// printReviewError prints err as JSON, as printRecordError does, with
// "hand" for a fault in a match's hand, and returns exit code 1.
func printReviewError(w io.Writer, err error) int {
	var he *handError
	if !errors.As(err, &he) {
		return printRecordError(w, err)
	}
	var re *pitch.RecordError
	if !errors.As(he.Err, &re) {
		re = &pitch.RecordError{Action: -1, Message: he.Err.Error()}
	}
	var idx any
	if re.Action >= 0 {
		idx = re.Action
	}
	b, _ := json.Marshal(struct {
		Error  string `json:"error"`
		Hand   int    `json:"hand"`
		Action any    `json:"action"`
	}{fmt.Sprintf("hand %d of the match: %s", he.Hand, re.Error()), he.Hand, idx})
	fmt.Fprintf(w, "%s\n", b)
	return 1
}

// writeMatchSummary prints a match review's counts by seat for people.
func writeMatchSummary(w io.Writer, hands int, summary []bot.SeatTally) {
	if hands == 0 {
		fmt.Fprintln(w, "match: no finished hands to review")
		return
	}
	if hands == 1 {
		fmt.Fprintln(w, "match: 1 hand")
	} else {
		fmt.Fprintf(w, "match: %d hands\n", hands)
	}
	for _, t := range summary {
		fmt.Fprintf(w, "  seat %d: hands %d, decisions %d, mistakes %d, blunders %d, expected loss %.2f",
			t.Seat, t.Hands, t.Decisions, t.Mistakes, t.Blunders, t.Loss)
		if len(t.Marked) > 0 {
			s := make([]string, len(t.Marked))
			for i, n := range t.Marked {
				s[i] = strconv.Itoa(n)
			}
			which := "hands"
			if len(s) == 1 {
				which = "hand"
			}
			fmt.Fprintf(w, "; marked in %s %s", which, strings.Join(s, ", "))
		}
		fmt.Fprintln(w)
	}
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
