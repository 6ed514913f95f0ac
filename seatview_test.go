package pitch

import (
	"errors"
	"reflect"
	"testing"
)

// TestSeatViewIsView checks that a seat's view made from the public one
// (SeatView, as a broadcast makes it) is the seat's own View at every
// step of random hands of every game: the hand, the cards out and passed
// (TP-TR-5), the pawnee partner (PW-CALL-1, PW-PLAY-1) and widow as that
// seat alone may know them, and nothing of another seat's.
func TestSeatViewIsView(t *testing.T) {
	rng := NewRand(41)
	for _, v := range Variants {
		for gi, g := range propGames(v) {
			for hand := range 30 {
				s := Deal(g, rng.IntN(g.seats), propScores(g, rng), rng)
				for step := 0; ; step++ {
					pub := s.View(-1)
					for seat := -1; seat < g.seats; seat++ {
						got, want := s.SeatView(&pub, seat), s.View(seat)
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("%s game %d hand %d step %d seat %d: SeatView\n%+v\nView\n%+v", v, gi, hand, step, seat, got, want)
						}
					}
					if other := s.View(0); s.SeatView(&other, 1).Seat != 1 || !reflect.DeepEqual(s.SeatView(&other, 1), s.View(1)) {
						t.Fatalf("%s: SeatView from a seat's view (not the public one) is not View", v)
					}
					if s.Terminal() {
						break
					}
					if err := s.Apply(s.RandomAction(rng)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// TestCheckPlay checks that CheckPlay says of every card what Apply says
// of its play (C-7; AP-PLAY-2, TP-PLAY-1, PW-PLAY-1, PW-PLAY-2: the
// refusals' rules), leaves the state as it was, and hands out a new
// error each time.
func TestCheckPlay(t *testing.T) {
	rng := NewRand(4141)
	plays := 0
	for _, v := range Variants {
		for _, g := range propGames(v) {
			for range 40 {
				s := Deal(g, rng.IntN(g.seats), propScores(g, rng), rng)
				for !s.Terminal() {
					before := s
					for c := Card(0); c <= LittleJoker; c++ {
						try := s
						want := try.Apply(Play(s.Turn(), c))
						got := s.CheckPlay(c)
						if !reflect.DeepEqual(s, before) {
							t.Fatalf("%s: CheckPlay(%s) changed the state", v, c)
						}
						if (want == nil) != (got == nil) {
							t.Fatalf("%s phase %s: CheckPlay(%s) = %v, Apply = %v", v, s.Phase(), c, got, want)
						}
						if want == nil {
							plays++
							continue
						}
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("%s phase %s: CheckPlay(%s) = %#v, Apply = %#v", v, s.Phase(), c, got, want)
						}
						var a, b *ActionError
						if errors.As(got, &a) && errors.As(s.CheckPlay(c), &b) && reflect.ValueOf(a.Params).Pointer() == reflect.ValueOf(b.Params).Pointer() {
							t.Fatalf("%s: CheckPlay(%s) handed out the same Params twice", v, c)
						}
					}
					if err := s.Apply(s.RandomAction(rng)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	if plays == 0 {
		t.Fatal("no card was ever playable: the check saw only refusals")
	}
}
