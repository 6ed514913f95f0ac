package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"pitch"
)

// assemble is the whole state made of shared's fields and own's, in
// order, as TrackParts puts them together.
func assemble(sh *Shared, own *Parts) []byte {
	b := []byte{'{'}
	i, j := 0, 0
	for i < len(sh.fp) || j < len(own.f) {
		var k uint8
		var v []byte
		switch {
		case i < len(sh.fp) && sh.fp[i].parent != 0:
			i++
			continue
		case j < len(own.f) && own.f[j].parent != 0:
			j++
			continue
		case j == len(own.f) || i < len(sh.fp) && order(0, sh.fp[i].key) < order(0, own.f[j].key):
			k, v = sh.fp[i].key, sh.vals[i]
			if sh.fp[i].obj {
				v = wholeOf(sh, k, own)
			}
			i++
		default:
			k, v = own.f[j].key, own.b[own.f[j].start:own.f[j].end]
			j++
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(appendPath(b, 0, k), ':')
		b = append(b, v...)
	}
	return append(b, '}')
}

// TestStatePartsMatch: the fields every viewer shares, encoded once from
// the spectators' state, and each seat's own, put together in order,
// are the bytes AppendStateViews writes for the seat, over random hands
// of each game and with the state's optional fields present and absent;
// and TrackParts's deltas, applied by Held, give those states (for a
// tracker that takes every state, and one that takes every third, whose
// shared fields are compared on their own).
func TestStatePartsMatch(t *testing.T) {
	for _, variant := range pitch.Variants {
		t.Run(variant.String(), func(t *testing.T) {
			g := pitch.MustNewGame(variant)
			rng := rand.New(rand.NewPCG(3, uint64(variant)))
			match := pitch.NewMatch(g, 7+uint64(variant))
			n := g.Seats()
			var trackers, slow [pitch.MaxSeats + 1]Tracker
			var held, slowHeld [pitch.MaxSeats + 1]Held
			var last Fingerprints
			log, lastLog := NewHandLog(n), (*HandLog)(nil)
			sheet := json.RawMessage(`[]`)
			for step := 0; step < 400 && !match.Over(); step++ {
				if match.AwaitingDeal() {
					t.Fatal("a match dealt by seed awaits a deal")
				}
				s := match.State()
				var summary *HandSummary
				if lh := match.LastHand(); lh != nil {
					summary = Summarize(len(match.Records()), lh)
					if step%2 == 0 {
						summary.EncodeHead()
					}
				}
				lastView := summary != nil && log.Len() == 0
				state := func(seat int) (State, pitch.View, *pitch.View, LogJSON) {
					m := State{Type: "state", Seat: seat, Table: json.RawMessage(`{"id":"t<1>"}`), Seq: step, HandNo: len(match.Records()) + 1,
						Log: log.For(seat), Sheet: sheet, LastHand: summary, Winner: match.Winner(), Away: make([]bool, n), Waiting: step%5 == 0}
					if step%3 == 0 {
						m.Timer = &Timer{Seat: s.Turn(), LeftMS: int64(step), TotalMS: 30000}
					}
					if step%4 == 1 {
						m.Reading, m.ReadingLeftMS, m.Paused = []int{0, 2}, 900, true
					}
					if step%7 < 4 {
						m.Fair = &Fair{Dealing: step%2 == 0, Hand: &FairHand{Hand: m.HandNo, Commitment: fmt.Sprint(step / 7)}}
						m.Fair.Encode()
					}
					if seat == s.Turn() {
						switch s.Phase() {
						case pitch.PhaseDiscard, pitch.PhasePassBurn:
							m.Discard = DiscardOf(s)
						default:
							for _, a := range s.Legal(nil) {
								raw, _ := AppendAction(nil, a)
								m.Legal = append(m.Legal, raw)
							}
							switch s.Phase() {
							case pitch.PhasePlay:
								m.Refusals = Refusals(s)
							case pitch.PhaseCall, pitch.PhaseTrump:
								m.SuitTrumps = SuitTrumps(g, s.Hand(seat))
							}
						}
					}
					v := s.View(seat)
					if !lastView {
						return m, v, nil, LogJSON{}
					}
					lv := match.LastHand().View(seat)
					return m, v, &lv, lastLog.For(seat)
				}
				var shared Parts
				sm, sv, _, _ := state(-1)
				if err := shared.AppendStateParts(false, &sm, &sv, nil, LogJSON{}); err != nil {
					t.Fatal(err)
				}
				var sh Shared
				sh.Reset(&shared, last)
				last = sh.Fingerprints()
				for seat := -1; seat < n; seat++ {
					m, v, lv, lastLog := state(seat)
					want, err := AppendStateViews(nil, &m, &v, lv, lastLog)
					if err != nil {
						t.Fatal(err)
					}
					var own Parts
					if err := own.AppendStateParts(true, &m, &v, lv, lastLog); err != nil {
						t.Fatal(err)
					}
					if got := assemble(&sh, &own); !bytes.Equal(got, want) {
						t.Fatalf("step %d seat %d: the parts give\n%s\nwant\n%s", step, seat, got, want)
					}
					for k, tr := range []*Tracker{&trackers[seat+1], &slow[seat+1]} {
						h := []*Held{&held[seat+1], &slowHeld[seat+1]}[k]
						if k == 1 && step%3 != 0 {
							continue
						}
						delta, changed := tr.TrackParts(nil, &sh, &own)
						switch {
						case delta == nil && changed:
							if err := h.Reset(AppendVersioned(nil, want, tr.Version())); err != nil {
								t.Fatal(err)
							}
						case delta != nil:
							if err := h.Apply(delta); err != nil {
								t.Fatalf("step %d seat %d: %v: %s", step, seat, err, delta)
							}
						}
						var got, w map[string]any
						if err := json.Unmarshal(h.JSON(nil), &got); err != nil {
							t.Fatal(err)
						}
						if err := json.Unmarshal(want, &w); err != nil {
							t.Fatal(err)
						}
						delete(got, "v")
						if !reflect.DeepEqual(got, w) {
							t.Fatalf("step %d seat %d (tracker %d): the deltas give\n%s\nwant\n%s", step, seat, k, h.JSON(nil), want)
						}
					}
				}
				a := s.RandomAction(rng)
				raw, _ := AppendAction(nil, a)
				hands := len(match.Records())
				if err := match.Apply(a); err != nil {
					t.Fatal(err)
				}
				log.Add(g, a, raw, "")
				if len(match.Records()) > hands {
					log, lastLog = NewHandLog(n), log
					sheet = json.RawMessage(fmt.Sprintf(`[{"hand":%d}]`, hands+1))
				}
			}
		})
	}
}

// wholeOf is the split field key as the encoder writes it for the viewer
// of own: its members, shared and own, in order.
func wholeOf(sh *Shared, key uint8, own *Parts) []byte {
	obj := []byte{'{'}
	i := 0
	for i < len(sh.fp) && (sh.fp[i].parent != 0 || sh.fp[i].key != key) {
		i++
	}
	i++
	j := 0
	for {
		for j < len(own.f) && own.f[j].parent != key {
			j++
		}
		sharedNext := i < len(sh.fp) && sh.fp[i].parent == key
		if !sharedNext && j == len(own.f) {
			break
		}
		var k uint8
		var v []byte
		if sharedNext && (j == len(own.f) || order(key, sh.fp[i].key) < order(key, own.f[j].key)) {
			k, v = sh.fp[i].key, sh.vals[i]
			i++
		} else {
			k, v = own.f[j].key, own.b[own.f[j].start:own.f[j].end]
			j++
		}
		if len(obj) > 1 {
			obj = append(obj, ',')
		}
		obj = appendPath(obj, 0, k)
		obj = append(append(obj, ':'), v...)
	}
	return append(obj, '}')
}
