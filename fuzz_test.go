package pitch

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fzRecords returns hand records to seed the fuzzer with: whole random
// hands of every game (with and without options), the same records cut
// short, and broken ones.
func fzRecords() [][]byte {
	var out [][]byte
	rng := NewRand(77)
	games := []*Game{
		MustNewGame(Auction), MustNewGame(Auction, WithPlayers(6), WithPartnerships(true), WithLowToHolder(true)),
		MustNewGame(Auction, WithPlayers(2)), MustNewGame(TenPoint), MustNewGame(TenPoint, WithTarget(21)),
		MustNewGame(Pawnee), MustNewGame(Pawnee, WithCallOwnCard(false), WithScoreTricks(true), WithFailBidderOnly(true)),
	}
	for i, g := range games {
		scores := make([]int, g.seats)
		if i%2 == 1 {
			for k := range scores {
				scores[k] = 5 - 3*(k%2)
			}
		}
		s := Deal(g, i%g.seats, scores, rng)
		var acts []Action
		for !s.Terminal() {
			a := s.RandomAction(rng)
			if err := s.Apply(a); err != nil {
				panic(err)
			}
			acts = append(acts, a)
		}
		whole, _ := json.Marshal(s.Record(acts))
		out = append(out, whole)
		for _, cut := range []int{0, 1, len(acts) / 2, len(acts) - 1} {
			b, _ := json.Marshal(s.Record(acts[:cut]))
			out = append(out, b)
		}
		// an action the rules refuse: the first action by the wrong seat
		bad := append([]Action(nil), acts...)
		bad[0].Seat = (bad[0].Seat + 1) % int8(g.seats)
		b, _ := json.Marshal(s.Record(bad))
		out = append(out, b)
		// text-level breakage of the whole record
		str := string(whole)
		for _, r := range [][2]string{
			{`"variant":"`, `"variant":"x`}, {`"dealer":`, `"dealer":9`}, {`"seat":`, `"seat":1`},
			{`"actions":[`, `"actions":[7,`}, {`"hands":[[`, `"hands":[["ZZ",`}, {`true`, `false`},
			{`"play":"`, `"play":"1`}, {`"scores":[`, `"scores":[1e9,`}, {`}`, `,"comment":"x"}`},
		} {
			out = append(out, []byte(strings.Replace(str, r[0], r[1], 1)))
		}
		out = append(out, []byte(str[:len(str)/2]))
	}
	out = append(out, []byte(``), []byte(`null`), []byte(`[]`), []byte(`{}`), []byte(`{"variant":"pawnee"}`),
		[]byte(`{"variant":"auction","dealer":0,"deal":{"hands":[]},"actions":[]}`))
	return out
}

// fzActionCount returns how many actions the record's "actions" list holds,
// read the way encoding/json reads it, or -1 if it is not a list.
func fzActionCount(data []byte) int {
	var top struct {
		Actions []json.RawMessage `json:"actions"`
	}
	if json.Unmarshal(data, &top) != nil || top.Actions == nil {
		return -1
	}
	return len(top.Actions)
}

// FuzzScoreRecord: scoring any input never panics; a refusal is a
// *RecordError naming no action (-1) or an action in the list, with a
// message; a record that scores, written back out and scored again, gives
// the same output (HAND-RECORD.md).
func FuzzScoreRecord(f *testing.F) {
	for _, b := range fzRecords() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := ScoreRecord(bytes.NewReader(data))
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("error %T %v, want a *RecordError", err, err)
			}
			if re.Message == "" || err.Error() == "" {
				t.Fatalf("empty error message: %+v", re)
			}
			if n := fzActionCount(data); re.Action < -1 || re.Action >= max(n, 0) && re.Action != -1 {
				t.Fatalf("error names action %d of %d: %v", re.Action, n, re)
			}
			b, jerr := json.Marshal(re)
			if jerr != nil || !json.Valid(b) {
				t.Fatalf("error does not marshal: %v", jerr)
			}
			return
		}
		first, err := json.Marshal(out)
		if err != nil {
			t.Fatalf("output does not marshal: %v", err)
		}
		rec, err := ReadRecord(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("ScoreRecord accepted what ReadRecord refuses: %v", err)
		}
		again, err := json.Marshal(rec)
		if err != nil {
			t.Fatalf("record does not marshal: %v", err)
		}
		out2, err := ScoreRecord(bytes.NewReader(again))
		if err != nil {
			t.Fatalf("written-back record refused: %v\nin:  %s\nout: %s", err, data, again)
		}
		second, _ := json.Marshal(out2)
		if !bytes.Equal(first, second) {
			t.Fatalf("round trip changes the score\n in: %s\nout: %s\nfirst:  %s\nsecond: %s", data, again, first, second)
		}
	})
}
