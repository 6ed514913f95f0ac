package loadtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// A client reads a whole state message after every action at its table,
// and most of it (the table, the view, the log, the score sheet, the
// last hand) it does not need. decodeState reads only the fields state
// holds, skipping the others without decoding them: the load test's own
// CPU is shared with the server it measures (docs/performance.md). It
// fills st as json.Unmarshal would from the server's messages
// (TestDecodeState), except that the raw parts (legal actions) point into
// data, and that keys match exactly (as the server writes them).

// decodeState fills st from the server message data.
func decodeState(data []byte, st *state) error {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		if string(bytes.TrimSpace(data)) == "null" {
			return nil // as json.Unmarshal: nothing to set
		}
		return notState(data)
	}
	i++
	for {
		i = skipSpace(data, i)
		if i < len(data) && data[i] == '}' {
			if skipSpace(data, i+1) != len(data) {
				return notState(data)
			}
			return nil
		}
		if i >= len(data) || data[i] != '"' {
			return notState(data)
		}
		end, err := skipValue(data, i)
		if err != nil {
			return notState(data)
		}
		key := data[i+1 : end-1]
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return notState(data)
		}
		i = skipSpace(data, i+1)
		end, err = skipValue(data, i)
		if err != nil {
			return notState(data)
		}
		if err := st.field(string(key), data[i:end]); err != nil {
			return err
		}
		i = skipSpace(data, end)
		if i < len(data) && data[i] == ',' {
			i++
			continue
		}
		if i >= len(data) || data[i] != '}' {
			return notState(data)
		}
	}
}

// notState is the error for a message that is not a JSON object: what
// json.Unmarshal says of it, if it says anything.
func notState(data []byte) error {
	if err := json.Unmarshal(data, new(any)); err != nil {
		return err
	}
	return errors.New("not a JSON object")
}

// field sets the field of st named key (as the server writes it) from
// its JSON value v; other keys are ignored.
func (st *state) field(key string, v []byte) error {
	switch key {
	case "type":
		return str(v, &st.Type)
	case "message":
		return str(v, &st.Message)
	case "seq":
		return integer(v, &st.Seq)
	case "seat":
		return integer(v, &st.Seat)
	case "match_over":
		switch string(v) {
		case "true":
			st.Over = true
		case "false":
			st.Over = false
		default:
			return json.Unmarshal(v, &st.Over)
		}
	case "discard":
		return json.Unmarshal(v, &st.Discard)
	case "fair":
		return st.fair(v)
	case "legal":
		st.Legal = nil
		return elements(v, func(e []byte) { st.Legal = append(st.Legal, e) })
	case "sheet":
		st.Hands = 0
		return elements(v, func([]byte) { st.Hands++ })
	case "log":
		st.Log = v
	case "last_hand":
		if string(v) == "null" {
			st.LastHand = nil
			return nil
		}
		st.LastHand = &struct {
			Log json.RawMessage `json:"log"`
		}{}
		return members(v, func(k, e []byte) {
			if string(k) == "log" {
				st.LastHand.Log = e
			}
		})
	case "view":
		if len(v) > 0 && v[0] == 'n' {
			return nil // null leaves the view as it is
		}
		var turn []byte
		if err := members(v, func(k, e []byte) {
			if string(k) == "turn" {
				turn = e
			}
		}); err != nil {
			return err
		}
		if turn != nil {
			return integer(turn, &st.View.Turn)
		}
	}
	return nil
}

// str decodes the JSON string v: directly when it is plain (valid UTF-8,
// no escape, no control character), else by json.Unmarshal.
func str(v []byte, s *string) error {
	plain := len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && utf8.Valid(v)
	for i := 1; plain && i < len(v)-1; i++ {
		plain = v[i] >= 0x20 && v[i] != '\\' && v[i] != '"'
	}
	if plain {
		*s = string(v[1 : len(v)-1])
		return nil
	}
	return json.Unmarshal(v, s)
}

// integer decodes the JSON number v: directly when it is a plain integer
// (digits, perhaps a minus sign, no leading zero), else by json.Unmarshal.
func integer(v []byte, n *int) error {
	d := v
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	plain := len(d) > 0 && len(d) <= 18 && (d[0] != '0' || len(d) == 1)
	for i := 0; plain && i < len(d); i++ {
		plain = d[i] >= '0' && d[i] <= '9'
	}
	if !plain {
		return json.Unmarshal(v, n)
	}
	k := 0
	for _, c := range d {
		k = k*10 + int(c-'0')
	}
	if len(d) < len(v) {
		k = -k
	}
	*n = k
	return nil
}

// fair reads the fair-deal part v (on every state): only the next deal's
// commitment and who contributed, as json.Unmarshal would set them.
func (st *state) fair(v []byte) error {
	if string(v) == "null" {
		st.Fair = nil
		return nil
	}
	f := st.Fair
	if f == nil {
		f = &fairPart{}
	}
	var err error
	if merr := members(v, func(k, e []byte) {
		if string(k) != "next" || err != nil {
			return
		}
		if string(e) == "null" {
			f.Next = nil
			return
		}
		n := f.Next
		if n == nil {
			n = &fairNextPart{}
		}
		if merr := members(e, func(k, e []byte) {
			switch {
			case err != nil:
			case string(k) == "commitment":
				err = str(e, &n.Commitment)
			case string(k) == "contributed" && string(e) == "null":
				n.Contributed = nil
			case string(k) == "contributed":
				n.Contributed = n.Contributed[:0]
				if n.Contributed == nil {
					n.Contributed = []int{}
				}
				eerr := elements(e, func(e []byte) {
					var seat int
					if err == nil {
						err = integer(e, &seat)
					}
					n.Contributed = append(n.Contributed, seat)
				})
				if err == nil {
					err = eerr
				}
			}
		}); merr != nil && err == nil {
			err = merr
		}
		f.Next = n
	}); merr != nil {
		return merr
	}
	if err != nil {
		return err
	}
	st.Fair = f
	return nil
}

var errShape = errors.New("unexpected JSON")

// elements calls f with each element of the JSON array v (null: none).
func elements(v []byte, f func(e []byte)) error {
	if string(v) == "null" {
		return nil
	}
	if len(v) == 0 || v[0] != '[' {
		return errShape
	}
	i := skipSpace(v, 1)
	if i < len(v) && v[i] == ']' {
		return nil
	}
	for i < len(v) {
		end, err := skipValue(v, i)
		if err != nil {
			return err
		}
		f(v[i:end])
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ']' {
			return nil
		}
		if i >= len(v) || v[i] != ',' {
			return errShape
		}
		i = skipSpace(v, i+1)
	}
	return errShape
}

// members calls f with each key (as written, without its quotes) and
// value of the JSON object v.
func members(v []byte, f func(k, e []byte)) error {
	if len(v) == 0 || v[0] != '{' {
		return errShape
	}
	i := skipSpace(v, 1)
	if i < len(v) && v[i] == '}' {
		return nil
	}
	for i < len(v) {
		if v[i] != '"' {
			return errShape
		}
		end, err := skipValue(v, i)
		if err != nil {
			return err
		}
		k := v[i+1 : end-1]
		i = skipSpace(v, end)
		if i >= len(v) || v[i] != ':' {
			return errShape
		}
		i = skipSpace(v, i+1)
		if end, err = skipValue(v, i); err != nil {
			return err
		}
		f(k, v[i:end])
		i = skipSpace(v, end)
		if i < len(v) && v[i] == '}' {
			return nil
		}
		if i >= len(v) || v[i] != ',' {
			return errShape
		}
		i = skipSpace(v, i+1)
	}
	return errShape
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value that starts at b[i]. It
// finds where the value ends, not whether it is valid: the fields read
// are checked as they are decoded, the others are not looked at.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errShape
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1, nil
			}
		}
		return 0, errShape
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			case '"':
				end, err := skipValue(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			}
		}
		return 0, errShape
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return 0, errShape
	}
	return j, nil
}
