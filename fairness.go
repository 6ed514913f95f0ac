package pitch

// Provably fair deals (docs/fairness.md). Before a hand is dealt the
// server publishes the SHA-256 of a fresh 256-bit secret (the
// commitment); each seated person's browser then sends a random value
// (a contribution); the deal's seed is the SHA-256 of the secret and the
// contributions, and the deck order comes from that seed by a stream,
// rejection sampling and Fisher–Yates that anyone can re-implement. After
// the hand the secret is revealed in the hand record's fairness object,
// and VerifyFairness (`pitch verify`) or the browser checks the deal.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The name and version of the fair-deal algorithm, as a hand record's
// fairness object names them. A change to how a seed becomes a deal is a
// new version.
const (
	FairAlgorithm = "pitch-fair-sha256"
	FairVersion   = 1
)

// fairDomain starts every seed's input, so that no other use of SHA-256
// over the same bytes can give a deal's seed.
const fairDomain = "pitch fair deal v1\x00"

// FairTimeFormat is how times are written in a fairness object: RFC 3339
// in UTC with microseconds, so that they also sort as text.
const FairTimeFormat = "2006-01-02T15:04:05.000000Z"

// Fairness is the proof of a fair deal that a hand record of a server
// table carries (docs/fairness.md).
type Fairness struct {
	Algorithm   string `json:"algorithm"`    // FairAlgorithm
	Version     int    `json:"version"`      // FairVersion
	Commitment  string `json:"commitment"`   // SHA-256 of the secret, 64 hex digits, published before the deal
	Secret      string `json:"secret"`       // the server's 32 random bytes, 64 hex digits, revealed after the hand
	CommittedAt string `json:"committed_at"` // when the commitment was published (FairTimeFormat)
	// Contributions are the values the seated people sent, in seat order;
	// seats that sent none (bots, absent players) are not listed.
	Contributions []Contribution `json:"contributions"`
	DealtAt       string         `json:"dealt_at"` // when the hand was dealt (FairTimeFormat)
	// Dealer is the seat that deals the hand, as the states named it
	// with the commitment before the deal (fair.next.dealer); nil in
	// records from before it was written. It must be the record's dealer.
	Dealer *int `json:"dealer,omitempty"`
	// Abandoned are the commitments the server published for this hand
	// and then dropped before the deal, oldest first, their secrets
	// revealed; none at an honest server that kept running or restarted.
	Abandoned []Abandoned `json:"abandoned,omitempty"`
}

// Abandoned is a commitment published for a hand and dropped before its
// deal (docs/fairness.md): a checker that was shown it learns why the
// commitment it saw is not the record's, and is warned.
type Abandoned struct {
	Commitment  string `json:"commitment"`   // as published
	Secret      string `json:"secret"`       // its secret, revealed with the hand
	CommittedAt string `json:"committed_at"` // when it was published (FairTimeFormat)
}

// Contribution is one seated person's random value for a deal.
type Contribution struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name,omitempty"` // the seat's name at the table
	Value string `json:"value"`          // 32 bytes, 64 hex digits
	At    string `json:"at"`             // when the server received it (FairTimeFormat)
}

// FairCommitment returns the commitment to a secret: its SHA-256.
func FairCommitment(secret [32]byte) [32]byte { return sha256.Sum256(secret[:]) }

// ParseHex32 reads 32 bytes written as 64 hexadecimal digits (either case);
// what names the value in the error.
func ParseHex32(s, what string) ([32]byte, error) {
	var out [32]byte
	if len(s) != 64 {
		return out, fmt.Errorf("%s must be 32 bytes as 64 hexadecimal digits, not %d characters", what, len(s))
	}
	if _, err := hex.Decode(out[:], []byte(s)); err != nil {
		return out, fmt.Errorf("%s must be 64 hexadecimal digits (0-9, a-f): %v", what, err)
	}
	return out, nil
}

// parseRecordHex reads 32 bytes as a record writes them: 64 lower-case
// hexadecimal digits exactly (docs/fairness.md); what names the value.
func parseRecordHex(s, what string) ([32]byte, error) {
	if len(s) == 64 && strings.ToLower(s) != s {
		return [32]byte{}, fmt.Errorf("%s must be written in lower-case hexadecimal digits (0-9, a-f), as the record format says", what)
	}
	return ParseHex32(s, what)
}

// parseFairTime reads a time as a record writes it: exactly
// FairTimeFormat (UTC, "Z", six digits of fraction); what names it.
func parseFairTime(s, what string) (time.Time, error) {
	t, err := time.Parse(FairTimeFormat, s)
	if err != nil || t.Format(FairTimeFormat) != s {
		return t, fmt.Errorf("%s %q is not a time written as 2026-01-02T15:04:05.000000Z (UTC, six digits after the second, no other offset)", what, s)
	}
	return t, nil
}

// FairSeed returns the seed of a deal: SHA-256 of fairDomain, the secret,
// then for each contribution in ascending seat order its seat as one byte
// and its 32-byte value. A contribution's seat must be 0 to MaxSeats-1
// and appear once.
func FairSeed(secret [32]byte, contributions []Contribution) ([32]byte, error) {
	cs := slices.Clone(contributions)
	slices.SortFunc(cs, func(a, b Contribution) int { return a.Seat - b.Seat })
	h := sha256.New()
	h.Write([]byte(fairDomain))
	h.Write(secret[:])
	for i, c := range cs {
		if c.Seat < 0 || c.Seat >= MaxSeats {
			return [32]byte{}, fmt.Errorf("a contribution's seat must be 0 to %d, not %d", MaxSeats-1, c.Seat)
		}
		if i > 0 && cs[i-1].Seat == c.Seat {
			return [32]byte{}, fmt.Errorf("seat %d contributes twice: each seat contributes at most once", c.Seat)
		}
		v, err := ParseHex32(c.Value, fmt.Sprintf("seat %d's contribution", c.Seat))
		if err != nil {
			return [32]byte{}, err
		}
		h.Write([]byte{byte(c.Seat)})
		h.Write(v[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out, nil
}

// fairStream is the byte stream of a seed: SHA-256(seed || counter) for
// the counter 0, 1, 2, … as 8 bytes big-endian, one block after another.
type fairStream struct {
	seed  [32]byte
	ctr   uint64
	block [32]byte
	used  int // bytes of block already read
}

func newFairStream(seed [32]byte) *fairStream { return &fairStream{seed: seed, used: 32} }

// uint32 reads the next 4 bytes of the stream, big-endian.
func (f *fairStream) uint32() uint32 {
	if f.used == 32 {
		var in [40]byte
		copy(in[:], f.seed[:])
		binary.BigEndian.PutUint64(in[32:], f.ctr)
		f.block = sha256.Sum256(in[:])
		f.ctr++
		f.used = 0
	}
	v := binary.BigEndian.Uint32(f.block[f.used:])
	f.used += 4
	return v
}

// below returns a uniform integer in [0, n) by rejection: a 32-bit word x
// is used when x < 2^32 - (2^32 mod n), as x mod n; otherwise the next
// word is read.
func (f *fairStream) below(n uint32) uint32 {
	limit := uint64(1<<32) - uint64(1<<32)%uint64(n)
	for {
		x := f.uint32()
		if uint64(x) < limit {
			return x % n
		}
	}
}

// FairDeck returns the deck order (top first) that seed gives for g: the
// game's cards in ascending card number (C-3: suit×13+rank, then BJ 52,
// LJ 53), shuffled by Fisher–Yates from the top: for i from 0 to size-2,
// swap card i with card i+below(size-i).
func FairDeck(g *Game, seed [32]byte) []Card {
	deck := g.Deck().Cards()
	f := newFairStream(seed)
	for i := 0; i < len(deck)-1; i++ {
		j := i + int(f.below(uint32(len(deck)-i)))
		deck[i], deck[j] = deck[j], deck[i]
	}
	return deck
}

// ParseFairness reads a fairness object strictly: every field present and
// none unknown.
func ParseFairness(raw json.RawMessage) (*Fairness, error) {
	if err := exactFields(raw); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var f Fairness
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("the fairness object does not read: %v; it has algorithm (a string), version (a number), commitment, secret, committed_at, contributions (a list of seat, name, value, at), dealt_at, and perhaps dealer and abandoned, and nothing else", err)
	}
	var missing []string
	for _, m := range []struct {
		name string
		ok   bool
	}{{"algorithm", f.Algorithm != ""}, {"version", f.Version != 0}, {"commitment", f.Commitment != ""},
		{"secret", f.Secret != ""}, {"committed_at", f.CommittedAt != ""}, {"contributions", f.Contributions != nil},
		{"dealt_at", f.DealtAt != ""}} {
		if !m.ok {
			missing = append(missing, m.name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the fairness object lacks %s", strings.Join(missing, ", "))
	}
	// A contribution's seat 0 reads as if absent: look at the fields.
	var fields struct {
		Contributions []map[string]json.RawMessage `json:"contributions"`
		Abandoned     []map[string]json.RawMessage `json:"abandoned"`
	}
	_ = json.Unmarshal(raw, &fields) // it decoded above
	for i, c := range fields.Contributions {
		for _, k := range []string{"seat", "value", "at"} {
			if _, ok := c[k]; !ok {
				return nil, fmt.Errorf("contribution %d of the fairness object lacks %s; a contribution has seat, value, at and perhaps name", i+1, k)
			}
		}
	}
	for i, a := range fields.Abandoned {
		for _, k := range []string{"commitment", "secret", "committed_at"} {
			if _, ok := a[k]; !ok {
				return nil, fmt.Errorf("abandoned commitment %d of the fairness object lacks %s; it has commitment, secret and committed_at", i+1, k)
			}
		}
	}
	return &f, nil
}

// fairFields are the field names of a fairness object, a contribution
// and an abandoned commitment, exactly as written (docs/fairness.md).
var fairFields = map[string][]string{
	"fairness":     {"algorithm", "version", "commitment", "secret", "committed_at", "contributions", "dealt_at", "dealer", "abandoned"},
	"contribution": {"seat", "name", "value", "at"},
	"abandoned":    {"commitment", "secret", "committed_at"},
}

// exactFields refuses a field name that is not exactly one of
// fairFields: encoding/json matches names regardless of case, so
// "Secret" would otherwise read as "secret". (A name given twice is read
// as its last copy, as the page's JSON.parse reads it.)
func exactFields(raw json.RawMessage) error {
	check := func(obj json.RawMessage, kind, path string) error {
		keys, err := objectKeys(obj)
		if err != nil {
			return nil // not an object: the decoder says what is wrong
		}
		for _, k := range keys {
			if !slices.Contains(fairFields[kind], k) {
				return fmt.Errorf("the fairness object does not read: unknown field %q%s (field names are exact, in lower case); %s has %s", k, path, kind, strings.Join(fairFields[kind], ", "))
			}
		}
		return nil
	}
	if err := check(raw, "fairness", ""); err != nil {
		return err
	}
	var lists struct {
		Contributions []json.RawMessage `json:"contributions"`
		Abandoned     []json.RawMessage `json:"abandoned"`
	}
	if json.Unmarshal(raw, &lists) != nil {
		return nil // the decoder says what is wrong
	}
	for i, c := range lists.Contributions {
		if err := check(c, "contribution", fmt.Sprintf(" in contribution %d", i+1)); err != nil {
			return err
		}
	}
	for i, a := range lists.Abandoned {
		if err := check(a, "abandoned", fmt.Sprintf(" in abandoned commitment %d", i+1)); err != nil {
			return err
		}
	}
	return nil
}

// objectKeys returns the keys of a JSON object in the order written.
func objectKeys(raw json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// FairReport is what VerifyFairness found.
type FairReport struct {
	Seed     string   // the deal's seed in hex, once worked out
	Checks   []string // the checks that held, in words
	Problems []string // the checks that failed, in words: what is wrong
	// Warnings are what the record admits that a checker should know
	// although the deal checks: commitments abandoned before the deal,
	// and a deal with no player's value (the server's secret alone).
	Warnings []string
}

// OK reports whether every check held.
func (r *FairReport) OK() bool { return len(r.Problems) == 0 && len(r.Checks) > 0 }

// VerifyFairness checks a hand record's fairness object (docs/fairness.md,
// "Checking a hand"): the algorithm is known, the secret's SHA-256 is the
// commitment, the commitment was published before every contribution and
// the deal after them, the contributions are from seats of the game in
// ascending order, the dealer is the one committed to, and the deal of
// the seed is exactly the record's hands, widow and stock, and the
// record's actions replay under the rules (as `pitch score` replays them).
// Abandoned commitments are checked and reported as warnings.
func VerifyFairness(r *Record) *FairReport {
	rep := &FairReport{}
	bad := func(format string, args ...any) { rep.Problems = append(rep.Problems, fmt.Sprintf(format, args...)) }
	ok := func(format string, args ...any) { rep.Checks = append(rep.Checks, fmt.Sprintf(format, args...)) }
	if len(r.Fairness) == 0 {
		bad("the record has no fairness object: only hands dealt at a pitch serve table with fair deals carry one")
		return rep
	}
	f, err := ParseFairness(r.Fairness)
	if err != nil {
		bad("%v", err)
		return rep
	}
	if f.Algorithm != FairAlgorithm || f.Version != FairVersion {
		bad("the algorithm is %q version %d; this verifier knows %q version %d", f.Algorithm, f.Version, FairAlgorithm, FairVersion)
		return rep
	}
	secret, err := parseRecordHex(f.Secret, "the secret")
	if err != nil {
		bad("%v", err)
	}
	commitment, err2 := parseRecordHex(f.Commitment, "the commitment")
	if err2 != nil {
		bad("%v", err2)
	}
	if err == nil && err2 == nil {
		if got := FairCommitment(secret); got != commitment {
			bad("the secret does not match the commitment: SHA-256 of the secret is %x, the commitment is %s", got, f.Commitment)
		} else {
			ok("the commitment is the SHA-256 of the revealed secret")
		}
	}
	if f.Dealer != nil {
		if *f.Dealer != r.Dealer {
			bad("the dealer named with the commitment is seat %d, but the record's dealer is seat %d", *f.Dealer, r.Dealer)
		} else {
			ok("the dealer is the one named with the commitment (seat %d)", r.Dealer)
		}
	}
	// The order: commitment, then contributions, then the deal.
	parse := func(s, what string) (time.Time, bool) {
		t, err := parseFairTime(s, what)
		if err != nil {
			bad("%v", err)
			return t, false
		}
		return t, true
	}
	committed, okC := parse(f.CommittedAt, "committed_at")
	dealt, okD := parse(f.DealtAt, "dealt_at")
	order := okC && okD
	if order && dealt.Before(committed) {
		bad("the deal (%s) is dated before the commitment was published (%s)", f.DealtAt, f.CommittedAt)
		order = false
	}
	seats := len(r.Hands) // the record's hands, one a seat (ReadRecord checks the game has as many)
	valid := err == nil
	for i, c := range f.Contributions {
		if c.Seat < 0 || c.Seat >= seats {
			bad("a contribution is from seat %d; the seats are 0 to %d", c.Seat, seats-1)
			valid, order = false, false
			continue
		}
		if i > 0 && f.Contributions[i-1].Seat >= c.Seat {
			bad("the contributions must be listed once a seat, in ascending seat order: seat %d comes after seat %d", c.Seat, f.Contributions[i-1].Seat)
			valid = false
		}
		if _, err := parseRecordHex(c.Value, fmt.Sprintf("seat %d's contribution", c.Seat)); err != nil {
			bad("%v", err)
			valid = false
		}
		at, okA := parse(c.At, fmt.Sprintf("seat %d's contribution time", c.Seat))
		if !okA {
			order = false
			continue
		}
		if okC && at.Before(committed) {
			bad("seat %d's contribution (%s) is dated before the commitment was published (%s): the server could have chosen its secret knowing it", c.Seat, c.At, f.CommittedAt)
			order = false
		}
		if okD && dealt.Before(at) {
			bad("seat %d's contribution (%s) is dated after the deal (%s)", c.Seat, c.At, f.DealtAt)
			order = false
		}
	}
	if order {
		ok("the commitment was published before the %d contribution(s), and the deal made after them", len(f.Contributions))
	}
	for _, a := range f.Abandoned {
		what := fmt.Sprintf("abandoned commitment %.16s…", a.Commitment)
		s, errS := parseRecordHex(a.Secret, what+"'s secret")
		c, errC := parseRecordHex(a.Commitment, "an abandoned commitment")
		at, okA := parse(a.CommittedAt, what+"'s committed_at")
		switch {
		case errS != nil:
			bad("%v", errS)
		case errC != nil:
			bad("%v", errC)
		case FairCommitment(s) != c:
			bad("the secret of %s does not match it", what)
		case okA && okC && committed.Before(at):
			bad("%s is dated after the commitment of the deal (%s)", what, f.CommittedAt)
		case okA:
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("the server dropped commitment %s (published %s) and drew again before this deal", a.Commitment, a.CommittedAt))
		}
	}
	// The actions: a record that pitch score refuses proves no hand.
	if _, err := r.State(); err != nil {
		bad("the record's actions do not replay under the rules, so pitch score refuses it: %v", err)
	} else {
		ok("the record's %d action(s) replay under the rules, as pitch score replays them", len(r.Actions))
	}
	if len(f.Contributions) == 0 {
		// Nothing but the server's secret went into the seed: it could have
		// drawn secrets until it liked a deal (docs/fairness.md).
		rep.Warnings = append(rep.Warnings, "no player value: the server chose this deal")
	}
	if !valid {
		return rep
	}
	seed, err := FairSeed(secret, f.Contributions)
	if err != nil {
		bad("%v", err)
		return rep
	}
	rep.Seed = hex.EncodeToString(seed[:])
	before := len(rep.Problems)
	compareDeal(r, FairDeck(r.Game, seed), bad)
	if len(rep.Problems) == before {
		ok("re-dealing the seed gives exactly the record's deal")
	}
	return rep
}

// compareDeal reports every difference between the record's deal and the
// deal of deck.
func compareDeal(r *Record, deck []Card, bad func(string, ...any)) {
	s, err := NewHand(r.Game, r.Dealer, nil, deck)
	if err != nil {
		bad("the deck cannot be dealt: %v", err)
		return
	}
	for i := range r.Game.Seats() {
		if i >= len(r.Hands) {
			break
		}
		if got, want := r.Hands[i], s.dealt[i]; got != want {
			bad("seat %d's hand: the record has %s that the deal does not give, and lacks %s", i, orNone(got&^want), orNone(want&^got))
		}
	}
	switch r.Variant {
	case Pawnee:
		if r.Widow != s.widow {
			bad("the widow: the record has %s that the deal does not give, and lacks %s", orNone(r.Widow&^s.widow), orNone(s.widow&^r.Widow))
		}
	case TenPoint:
		if len(r.Stock) != len(s.stock) {
			bad("the stock: the record has %d cards; the deal gives %d", len(r.Stock), len(s.stock))
		}
		for k := range s.stock {
			if k >= len(r.Stock) {
				break
			}
			if r.Stock[k] != s.stock[k] {
				bad("the stock, card %d from the top: the record has %s, the deal gives %s", k+1, r.Stock[k], s.stock[k])
			}
		}
	default:
		if len(r.Stock) > 0 && SetOf(r.Stock...) != s.undlt {
			bad("the undealt cards: the record has %s, the deal leaves %s", cardList(SetOf(r.Stock...)), cardList(s.undlt))
		}
	}
}

// orNone writes a set of cards, or "nothing" for none.
func orNone(set CardSet) string {
	if set == 0 {
		return "nothing"
	}
	return cardList(set)
}
