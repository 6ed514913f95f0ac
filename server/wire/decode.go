package wire

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"pitch"
)

// Client messages are read by hand here rather than by encoding/json's
// reflection (docs/performance.md): every action, contribution and
// "ready" is one. The hand-written reader takes only the plain form a
// client writes (known lower-case keys, each once; strings without
// escapes; whole numbers) and stops at anything else, which then goes
// through encoding/json as before: what is accepted is read exactly as
// encoding/json reads it (TestDecodeMessage, FuzzDecodeMessage), and what
// is refused is refused with the same error.

// DecodeMsg reads client message data into m as a json.Decoder with
// DisallowUnknownFields does.
func DecodeMsg(data []byte, m *ClientMsg) error {
	if quickMsg(data, m) {
		return nil
	}
	*m = ClientMsg{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(m)
}

// DecodeAction reads an action as json.Unmarshal does (pitch.Action's
// UnmarshalJSON).
func DecodeAction(raw []byte) (pitch.Action, error) {
	if a, ok := quickAction(raw); ok {
		return a, nil
	}
	var a pitch.Action
	err := json.Unmarshal(raw, &a)
	return a, err
}

// lexer reads the plain JSON quickMsg and quickAction take; every method
// reports false at anything else.
type lexer struct {
	b []byte
	i int
}

func (l *lexer) space() {
	for l.i < len(l.b) {
		switch l.b[l.i] {
		case ' ', '\t', '\n', '\r':
			l.i++
		default:
			return
		}
	}
}

// next skips white space and reports whether byte c comes next, and if
// so skips it.
func (l *lexer) next(c byte) bool {
	l.space()
	if l.i < len(l.b) && l.b[l.i] == c {
		l.i++
		return true
	}
	return false
}

// peek skips white space and returns the next byte (0 at the end).
func (l *lexer) peek() byte {
	l.space()
	if l.i < len(l.b) {
		return l.b[l.i]
	}
	return 0
}

// str reads a string without escapes, control characters or invalid
// UTF-8, which encoding/json reads as its bytes.
func (l *lexer) str() ([]byte, bool) {
	if !l.next('"') {
		return nil, false
	}
	start := l.i
	ascii := true
	for ; l.i < len(l.b); l.i++ {
		switch c := l.b[l.i]; {
		case c == '"':
			s := l.b[start:l.i]
			l.i++
			return s, ascii || utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// num reads a whole number as JSON writes it (no leading zeros, no
// fraction or exponent), of at most 9 digits.
func (l *lexer) num() (int, bool) {
	l.space()
	neg := l.i < len(l.b) && l.b[l.i] == '-'
	if neg {
		l.i++
	}
	start, n := l.i, 0
	for ; l.i < len(l.b) && l.b[l.i] >= '0' && l.b[l.i] <= '9'; l.i++ {
		n = n*10 + int(l.b[l.i]-'0')
	}
	digits := l.i - start
	if digits == 0 || digits > 9 || (digits > 1 && l.b[start] == '0') {
		return 0, false
	}
	if l.i < len(l.b) {
		switch l.b[l.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// word reads the literal w (true, false) followed by a delimiter.
func (l *lexer) word(w string) bool {
	l.space()
	if !bytes.HasPrefix(l.b[l.i:], []byte(w)) {
		return false
	}
	l.i += len(w)
	return l.i == len(l.b) || !isLetter(l.b[l.i])
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// boolean reads true or false.
func (l *lexer) boolean() (v, ok bool) {
	switch l.peek() {
	case 't':
		return true, l.word("true")
	case 'f':
		return false, l.word("false")
	}
	return false, false
}

// object reads an object, calling field for each key with the lexer at
// its value; field reads the value, or reports false.
func (l *lexer) object(field func(key []byte) bool) bool {
	if !l.next('{') {
		return false
	}
	if l.next('}') {
		return true
	}
	for {
		key, ok := l.str()
		if !ok || !l.next(':') || !field(key) {
			return false
		}
		if l.next('}') {
			return true
		}
		if !l.next(',') {
			return false
		}
	}
}

// skip reads any value of the plain form (objects, arrays, strings
// without escapes, whole numbers, true, false, null) and returns its
// bytes.
func (l *lexer) skip(depth int) ([]byte, bool) {
	if depth > 8 {
		return nil, false
	}
	l.space()
	start := l.i
	ok := false
	switch c := l.peek(); {
	case c == '{':
		ok = l.object(func([]byte) bool { _, ok := l.skip(depth + 1); return ok })
	case c == '[':
		l.i++
		if ok = l.next(']'); !ok {
			for {
				if _, ok = l.skip(depth + 1); !ok {
					break
				}
				if ok = l.next(']'); ok {
					break
				}
				if !l.next(',') {
					break
				}
			}
		}
	case c == '"':
		_, ok = l.str()
	case c == '-' || c >= '0' && c <= '9':
		_, ok = l.num()
	case c == 't' || c == 'f':
		_, ok = l.boolean()
	case c == 'n':
		ok = l.word("null")
	}
	return l.b[start:l.i], ok
}

// end reports whether only white space is left.
func (l *lexer) end() bool {
	l.space()
	return l.i == len(l.b)
}

// quickMsg reads data into m when it is a client message of the plain
// form, and reports whether it was. m.Action shares data's bytes.
func quickMsg(data []byte, m *ClientMsg) bool {
	*m = ClientMsg{}
	l := lexer{b: data}
	var seen uint16
	ok := l.object(func(key []byte) bool {
		bit := uint16(0)
		var s *string
		switch string(key) {
		case "type":
			bit, s = 1<<0, &m.Type
		case "token":
			bit, s = 1<<1, &m.Token
		case "host":
			bit, s = 1<<2, &m.Host
		case "text":
			bit, s = 1<<3, &m.Text
		case "commitment":
			bit, s = 1<<4, &m.Commitment
		case "value":
			bit, s = 1<<5, &m.Value
		case "action":
			bit = 1 << 6
		case "summary":
			bit = 1 << 7
		case "hand":
			bit = 1 << 8
		default:
			return false // unknown (or not lower-case): encoding/json says so
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		var ok bool
		switch {
		case s != nil:
			var v []byte
			if v, ok = l.str(); ok {
				*s = string(v)
			}
		case bit == 1<<6:
			var raw []byte
			if raw, ok = l.skip(0); ok && raw[0] != 'n' { // null leaves it nil
				m.Action = raw
			} else {
				ok = false
			}
		case bit == 1<<7:
			m.Summary, ok = l.boolean()
		default:
			m.Hand, ok = l.num()
		}
		return ok
	})
	return ok && l.end()
}

// quickAction reads an action of the plain form with a seat and one
// action field that pitch.Action's UnmarshalJSON accepts, and reports
// whether it was one: the seat and a bid, pass, call, play, trump,
// discard or pass_trumps.
func quickAction(raw []byte) (pitch.Action, bool) {
	var a pitch.Action
	l := lexer{b: raw}
	seat, fields := -1, 0
	ok := l.object(func(key []byte) bool {
		if string(key) == "seat" {
			if seat >= 0 {
				return false
			}
			var ok bool
			seat, ok = l.num()
			return ok && seat >= 0 && seat < pitch.MaxSeats
		}
		fields++
		if fields > 1 {
			return false
		}
		switch string(key) {
		case "bid":
			n, ok := l.num()
			a.Kind, a.Bid = pitch.ActBid, int8(n)
			return ok && n >= 1 && n <= 10
		case "pass":
			a.Kind = pitch.ActPass
			return l.word("true")
		case "call", "play":
			s, ok := l.str()
			if !ok {
				return false
			}
			a.Kind, a.Card = pitch.ActPlay, cardOf(s)
			if key[0] == 'c' {
				a.Kind = pitch.ActCall
			}
			return a.Card != pitch.NoCard
		case "trump":
			s, ok := l.str()
			if !ok || len(s) != 1 {
				return false
			}
			su, err := pitch.ParseSuit(string(s))
			a.Kind, a.Suit = pitch.ActTrump, su
			return err == nil
		case "discard", "pass_trumps":
			a.Kind = pitch.ActDiscard
			if key[0] == 'p' {
				a.Kind = pitch.ActPassTrumps
			}
			if !l.next('[') {
				return false
			}
			if l.next(']') {
				return true
			}
			for {
				s, ok := l.str()
				if !ok {
					return false
				}
				c := cardOf(s)
				if c == pitch.NoCard || a.Cards.Has(c) {
					return false
				}
				a.Cards |= c.Set()
				if l.next(']') {
					return true
				}
				if !l.next(',') {
					return false
				}
			}
		}
		return false
	})
	if !ok || !l.end() || seat < 0 || fields != 1 {
		return pitch.Action{}, false
	}
	a.Seat = int8(seat)
	return a, true
}

// cardOf is the card written s as pitch.ParseCard reads it, or NoCard.
func cardOf(s []byte) pitch.Card {
	if len(s) == 2 { // the usual "JH", without a string
		if c, ok := cardByName[[2]byte{s[0], s[1]}]; ok {
			return c
		}
	}
	c, err := pitch.ParseCard(string(s))
	if err != nil {
		return pitch.NoCard
	}
	return c
}

// cardByName maps each card's name (Card.String) to the card.
var cardByName = func() map[[2]byte]pitch.Card {
	m := map[[2]byte]pitch.Card{}
	for c := pitch.Card(0); c.Valid(); c++ {
		n := c.String()
		m[[2]byte{n[0], n[1]}] = c
	}
	return m
}()
