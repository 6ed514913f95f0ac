package server

import (
	"encoding/json"
	"fmt"
	"strconv"

	"pitch"
)

// A state message is encoded after every change for every connection, so
// it is written by hand here rather than by encoding/json's reflection
// (docs/performance.md): the bytes are exactly those json.Marshal writes
// for the same stateMsg (TestStateEncoding checks it over whole matches),
// so what a client receives does not change. Rare or irregular parts (a
// discard's reasons, card refusals, ratings) still go through json.Marshal.

// appendState appends m's JSON, as json.Marshal(m) writes it.
func appendState(b []byte, m *stateMsg) ([]byte, error) {
	var err error
	b = append(b, `{"type":`...)
	b = appendStr(b, m.Type)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(m.Seat), 10)
	b = append(b, `,"table":`...)
	b = appendRaw(b, m.Table)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(m.Seq), 10)
	b = append(b, `,"hand_no":`...)
	b = strconv.AppendInt(b, int64(m.HandNo), 10)
	b = append(b, `,"view":`...)
	if b, err = appendView(b, &m.View); err != nil {
		return nil, err
	}
	b = append(b, `,"log":`...)
	b = m.Log.appendTo(b)
	if len(m.Legal) > 0 {
		b = append(b, `,"legal":[`...)
		for i, a := range m.Legal {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRaw(b, a)
		}
		b = append(b, ']')
	}
	if m.Discard != nil {
		b = append(b, `,"discard":`...)
		if b, err = appendMarshal(b, m.Discard); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"sheet":`...)
	b = appendRaw(b, m.Sheet)
	if m.LastHand != nil {
		b = append(b, `,"last_hand":`...)
		if b, err = appendSummary(b, m.LastHand); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"match_over":`...)
	b = strconv.AppendBool(b, m.Over)
	b = append(b, `,"winner":`...)
	b = appendInts(b, m.Winner)
	b = append(b, `,"away":`...)
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
	b = append(b, `,"waiting":`...)
	b = strconv.AppendBool(b, m.Waiting)
	if t := m.Timer; t != nil {
		b = append(b, `,"timer":{"seat":`...)
		b = strconv.AppendInt(b, int64(t.Seat), 10)
		b = append(b, `,"left_ms":`...)
		b = strconv.AppendInt(b, t.LeftMS, 10)
		b = append(b, `,"total_ms":`...)
		b = strconv.AppendInt(b, t.TotalMS, 10)
		b = append(b, '}')
	}
	if len(m.Refusals) > 0 {
		b = append(b, `,"refusals":`...)
		if b, err = appendMarshal(b, m.Refusals); err != nil {
			return nil, err
		}
	}
	if len(m.SuitTrumps) > 0 {
		b = append(b, `,"suit_trumps":`...)
		if b, err = appendMarshal(b, m.SuitTrumps); err != nil {
			return nil, err
		}
	}
	if m.NextTable != "" {
		b = append(b, `,"next_table":`...)
		b = appendStr(b, m.NextTable)
	}
	if m.NextBy != nil {
		b = append(b, `,"next_by":`...)
		b = strconv.AppendInt(b, int64(*m.NextBy), 10)
	}
	if len(m.Reading) > 0 {
		b = append(b, `,"reading":`...)
		b = appendInts(b, m.Reading)
	}
	if m.Paused {
		b = append(b, `,"paused":true`...)
	}
	if m.Fair != nil {
		b = append(b, `,"fair":`...)
		b = appendFair(b, m.Fair)
	}
	if len(m.Ratings) > 0 {
		b = append(b, `,"ratings":`...)
		if b, err = appendMarshal(b, m.Ratings); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendView appends v's JSON.
func appendView(b []byte, v *viewJSON) ([]byte, error) {
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
// by summaryHead, when cached) and the seat's own view and log.
func appendSummary(b []byte, h *handSummary) ([]byte, error) {
	if h.head != nil {
		b = append(b, h.head...)
	} else {
		var err error
		if b, err = appendSummaryHead(b, h); err != nil {
			return nil, err
		}
	}
	if h.View != nil {
		b = append(b, `,"view":`...)
		var err error
		if b, err = appendView(b, h.View); err != nil {
			return nil, err
		}
	}
	if len(h.Log) > 0 {
		b = append(b, `,"log":`...)
		b = h.Log.appendTo(b)
	}
	return append(b, '}'), nil
}

// appendSummaryHead appends h's JSON up to its view and log: the part
// every seat shares, without the closing brace.
func appendSummaryHead(b []byte, h *handSummary) ([]byte, error) {
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

// appendFair appends f's JSON.
func appendFair(b []byte, f *fairJSON) []byte {
	b = append(b, `{"dealing":`...)
	b = strconv.AppendBool(b, f.Dealing)
	if n := f.Next; n != nil {
		b = append(b, `,"next":{"hand":`...)
		b = strconv.AppendInt(b, int64(n.Hand), 10)
		b = append(b, `,"commitment":`...)
		b = appendStr(b, n.Commitment)
		b = append(b, `,"committed_at":`...)
		b = appendStr(b, n.CommittedAt)
		b = append(b, `,"dealer":`...)
		b = strconv.AppendInt(b, int64(n.Dealer), 10)
		b = append(b, `,"contributed":`...)
		b = appendInts(b, n.Contributed)
		if n.Shared {
			b = append(b, `,"shared":true`...)
		}
		b = append(b, '}')
	}
	if h := f.Hand; h != nil {
		b = append(b, `,"hand":{"hand":`...)
		b = strconv.AppendInt(b, int64(h.Hand), 10)
		b = append(b, `,"commitment":`...)
		b = appendStr(b, h.Commitment)
		b = append(b, '}')
	}
	if l := f.Last; l != nil {
		b = append(b, `,"last":{"hand":`...)
		b = strconv.AppendInt(b, int64(l.Hand), 10)
		b = append(b, `,"commitment":`...)
		b = appendStr(b, l.Commitment)
		b = append(b, `,"secret":`...)
		b = appendStr(b, l.Secret)
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendLogEntry appends e's JSON.
func appendLogEntry(b []byte, e *logEntry) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	b = append(b, `,"kind":`...)
	b = appendStr(b, e.Kind)
	b = append(b, `,"text":`...)
	b = appendStr(b, e.Text)
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

func appendTrick(b []byte, t []trickCard) ([]byte, error) {
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
	b = append(b, c.String()...)
	return append(b, '"'), nil
}

func appendInts(b []byte, v []int) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

func appendIntPtr(b []byte, p *int) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*p), 10)
}

// appendRaw appends JSON that is already compact, as encoding/json
// writes it (nil: null). Every raw part of a state is json.Marshal's own
// output, which compacting leaves as it is.
func appendRaw(b []byte, raw json.RawMessage) []byte {
	if raw == nil {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// appendStr appends s as a JSON string, as encoding/json writes it: the
// plain printable ASCII that needs no escape directly, anything else
// through json.Marshal (its HTML-safe escapes, U+2028, invalid UTF-8).
func appendStr(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendMarshal appends json.Marshal(v).
func appendMarshal(b []byte, v any) ([]byte, error) {
	q, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, q...), nil
}

// logJSON is a hand's log as one viewer may see it, encoded once as its
// actions are applied: the entries' JSON objects joined by commas. It is
// written as a JSON array (an empty log as []).
type logJSON []byte

// add appends entry e.
func (l logJSON) add(e *logEntry) logJSON {
	if len(l) > 0 {
		l = append(l, ',')
	}
	return appendLogEntry(l, e)
}

// appendTo appends the log as a JSON array.
func (l logJSON) appendTo(b []byte) []byte {
	b = append(b, '[')
	b = append(b, l...)
	return append(b, ']')
}

// MarshalJSON writes the log as a JSON array.
func (l logJSON) MarshalJSON() ([]byte, error) { return l.appendTo(nil), nil }
