package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pitch"
	"pitch/bot"
)

// TestReviewGolden checks `pitch review` on the crafted records of
// testdata/review, as text and as JSON, against golden files (go test
// ./cmd/pitch -run TestReviewGolden -update rewrites them).
func TestReviewGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"auction-pass-top-spades.txt", []string{"--seat", "0", "--worlds", "60"}},
		{"auction-pass-top-spades.json", []string{"--worlds", "40", "--json"}},
		{"pawnee-best.txt", []string{"--seat", "0", "--worlds", "60"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := filepath.Join("..", "..", "testdata", "review", strings.TrimSuffix(strings.TrimSuffix(c.name, ".txt"), ".json")+".json")
			var out, errb bytes.Buffer
			if code := run(append(append([]string{"review"}, c.args...), rec), nil, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
			}
			golden := filepath.Join("testdata", "review", c.name+".golden")
			if *updateRules {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("pitch review %v differs from %s:\n%s", c.args, golden, out.String())
			}
			if strings.HasSuffix(c.name, ".json") && !json.Valid(out.Bytes()) {
				t.Error("--json output is not JSON")
			}
		})
	}
}

func TestReviewErrors(t *testing.T) {
	var out, errb bytes.Buffer
	bad := `{"variant":"auction","dealer":3,"scores":[0,0,0,0],"deal":{"hands":[["2S","TS","JS","QS","KS","AS"],["3C","5C","4D","6D","KH","AH"],["7C","9C","8D","TD","JH","QH"],["8C","JC","7D","9D","9H","TH"]]},"actions":[{"seat":2,"bid":2}]}`
	if code := run([]string{"review"}, strings.NewReader(bad), &out, &errb); code != 1 || !strings.Contains(out.String(), `"action":0`) {
		t.Errorf("an action out of turn: exit %d, %s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"review", "--seat", "9", filepath.Join("..", "..", "testdata", "review", "auction-best.json")}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--seat must be") {
		t.Errorf("--seat 9: exit %d, %s", code, errb.String())
	}
}

// matchFile is the match file of the match review's golden tests: the
// first hands of an auction match that easy bots played, as GET
// /api/tables/{id}/match serves them.
var matchFile = filepath.Join("testdata", "review", "match-auction.json")

// writeMatchFile plays the first hands of a match with easy bots at every
// seat and writes them as a match file (run with -update). The same seeds
// give the same file.
func writeMatchFile(t *testing.T, hands int) {
	t.Helper()
	g, err := pitch.NewGame(pitch.Auction)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bot.New("easy")
	if err != nil {
		t.Fatal(err)
	}
	m := pitch.NewMatch(g, 11)
	rng := pitch.NewRand(11 ^ 0xb075)
	for len(m.Records()) < hands && !m.Over() {
		if err := m.Apply(bot.Decide(b, m.State(), rng)); err != nil {
			t.Fatal(err)
		}
	}
	type seat struct {
		Seat  int    `json:"seat"`
		Kind  string `json:"kind"`
		Level string `json:"level"`
		Name  string `json:"name"`
		Taken bool   `json:"taken"`
	}
	table := map[string]any{"id": "MatchReviewTest1", "variant": "auction", "options": g.OptionMap(), "turn_timer": 0,
		"created": "2025-01-02T03:04:05Z", "finished": false, "closed": false, "hints": true, "url": "/t/MatchReviewTest1"}
	var seats []seat
	for i := range g.Seats() {
		seats = append(seats, seat{i, "bot", "easy", "Bot (easy)", true})
	}
	table["seats"] = seats
	var recs []json.RawMessage
	for _, r := range m.Records() {
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, raw)
	}
	out, err := json.MarshalIndent(struct {
		Table map[string]any    `json:"table"`
		Hands []json.RawMessage `json:"hands"`
	}{table, recs}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(matchFile, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReviewMatchGolden checks `pitch review` on a match file (every
// hand reviewed, then the counts by seat), as text and as JSON, against
// golden files; -update plays the match file again too.
func TestReviewMatchGolden(t *testing.T) {
	if *updateRules {
		writeMatchFile(t, 2)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"match-auction.txt", []string{"--worlds", "12"}},
		{"match-auction-seat1.json", []string{"--seat", "1", "--worlds", "12", "--json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(append(append([]string{"review"}, c.args...), matchFile), nil, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
			}
			golden := filepath.Join("testdata", "review", c.name+".golden")
			if *updateRules {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("pitch review %v differs from %s:\n%s", c.args, golden, out.String())
			}
			if strings.HasSuffix(c.name, ".json") && !json.Valid(out.Bytes()) {
				t.Error("--json output is not JSON")
			}
		})
	}
	// The summary is the hands' reviews counted by seat, and one seat's
	// review of the match is the same as that seat's part of every seat's.
	review := func(args ...string) (m struct {
		Hands []struct {
			Hand    int              `json:"hand"`
			Reviews []bot.HandReview `json:"reviews"`
		} `json:"hands"`
		Summary []bot.SeatTally `json:"summary"`
	}) {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(append(append([]string{"review", "--worlds", "12", "--json"}, args...), matchFile), nil, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s%s", code, out.String(), errb.String())
		}
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	all, one := review(), review("--seat", "1")
	if len(all.Hands) != 2 || len(all.Summary) != 4 || len(one.Summary) != 1 || one.Summary[0].Seat != 1 {
		t.Fatalf("hands %d, seats summed %d and %d", len(all.Hands), len(all.Summary), len(one.Summary))
	}
	for _, st := range all.Summary {
		var mistakes, blunders int
		for _, h := range all.Hands {
			for _, r := range h.Reviews {
				if r.Seat == st.Seat {
					mistakes += r.Mistakes
					blunders += r.Blunders
				}
			}
		}
		if st.Hands != 2 || st.Mistakes != mistakes || st.Blunders != blunders {
			t.Errorf("seat %d summed as %+v, its reviews count %d mistakes and %d blunders", st.Seat, st, mistakes, blunders)
		}
	}
	if got, want := one.Summary[0], all.Summary[1]; got.Mistakes != want.Mistakes || got.Blunders != want.Blunders || got.Loss != want.Loss {
		t.Errorf("seat 1 alone: %+v; among every seat: %+v", got, want)
	}
}

// TestReviewMatchErrors: input that is neither a hand record nor a match
// file is refused saying what is read; a bad hand of a match is named.
func TestReviewMatchErrors(t *testing.T) {
	good, err := os.ReadFile(matchFile)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Table json.RawMessage   `json:"table"`
		Hands []json.RawMessage `json:"hands"`
	}
	if err := json.Unmarshal(good, &m); err != nil {
		t.Fatal(err)
	}
	badHand, _ := json.Marshal(map[string]any{"table": m.Table, "hands": []json.RawMessage{m.Hands[0],
		json.RawMessage(`{"variant":"auction","dealer":3,"scores":[0,0,0,0],"deal":{"hands":[["2S","TS","JS","QS","KS","AS"],["3C","5C","4D","6D","KH","AH"],["7C","9C","8D","TD","JH","QH"],["8C","JC","7D","9D","9H","TH"]]},"actions":[{"seat":2,"bid":2}]}`)}})
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"neither", `{"players": [1, 2]}`, []string{"neither a hand record nor a match file", "docs/hand-record.md", "/api/tables/{id}/match", `"action":null`}},
		{"array", `[1, 2]`, []string{"not a JSON object", "a match file"}},
		{"hands not records", `{"table": {}, "hands": 3}`, []string{`\"hands\" of a match file must be an array of hand records`}},
		{"unknown field", `{"table": {}, "hands": [], "moves": []}`, []string{`unknown field \"moves\" in a match file`}},
		{"bad hand", string(badHand), []string{`"hand":2`, `"action":0`, "hand 2 of the match"}},
	} {
		var out, errb bytes.Buffer
		code := run([]string{"review", "--worlds", "4"}, strings.NewReader(c.in), &out, &errb)
		if code != 1 || !json.Valid(out.Bytes()) {
			t.Errorf("%s: exit %d, %s%s", c.name, code, out.String(), errb.String())
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: %s does not say %s", c.name, strings.TrimSpace(out.String()), w)
			}
		}
	}
	// A seat past the game's, and a match with no finished hands.
	var out, errb bytes.Buffer
	if code := run([]string{"review", "--seat", "4", matchFile}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "a seat 0 to 3") {
		t.Errorf("--seat 4 of a match: exit %d, %s", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"review", "--json"}, strings.NewReader(`{"table": {"id": "x"}, "hands": []}`), &out, &errb); code != 0 || !strings.Contains(out.String(), `"hands": []`) {
		t.Errorf("a match with no hands: exit %d, %s", code, out.String())
	}
}
