package wire

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestTrackAndHold: a Tracker's delta between two states names what
// changed (a view member, a new field), what went (a field, a view
// member), and the log's new entry alone; Held applies it to the first
// state (with its version) and holds the second. A delta from another
// version, or one naming what is not there, is refused.
func TestTrackAndHold(t *testing.T) {
	s1 := []byte(`{"type":"state","seat":0,"view":{"turn":1,"fill_got":[1,2]},"log":[{"seat":0,"kind":"bid"}],"timer":{"seat":1,"left_ms":5}}`)
	s2 := []byte(`{"type":"state","seat":0,"view":{"turn":2},"log":[{"seat":0,"kind":"bid"},{"seat":1,"kind":"pass"}],"legal":[{"seat":0,"pass":true}]}`)
	var tr Tracker
	if out, changed, err := tr.Track(nil, s1, nil); err != nil || !changed || out != nil || tr.Version() != 1 {
		t.Fatalf("first Track: %s %v %v, version %d; want no delta, changed, version 1", out, changed, err, tr.Version())
	}
	var h Held
	if err := h.Reset(AppendVersioned(nil, s1, tr.Version())); err != nil {
		t.Fatal(err)
	}
	if out, changed, err := tr.Track(nil, s1, nil); err != nil || changed || out != nil {
		t.Fatalf("the same state again: %s %v %v; want nothing", out, changed, err)
	}
	delta, changed, err := tr.Track(nil, s2, nil)
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	want := `{"type":"delta","v":2,"base":1,"set":{"view.turn":2,"legal":[{"seat":0,"pass":true}]},"gone":["view.fill_got","timer"],"add":{"log":[{"seat":1,"kind":"pass"}]}}`
	if string(delta) != want {
		t.Errorf("delta\n%s\nwant\n%s", delta, want)
	}
	if err := h.Apply(delta); err != nil {
		t.Fatal(err)
	}
	var got, full map[string]any
	if err := json.Unmarshal(h.JSON(nil), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(AppendVersioned(nil, s2, 2), &full); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, full) {
		t.Errorf("held %s, want %s", h.JSON(nil), AppendVersioned(nil, s2, 2))
	}
	if err := h.Apply(delta); !errors.Is(err, ErrOutOfStep) {
		t.Errorf("a delta applied twice: %v, want ErrOutOfStep", err)
	}
	if v, ok := h.Version(); !ok || v != 2 {
		t.Errorf("after a refused delta: version %d (%v), want 2", v, ok)
	}
	for _, bad := range []string{
		`{"type":"delta","v":3,"base":2,"gone":["nothing"]}`,
		`{"type":"delta","v":3,"base":2,"set":{"nothing.turn":1}}`,
		`{"type":"delta","v":3,"base":2,"add":{"seq":[1]}}`,
		`{"type":"delta","v":3}`,
		`{"type":"delta","v":3,"base":2,"set":{"seat":1}`,
	} {
		var h2 Held
		_ = h2.Reset(AppendVersioned(nil, s2, 2))
		if err := h2.Apply([]byte(bad)); err == nil {
			t.Errorf("%s: applied, want refused", bad)
		}
	}
	// A state with a field the tracker does not know goes whole.
	if _, _, err := tr.Track(nil, []byte(`{"type":"state","nonsense":1}`), nil); !errors.Is(err, ErrUntracked) {
		t.Errorf("an unknown field: %v, want ErrUntracked", err)
	}
}
