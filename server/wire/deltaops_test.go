package wire

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// deltaOpsStates are states one after another (testdata/deltaops.json)
// in which members of the split fields change in the ways copy, add and
// push carry: a member array growing by an entry (view.trick), an
// object's arrays each with an entry inserted, in the middle or at the
// end (fair.next's contributed and hashes, in seat order), a member that is a top-level array with an entry more
// (last_hand.log from log, as last_hand first appears: set to {} and
// its members after it) and one that is another member with an entry
// more (view.last_trick from view.trick). The web package's
// TestStateDeltaJS runs the page's reducer over them too.
func deltaOpsStates(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "deltaops.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(raw))
	for i, r := range raw {
		out[i] = string(r)
	}
	return out
}

// TestDeltaOps: the tracker sends each change of deltaOpsStates by the
// op that carries it in fewest bytes (an add to a member, a push to an
// object's arrays, a copy of what the client holds with an add), Held
// applies them and holds each state, and a copy reads the state as it
// was before the delta even where the same delta changes the source.
func TestDeltaOps(t *testing.T) {
	wants := []string{
		`{"type":"delta","v":2,"base":1,"set":{"seq":2},"add":{"log":[{"seat":1,"kind":"play"}],"view.trick":[{"seat":1,"card":"KS"}]},"push":{"fair.next":{"contributed":[1,2],"hashes":[1,{"seat":1,"hash":"bb"}]}}}`,
		`{"type":"delta","v":3,"base":2,"set":{"seq":3,"log":[],"view.trick":[],"fair.next":{"hand":2,"contributed":[0,2],"hashes":[{"seat":0,"hash":"aa"},{"seat":1,"hash":"bb"},{"seat":2,"hash":"cc"}],"frozen":true},"last_hand":{},"last_hand.points":[]},"copy":{"view.last_trick":"view.trick","last_hand.log":"log"},"add":{"view.last_trick":[{"seat":2,"card":"2S"}],"last_hand.log":[{"seat":2,"kind":"play"}]}}`,
		`{"type":"delta","v":4,"base":3,"set":{"seq":4},"push":{"fair.next":{"contributed":[1,1]}}}`,
	}
	var tr Tracker
	var h Held
	for i, s := range deltaOpsStates(t) {
		delta, changed, err := tr.Track(nil, []byte(s), nil)
		if err != nil || !changed {
			t.Fatalf("state %d: %v %v", i+1, changed, err)
		}
		if i == 0 {
			if err := h.Reset(AppendVersioned(nil, []byte(s), tr.Version())); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, want := string(delta), wants[i-1]; got != want {
			t.Errorf("state %d: delta\n%s\nwant\n%s", i+1, got, want)
		}
		if err := h.Apply(delta); err != nil {
			t.Fatalf("state %d: %v", i+1, err)
		}
		var got, full map[string]any
		if err := json.Unmarshal(h.JSON(nil), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(AppendVersioned(nil, []byte(s), tr.Version()), &full); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, full) {
			t.Errorf("state %d: held\n%s\nwant\n%s", i+1, h.JSON(nil), s)
		}
	}
}

// TestDeltaOpsRefused: a copy, add or push that names what the state does
// not hold, or holds as another kind of value, is refused.
func TestDeltaOpsRefused(t *testing.T) {
	base := AppendVersioned(nil, []byte(deltaOpsStates(t)[0]), 1)
	for _, bad := range []string{
		`{"type":"delta","v":2,"base":1,"copy":{"view.last_trick":"view.nothing"}}`,
		`{"type":"delta","v":2,"base":1,"copy":{"view.last_trick":7}}`,
		`{"type":"delta","v":2,"base":1,"copy":{"nothing.log":"log"}}`,
		`{"type":"delta","v":2,"base":1,"add":{"view.nothing":[1]}}`,
		`{"type":"delta","v":2,"base":1,"add":{"fair.next":[1]}}`,
		`{"type":"delta","v":2,"base":1,"push":{"view.trick":{"x":[1]}}}`,
		`{"type":"delta","v":2,"base":1,"push":{"fair.next":{"hand":[0,1]}}}`,
		`{"type":"delta","v":2,"base":1,"push":{"fair.nothing":{"hashes":[0,1]}}}`,
		`{"type":"delta","v":2,"base":1,"push":{"fair.next":{"hashes":[3,1]}}}`,
		`{"type":"delta","v":2,"base":1,"push":{"fair.next":{"hashes":[-1,1]}}}`,
		`{"type":"delta","v":2,"base":1,"push":{"fair.next":{"hashes":[1]}}}`,
		`{"type":"delta","v":2,"base":1,"push":{"fair.next":{"hashes":[0,1,2]}}}`,
	} {
		var h Held
		if err := h.Reset(base); err != nil {
			t.Fatal(err)
		}
		if err := h.Apply([]byte(bad)); err == nil {
			t.Errorf("%s: applied, want refused", bad)
		} else if !strings.HasPrefix(err.Error(), "wire: ") {
			t.Errorf("%s: %v, want an error that says it is the wire's", bad, err)
		}
	}
}
