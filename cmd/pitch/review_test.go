package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
