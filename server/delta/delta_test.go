package delta

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

func TestDiffOps(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"same", `{"a":1}`, `{"a":1}`, `null`},
		{"scalar", `{"a":1,"b":"x"}`, `{"a":2,"b":"x"}`, `[[["a"],2]]`},
		{"added and removed key", `{"a":"a value long enough","b":2}`, `{"a":"a value long enough","c":3}`, `[[["c"],3],[["b"]]]`},
		{"append", `{"l":[1,2]}`, `{"l":[1,2,3]}`, `[[["l",2],3]]`},
		{"cut", `{"l":[1,2,3]}`, `{"l":[1]}`, `[[["l",1]]]`},
		{"deep", `{"r":[[{"s":1},{"s":2}]]}`, `{"r":[[{"s":1},{"s":5}]]}`, `[[["r",0,1,"s"],5]]`},
		{"type change", `{"a":{"x":1}}`, `{"a":[1]}`, `[[["a"],[1]]]`},
		{"whole when shorter", `{"l":[1,2,3,4]}`, `{"l":[5,6,7,8]}`, `[[["l"],[5,6,7,8]]]`},
		{"root from nothing", ``, `{"a":1}`, `[[[],{"a":1}]]`},
		{"null value", `{"a":1}`, `{"a":null}`, `[[["a"],null]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a any
			if tt.a != "" {
				a = decode(t, tt.a)
			}
			b := decode(t, tt.b)
			ops := Diff(a, b)
			got, err := json.Marshal(ops)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Diff(%s, %s) = %s, want %s", tt.a, tt.b, got, tt.want)
			}
			// Through JSON, as a follower gets them.
			var back []Op
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			res, err := Apply(a, back)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if !reflect.DeepEqual(res, b) {
				t.Errorf("Apply(%s, Diff) = %v, want %v", tt.a, res, b)
			}
		})
	}
}

func TestApplyBadPath(t *testing.T) {
	tests := []struct{ doc, op string }{
		{`{"a":1}`, `[["b","c"],1]`},   // no key b
		{`{"a":[1]}`, `[["a",3],1]`},   // past the end
		{`{"a":[1]}`, `[["a","x"],1]`}, // a key of an array
		{`{"a":1}`, `[["a",0],1]`},     // inside a number
		{`[1]`, `[[0,"k"],1]`},         // inside a number
	}
	for _, tt := range tests {
		var op Op
		if err := json.Unmarshal([]byte(tt.op), &op); err != nil {
			t.Fatalf("%s: %v", tt.op, err)
		}
		if _, err := Apply(decode(t, tt.doc), []Op{op}); err == nil {
			t.Errorf("Apply(%s, %s): no error", tt.doc, tt.op)
		}
	}
	for _, bad := range []string{`[]`, `[1,2,3]`, `[[-1],1]`, `[[1.5],1]`, `[[true],1]`, `{}`} {
		var op Op
		if err := json.Unmarshal([]byte(bad), &op); err == nil {
			t.Errorf("Unmarshal(%s): no error", bad)
		}
	}
}

// randomDoc makes a random document of the shapes an event has: objects
// of arrays of objects, numbers, strings, booleans and nulls.
func randomDoc(rng *rand.Rand, depth int) any {
	switch k := rng.IntN(6); {
	case depth == 0 || k == 0:
		switch rng.IntN(4) {
		case 0:
			return float64(rng.IntN(5))
		case 1:
			return []string{"a", "b", "Ann", ""}[rng.IntN(4)]
		case 2:
			return rng.IntN(2) == 0
		}
		return nil
	case k <= 2:
		l := make([]any, rng.IntN(5))
		for i := range l {
			l[i] = randomDoc(rng, depth-1)
		}
		return l
	default:
		m := map[string]any{}
		for range rng.IntN(5) {
			m[[]string{"a", "b", "c", "d", "e"}[rng.IntN(5)]] = randomDoc(rng, depth-1)
		}
		return m
	}
}

// mutate returns a changed deep copy of v.
func mutate(rng *rand.Rand, v any, depth int) any {
	if rng.IntN(8) == 0 {
		return randomDoc(rng, depth)
	}
	switch v := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, x := range v {
			if rng.IntN(10) > 0 {
				m[k] = mutate(rng, x, depth-1)
			}
		}
		if rng.IntN(4) == 0 {
			m[[]string{"a", "b", "c", "f"}[rng.IntN(4)]] = randomDoc(rng, depth-1)
		}
		return m
	case []any:
		l := []any{}
		for _, x := range v {
			if rng.IntN(10) > 0 {
				l = append(l, mutate(rng, x, depth-1))
			}
		}
		for range rng.IntN(3) {
			l = append(l, randomDoc(rng, depth-1))
		}
		return l
	}
	return v
}

func deepCopy(t *testing.T, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, string(b))
}

// TestDiffApplyProperty: applying Diff(a, b) to a, after a round trip
// through JSON, gives b, for thousands of random documents and chains of
// changes (as a follower applies every change from the first document).
func TestDiffApplyProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for chain := range 300 {
		doc := randomDoc(rng, 4)
		held := deepCopy(t, doc) // what the follower holds
		for step := range 20 {
			next := mutate(rng, doc, 4)
			next = deepCopy(t, next)
			ops := Diff(doc, next)
			b, err := json.Marshal(ops)
			if err != nil {
				t.Fatal(err)
			}
			var back []Op
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("chain %d step %d: %v", chain, step, err)
			}
			if held, err = Apply(held, back); err != nil {
				t.Fatalf("chain %d step %d: Apply(%v, %s): %v", chain, step, doc, b, err)
			}
			if !reflect.DeepEqual(held, next) {
				t.Fatalf("chain %d step %d: got %v, want %v (ops %s)", chain, step, held, next, b)
			}
			doc = next
		}
	}
}

func FuzzApply(f *testing.F) {
	f.Add(`{"a":[1,{"b":2}]}`, `[[["a",1,"b"],3],[["a",2],4],[["a",0]]]`)
	f.Add(`[1,2]`, `[[[],5]]`)
	f.Fuzz(func(t *testing.T, doc, ops string) {
		d, err := Decode([]byte(doc))
		if err != nil {
			return
		}
		var list []Op
		if err := json.Unmarshal([]byte(ops), &list); err != nil {
			return
		}
		_, _ = Apply(d, list) // never panics
	})
}
