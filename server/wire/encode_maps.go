package wire

import (
	"slices"
	"strconv"
)

// The maps of a state (suit trumps; card refusals, whose parameters are
// maps), written as encoding/json writes them: their keys sorted.

// appendRefusals appends r's JSON as json.Marshal writes it, each
// refusal's parameters in the order of their names (a value of a type
// other than a string, an int or a list of strings through json.Marshal).
func appendRefusals(b []byte, r []Refusal) ([]byte, error) {
	b = append(b, '[')
	for i, e := range r {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"cards":`...)
		var err error
		if b, err = appendCards(b, e.Cards); err != nil {
			return nil, err
		}
		b = append(b, `,"message":`...)
		b = appendStr(b, e.Message)
		b = append(b, `,"code":`...)
		b = appendStr(b, e.Code)
		b = append(b, `,"params":`...)
		if b, err = appendAnyMap(b, e.Params); err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// appendAnyMap appends m's JSON as json.Marshal writes it (nil: null).
func appendAnyMap(b []byte, m map[string]any) ([]byte, error) {
	return appendSortedMap(b, m, func(b []byte, v any) ([]byte, error) {
		switch v := v.(type) {
		case string:
			return appendStr(b, v), nil
		case int:
			return strconv.AppendInt(b, int64(v), 10), nil
		case []string:
			if v == nil {
				return append(b, "null"...), nil
			}
			b = append(b, '[')
			for j, s := range v {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendStr(b, s)
			}
			return append(b, ']'), nil
		}
		return appendMarshal(b, v)
	})
}

// appendIntMap appends m's JSON as json.Marshal writes it.
func appendIntMap(b []byte, m map[string]int) []byte {
	b, _ = appendSortedMap(b, m, func(b []byte, v int) ([]byte, error) { return strconv.AppendInt(b, int64(v), 10), nil })
	return b
}

// appendSortedMap appends m's JSON as json.Marshal writes it (nil: null):
// its keys in order, each value appended by value.
func appendSortedMap[V any](b []byte, m map[string]V, value func([]byte, V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var keys [8]string
	ks := keys[:0]
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	b = append(b, '{')
	for i, k := range ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStr(b, k)
		b = append(b, ':')
		var err error
		if b, err = value(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}
