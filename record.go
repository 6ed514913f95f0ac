package pitch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Record is a hand record (docs/hand-record.md): one hand of one game, its
// deal and every decision made in it.
type Record struct {
	Variant Variant
	Game    *Game
	Dealer  int
	Scores  []int
	Hands   []CardSet
	Widow   CardSet // pawnee
	Stock   []Card  // ten-point, top first; auction: the undealt cards (optional)
	Actions []Action
	// Fairness is the proof of a fair deal (docs/fairness.md) as written
	// in the record, or nil. Scoring ignores it; VerifyFairness checks it.
	Fairness json.RawMessage
}

// Record returns the hand record of this hand with the given actions,
// which must be the actions that led from the deal to this state.
func (s *State) Record(actions []Action) Record {
	r := Record{Variant: s.variant, Game: s.g, Dealer: int(s.dealer), Scores: make([]int, s.n),
		Hands: make([]CardSet, s.n), Widow: s.widow, Actions: append([]Action(nil), actions...)}
	for i := range r.Scores {
		r.Scores[i] = int(s.scores[i])
		r.Hands[i] = s.dealt[i]
	}
	if s.variant == TenPoint {
		r.Stock = append([]Card(nil), s.stock[:]...)
	}
	return r
}

// RecordError is a fault in a hand record: Action is the 0-based index of
// the action at fault, or -1 when the fault is not in an action.
type RecordError struct {
	Action  int
	Message string
}

func (e *RecordError) Error() string {
	if e.Action < 0 {
		return e.Message
	}
	return fmt.Sprintf("action %d: %s", e.Action, e.Message)
}

// MarshalJSON writes the error as `pitch score` prints it.
func (e *RecordError) MarshalJSON() ([]byte, error) {
	var idx any
	if e.Action >= 0 {
		idx = e.Action
	}
	return json.Marshal(struct {
		Error  string `json:"error"`
		Action any    `json:"action"`
	}{e.Message, idx})
}

func recErr(i int, format string, args ...any) *RecordError {
	return &RecordError{Action: i, Message: fmt.Sprintf(format, args...)}
}

// State replays the record from its deal, returning the state after the
// last action, or a *RecordError naming the action the rules refuse.
func (r *Record) State() (State, error) {
	s := newFromDeal(r.Game, r.Dealer, r.Scores, r.Hands, r.Stock)
	for i, a := range r.Actions {
		// TP-TR-4: a give_stock absent right after trump means false.
		if s.phase == PhaseGiveStock && a.Kind != ActGiveStock {
			if err := s.Apply(GiveStock(int(s.bidder), false)); err != nil {
				return s, recErr(i, "%s", err)
			}
		}
		if err := s.Apply(a); err != nil {
			return s, recErr(i, "%s", err)
		}
	}
	return s, nil
}

// --- JSON ---

type jsonDeal struct {
	Hands [][]Card `json:"hands"`
	Widow []Card   `json:"widow,omitempty"`
	Stock []Card   `json:"stock,omitempty"`
}

type jsonRecord struct {
	Variant string          `json:"variant"`
	Options map[string]any  `json:"options,omitempty"`
	Dealer  int             `json:"dealer"`
	Scores  []int           `json:"scores"`
	Deal    jsonDeal        `json:"deal"`
	Actions []Action        `json:"actions"`
	Fair    json.RawMessage `json:"fairness,omitempty"`
}

// MarshalJSON writes the record in the hand-record format.
func (r Record) MarshalJSON() ([]byte, error) {
	j := jsonRecord{Variant: r.Variant.String(), Options: r.Game.OptionMap(), Dealer: r.Dealer,
		Scores: r.Scores, Actions: r.Actions, Fair: r.Fairness}
	if j.Actions == nil {
		j.Actions = []Action{}
	}
	for _, h := range r.Hands {
		j.Deal.Hands = append(j.Deal.Hands, h.Cards())
	}
	if r.Variant == Pawnee {
		j.Deal.Widow = r.Widow.Cards()
	}
	j.Deal.Stock = r.Stock
	return json.Marshal(j)
}

// MarshalJSON writes the action as a hand-record action object.
func (a Action) MarshalJSON() ([]byte, error) {
	// Written by hand (every hand record holds dozens of actions, and a
	// server writes every action it stores): the same bytes as
	// marshalAction, which still writes what this does not take (an
	// unknown kind, an invalid card) with its error (TestActionJSON).
	simple := true
	switch a.Kind {
	case ActBid, ActPass, ActTrump, ActGiveStock:
	case ActCall, ActPlay:
		simple = a.Card.Valid()
	case ActPassTrumps, ActDiscard:
		simple = a.Cards&^Deck54 == 0
	default:
		simple = false
	}
	if !simple {
		return marshalAction(a)
	}
	kind := a.Kind.String()
	b := make([]byte, 0, 16+len(kind)+3*a.Cards.Len())
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(a.Seat), 10)
	b = append(b, `,"`...)
	b = append(b, kind...)
	b = append(b, `":`...)
	switch a.Kind {
	case ActBid:
		b = strconv.AppendInt(b, int64(a.Bid), 10)
	case ActPass:
		b = append(b, "true"...)
	case ActCall, ActPlay:
		b = append(b, '"')
		b = appendCardName(b, a.Card)
		b = append(b, '"')
	case ActTrump: // a suit's letter, or "-": nothing to escape
		b = append(b, '"')
		b = append(b, a.Suit.String()...)
		b = append(b, '"')
	case ActGiveStock:
		b = strconv.AppendBool(b, a.Give)
	default:
		b = append(b, '[')
		for s := a.Cards; s != 0; s &= s - 1 {
			if s != a.Cards {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = appendCardName(b, s.First())
			b = append(b, '"')
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// appendCardName appends valid card c's name, as String writes it.
func appendCardName(b []byte, c Card) []byte {
	switch c {
	case BigJoker:
		return append(b, "BJ"...)
	case LittleJoker:
		return append(b, "LJ"...)
	}
	return append(b, rankLetters[c.Rank()], "CDHS"[c.Suit()])
}

// marshalAction writes the action as a hand-record action object
// through encoding/json.
func marshalAction(a Action) ([]byte, error) {
	var v any
	switch a.Kind {
	case ActBid:
		v = a.Bid
	case ActPass:
		v = true
	case ActCall, ActPlay:
		v = a.Card
	case ActTrump:
		v = a.Suit.String()
	case ActGiveStock:
		v = a.Give
	case ActPassTrumps, ActDiscard:
		v = a.Cards.Cards()
	default:
		return nil, fmt.Errorf("action of kind %s cannot be written", a.Kind)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, `{"seat":%d,%q:%s}`, a.Seat, a.Kind.String(), b), nil
}

var actionFields = "bid, pass, call, trump, give_stock, pass_trumps, discard or play"

// UnmarshalJSON reads one hand-record action object: a seat and exactly
// one of the action fields.
func (a *Action) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("an action must be an object with a seat and one of %s", actionFields)
	}
	seatRaw, ok := m["seat"]
	if !ok {
		return fmt.Errorf("the action has no seat")
	}
	var seat int
	if err := json.Unmarshal(seatRaw, &seat); err != nil || seat < 0 || seat >= MaxSeats {
		return fmt.Errorf("seat must be a seat number from 0, not %s", seatRaw)
	}
	delete(m, "seat")
	if len(m) != 1 {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return fmt.Errorf("an action needs exactly one of %s; this one has %d (%s)", actionFields, len(m), strings.Join(keys, ", "))
	}
	var kind, raw = "", json.RawMessage(nil)
	for k, v := range m {
		kind, raw = k, v
	}
	out := Action{Seat: int8(seat)}
	bad := func(what string) error { return fmt.Errorf("%q must be %s, not %s", kind, what, raw) }
	switch kind {
	case "bid":
		var n int
		if json.Unmarshal(raw, &n) != nil || n < 1 || n > 10 {
			return bad("a number from 1 to 10")
		}
		out.Kind, out.Bid = ActBid, int8(n)
	case "pass":
		var t bool
		if json.Unmarshal(raw, &t) != nil || !t {
			return bad("true")
		}
		out.Kind = ActPass
	case "call", "play":
		var c Card
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return bad("a card such as \"JH\"")
		}
		if err := c.UnmarshalText([]byte(str)); err != nil {
			return err
		}
		out.Kind, out.Card = ActPlay, c
		if kind == "call" {
			out.Kind = ActCall
		}
	case "trump":
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return bad("a suit: C, D, H or S")
		}
		su, err := ParseSuit(str)
		if err != nil {
			return err
		}
		out.Kind, out.Suit = ActTrump, su
	case "give_stock":
		if json.Unmarshal(raw, &out.Give) != nil {
			return bad("true or false")
		}
		out.Kind = ActGiveStock
	case "pass_trumps", "discard":
		set, err := parseCardList(raw, kind)
		if err != nil {
			return err
		}
		out.Kind, out.Cards = ActDiscard, set
		if kind == "pass_trumps" {
			out.Kind = ActPassTrumps
		}
	default:
		return fmt.Errorf("unknown action field %q: an action has a seat and one of %s", kind, actionFields)
	}
	*a = out
	return nil
}

func parseCardList(raw json.RawMessage, what string) (CardSet, error) {
	var strs []string
	if err := json.Unmarshal(raw, &strs); err != nil {
		return 0, fmt.Errorf("%q must be a list of cards such as [\"JH\", \"2C\"], not %s", what, raw)
	}
	var set CardSet
	for _, str := range strs {
		c, err := ParseCard(str)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
		if set.Has(c) {
			return 0, fmt.Errorf("%s names %s twice", what, c)
		}
		set |= c.Set()
	}
	return set, nil
}

// ReadRecord reads and checks a hand record: the variant, options, dealer,
// scores and a deal that is exactly the game's deck. Actions are checked
// against the rules only when the record is replayed (Record.State).
func ReadRecord(rd io.Reader) (*Record, error) {
	data, err := io.ReadAll(io.LimitReader(rd, 16<<20))
	if err != nil {
		return nil, recErr(-1, "cannot read the hand record: %v", err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, recErr(-1, "the hand record is not a JSON object: %v", err)
	}
	known := []string{"variant", "options", "dealer", "scores", "deal", "actions", "comment", "fairness"}
	for k := range top {
		if !contains(known, k) {
			return nil, recErr(-1, "unknown field %q: a hand record has %s", k, strings.Join(known, ", "))
		}
	}
	field := func(name string, v any, what string) error {
		raw, ok := top[name]
		if !ok {
			return recErr(-1, "the hand record has no %q: it must give %s", name, what)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields() // a misspelt "widow" must not pass silently
		if err := dec.Decode(v); err != nil {
			return recErr(-1, "%q must be %s, not %s (%v)", name, what, shorten(raw), err)
		}
		return nil
	}
	var vname string
	if err := field("variant", &vname, "auction, ten-point or pawnee"); err != nil {
		return nil, err
	}
	v, err := ParseVariant(vname)
	if err != nil {
		return nil, recErr(-1, "%v", err)
	}
	var opts map[string]json.RawMessage
	if raw, ok := top["options"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &opts); err != nil {
			return nil, recErr(-1, "\"options\" must be an object, not %s", shorten(raw))
		}
	}
	var deal struct {
		Hands [][]string `json:"hands"`
		Widow []string   `json:"widow"`
		Stock []string   `json:"stock"`
	}
	if err := field("deal", &deal, "an object with hands (and widow or stock)"); err != nil {
		return nil, err
	}
	if v == Auction {
		if _, ok := opts["players"]; !ok && len(deal.Hands) >= 2 && len(deal.Hands) <= 7 {
			opts = withOption(opts, "players", len(deal.Hands))
		}
	}
	g, err := ParseOptions(v, opts)
	if err != nil {
		return nil, recErr(-1, "%v", err)
	}
	r := &Record{Variant: v, Game: g}
	if raw, ok := top["fairness"]; ok && string(raw) != "null" {
		r.Fairness = raw // checked only by VerifyFairness: scoring ignores it
	}
	if err := field("dealer", &r.Dealer, "a seat number"); err != nil {
		return nil, err
	}
	if len(deal.Hands) != g.seats {
		return nil, recErr(-1, "deal.hands has %d hands; %s with these options has %d seats", len(deal.Hands), v, g.seats)
	}
	if err := g.checkSeat(r.Dealer, "dealer"); err != nil {
		return nil, recErr(-1, "%v", err)
	}
	if _, ok := top["scores"]; ok {
		if err := field("scores", &r.Scores, "a list of whole numbers, one per seat"); err != nil {
			return nil, err
		}
	} else {
		r.Scores = make([]int, g.seats)
	}
	if r.Scores == nil {
		r.Scores = make([]int, g.seats)
	}
	if err := checkScores(g, r.Scores); err != nil {
		return nil, recErr(-1, "%v", err)
	}
	var all CardSet
	take := func(where string, list []string) (CardSet, []Card, error) {
		var set CardSet
		var cards []Card
		for _, str := range list {
			c, err := ParseCard(str)
			if err != nil {
				return 0, nil, recErr(-1, "%s: %v", where, err)
			}
			if !g.Deck().Has(c) {
				return 0, nil, recErr(-1, "%s holds %s, which is not in the %s deck", where, c, v)
			}
			if all.Has(c) {
				return 0, nil, recErr(-1, "%s holds %s, which is dealt twice", where, c)
			}
			all |= c.Set()
			set |= c.Set()
			cards = append(cards, c)
		}
		return set, cards, nil
	}
	for i, h := range deal.Hands {
		if len(h) != g.handSize {
			return nil, recErr(-1, "deal.hands[%d] has %d cards; %s deals %d to each seat", i, len(h), v, g.handSize)
		}
		set, _, err := take(fmt.Sprintf("deal.hands[%d]", i), h)
		if err != nil {
			return nil, err
		}
		r.Hands = append(r.Hands, set)
	}
	switch v {
	case Pawnee:
		if len(deal.Stock) > 0 {
			return nil, recErr(-1, "pawnee has no stock; its 4 undealt cards are the widow")
		}
		if r.Widow, _, err = take("deal.widow", deal.Widow); err != nil {
			return nil, err
		}
	case TenPoint:
		if len(deal.Widow) > 0 {
			return nil, recErr(-1, "ten-point has no widow; its 18 undealt cards are the stock")
		}
		if _, r.Stock, err = take("deal.stock", deal.Stock); err != nil {
			return nil, err
		}
	default:
		if len(deal.Widow) > 0 {
			return nil, recErr(-1, "auction has no widow")
		}
		before := all
		set, stock, err := take("deal.stock", deal.Stock)
		if err != nil {
			return nil, err
		}
		if len(stock) > 0 && set != g.Deck()&^before {
			return nil, recErr(-1, "deal.stock must be exactly the %d undealt cards", (g.Deck() &^ before).Len())
		}
		r.Stock = stock
	}
	if v != Auction && all != g.Deck() {
		missing := g.Deck() &^ all
		return nil, recErr(-1, "the deal must be exactly the %d-card deck; missing %s", g.Deck().Len(), cardList(missing))
	}
	rawActs, ok := top["actions"]
	if !ok {
		return nil, recErr(-1, "the hand record has no \"actions\": it must give a list (empty for a deal)")
	}
	var acts []json.RawMessage
	if err := json.Unmarshal(rawActs, &acts); err != nil {
		return nil, recErr(-1, "\"actions\" must be a list of action objects, not %s", shorten(rawActs))
	}
	for i, raw := range acts {
		var a Action
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, recErr(i, "%v", err)
		}
		if int(a.Seat) >= g.seats {
			return nil, recErr(i, "seat %d is not a seat: seats are 0 to %d", a.Seat, g.seats-1)
		}
		r.Actions = append(r.Actions, a)
	}
	return r, nil
}

func withOption(m map[string]json.RawMessage, k string, v int) map[string]json.RawMessage {
	out := map[string]json.RawMessage{k: json.RawMessage(fmt.Sprint(v))}
	for key, val := range m {
		out[key] = val
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func shorten(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// --- scoring output ---

type jsonPoint struct {
	Kind string `json:"kind"`
	Card *Card  `json:"card,omitempty"`
	Seat int    `json:"seat"`
}

// ScoreOutput is what `pitch score` prints for a readable record.
type ScoreOutput struct {
	Complete   bool        `json:"complete"`
	Bidder     *int        `json:"bidder"`
	Bid        *int        `json:"bid"`
	Trump      *string     `json:"trump"`
	Partner    *int        `json:"partner,omitempty"`
	Teams      [][]int     `json:"teams"`
	Points     []jsonPoint `json:"points"`
	Taken      []int       `json:"taken"`
	Made       *bool       `json:"made"`
	ScoreDelta []int       `json:"score_delta"`
	Scores     []int       `json:"scores"`
	Winner     []int       `json:"winner"`

	pawnee bool
}

// MarshalJSON writes partner as null rather than leaving it out in pawnee.
func (o ScoreOutput) MarshalJSON() ([]byte, error) {
	type plain ScoreOutput
	b, err := json.Marshal(plain(o))
	if err != nil || !o.pawnee || o.Partner != nil {
		return b, err
	}
	// insert "partner":null after trump, keeping the documented order
	i := bytes.Index(b, []byte(`,"teams":`))
	return append(append(append([]byte{}, b[:i]...), `,"partner":null`...), b[i:]...), nil
}

// Score replays the record and returns what the hand came to (`pitch score`).
func (r *Record) Score() (*ScoreOutput, error) {
	s, err := r.State()
	if err != nil {
		return nil, err
	}
	return s.scoreOutput(), nil
}

func (s *State) scoreOutput() *ScoreOutput {
	res := s.Result()
	o := &ScoreOutput{Complete: res.Complete, Teams: res.Teams, Taken: res.Taken,
		ScoreDelta: res.Delta, Scores: res.Scores, Winner: res.Winner, Points: []jsonPoint{},
		pawnee: s.variant == Pawnee}
	if res.Bidder >= 0 {
		o.Bidder, o.Bid = &res.Bidder, &res.Bid
	}
	if res.Trump != NoSuit {
		t := res.Trump.String()
		o.Trump = &t
	}
	if o.pawnee && res.Partner >= 0 && s.phase > PhaseCall {
		o.Partner = &res.Partner
	}
	for _, p := range res.Points {
		jp := jsonPoint{Kind: p.Kind.String(), Seat: int(p.Seat)}
		if p.Card != NoCard {
			c := p.Card
			jp.Card = &c
		}
		o.Points = append(o.Points, jp)
	}
	if res.Complete {
		o.Made = &res.Made
	}
	return o
}

// ScoreRecord reads a hand record and scores it, as `pitch score` does.
// Errors are *RecordError.
func ScoreRecord(rd io.Reader) (*ScoreOutput, error) {
	r, err := ReadRecord(rd)
	if err != nil {
		return nil, err
	}
	return r.Score()
}
