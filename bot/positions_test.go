package bot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pitch"
)

// positionExpect is a NAME.expect file of testdata/positions: the actions
// a strong player takes there (the choice must be one of want, when given)
// and the blunders (never one of avoid). Open, when set, says why the
// expert does not yet choose right there: the test then reports its
// choice without failing, and fails once it chooses right with every
// seed, so that the note is removed.
type positionExpect struct {
	Want  []pitch.Action `json:"want"`
	Avoid []pitch.Action `json:"avoid"`
	Open  string         `json:"open"`
}

// TestPositions puts every position of testdata/positions (a hand record
// that stops at a decision, with the blunders seen in play) to the expert
// from the seat to act's view: its choice must be a wanted action and
// never a blunder, with several seeds.
func TestPositions(t *testing.T) {
	files, err := filepath.Glob("../testdata/positions/*.json")
	if err != nil || len(files) < 5 {
		t.Fatalf("positions: %v, %v", files, err)
	}
	seeds := []uint64{1, 2}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, exp := loadPosition(t, f)
			right := 0
			for _, seed := range seeds {
				a := Decide(&Expert{}, &s, pitch.NewRand(seed))
				good := !slices.Contains(exp.Avoid, a) && (len(exp.Want) == 0 || slices.Contains(exp.Want, a))
				switch {
				case good:
					right++
				case exp.Open != "":
					t.Logf("open: seed %d: expert chose %v (%s)", seed, a, exp.Open)
				default:
					t.Errorf("seed %d: expert chose %v; want one of %v, never one of %v", seed, a, exp.Want, exp.Avoid)
				}
			}
			if exp.Open != "" && right == len(seeds) {
				t.Errorf("the expert chooses right with every seed: remove the open note (%s)", exp.Open)
			}
		})
	}
}

// loadPosition reads a position's record, replays it, and reads its
// expectations.
func loadPosition(t *testing.T, file string) (pitch.State, positionExpect) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := pitch.ReadRecord(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rec.State()
	if err != nil {
		t.Fatal(err)
	}
	var exp positionExpect
	data, err := os.ReadFile(strings.TrimSuffix(file, ".json") + ".expect")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatalf("%s.expect: %v", file, err)
	}
	if s.Terminal() || len(exp.Want)+len(exp.Avoid) == 0 {
		t.Fatalf("%s: the hand is over or nothing is expected", file)
	}
	for _, a := range append(exp.Want, exp.Avoid...) {
		if !legalHas(&s, a) {
			t.Fatalf("%s: expected action %v is not legal here", file, a)
		}
	}
	return s, exp
}
