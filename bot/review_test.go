package bot

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"pitch"
)

var updateReview = flag.Bool("update-review", false, "rewrite the crafted records in ../testdata/review")

// craftedMistake is an auction hand where seat 0, first to bid, holds the
// six top spades but for the 9 to 3 — ace, king, queen, jack, ten and the
// two — and passes: a bid of 4 in spades was all but certain.
func craftedMistake(t *testing.T) *pitch.Record {
	g := pitch.MustNewGame(pitch.Auction)
	hands := []string{"AS KS QS JS TS 2S", "AH KH 3C 4D 5C 6D", "QH JH 7C 8D 9C TD", "TH 9H 7D 8C 9D JC"}
	rec := &pitch.Record{Variant: pitch.Auction, Game: g, Dealer: 3, Scores: []int{0, 0, 0, 0}}
	for _, h := range hands {
		cs, err := pitch.ParseCards(h)
		if err != nil {
			t.Fatal(err)
		}
		rec.Hands = append(rec.Hands, pitch.SetOf(cs...))
	}
	s := mustState(t, rec)
	play := func(a pitch.Action) {
		if err := s.Apply(a); err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		rec.Actions = append(rec.Actions, a)
	}
	play(pitch.Pass(0))
	rng := rand.New(rand.NewPCG(1, 2))
	for !s.Terminal() {
		play(Decide(Heuristic{}, &s, rng))
	}
	return rec
}

// bestPlayed is a hand of each game in which seat 0 takes, at every
// decision, what its review finds best; the others play the heuristic.
func bestPlayed(t *testing.T, v pitch.Variant, seed uint64, opts ReviewOptions) *pitch.Record {
	g := pitch.MustNewGame(v)
	rng := rand.New(rand.NewPCG(seed, 9))
	s := pitch.Deal(g, g.Seats()-1, make([]int, g.Seats()), rng)
	rec := s.Record(nil)
	for !s.Terminal() {
		var a pitch.Action
		if s.Turn() == 0 {
			a = ReviewBest(&s, len(rec.Actions), opts)
		} else {
			a = Decide(Heuristic{}, &s, rng)
		}
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		rec.Actions = append(rec.Actions, a)
	}
	return &rec
}

func mustState(t *testing.T, rec *pitch.Record) pitch.State {
	t.Helper()
	s, err := rec.State()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeOrRead keeps a crafted record in ../testdata/review so that the
// command's golden tests read the same hands.
func writeOrRead(t *testing.T, name string, rec *pitch.Record) *pitch.Record {
	t.Helper()
	path := filepath.Join("..", "testdata", "review", name+".json")
	if *updateReview {
		b, err := json.MarshalIndent(rec, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bot -run Review -update-review)", err)
	}
	got, err := pitch.ReadRecord(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

var reviewTestOpts = ReviewOptions{Worlds: 60, Seed: 1}

func TestReviewMarksAKnownMistake(t *testing.T) {
	rec := writeOrRead(t, "auction-pass-top-spades", craftedMistake(t))
	r, err := Review(rec, 0, reviewTestOpts)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Decisions) == 0 || r.Decisions[0].Index != 0 || r.Decisions[0].Phase != "bid" {
		t.Fatalf("the first decision reviewed is %+v, want the pass at action 0", r.Decisions)
	}
	d := r.Decisions[0]
	if d.Verdict != "blunder" || d.Best.Kind != pitch.ActBid {
		t.Errorf("the pass holding the top spades: verdict %q, best %v, loss %.2f; want a blunder, best a bid", d.Verdict, d.Best, d.Loss)
	}
	if d.Options[0].Made == nil || *d.Options[0].Made < 0.9 {
		t.Errorf("the best bid's chance to make is %v, want at least 0.9", d.Options[0].Made)
	}
	if r.Blunders < 1 {
		t.Errorf("the summary counts %d blunders", r.Blunders)
	}
	// The same review again is the same: it is cached by the server.
	again, _ := Review(rec, 0, reviewTestOpts)
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(again)
	if !bytes.Equal(a, b) {
		t.Error("two reviews of the same record and seed differ")
	}
}

func TestReviewOfBestPlayMarksNothing(t *testing.T) {
	for i, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		rec := writeOrRead(t, v.String()+"-best", bestPlayed(t, v, uint64(10+i), reviewTestOpts))
		r, err := Review(rec, 0, reviewTestOpts)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Decisions) == 0 {
			t.Fatalf("%v: no decision reviewed", v)
		}
		for _, d := range r.Decisions {
			if d.Verdict != "" || d.Loss != 0 || d.Best != d.Played {
				t.Errorf("%v: action %d %v marked %q (loss %.2f, best %v)", v, d.Index, d.Played, d.Verdict, d.Loss, d.Best)
			}
		}
		if r.Mistakes+r.Blunders != 0 {
			t.Errorf("%v: %d mistakes and %d blunders", v, r.Mistakes, r.Blunders)
		}
	}
}

func TestReviewHindsightAtTheEnd(t *testing.T) {
	rec := writeOrRead(t, "auction-pass-top-spades", craftedMistake(t))
	r, err := Review(rec, 1, reviewTestOpts)
	if err != nil {
		t.Fatal(err)
	}
	var plays, solved int
	for _, d := range r.Decisions {
		if d.Phase == "play" {
			plays++
			if d.Hindsight != nil {
				solved++
				if d.Hindsight.Played > d.Hindsight.Value {
					t.Errorf("action %d: the card played scores %.2f with all cards open, more than the best %.2f", d.Index, d.Hindsight.Played, d.Hindsight.Value)
				}
			}
		} else if d.Hindsight != nil {
			t.Errorf("action %d (%s) has hindsight", d.Index, d.Phase)
		}
	}
	if solved == 0 {
		t.Errorf("none of %d play decisions solved with all cards open", plays)
	}
}

// TestHindsightPawneeCountsTrumps: a pawnee seat out of trumps keeps its
// other cards but never plays them (PW-PLAY-2), so hindsight solves a
// position once few trumps are left, however many other cards the seats
// hold; the best card found is legal and scores at least the card played.
func TestHindsightPawneeCountsTrumps(t *testing.T) {
	solved := 0
	for _, s := range decisionPoints(pitch.Pawnee, 30, 11) {
		if s.Phase() != pitch.PhasePlay {
			continue
		}
		allCards := 1.0
		for i := range s.Seats() {
			for k := 2; k <= s.Hand(i).Len(); k++ {
				allCards *= float64(k)
			}
		}
		if allCards <= hindsightLines || worldLines(&s, hindsightLines) > hindsightLines {
			continue
		}
		played := pitch.Play(s.Turn(), s.LegalPlays().First())
		h := HindsightPlay(&s, played)
		if h == nil {
			t.Fatalf("trick %d: no hindsight with %d lines of trump play left", s.Tricks()+1, worldLines(&s, hindsightLines))
		}
		if !s.LegalPlays().Has(h.Best.Card) || h.Played > h.Value {
			t.Fatalf("trick %d: best %v (legal %v), value %.2f, played %.2f", s.Tricks()+1, h.Best, s.LegalPlays(), h.Value, h.Played)
		}
		solved++
	}
	if solved < 10 {
		t.Fatalf("only %d positions with few trumps and many cards", solved)
	}
}

func TestReviewRefusesBadInput(t *testing.T) {
	rec := craftedMistake(t)
	if _, err := Review(rec, 4, reviewTestOpts); err == nil {
		t.Error("seat 4 of 4 seats reviewed")
	}
	bad := *rec
	bad.Actions = append([]pitch.Action{pitch.Bid(1, 2)}, rec.Actions...)
	var re *pitch.RecordError
	if _, err := Review(&bad, 0, reviewTestOpts); err == nil {
		t.Error("a record with an action out of turn reviewed")
	} else if !asRecordError(err, &re) || re.Action != 0 {
		t.Errorf("error %v, want a RecordError at action 0", err)
	}
}

func asRecordError(err error, re **pitch.RecordError) bool {
	e, ok := err.(*pitch.RecordError)
	*re = e
	return ok
}
