package web_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"pitch/server/delta"
)

// deltaDoc makes a random document of the shapes an event has.
func deltaDoc(rng *rand.Rand, depth int) any {
	switch k := rng.IntN(6); {
	case depth == 0 || k == 0:
		return []any{float64(rng.IntN(5)), "Ann", "", true, nil, 2.5}[rng.IntN(6)]
	case k <= 2:
		l := make([]any, rng.IntN(5))
		for i := range l {
			l[i] = deltaDoc(rng, depth-1)
		}
		return l
	default:
		m := map[string]any{}
		for range rng.IntN(5) {
			m[[]string{"a", "b", "c", "d", "__proto__"}[rng.IntN(5)]] = deltaDoc(rng, depth-1)
		}
		return m
	}
}

// deltaNext returns a changed copy of v.
func deltaNext(rng *rand.Rand, v any, depth int) any {
	if rng.IntN(8) == 0 {
		return deltaDoc(rng, depth)
	}
	switch v := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, x := range v {
			if rng.IntN(10) > 0 {
				m[k] = deltaNext(rng, x, depth-1)
			}
		}
		if rng.IntN(4) == 0 {
			m[[]string{"a", "e", "f"}[rng.IntN(3)]] = deltaDoc(rng, depth-1)
		}
		return m
	case []any:
		l := []any{}
		for _, x := range v {
			if rng.IntN(10) > 0 {
				l = append(l, deltaNext(rng, x, depth-1))
			}
		}
		for range rng.IntN(3) {
			l = append(l, deltaDoc(rng, depth-1))
		}
		return l
	}
	return v
}

// TestDeltaJSMatchesGo: the page's applyOps (static/js/delta.js), under
// Node, turns each document into the next from the ops of Go's Diff, over
// chains of thousands of random changes, as a follower of an event
// applies every change from the first whole state; and it refuses an op
// whose path names no place (the page then asks for the whole again).
func TestDeltaJSMatchesGo(t *testing.T) {
	node := nodePath()
	if node == "" {
		t.Skip("node is not installed (.ci/run installs it)")
	}
	type chain struct {
		Start any     `json:"start"`
		Steps [][]any `json:"steps"` // each: ops, then the document they make
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var chains []chain
	for range 200 {
		doc := deltaDoc(rng, 4)
		c := chain{Start: doc}
		for range 15 {
			next := deltaNext(rng, doc, 4)
			b, _ := json.Marshal(next) // as the server sends it: decoded from JSON
			next, _ = delta.Decode(b)
			ops := delta.Diff(doc, next)
			if ops == nil {
				ops = []delta.Op{}
			}
			c.Steps = append(c.Steps, []any{ops, next})
			doc = next
		}
		chains = append(chains, c)
	}
	dir := t.TempDir()
	in, err := json.Marshal(chains)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chains.json"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	mod, err := filepath.Abs("static/js/delta.js")
	if err != nil {
		t.Fatal(err)
	}
	script := `
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { applyOps } from ` + "'file://" + filepath.ToSlash(mod) + `';
const chains = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let steps = 0;
for (const [i, c] of chains.entries()) {
  let doc = c.start;
  for (const [k, [ops, want]] of c.steps.entries()) {
    doc = applyOps(doc, ops);
    if (!isDeepStrictEqual(doc, want)) {
      console.log(JSON.stringify({ error: 'chain ' + i + ' step ' + k, got: doc, want, ops }));
      process.exit(0);
    }
    steps++;
  }
}
const bad = [[{ a: 1 }, [[['b', 'c'], 1]]], [{ a: [1] }, [[['a', 3], 1]]], [{ a: [1] }, [[['a', 'x'], 1]]], [{ a: 1 }, [[['a', 0], 1]]], [{}, [[['__proto__', 'x'], 1]]]];
let refused = 0;
for (const [doc, ops] of bad) {
  try { applyOps(doc, ops); } catch (e) { refused++; }
}
console.log(JSON.stringify({ steps, refused, bad: bad.length }));
`
	sp := filepath.Join(dir, "run.mjs")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, sp, filepath.Join(dir, "chains.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var res struct {
		Error        string
		Steps        int
		Refused, Bad int
		Got, Want    any
		Ops          any
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node said %s: %v", out, err)
	}
	if res.Error != "" {
		t.Fatalf("%s: applyOps gave %v, want %v (ops %v)", res.Error, res.Got, res.Want, res.Ops)
	}
	if want := 200 * 15; res.Steps != want {
		t.Errorf("node applied %d steps, want %d", res.Steps, want)
	}
	if res.Refused != res.Bad {
		t.Errorf("applyOps refused %d of %d ops whose path names no place", res.Refused, res.Bad)
	}
}
