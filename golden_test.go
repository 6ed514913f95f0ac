package pitch

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// scoreJSON returns what `pitch score` prints for the record in data.
func scoreJSON(data []byte) []byte {
	out, err := ScoreRecord(bytes.NewReader(data))
	var b []byte
	if err != nil {
		b, _ = json.Marshal(err)
	} else {
		b, _ = json.MarshalIndent(out, "", "  ")
	}
	return append(b, '\n')
}

// goldenCase names one golden hand record in testdata/records and the
// rules it pins down.
type goldenCase struct {
	name  string // testdata/records/NAME.json and NAME.golden
	rules string // rule IDs the case checks, e.g. "AP-BID-3"
}

// goldenCases lists every golden record; each game's test file adds its
// own in an init function. Every file in testdata/records must be listed.
var goldenCases []goldenCase

func TestGoldenRecords(t *testing.T) {
	files, _ := filepath.Glob("testdata/records/*.json")
	listed := map[string]bool{}
	for _, c := range goldenCases {
		listed[c.name] = true
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); !listed[name] {
			t.Errorf("%s is not listed in goldenCases", f)
		}
	}
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata/records", c.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			got := scoreJSON(in)
			golden := filepath.Join("testdata/records", c.name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGoldenRecords -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s (%s): score output differs from %s\n got: %s\nwant: %s", c.name, c.rules, golden, got, want)
			}
		})
	}
}
