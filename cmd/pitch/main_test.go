package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pitch"
)

// runCmd runs the command line args with stdin and returns the exit code,
// standard output and standard error.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// playedRecord plays a random hand of g to the end (or stops after stop
// actions when stop >= 0) and returns its record as JSON and the state.
func playedRecord(t *testing.T, g *pitch.Game, seed uint64, stop int) ([]byte, pitch.State) {
	t.Helper()
	rng := pitch.NewRand(seed)
	s := pitch.Deal(g, int(seed)%g.Seats(), nil, rng)
	var acts []pitch.Action
	for !s.Terminal() && len(acts) != stop {
		a := s.RandomAction(rng)
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		acts = append(acts, a)
	}
	b, err := json.MarshalIndent(s.Record(acts), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b, s
}

// scoreOut is `pitch score` output as HAND-RECORD.md describes it.
type scoreOut struct {
	Complete   bool    `json:"complete"`
	Bidder     *int    `json:"bidder"`
	Bid        *int    `json:"bid"`
	Trump      *string `json:"trump"`
	Teams      [][]int `json:"teams"`
	Points     []any   `json:"points"`
	Taken      []int   `json:"taken"`
	Made       *bool   `json:"made"`
	ScoreDelta []int   `json:"score_delta"`
	Scores     []int   `json:"scores"`
	Winner     []int   `json:"winner"`
}

// decodeOne decodes stdout as exactly one JSON value into v.
func decodeOne(t *testing.T, stdout string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON value:\n%s", stdout)
	}
}

// `pitch score FILE` and `pitch score` (standard input) print the result
// of a finished hand and exit 0.
func TestScoreFileAndStdin(t *testing.T) {
	dir := t.TempDir()
	for i, g := range []*pitch.Game{pitch.MustNewGame(pitch.Auction), pitch.MustNewGame(pitch.TenPoint), pitch.MustNewGame(pitch.Pawnee)} {
		rec, s := playedRecord(t, g, uint64(i+1), -1)
		file := filepath.Join(dir, g.Variant.String()+".json")
		if err := os.WriteFile(file, rec, 0o644); err != nil {
			t.Fatal(err)
		}
		code, fromFile, stderr := runCmd(t, "", "score", file)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: score FILE exit %d, stderr %q", g.Variant, code, stderr)
		}
		code, fromStdin, stderr := runCmd(t, string(rec), "score")
		if code != 0 || stderr != "" {
			t.Fatalf("%s: score (stdin) exit %d, stderr %q", g.Variant, code, stderr)
		}
		if fromFile != fromStdin {
			t.Errorf("%s: file and stdin outputs differ:\n%s\n%s", g.Variant, fromFile, fromStdin)
		}
		var got scoreOut
		decodeOne(t, fromFile, &got)
		if !got.Complete || got.Made == nil || got.Bidder == nil || *got.Bidder != s.Bidder() || got.Trump == nil || *got.Trump != s.Trump().String() {
			t.Errorf("%s: output %s", g.Variant, fromFile)
		}
		if want := s.NewScores(); !reflect.DeepEqual(got.Scores, want) {
			t.Errorf("%s: scores %v, want %v", g.Variant, got.Scores, want)
		}
		if want := s.Winners(); !reflect.DeepEqual(got.Winner, want) {
			t.Errorf("%s: winner %v, want %v", g.Variant, got.Winner, want)
		}
		// every documented field is present, pawnee's partner included
		var fields map[string]json.RawMessage
		decodeOne(t, fromFile, &fields)
		want := []string{"complete", "bidder", "bid", "trump", "teams", "points", "taken", "made", "score_delta", "scores", "winner"}
		if g.Variant == pitch.Pawnee {
			want = append(want, "partner")
		}
		for _, k := range want {
			if _, ok := fields[k]; !ok {
				t.Errorf("%s: output lacks %q", g.Variant, k)
			}
		}
		if _, ok := fields["partner"]; ok && g.Variant != pitch.Pawnee {
			t.Errorf("%s: output has a partner", g.Variant)
		}
	}
}

// A faulty record prints only {"error": ..., "action": ...} on standard
// output and exits 1 (HAND-RECORD.md, Errors).
func TestScoreErrors(t *testing.T) {
	rec, _ := playedRecord(t, pitch.MustNewGame(pitch.TenPoint), 3, -1)
	var m map[string]any
	if err := json.Unmarshal(rec, &m); err != nil {
		t.Fatal(err)
	}
	acts := m["actions"].([]any)
	// action 2 by the wrong seat
	a2 := acts[2].(map[string]any)
	a2["seat"] = (int(a2["seat"].(float64)) + 1) % 4
	badAction, _ := json.Marshal(m)

	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	tests := []struct {
		name   string
		args   []string
		stdin  string
		action any // float64 index or nil
		msg    string
	}{
		{"refused action", []string{"score"}, string(badAction), float64(2), "turn"},
		{"not JSON", []string{"score"}, "{", nil, "not a JSON object"},
		{"empty", []string{"score"}, "", nil, "not a JSON object"},
		{"unknown variant", []string{"score"}, `{"variant":"bridge","dealer":0,"deal":{"hands":[]},"actions":[]}`, nil, "bridge"},
		{"bad card", []string{"score"}, strings.Replace(string(rec), `"hands": [`+"\n      [\n        \"", `"hands": [`+"\n      [\n        \"Z", 1), nil, "unknown card"},
		{"missing file", []string{"score", missing}, "", nil, "cannot open"},
	}
	for _, tt := range tests {
		code, stdout, _ := runCmd(t, tt.stdin, tt.args...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1 (stdout %s)", tt.name, code, stdout)
			continue
		}
		var got map[string]any
		decodeOne(t, stdout, &got)
		if len(got) != 2 || got["action"] != tt.action {
			t.Errorf("%s: stdout %s, want only error and action %v", tt.name, stdout, tt.action)
		}
		if msg, _ := got["error"].(string); !strings.Contains(msg, tt.msg) {
			t.Errorf("%s: error %q, want it to mention %q", tt.name, msg, tt.msg)
		}
	}
	// usage faults are not record errors: exit 2, nothing on stdout
	for _, args := range [][]string{{"score", "a", "b"}, {"score", "--bogus"}} {
		code, stdout, stderr := runCmd(t, "", args...)
		if code != 2 || stdout != "" || stderr == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// `pitch deal` prints a hand record of a random deal: the same for the same
// seed, different for another; its dealer is the match's first dealer
// (C-2) unless --dealer says otherwise; and it scores as an incomplete hand.
func TestDeal(t *testing.T) {
	for _, v := range []string{"auction", "ten-point", "pawnee"} {
		_, a, _ := runCmd(t, "", "deal", "--variant", v, "--seed", "5")
		code, b, stderr := runCmd(t, "", "deal", "--variant", v, "--seed", "5")
		if code != 0 || stderr != "" || a != b {
			t.Fatalf("%s: deal exit %d stderr %q; same seed same output: %v", v, code, stderr, a == b)
		}
		if _, c, _ := runCmd(t, "", "deal", "--variant", v, "--seed", "6"); c == a {
			t.Errorf("%s: seeds 5 and 6 deal the same", v)
		}
		rec, err := pitch.ReadRecord(strings.NewReader(a))
		if err != nil {
			t.Fatalf("%s: deal output is not a hand record: %v\n%s", v, err, a)
		}
		vv, _ := pitch.ParseVariant(v)
		g := pitch.MustNewGame(vv)
		first := pitch.NewMatch(g, 5).State().Record(nil)
		if rec.Dealer != first.Dealer || !reflect.DeepEqual(rec.Hands, first.Hands) || len(rec.Actions) != 0 {
			t.Errorf("%s: deal --seed 5 is not the first hand of a match with seed 5", v)
		}
		// it scores as an incomplete hand (HAND-RECORD.md)
		code, out, _ := runCmd(t, a, "score")
		var got scoreOut
		decodeOne(t, out, &got)
		if code != 0 || got.Complete || got.Bidder != nil || got.Bid != nil || got.Trump != nil || got.Made != nil ||
			got.Teams != nil || len(got.Points) != 0 || got.Winner != nil {
			t.Errorf("%s: deal scores as %s (exit %d)", v, out, code)
		}
		if want := make([]int, g.Seats()); !reflect.DeepEqual(got.ScoreDelta, want) || !reflect.DeepEqual(got.Scores, want) {
			t.Errorf("%s: incomplete hand delta %v scores %v", v, got.ScoreDelta, got.Scores)
		}
		// --dealer
		for d := range g.Seats() {
			_, out, _ := runCmd(t, "", "deal", "--variant", v, "--seed", "5", "--dealer", string(rune('0'+d)))
			r, err := pitch.ReadRecord(strings.NewReader(out))
			if err != nil || r.Dealer != d {
				t.Errorf("%s --dealer %d: dealer %v, %v", v, d, r, err)
			}
		}
	}
	// --players (auction only)
	for _, n := range []int{2, 3, 7} {
		_, out, _ := runCmd(t, "", "deal", "--players", string(rune('0'+n)))
		r, err := pitch.ReadRecord(strings.NewReader(out))
		if err != nil || len(r.Hands) != n || r.Game.Options.Players != n {
			t.Errorf("--players %d: %v, %v", n, r, err)
		}
	}
}

// Bad `pitch deal` flags exit 2 with a message on standard error.
func TestDealErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--dealer", "4"}, "--dealer 4 is not a seat: seats are 0 to 3"},
		{[]string{"--dealer", "-2"}, "--dealer -2 is not a seat"},
		{[]string{"--variant", "pawnee", "--dealer", "5"}, "seats are 0 to 4"},
		{[]string{"--players", "8"}, "2 to 7 players, not 8"},
		{[]string{"--players", "1"}, "2 to 7 players, not 1"},
		{[]string{"--variant", "pawnee", "--players", "4"}, "exactly 5 players, not 4"},
		{[]string{"--variant", "euchre"}, `unknown variant "euchre"`},
		{[]string{"--seed", "x"}, "invalid value"},
		{[]string{"--bogus"}, "flag provided but not defined"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCmd(t, "", append([]string{"deal"}, tt.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("deal %v: exit %d, stdout %q, stderr %q; want 2 and %q", tt.args, code, stdout, stderr, tt.want)
		}
	}
}

// `pitch rules [VARIANT]` prints each game's rules with its options and
// defaults; an unknown variant is an error.
func TestRules(t *testing.T) {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		t.Setenv(v, "") // English, whatever the machine's locale
	}
	tests := []struct {
		variant string
		want    []string
	}{
		{"auction", []string{"Auction Pitch", "target", "7", "players", "low_to_holder"}},
		{"ten-point", []string{"10 Point Pitch", "target", "52"}},
		{"pawnee", []string{"Pawnee", "target", "42", "call_own_card", "pawnee_score_tricks", "pawnee_fail_bidder_only"}},
	}
	_, all, _ := runCmd(t, "", "rules")
	for _, tt := range tests {
		code, out, stderr := runCmd(t, "", "rules", tt.variant)
		if code != 0 || stderr != "" {
			t.Errorf("rules %s: exit %d stderr %q", tt.variant, code, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("rules %s lacks %q", tt.variant, w)
			}
		}
		if !strings.Contains(all, out) {
			t.Errorf("rules (all) does not include rules %s", tt.variant)
		}
		for _, other := range tests {
			if other.variant != tt.variant && strings.Contains(out, other.want[0]) {
				t.Errorf("rules %s includes %s", tt.variant, other.want[0])
			}
		}
	}
	code, stdout, stderr := runCmd(t, "", "rules", "bridge")
	if code != 2 || stdout != "" || !strings.Contains(stderr, `unknown variant "bridge"`) {
		t.Errorf("rules bridge: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := runCmd(t, "", "rules", "auction", "pawnee"); code != 2 || stderr == "" {
		t.Errorf("rules with two variants: exit %d", code)
	}
}

// No command, help, and an unknown command.
func TestUsage(t *testing.T) {
	if code, stdout, _ := runCmd(t, ""); code != 2 || !strings.Contains(stdout, "usage: pitch") {
		t.Errorf("no args: exit %d stdout %q", code, stdout)
	}
	for _, h := range []string{"help", "-h", "--help"} {
		if code, stdout, _ := runCmd(t, "", h); code != 0 || !strings.Contains(stdout, "score") || !strings.Contains(stdout, "deal") {
			t.Errorf("%s: exit %d stdout %q", h, code, stdout)
		}
	}
	if code, stdout, stderr := runCmd(t, "", "frobnicate"); code != 2 || stdout != "" || !strings.Contains(stderr, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// `pitch deal --play BOT` plays the hand out with the bot at every seat:
// the record scores as a complete hand, the same for the same seed, on the
// same deal as without --play.
func TestDealPlay(t *testing.T) {
	for _, v := range []string{"auction", "ten-point", "pawnee"} {
		_, bare, _ := runCmd(t, "", "deal", "--variant", v, "--seed", "7")
		code, a, stderr := runCmd(t, "", "deal", "--variant", v, "--seed", "7", "--play", "easy")
		_, b, _ := runCmd(t, "", "deal", "--variant", v, "--seed", "7", "--play", "easy")
		if code != 0 || stderr != "" || a != b {
			t.Fatalf("%s: deal --play exit %d stderr %q; same seed same output: %v", v, code, stderr, a == b)
		}
		r0, err0 := pitch.ReadRecord(strings.NewReader(bare))
		r, err := pitch.ReadRecord(strings.NewReader(a))
		if err0 != nil || err != nil || r.Dealer != r0.Dealer || !reflect.DeepEqual(r.Hands, r0.Hands) || len(r.Actions) == 0 {
			t.Fatalf("%s: deal --play is not the same deal played out (%v, %v)", v, err0, err)
		}
		code, out, _ := runCmd(t, a, "score")
		var got scoreOut
		decodeOne(t, out, &got)
		if code != 0 || !got.Complete || got.Bidder == nil || got.Made == nil || len(got.Points) == 0 {
			t.Errorf("%s: deal --play scores as %s (exit %d), want a complete hand", v, out, code)
		}
	}
	code, stdout, stderr := runCmd(t, "", "deal", "--play", "grandmaster")
	if code != 2 || stdout != "" || !strings.Contains(stderr, `unknown bot "grandmaster": the bots are random, heuristic, search, easy, medium, hard`) {
		t.Errorf("deal --play grandmaster: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// Every command's -h says what it does, with an example, and lists its
// flags with each default said once and right.
func TestHelp(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{"deal", []string{"usage: pitch deal", "example:", "--play easy | pitch score", "-dealer seat", "(default: drawn from the seed, as a match's first dealer)\n", "-seed uint\n    \tseed for the dealer and the shuffle (default 1)\n"}},
		{"play", []string{"usage: pitch play", "example:", "-seed number", "(default: a new one each time)\n", `(default "medium")`}},
		{"score", []string{"usage: pitch score [FILE]", "Reads a hand record", "standard\ninput", "prints the result as JSON", "examples:", "| pitch score"}},
		{"sim", []string{"usage: pitch sim", "examples:", "-max-hands int", "count it as unfinished (default 1000)", "every core\n"}},
	}
	for _, tt := range tests {
		_, stdout, stderr := runCmd(t, "", tt.cmd, "--help")
		if stdout != "" {
			t.Errorf("%s --help wrote to standard output: %q", tt.cmd, stdout)
		}
		for _, w := range tt.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s --help lacks %q:\n%s", tt.cmd, w, stderr)
			}
		}
		for _, line := range strings.Split(stderr, "\n") {
			if strings.Count(line, "(default") > 1 || strings.Contains(line, "(default -1)") {
				t.Errorf("%s --help: a default said twice or wrong: %q", tt.cmd, line)
			}
		}
	}
	if code, _, stderr := runCmd(t, "", "play", "--seed", "soon"); code != 2 || !strings.Contains(stderr, `"soon" is not a whole number from 0 to`) {
		t.Errorf("play --seed soon: exit %d stderr %q", code, stderr)
	}
}

// `pitch sim --matches` reports matches random players never end as
// unfinished (count and share, in the table and the JSON) instead of
// failing the run; --max-hands sets when a match is given up.
func TestSimUnfinished(t *testing.T) {
	// An auction pitcher gains at most 4 a hand: no match to 13 ends in 3.
	args := []string{"sim", "--variant", "auction", "--target", "13", "--a", "random", "--b", "random", "--matches", "6", "--max-hands", "3"}
	code, stdout, stderr := runCmd(t, "", args...)
	if code != 0 || !strings.Contains(stdout, "unfinished: 6 of 6 matches (100.0%) had no winner after 3 hands") {
		t.Errorf("sim: exit %d stderr %q\n%s", code, stderr, stdout)
	}
	code, stdout, _ = runCmd(t, "", append(args, "--json")...)
	var res struct {
		Unfinished int     `json:"unfinished_matches"`
		Share      float64 `json:"unfinished_share"`
		MaxHands   int     `json:"max_hands"`
	}
	decodeOne(t, stdout, &res)
	if code != 0 || res.Unfinished != 6 || res.Share != 1 || res.MaxHands != 3 {
		t.Errorf("sim --json: exit %d, %+v", code, res)
	}
	// The run: random players in auction, some matches never end.
	code, stdout, stderr = runCmd(t, "", "sim", "--variant", "auction", "--a", "random", "--b", "random", "--matches", "50")
	if code != 0 || !strings.Contains(stdout, "had no winner after 1000 hands") {
		t.Errorf("sim --matches 50: exit %d stderr %q\n%s", code, stderr, stdout)
	}
	if code, _, stderr := runCmd(t, "", "sim", "--a", "random", "--b", "random", "--matches", "2", "--max-hands", "0"); code != 2 || !strings.Contains(stderr, "--max-hands 0: give a number of hands above 0") {
		t.Errorf("--max-hands 0: exit %d stderr %q", code, stderr)
	}
}

// The server's first line names a URL a person can open.
func TestBrowseURL(t *testing.T) {
	for addr, want := range map[string]string{
		"[::]:8080":      "http://localhost:8080",
		"0.0.0.0:8080":   "http://localhost:8080",
		"127.0.0.1:9000": "http://127.0.0.1:9000",
		"[::1]:8080":     "http://[::1]:8080",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := browseURL(a); got != want {
			t.Errorf("browseURL(%s) = %q, want %q", addr, got, want)
		}
	}
}

// TestAdvise: `pitch advise` reads a record that stops at a decision, from
// a file or standard input, and ranks the options of the seat to act:
// every legal action once, best value first, the level's choice among
// them; bids carry their chances. A finished hand or an unknown level is
// a usage error.
func TestAdvise(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "positions", "auction-keep-the-jack.json")
	code, stdout, stderr := runCmd(t, "", "advise", "--json", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Seat    int          `json:"seat"`
		Level   string       `json:"level"`
		Choice  pitch.Action `json:"choice"`
		Options []struct {
			Action pitch.Action `json:"action"`
			Value  float64      `json:"value"`
			Made   *float64     `json:"made"`
		} `json:"options"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if out.Seat != 2 || out.Level != "expert" || out.Choice != pitch.Play(2, pitch.MustParseCard("QC")) || len(out.Options) != 2 {
		t.Fatalf("advice %s", stdout)
	}
	if out.Options[0].Value < out.Options[1].Value || out.Options[0].Action != out.Choice || out.Options[0].Made != nil {
		t.Errorf("options not ranked, or the choice not first: %s", stdout)
	}
	// A bid position on standard input, as text: bids show their chances.
	rec, err := os.ReadFile(filepath.Join("..", "..", "testdata", "positions", "auction-singleton-ace.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCmd(t, string(rec), "advise", "--level", "medium")
	if code != 0 || !strings.Contains(stdout, "seat 1 to act (bid), as medium sees it") || !strings.Contains(stdout, "*") ||
		!strings.Contains(stdout, "passes") || !strings.Contains(stdout, "bids 4") || !strings.Contains(stdout, "%") {
		t.Errorf("exit %d, text advice:\n%s%s", code, stdout, stderr)
	}
	done, _ := playedRecord(t, pitch.MustNewGame(pitch.Auction), 3, -1)
	if code, _, stderr := runCmd(t, string(done), "advise"); code != 2 || !strings.Contains(stderr, "the hand is over") {
		t.Errorf("finished hand: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCmd(t, string(rec), "advise", "--level", "easy"); code != 2 || !strings.Contains(stderr, "does not weigh options") {
		t.Errorf("--level easy: exit %d, %s", code, stderr)
	}
}

// fairHandRecord deals a ten-point hand from a fair seed, plays it out and
// returns its record (JSON) with the proof, and the proof.
func fairHandRecord(t *testing.T) (map[string]any, *pitch.Fairness) {
	t.Helper()
	g := pitch.MustNewGame(pitch.TenPoint)
	var secret [32]byte
	secret[0] = 7
	c := pitch.FairCommitment(secret)
	f := &pitch.Fairness{Algorithm: pitch.FairAlgorithm, Version: pitch.FairVersion, Commitment: fmt.Sprintf("%x", c),
		Secret: fmt.Sprintf("%x", secret), CommittedAt: "2026-03-01T10:00:00.000000Z", DealtAt: "2026-03-01T10:00:01.000000Z",
		Contributions: []pitch.Contribution{{Seat: 1, Name: "Ann", Value: strings.Repeat("5a", 32), At: "2026-03-01T10:00:00.200000Z"}}}
	seed, err := pitch.FairSeed(secret, f.Contributions)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pitch.NewHand(g, 2, nil, pitch.FairDeck(g, seed))
	if err != nil {
		t.Fatal(err)
	}
	rng := pitch.NewRand(3)
	var acts []pitch.Action
	for !s.Terminal() {
		a := s.RandomAction(rng)
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		acts = append(acts, a)
	}
	r := s.Record(acts)
	r.Fairness, _ = json.Marshal(f)
	b, _ := json.Marshal(r)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, f
}

// `pitch verify` passes an honest record and names what fails in a
// tampered one (secret, contribution, a swapped card, a commitment
// published after a contribution, actions pitch score refuses, a field
// name in another case), exit 1; `pitch score` ignores the proof.
func TestVerify(t *testing.T) {
	rec, f := fairHandRecord(t)
	write := func(m map[string]any) string {
		b, _ := json.Marshal(m)
		return string(b)
	}
	code, out, errOut := runCmd(t, write(rec), "verify")
	if code != 0 || !strings.Contains(out, "verified:") || !strings.Contains(out, "seed: ") || errOut != "" {
		t.Fatalf("an honest record: exit %d\n%s%s", code, out, errOut)
	}
	path := filepath.Join(t.TempDir(), "hand.json")
	if err := os.WriteFile(path, []byte(write(rec)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCmd(t, "", "verify", path); code != 0 {
		t.Errorf("verify FILE: exit %d\n%s", code, out)
	}
	if code, out, _ := runCmd(t, write(rec), "score"); code != 0 || !strings.Contains(out, `"complete": true`) {
		t.Errorf("score of a record with fairness: exit %d\n%s", code, out)
	}
	with := func(change func(m map[string]any, f map[string]any)) string {
		b, _ := json.Marshal(rec)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		change(m, m["fairness"].(map[string]any))
		return write(m)
	}
	for _, tc := range []struct {
		name, record, want string
	}{
		{"tampered secret", with(func(m, fm map[string]any) { fm["secret"] = strings.Repeat("0", 63) + "1" }), "FAILED: the secret does not match the commitment"},
		{"tampered contribution", with(func(m, fm map[string]any) {
			fm["contributions"].([]any)[0].(map[string]any)["value"] = strings.Repeat("5b", 32)
		}), "FAILED: seat"},
		{"swapped card", with(func(m, fm map[string]any) {
			hands := m["deal"].(map[string]any)["hands"].([]any)
			h0, h1 := hands[0].([]any), hands[1].([]any)
			h0[0], h1[0] = h1[0], h0[0]
		}), "FAILED: seat 0's hand: the record has"},
		{"stock order", with(func(m, fm map[string]any) {
			st := m["deal"].(map[string]any)["stock"].([]any)
			st[0], st[5] = st[5], st[0]
		}), "FAILED: the stock, card 1 from the top"},
		{"commitment after the contributions", with(func(m, fm map[string]any) { fm["committed_at"] = "2026-03-01T10:00:00.500000Z" }),
			"FAILED: seat 1's contribution (2026-03-01T10:00:00.200000Z) is dated before the commitment was published"},
		{"no proof", with(func(m, fm map[string]any) { delete(m, "fairness") }), "FAILED: the record has no fairness object"},
		{"actions swapped (pitch score refuses it)", with(func(m, fm map[string]any) {
			a := m["actions"].([]any)
			a[0], a[1] = a[1], a[0]
		}), "FAILED: the record's actions do not replay under the rules, so pitch score refuses it"},
		{"Secret for secret", with(func(m, fm map[string]any) {
			fm["Secret"] = fm["secret"]
			delete(fm, "secret")
		}), `FAILED: the fairness object does not read: unknown field "Secret"`},
		{"not a record", "{", "FAILED: the hand record does not read"},
	} {
		code, out, _ := runCmd(t, tc.record, "verify")
		if code != 1 || !strings.Contains(out, tc.want) || !strings.Contains(out, "NOT VERIFIED") && tc.name != "not a record" {
			t.Errorf("%s: exit %d\n%s\nwant exit 1 and %q", tc.name, code, out, tc.want)
		}
	}
	if code, _, errOut := runCmd(t, "", "verify", "a", "b"); code != 2 || !strings.Contains(errOut, "at most one FILE") {
		t.Errorf("two files: exit %d %s", code, errOut)
	}
	if code, out, _ := runCmd(t, "", "verify", filepath.Join(t.TempDir(), "none.json")); code != 1 || !strings.Contains(out, "cannot open") {
		t.Errorf("a missing file: exit %d %s", code, out)
	}
	_ = f
}

// `pitch sim --against` compares --a and --b in one seat among its bots
// and prints the paired difference; a bot compared with itself under
// another name differs nowhere, and --against with --matches is refused
// with what to give instead.
func TestSimAgainst(t *testing.T) {
	code, stdout, stderr := runCmd(t, "", "sim", "--variant", "pawnee", "--a", "easy", "--b", "heuristic", "--against", "random", "--hands", "4")
	want := "easy − heuristic, each in one seat among random: +0.000 ± 0.000 points of standing per hand (95%, 4 paired deals; 0 of 20 seat-hands differ)"
	if code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("sim --against: exit %d stderr %q, want %q in\n%s", code, stderr, want, stdout)
	}
	if !strings.Contains(stdout, "pawnee: 4 deals × 5 seats × 2 bots = 40 hands") {
		t.Errorf("sim --against: summary line missing in\n%s", stdout)
	}
	code, _, stderr = runCmd(t, "", "sim", "--a", "easy", "--b", "random", "--against", "random", "--matches", "2")
	if code != 2 || !strings.Contains(stderr, "give --hands, not --matches") {
		t.Errorf("sim --against --matches: exit %d stderr %q", code, stderr)
	}
}

// `pitch sim --ratings` rates --levels against each other and prints
// them as JSON in the form rating/bots/VARIANT.json keeps; the flags of
// the other modes are refused with it, and --levels must be bots.
func TestSimRatings(t *testing.T) {
	code, stdout, stderr := runCmd(t, "", "sim", "--variant", "ten-point", "--ratings", "--levels", "random,easy", "--matches", "6", "--json")
	var res struct {
		Variant string `json:"variant"`
		Matches int    `json:"matches"`
		Levels  []struct {
			Level  string `json:"level"`
			Rating struct{ Mu, Sigma float64 }
		} `json:"levels"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil || res.Variant != "ten-point" || res.Matches != 6 || len(res.Levels) != 2 || res.Levels[1].Level != "easy" || res.Levels[1].Rating.Sigma <= 0 {
		t.Errorf("sim --ratings --json: exit %d, err %v, stderr %q, %+v", code, err, stderr, res)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--ratings", "--hands", "3"}, "it takes none of --hands"},
		{[]string{"sim", "--ratings", "--a", "easy", "--b", "hard", "--matches", "3"}, "it takes none of"},
		{[]string{"sim", "--ratings"}, "--ratings: give --matches N"},
		{[]string{"sim", "--ratings", "--levels", "easy,master", "--matches", "2"}, `unknown bot "master"`},
	} {
		if code, _, stderr := runCmd(t, "", c.args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
