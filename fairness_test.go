package pitch

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// The test vectors of docs/fairness.md: a change here is a change of the
// algorithm, which needs a new FairVersion.
var fairVector = struct {
	secret, commitment, seedNone, seed string
	contributions                      []Contribution
	words                              []uint32
	deck52, deck54                     string
}{
	secret:     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
	seedNone:   "d7d16d9881148bbd4f091cb1d97dd7a04197ed72a33f980aa0c0f42d88ecf904",
	seed:       "9282f25b06d2d7038011a386bcc0871397ed21a086cc5b0f1fdd9311f0273e57",
	contributions: []Contribution{
		{Seat: 2, Value: strings.Repeat("22", 32)},
		{Seat: 0, Value: strings.Repeat("00", 31) + "ff"},
	},
	words:  []uint32{2430746057, 2380399992, 1113000014, 151451051},
	deck52: "AD TH 5D 4S 7D 8S 8H 9C 9H 2C KH 2H 3H QD KD 6H QC 9D JH QH 7H 5S 6C TC 4H JD AH TD 5C 6S 3S 3C JC TS 9S 3D AS KC 2D 4C 7S 7C 4D 8D 6D 2S 5H AC JS 8C QS KS",
	deck54: "TS JD KD 2H 9D AD AH 4C 3H QD KC 6C 8S 2C 6H JS JH QC 2S 9H 6S 4H 7H 3C TD 4S BJ 2D AS 3D 9S 8C LJ TH JC 4D 6D TC QH KS 5S AC 7S 5C 3S 8D 9C KH 7C 7D 8H 5H 5D QS",
}

func TestFairVectors(t *testing.T) {
	v := fairVector
	secret, err := ParseHex32(v.secret, "secret")
	if err != nil {
		t.Fatal(err)
	}
	if c := FairCommitment(secret); hex.EncodeToString(c[:]) != v.commitment {
		t.Errorf("commitment %x, want %s", c, v.commitment)
	}
	none, err := FairSeed(secret, nil)
	if err != nil || hex.EncodeToString(none[:]) != v.seedNone {
		t.Errorf("seed without contributions %x (%v), want %s", none, err, v.seedNone)
	}
	seed, err := FairSeed(secret, v.contributions)
	if err != nil || hex.EncodeToString(seed[:]) != v.seed {
		t.Fatalf("seed %x (%v), want %s", seed, err, v.seed)
	}
	f := newFairStream(seed)
	for i, w := range v.words {
		if got := f.uint32(); got != w {
			t.Errorf("word %d = %d, want %d", i, got, w)
		}
	}
	for _, tc := range []struct {
		v    Variant
		want string
	}{{Auction, v.deck52}, {TenPoint, v.deck54}, {Pawnee, v.deck54}} {
		if got := fmt.Sprint(FairDeck(MustNewGame(tc.v), seed)); got != "["+tc.want+"]" {
			t.Errorf("%s deck %s, want [%s]", tc.v, got, tc.want)
		}
	}
}

// TestFairStreamIsSpecified checks the stream and the rejection against a
// direct reading of docs/fairness.md, over many seeds and every bound,
// including those where rejection happens.
func TestFairStreamIsSpecified(t *testing.T) {
	for k := range 200 {
		seed := sha256.Sum256([]byte{byte(k), byte(k >> 8)})
		var words []uint32
		for ctr := uint64(0); ctr < 4; ctr++ {
			var in [40]byte
			copy(in[:], seed[:])
			binary.BigEndian.PutUint64(in[32:], ctr)
			b := sha256.Sum256(in[:])
			for i := 0; i < 32; i += 4 {
				words = append(words, binary.BigEndian.Uint32(b[i:]))
			}
		}
		f := newFairStream(seed)
		for i, w := range words {
			if got := f.uint32(); got != w {
				t.Fatalf("seed %d word %d = %d, want %d", k, i, got, w)
			}
		}
		// below(n) with a huge n rejects often: check it takes exactly the
		// words the document says.
		n := uint32(3<<30 + k)
		f, i := newFairStream(seed), 0
		for range 5 {
			got := f.below(n)
			limit := uint64(1<<32) - uint64(1<<32)%uint64(n)
			for uint64(words[i]) >= limit {
				i++
			}
			if want := words[i] % n; got != want {
				t.Fatalf("seed %d: below(%d) = %d, want %d", k, n, got, want)
			}
			i++
		}
	}
}

func TestFairSeedErrors(t *testing.T) {
	var secret [32]byte
	for _, tc := range []struct {
		c    []Contribution
		want string
	}{
		{[]Contribution{{Seat: 1, Value: "ab"}}, "64 hexadecimal digits, not 2"},
		{[]Contribution{{Seat: 1, Value: strings.Repeat("zz", 32)}}, "hexadecimal"},
		{[]Contribution{{Seat: 1, Value: strings.Repeat("00", 32)}, {Seat: 1, Value: strings.Repeat("11", 32)}}, "seat 1 contributes twice"},
		{[]Contribution{{Seat: 9, Value: strings.Repeat("00", 32)}}, "seat must be 0 to 6, not 9"},
	} {
		if _, err := FairSeed(secret, tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FairSeed(%v) = %v, want an error saying %q", tc.c, err, tc.want)
		}
	}
	// Contributions in any order give the same seed; each one changes it.
	a := []Contribution{{Seat: 0, Value: strings.Repeat("01", 32)}, {Seat: 3, Value: strings.Repeat("02", 32)}}
	b := []Contribution{a[1], a[0]}
	sa, _ := FairSeed(secret, a)
	sb, _ := FairSeed(secret, b)
	sc, _ := FairSeed(secret, a[:1])
	if sa != sb || sa == sc {
		t.Errorf("seeds %x %x %x: the order must not matter and every contribution must", sa, sb, sc)
	}
}

// TestFairDealUniform checks the shuffle's distribution with chi-square
// tests at a fixed seed: every card equally likely at every deck position
// (pawnee's 54), and every card going to each seat (and the widow) in
// proportion to the cards each gets. The inputs are fixed, so the test
// does not depend on luck; the bounds are the 0.1% points.
func TestFairDealUniform(t *testing.T) {
	deals := 20000
	if testing.Short() {
		deals = 5000
	}
	g := MustNewGame(Pawnee)
	var pos [54][54]float64 // card, position
	var seat [54][6]float64 // card, seat (5: the widow)
	base := sha256.Sum256([]byte("TestFairDealUniform"))
	for k := range deals {
		var in [40]byte
		copy(in[:], base[:])
		binary.BigEndian.PutUint64(in[32:], uint64(k))
		seed := sha256.Sum256(in[:])
		deck := FairDeck(g, seed)
		for p, c := range deck {
			pos[c][p]++
		}
		s, err := NewHand(g, k%5, nil, deck)
		if err != nil {
			t.Fatal(err)
		}
		for c := range Card(54) {
			where := 5
			for i := range 5 {
				if s.Hand(i).Has(c) {
					where = i
				}
			}
			seat[c][where]++
		}
	}
	chi := 0.0
	e := float64(deals) / 54
	for c := range 54 {
		for p := range 54 {
			chi += (pos[c][p] - e) * (pos[c][p] - e) / e
		}
	}
	if limit := chiSquareLimit(53 * 53); chi > limit {
		t.Errorf("card by position: chi-square %.1f over %d degrees of freedom, above the 0.1%% point %.1f", chi, 53*53, limit)
	}
	chi = 0
	for c := range 54 {
		for w := range 6 {
			p := 10.0 / 54
			if w == 5 {
				p = 4.0 / 54
			}
			e := float64(deals) * p
			chi += (seat[c][w] - e) * (seat[c][w] - e) / e
		}
	}
	if limit := chiSquareLimit(53 * 5); chi > limit {
		t.Errorf("card by seat: chi-square %.1f over %d degrees of freedom, above the 0.1%% point %.1f", chi, 53*5, limit)
	}
	// And the test can fail: a biased shuffle (card 0 never moves) does.
	chi = 0
	for c := range 54 {
		for p := range 54 {
			o := pos[c][p]
			if c == 0 {
				o = 0
				if p == 0 {
					o = float64(deals)
				}
			}
			chi += (o - e) * (o - e) / e
		}
	}
	if chi <= chiSquareLimit(53*53) {
		t.Errorf("a shuffle that never moves the first card passes (chi-square %.1f)", chi)
	}
}

// chiSquareLimit is the 0.1% upper point of chi-square with df degrees of
// freedom (Wilson–Hilferty).
func chiSquareLimit(df int) float64 {
	const z = 3.0902 // the 0.999 point of the normal distribution
	k := float64(df)
	return k * math.Pow(1-2/(9*k)+z*math.Sqrt(2/(9*k)), 3)
}

func TestMatchByDeck(t *testing.T) {
	g := MustNewGame(Auction, WithTarget(1))
	for seed := uint64(0); seed < 20; seed++ {
		m := NewMatchByDeck(g, seed)
		if want := NewMatch(g, seed).State().Dealer(); m.State().Dealer() != want || !m.AwaitingDeal() || m.State().Turn() != -1 {
			t.Fatalf("seed %d: dealer %d awaiting %v turn %d; want dealer %d (as NewMatch), awaiting, no turn",
				seed, m.State().Dealer(), m.AwaitingDeal(), m.State().Turn(), want)
		}
		if err := m.Apply(Pass(1)); err == nil || !strings.Contains(err.Error(), "not dealt yet") {
			t.Fatalf("an action before the deal: %v", err)
		}
		if err := m.DealNext(FairDeck(g, [32]byte{1})[:10]); err == nil {
			t.Fatal("a short deck was dealt")
		}
		rng := NewRand(seed)
		for hand := 1; !m.Over(); hand++ {
			dealer := m.State().Dealer()
			var s [32]byte
			s[0], s[1] = byte(seed), byte(hand)
			deck := FairDeck(g, s)
			if err := m.DealNext(deck); err != nil {
				t.Fatal(err)
			}
			if err := m.DealNext(deck); err == nil {
				t.Fatal("a dealt hand was dealt again")
			}
			want, _ := NewHand(g, dealer, m.State().Scores(), deck)
			if *m.State() != want {
				t.Fatalf("seed %d hand %d: the match's hand is not NewHand of the deck", seed, hand)
			}
			for len(m.Records()) < hand {
				if err := m.Apply(m.State().RandomAction(rng)); err != nil {
					t.Fatal(err)
				}
			}
			if !m.Over() {
				if !m.AwaitingDeal() || m.State().Dealer() != (dealer+1)%g.Seats() {
					t.Fatalf("after hand %d: awaiting %v, dealer %d; want the next dealer %d", hand, m.AwaitingDeal(), m.State().Dealer(), (dealer+1)%g.Seats())
				}
				if got, want := fmt.Sprint(m.State().Scores()), fmt.Sprint(m.LastHand().Result().Scores); got != want {
					t.Fatalf("after hand %d: the next hand's scores %s, want %s", hand, got, want)
				}
			}
		}
	}
}

// fairRecord deals a hand of g with a fair seed, plays it out and returns
// its record with a fairness object.
func fairRecord(t *testing.T, g *Game, k int) (Record, *Fairness) {
	t.Helper()
	secret := sha256.Sum256([]byte{byte(k), 's'})
	commit := FairCommitment(secret)
	at := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	f := &Fairness{Algorithm: FairAlgorithm, Version: FairVersion, Secret: hex.EncodeToString(secret[:]),
		Commitment: hex.EncodeToString(commit[:]), CommittedAt: at.Format(FairTimeFormat), DealtAt: at.Add(2 * time.Second).Format(FairTimeFormat)}
	for s := range g.Seats() {
		if s%2 == 0 {
			v := sha256.Sum256([]byte{byte(k), byte(s), 'v'})
			f.Contributions = append(f.Contributions, Contribution{Seat: s, Name: fmt.Sprint("P", s), Value: hex.EncodeToString(v[:]),
				At: at.Add(time.Duration(s+1) * time.Millisecond).Format(FairTimeFormat)})
		}
	}
	seed, err := FairSeed(secret, f.Contributions)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewHand(g, k%g.Seats(), nil, FairDeck(g, seed))
	if err != nil {
		t.Fatal(err)
	}
	rng := NewRand(uint64(k))
	var acts []Action
	for !s.Terminal() {
		a := s.RandomAction(rng)
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		acts = append(acts, a)
	}
	r := s.Record(acts)
	r.Fairness, _ = json.Marshal(f)
	return r, f
}

// reread writes r and reads it back, as pitch verify would.
func reread(t *testing.T, r Record) *Record {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ReadRecord(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return out
}

func TestVerifyFairness(t *testing.T) {
	games := []*Game{MustNewGame(Auction), MustNewGame(TenPoint), MustNewGame(Pawnee)}
	for k, g := range games {
		r, f := fairRecord(t, g, k)
		if rep := VerifyFairness(reread(t, r)); !rep.OK() || len(rep.Seed) != 64 {
			t.Fatalf("%s: an honest record fails: %+v", g.Variant, rep)
		}
		// Scoring ignores the fairness object.
		if _, err := reread(t, r).Score(); err != nil {
			t.Errorf("%s: a record with fairness does not score: %v", g.Variant, err)
		}
		tamper := func(name, want string, change func(r *Record, f *Fairness)) {
			t.Helper()
			r2 := r
			r2.Hands = append([]CardSet(nil), r.Hands...)
			r2.Stock = append([]Card(nil), r.Stock...)
			f2 := *f
			f2.Contributions = append([]Contribution(nil), f.Contributions...)
			change(&r2, &f2)
			r2.Fairness, _ = json.Marshal(&f2)
			rep := VerifyFairness(reread(t, r2))
			if rep.OK() || !strings.Contains(strings.Join(rep.Problems, "\n"), want) {
				t.Errorf("%s, %s: problems %q, want one saying %q", g.Variant, name, rep.Problems, want)
			}
		}
		tamper("tampered secret", "the secret does not match the commitment", func(r *Record, f *Fairness) {
			f.Secret = "ff" + f.Secret[2:]
		})
		tamper("tampered contribution", "hand: the record has", func(r *Record, f *Fairness) {
			f.Contributions[0].Value = strings.Repeat("ab", 32)
		})
		tamper("commitment published after the contributions", "dated before the commitment was published", func(r *Record, f *Fairness) {
			f.CommittedAt = time.Date(2026, 1, 2, 15, 4, 5, 500e6, time.UTC).Format(FairTimeFormat)
			f.DealtAt = time.Date(2026, 1, 2, 15, 4, 9, 0, time.UTC).Format(FairTimeFormat)
		})
		tamper("swapped cards", "seat 0's hand: the record has", func(r *Record, f *Fairness) {
			a, b := r.Hands[0].Cards()[0], r.Hands[1].Cards()[0]
			r.Hands[0] = r.Hands[0]&^a.Set() | b.Set()
			r.Hands[1] = r.Hands[1]&^b.Set() | a.Set()
		})
		tamper("unknown algorithm", "this verifier knows", func(r *Record, f *Fairness) { f.Version = 2 })
		tamper("a contribution from no seat", "the seats are 0 to", func(r *Record, f *Fairness) { f.Contributions[0].Seat = 7 })
		if g.Variant == TenPoint {
			tamper("stock order", "the stock, card 1 from the top", func(r *Record, f *Fairness) {
				r.Stock[0], r.Stock[1] = r.Stock[1], r.Stock[0]
			})
		}
	}
	if rep := VerifyFairness(&Record{Game: games[0]}); rep.OK() || !strings.Contains(rep.Problems[0], "no fairness object") {
		t.Errorf("no fairness: %+v", rep)
	}
	bad := Record{Game: games[0], Fairness: json.RawMessage(`{"algorithm":"x","extra":1}`)}
	if rep := VerifyFairness(&bad); rep.OK() || !strings.Contains(rep.Problems[0], "unknown field") {
		t.Errorf("an unknown field: %+v", rep)
	}
}

// TestVerifyFairnessStrict: VerifyFairness refuses a record that pitch
// score refuses (an action the rules do not allow, or actions in the wrong
// order: a deal played otherwise than the record says), and matches field
// names exactly: "Secret" is not "secret", although encoding/json would
// read it as such.
func TestVerifyFairnessStrict(t *testing.T) {
	for k, g := range []*Game{MustNewGame(Auction), MustNewGame(TenPoint), MustNewGame(Pawnee)} {
		r, _ := fairRecord(t, g, k)
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name, want string, change func(m, fm map[string]any)) {
			t.Helper()
			var m map[string]any
			_ = json.Unmarshal(raw, &m)
			change(m, m["fairness"].(map[string]any))
			b, _ := json.Marshal(m)
			rec, err := ReadRecord(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rep := VerifyFairness(rec)
			if rep.OK() || !strings.Contains(strings.Join(rep.Problems, "\n"), want) {
				t.Errorf("%s, %s: ok=%v problems %q, want one saying %q", g.Variant, name, rep.OK(), rep.Problems, want)
			}
			if _, serr := ScoreRecord(bytes.NewReader(b)); serr == nil && strings.Contains(want, "pitch score refuses") {
				t.Errorf("%s, %s: pitch score accepts the record", g.Variant, name)
			}
		}
		acts := func(m map[string]any) []any { return m["actions"].([]any) }
		check("two actions swapped", "pitch score refuses", func(m, fm map[string]any) {
			a := acts(m)
			a[0], a[1] = a[1], a[0]
		})
		check("a card played that was never dealt to its seat", "pitch score refuses", func(m, fm map[string]any) {
			a := acts(m)
			last := a[len(a)-1].(map[string]any)
			other := m["deal"].(map[string]any)["hands"].([]any)[(int(last["seat"].(float64))+1)%g.Seats()].([]any)[0]
			last["play"] = other
		})
		check("an action by the wrong seat", "pitch score refuses", func(m, fm map[string]any) {
			a := acts(m)[0].(map[string]any)
			a["seat"] = float64((int(a["seat"].(float64)) + 1) % g.Seats())
		})
		check("Secret for secret", `unknown field "Secret"`, func(m, fm map[string]any) {
			fm["Secret"] = fm["secret"]
			delete(fm, "secret")
		})
		check("Value for value in a contribution", `unknown field "Value" in contribution 1`, func(m, fm map[string]any) {
			c := fm["contributions"].([]any)[0].(map[string]any)
			c["Value"] = c["value"]
			delete(c, "value")
		})
		check("DEALT_AT", `unknown field "DEALT_AT"`, func(m, fm map[string]any) {
			fm["DEALT_AT"] = fm["dealt_at"]
			delete(fm, "dealt_at")
		})
	}
}
