package wire

import (
	"fmt"
	"strconv"

	"pitch"
)

// A state message is encoded after every change for every connection, so
// it is written by hand here rather than by encoding/json's reflection
// (docs/performance.md): the bytes are exactly those json.Marshal writes
// for the same State (TestStateEncodingStrings here, and play's
// TestStateEncoding over whole matches), so what a client receives does
// not change. Rare or irregular parts (a
// discard's reasons, card refusals, ratings) still go through json.Marshal.

// AppendState appends m's JSON, as json.Marshal(m) writes it.
func AppendState(b []byte, m *State) ([]byte, error) {
	return AppendStateViews(b, m, nil, nil, LogJSON{})
}

// AppendStateViews is AppendState with the seat's view written straight
// from v, when not nil, in place of m.View: as m.View = ToView(v) would
// be written, without making it. Likewise the last hand's view and log,
// from lv and lastLog, when lv is not nil.
func AppendStateViews(b []byte, m *State, v, lv *pitch.View, lastLog LogJSON) ([]byte, error) {
	return AppendStateKeys(b, m, v, lv, lastLog, nil)
}

// Keys records where each top-level field of an encoded state starts
// (AppendStateKeys): the offset of the ',' (or, for the first, the '{')
// before its key, so that a Tracker needs not scan the state for them.
type Keys []int32

// Member flags an offset in Keys as a member of the split field before
// it (the view's), not a top-level field.
const Member = 1 << 30

// AppendStateKeys is AppendStateViews recording in keys (when not nil),
// after what it holds, where each top-level field starts.
func AppendStateKeys(b []byte, m *State, v, lv *pitch.View, lastLog LogJSON, keys *Keys) ([]byte, error) {
	var r *recorder
	if keys != nil {
		r = &recorder{keys: keys}
	}
	return appendStateTo(b, m, v, lv, lastLog, r)
}

// appendStateTo appends m's JSON (AppendStateViews), recording its
// fields in r (nil: none), which may also write only a part of them
// (AppendStateParts).
func appendStateTo(b []byte, m *State, v, lv *pitch.View, lastLog LogJSON, r *recorder) ([]byte, error) {
	var err error
	if r.want(len(b), false) {
		b = r.key(b, `{"type":`)
		b = appendStr(b, m.Type)
	}
	if r.want(len(b), true) {
		b = r.key(b, `,"seat":`)
		b = strconv.AppendInt(b, int64(m.Seat), 10)
	}
	if r.want(len(b), false) {
		b = r.key(b, `,"table":`)
		b = appendRaw(b, m.Table)
	}
	if r.want(len(b), false) {
		b = r.key(b, `,"seq":`)
		b = strconv.AppendInt(b, int64(m.Seq), 10)
	}
	if r.want(len(b), false) {
		b = r.key(b, `,"hand_no":`)
		b = strconv.AppendInt(b, int64(m.HandNo), 10)
	}
	b = r.split(b, `,"view":`)
	if v != nil {
		b, err = appendViewOf(b, v, r)
	} else {
		b, err = appendView(b, &m.View)
	}
	if err != nil {
		return nil, err
	}
	if r.want(len(b), true) {
		b = r.key(b, `,"log":`)
		b = m.Log.AppendTo(b)
	}
	if len(m.Legal) > 0 {
		if r.want(len(b), true) {
			b = r.key(b, `,"legal":`)
			b = append(b, '[')
			for i, a := range m.Legal {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendRaw(b, a)
			}
			b = append(b, ']')
		}
	}
	if m.Discard != nil {
		if r.want(len(b), true) {
			b = r.key(b, `,"discard":`)
			if b, err = appendMarshal(b, m.Discard); err != nil {
				return nil, err
			}
		}
	}
	if r.want(len(b), false) {
		b = r.key(b, `,"sheet":`)
		b = appendRaw(b, m.Sheet)
	}
	if m.LastHand != nil {
		b = r.split(b, `,"last_hand":`)
		if b, err = appendSummary(b, m.LastHand, lv, lastLog, r.ofParts()); err != nil {
			return nil, err
		}
	}
	if r.want(len(b), false) {
		b = r.key(b, `,"match_over":`)
		b = strconv.AppendBool(b, m.Over)
	}
	if r.want(len(b), false) {
		b = r.key(b, `,"winner":`)
		b = appendInts(b, m.Winner)
	}
	if r.want(len(b), false) {
		b = r.key(b, `,"away":`)
		if m.Away == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, a := range m.Away {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendBool(b, a)
			}
			b = append(b, ']')
		}
	}
	if r.want(len(b), false) {
		b = r.key(b, `,"waiting":`)
		b = strconv.AppendBool(b, m.Waiting)
	}
	if len(m.Invited) > 0 {
		if r.want(len(b), false) {
			b = r.key(b, `,"invited":`)
			b = appendInts(b, m.Invited)
		}
	}
	if t := m.Timer; t != nil {
		if r.want(len(b), false) {
			b = r.key(b, `,"timer":`)
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(t.Seat), 10)
			b = append(b, `,"left_ms":`...)
			b = strconv.AppendInt(b, t.LeftMS, 10)
			b = append(b, `,"total_ms":`...)
			b = strconv.AppendInt(b, t.TotalMS, 10)
			b = append(b, '}')
		}
	}
	if len(m.Refusals) > 0 {
		if r.want(len(b), true) {
			b = r.key(b, `,"refusals":`)
			if b, err = appendRefusals(b, m.Refusals); err != nil {
				return nil, err
			}
		}
	}
	if len(m.SuitTrumps) > 0 {
		if r.want(len(b), true) {
			b = r.key(b, `,"suit_trumps":`)
			b = appendIntMap(b, m.SuitTrumps)
		}
	}
	if m.NextTable != "" {
		if r.want(len(b), false) {
			b = r.key(b, `,"next_table":`)
			b = appendStr(b, m.NextTable)
		}
	}
	if m.NextBy != nil {
		if r.want(len(b), false) {
			b = r.key(b, `,"next_by":`)
			b = strconv.AppendInt(b, int64(*m.NextBy), 10)
		}
	}
	if len(m.Reading) > 0 {
		if r.want(len(b), false) {
			b = r.key(b, `,"reading":`)
			b = appendInts(b, m.Reading)
		}
	}
	if m.ReadingLeftMS != 0 {
		if r.want(len(b), false) {
			b = r.key(b, `,"reading_left_ms":`)
			b = strconv.AppendInt(b, m.ReadingLeftMS, 10)
		}
	}
	if m.Paused {
		if r.want(len(b), false) {
			b = r.key(b, `,"paused":`)
			b = append(b, "true"...)
		}
	}
	if m.Fair != nil {
		b = r.split(b, `,"fair":`)
		if r.sharedPart() {
			start := len(b)
			b = appendFair(b, m.Fair)
			if m.Fair.parts != nil && r != nil {
				r.addMembers(m.Fair.parts, start)
			} else {
				r.scanMembers(b, start)
			}
		}
	}
	if len(m.Ratings) > 0 {
		if r.want(len(b), false) {
			b = r.key(b, `,"ratings":`)
			if b, err = appendMarshal(b, m.Ratings); err != nil {
				return nil, err
			}
		}
	}
	r.close(len(b))
	if r.failed() {
		return nil, ErrUntracked
	}
	return append(b, '}'), nil
}

// appendView appends v's JSON.
func appendView(b []byte, v *View) ([]byte, error) {
	var err error
	b = append(b, `{"phase":`...)
	b = appendStr(b, v.Phase)
	b = append(b, `,"dealer":`...)
	b = strconv.AppendInt(b, int64(v.Dealer), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(v.Turn), 10)
	b = append(b, `,"scores":`...)
	b = appendInts(b, v.Scores)
	b = append(b, `,"hand":`...)
	if b, err = appendCards(b, v.Hand); err != nil {
		return nil, err
	}
	b = append(b, `,"counts":`...)
	b = appendInts(b, v.Counts)
	b = append(b, `,"bid":`...)
	b = strconv.AppendInt(b, int64(v.Bid), 10)
	b = append(b, `,"bidder":`...)
	b = strconv.AppendInt(b, int64(v.Bidder), 10)
	b = append(b, `,"passed":`...)
	b = appendInts(b, v.Passed)
	b = append(b, `,"trump":`...)
	if v.Trump == nil {
		b = append(b, "null"...)
	} else {
		b = appendStr(b, *v.Trump)
	}
	b = append(b, `,"trumps":`...)
	if b, err = appendCards(b, v.Trumps); err != nil {
		return nil, err
	}
	b = append(b, `,"called":`...)
	if v.Called == nil {
		b = append(b, "null"...)
	} else if b, err = appendCard(b, *v.Called); err != nil {
		return nil, err
	}
	b = append(b, `,"partner":`...)
	b = appendIntPtr(b, v.Partner)
	b = append(b, `,"partner_known":`...)
	b = strconv.AppendBool(b, v.PartnerKnown)
	for _, f := range []struct {
		name  string
		cards []pitch.Card
	}{{`,"widow":`, v.Widow}, {`,"shown":`, v.Shown}, {`,"out":`, v.Out}} {
		b = append(b, f.name...)
		if b, err = appendCards(b, f.cards); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"trick":`...)
	if b, err = appendTrick(b, v.Trick); err != nil {
		return nil, err
	}
	b = append(b, `,"last_trick":`...)
	if b, err = appendTrick(b, v.LastTrick); err != nil {
		return nil, err
	}
	b = append(b, `,"last_winner":`...)
	b = strconv.AppendInt(b, int64(v.LastWinner), 10)
	b = append(b, `,"tricks":`...)
	b = strconv.AppendInt(b, int64(v.Tricks), 10)
	b = append(b, `,"trick_wins":`...)
	b = appendInts(b, v.TrickWins)
	b = append(b, `,"stock_left":`...)
	b = strconv.AppendInt(b, int64(v.StockLeft), 10)
	if len(v.FillGot) > 0 {
		b = append(b, `,"fill_got":`...)
		b = appendInts(b, v.FillGot)
	}
	return append(b, '}'), nil
}

// appendSummary appends h's JSON: its head (encoded once for every seat
// by summaryHead, when cached) and the seat's own view and log: from lv
// and lastLog in place of h's when lv is not nil (AppendStateViews). r
// (nil: none) records its members: the head's are every viewer's, the
// view and log each viewer's own.
func appendSummary(b []byte, h *HandSummary, lv *pitch.View, lastLog LogJSON, r *recorder) ([]byte, error) {
	if r.sharedPart() {
		start := len(b)
		switch {
		case h.head != nil && h.headParts != nil && r != nil:
			b = append(b, h.head...)
			r.addMembers(h.headParts, start)
		case h.head != nil:
			b = append(b, h.head...)
			r.scanMembers(append(b, '}'), start) // the head is an object but for its brace
		default:
			var err error
			if b, err = appendSummaryHead(b, h); err != nil {
				return nil, err
			}
			r.scanMembers(append(b, '}'), start)
		}
	}
	log := h.Log
	var err error
	switch {
	case lv != nil:
		if r.wantMember(len(b), true) {
			b = r.member(b, `,"view":`)
			if b, err = appendViewOf(b, lv, nil); err != nil {
				return nil, err
			}
		}
		log = lastLog
	case h.View != nil:
		if r.wantMember(len(b), true) {
			b = r.member(b, `,"view":`)
			if b, err = appendView(b, h.View); err != nil {
				return nil, err
			}
		}
	}
	if log.Len() > 0 {
		if r.wantMember(len(b), true) {
			b = r.member(b, `,"log":`)
			b = log.AppendTo(b)
		}
	}
	r.endObj(len(b))
	return append(b, '}'), nil
}

// appendViewOf appends the JSON of ToView(v), as appendView writes
// it, without making it: the same fields in the same order. r (nil:
// none) records its members: the hand, the cards out, the widow and
// the partner are the seat's own.
func appendViewOf(b []byte, v *pitch.View, r *recorder) ([]byte, error) {
	var err error
	n := v.Game.Seats()
	jokers := v.Game.Jokers()
	if r.wantMember(len(b), false) {
		b = r.member(b, `{"phase":`)
		b = appendStr(b, v.Phase.String())
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"dealer":`)
		b = strconv.AppendInt(b, int64(v.Dealer), 10)
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"turn":`)
		b = strconv.AppendInt(b, int64(v.Turn), 10)
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"scores":`)
		b = appendInts(b, v.Scores[:n:n])
	}
	if r.wantMember(len(b), true) {
		b = r.member(b, `,"hand":`)
		var hand [pitch.LittleJoker + 1]pitch.Card // sorted on the stack (pitch.SortHand)
		if b, err = appendCards(b, pitch.AppendSortedHand(hand[:0], v.Hand, v.Trump, jokers)); err != nil {
			return nil, err
		}
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"counts":`)
		b = appendInts(b, v.Counts[:n:n])
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"bid":`)
		b = strconv.AppendInt(b, int64(v.Bid), 10)
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"bidder":`)
		b = strconv.AppendInt(b, int64(v.Bidder), 10)
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"passed":`)
		b = append(b, '[')
		for i, first := 0, true; i < n; i++ {
			if v.Passed&(1<<i) != 0 {
				if !first {
					b = append(b, ',')
				}
				first = false
				b = strconv.AppendInt(b, int64(i), 10)
			}
		}
		b = append(b, ']')
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"trump":`)
		if v.Trump == pitch.NoSuit {
			b = append(b, "null"...)
		} else {
			b = appendStr(b, v.Trump.String())
		}
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"trumps":`)
		if v.Trump < pitch.NoSuit {
			b = append(b, trumpOrderJSON[b2i(jokers)][v.Trump]...)
		} else if b, err = appendCards(b, pitch.TrumpOrder(v.Trump, jokers)); err != nil {
			return nil, err
		}
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"called":`)
		if v.Called == pitch.NoCard {
			b = append(b, "null"...)
		} else if b, err = appendCard(b, v.Called); err != nil {
			return nil, err
		}
	}
	if r.wantMember(len(b), true) {
		b = r.member(b, `,"partner":`)
		if v.PartnerKnown && v.Partner >= 0 {
			b = strconv.AppendInt(b, int64(v.Partner), 10)
		} else {
			b = append(b, "null"...)
		}
	}
	if r.wantMember(len(b), true) {
		b = r.member(b, `,"partner_known":`)
		b = strconv.AppendBool(b, v.PartnerKnown)
	}
	for _, f := range [...]struct {
		name string
		own  bool
		set  pitch.CardSet
	}{{`,"widow":`, true, v.Widow}, {`,"shown":`, false, v.Shown}, {`,"out":`, true, v.Out}} {
		if r.wantMember(len(b), f.own) {
			b = r.member(b, f.name)
			if b, err = appendSet(b, f.set); err != nil {
				return nil, err
			}
		}
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"trick":`)
		if b, err = appendTrickOf(b, v.Trick, v.TrickSeat); err != nil {
			return nil, err
		}
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"last_trick":`)
		if b, err = appendTrickOf(b, v.Last, v.LastSeat); err != nil {
			return nil, err
		}
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"last_winner":`)
		b = strconv.AppendInt(b, int64(v.LastWon), 10)
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"tricks":`)
		b = strconv.AppendInt(b, int64(v.Tricks), 10)
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"trick_wins":`)
		b = appendInts(b, v.TrickWins[:n:n])
	}
	if r.wantMember(len(b), false) {
		b = r.member(b, `,"stock_left":`)
		b = strconv.AppendInt(b, int64(v.StockLeft), 10)
	}
	if v.Game.Variant == pitch.TenPoint && v.Phase >= pitch.PhaseGiveStock && n > 0 {
		if r.wantMember(len(b), false) {
			b = r.member(b, `,"fill_got":`)
			b = appendInts(b, v.FillGot[:n:n])
		}
	}
	r.endObj(len(b))
	return append(b, '}'), nil
}

// appendSet appends the cards of s in card order (cards(s)), [] for none.
func appendSet(b []byte, s pitch.CardSet) ([]byte, error) {
	b = append(b, '[')
	for i := 0; s != 0; s, i = s&(s-1), i+1 {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendCard(b, s.First()); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendTrickOf appends a trick's cards and their seats as appendTrick
// writes the TrickCards made of them ([] for none).
func appendTrickOf(b []byte, cards []pitch.Card, seats []int) ([]byte, error) {
	b = append(b, '[')
	for i, c := range cards {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"seat":`...)
		b = strconv.AppendInt(b, int64(seats[i]), 10)
		b = append(b, `,"card":`...)
		var err error
		if b, err = appendCard(b, c); err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// trumpOrderJSON is TrumpOrder's cards for each trump suit, without and
// with jokers, encoded once.
var trumpOrderJSON = func() (out [2][pitch.NoSuit][]byte) {
	for j := range out {
		for s := range out[j] {
			out[j][s], _ = appendCards(nil, pitch.TrumpOrder(pitch.Suit(s), j == 1))
		}
	}
	return out
}()

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// EncodeHead encodes h's JSON up to its view and log once, for every
// seat's state to share: h must not change after (but for its View and
// Log). On failure the head is left unmade, and each seat's encoding
// reports the error.
func (h *HandSummary) EncodeHead() {
	h.head, _ = appendSummaryHead(nil, h)
	if h.head == nil {
		return
	}
	h.headParts = memberParts(append(h.head, '}'))
}

// appendSummaryHead appends h's JSON up to its view and log: the part
// every seat shares, without the closing brace.
func appendSummaryHead(b []byte, h *HandSummary) ([]byte, error) {
	var err error
	b = append(b, `{"hand":`...)
	b = strconv.AppendInt(b, int64(h.Hand), 10)
	b = append(b, `,"bidder":`...)
	b = strconv.AppendInt(b, int64(h.Bidder), 10)
	b = append(b, `,"bid":`...)
	b = strconv.AppendInt(b, int64(h.Bid), 10)
	b = append(b, `,"trump":`...)
	b = appendStr(b, h.Trump)
	b = append(b, `,"trumps":`...)
	if b, err = appendCards(b, h.Trumps); err != nil {
		return nil, err
	}
	b = append(b, `,"partner":`...)
	b = appendIntPtr(b, h.Partner)
	b = append(b, `,"teams":`...)
	if h.Teams == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, team := range h.Teams {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInts(b, team)
		}
		b = append(b, ']')
	}
	b = append(b, `,"points":`...)
	if h.Points == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range h.Points {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"kind":`...)
			b = appendStr(b, p.Kind)
			if p.Card != nil {
				b = append(b, `,"card":`...)
				if b, err = appendCard(b, *p.Card); err != nil {
					return nil, err
				}
			}
			b = append(b, `,"seat":`...)
			b = strconv.AppendInt(b, int64(p.Seat), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"taken":`...)
	b = appendInts(b, h.Taken)
	b = append(b, `,"made":`...)
	b = strconv.AppendBool(b, h.Made)
	b = append(b, `,"delta":`...)
	b = appendInts(b, h.Delta)
	b = append(b, `,"scores":`...)
	b = appendInts(b, h.Scores)
	b = append(b, `,"winner":`...)
	b = appendInts(b, h.Winner)
	b = append(b, `,"last_trick":`...)
	if b, err = appendTrick(b, h.LastTrick); err != nil {
		return nil, err
	}
	b = append(b, `,"last_winner":`...)
	b = strconv.AppendInt(b, int64(h.LastWinner), 10)
	b = append(b, `,"tricks":`...)
	b = strconv.AppendInt(b, int64(h.Tricks), 10)
	return b, nil
}

// appendLogEntry appends e's JSON.
func appendLogEntry(b []byte, e *LogEntry) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	if e.Kind != "" {
		b = append(b, `,"kind":`...)
		b = appendStr(b, e.Kind)
	}
	if e.Text != "" {
		b = append(b, `,"text":`...)
		b = appendStr(b, e.Text)
	}
	if len(e.Action) > 0 {
		b = append(b, `,"action":`...)
		b = appendRaw(b, e.Action)
	}
	if e.By != "" {
		b = append(b, `,"by":`...)
		b = appendStr(b, e.By)
	}
	return append(b, '}')
}

func appendTrick(b []byte, t []TrickCard) ([]byte, error) {
	if t == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, c := range t {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"seat":`...)
		b = strconv.AppendInt(b, int64(c.Seat), 10)
		b = append(b, `,"card":`...)
		var err error
		if b, err = appendCard(b, c.Card); err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

func appendCards(b []byte, cs []pitch.Card) ([]byte, error) {
	if cs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendCard(b, c); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendCard appends a card as its MarshalText writes it, quoted (its
// names need no escaping).
func appendCard(b []byte, c pitch.Card) ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("invalid card %d", c)
	}
	b = append(b, '"')
	b = append(b, cardNames[c]...)
	return append(b, '"'), nil
}

// cardNames are the cards' names (Card.String), made once.
var cardNames = func() (n [pitch.LittleJoker + 1]string) {
	for c := range n {
		n[c] = pitch.Card(c).String()
	}
	return n
}()

// AppendAction appends a's JSON as json.Marshal(a) writes it
// (TestActionEncoding).
func AppendAction(b []byte, a pitch.Action) ([]byte, error) {
	simple := true
	switch a.Kind {
	case pitch.ActBid, pitch.ActPass, pitch.ActTrump:
	case pitch.ActCall, pitch.ActPlay:
		simple = a.Card.Valid()
	case pitch.ActPassTrumps, pitch.ActDiscard:
		simple = a.Cards&^pitch.Deck54 == 0
	default:
		simple = false
	}
	if !simple { // never in play; as it was, errors included
		return appendMarshal(b, a)
	}
	if b == nil {
		b = make([]byte, 0, 48) // one allocation: most actions' JSON is shorter
	}
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(a.Seat), 10)
	b = append(b, `,"`...)
	b = append(b, a.Kind.String()...)
	b = append(b, `":`...)
	switch a.Kind {
	case pitch.ActBid:
		b = strconv.AppendInt(b, int64(a.Bid), 10)
	case pitch.ActPass:
		b = append(b, "true"...)
	case pitch.ActTrump:
		b = appendStr(b, a.Suit.String())
	case pitch.ActCall, pitch.ActPlay:
		b, _ = appendCard(b, a.Card)
	default:
		b = append(b, '[')
		for s, i := a.Cards, 0; s != 0; s, i = s&(s-1), i+1 {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = appendCard(b, s.First())
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}
