package wire

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Held is a protocol-2 client's state: the last whole state it was sent,
// with every delta since applied (statedelta.go). It keeps each
// top-level field's JSON as sent; JSON writes the whole state back. The
// zero value holds nothing.
type Held struct {
	keys []string
	vals [][]byte
	v    uint64
	ok   bool
}

// ErrOutOfStep is Apply's error for a delta from a version the client
// does not hold: it asks for the whole state ({"type":"resync"}).
var ErrOutOfStep = errors.New("wire: a delta from a version not held")

// Version is the version held; ok false when nothing is held.
func (h *Held) Version() (v uint64, ok bool) { return h.v, h.ok }

// Reset holds the whole state message msg (a "state" with its "v").
func (h *Held) Reset(msg []byte) error {
	*h = Held{keys: h.keys[:0], vals: h.vals[:0]}
	own := bytes.Clone(msg)
	err := members(own, func(key, val []byte) error {
		k := string(key)
		if k == "v" {
			n, err := strconv.ParseUint(string(val), 10, 64)
			if err != nil {
				return fmt.Errorf("wire: a state's version %s: %w", val, err)
			}
			h.v = n
		}
		h.keys = append(h.keys, k)
		h.vals = append(h.vals, val)
		return nil
	})
	if err != nil {
		*h = Held{}
		return err
	}
	h.ok = true
	return nil
}

// Apply applies the delta message msg. A delta from another version
// than the one held is ErrOutOfStep, and changes nothing; on any other
// error the state is dropped (a client then asks for the whole state).
func (h *Held) Apply(msg []byte) error {
	if !h.ok {
		return ErrOutOfStep
	}
	var v, base uint64
	var haveV, haveBase bool
	err := members(msg, func(key, val []byte) error {
		var err error
		switch string(key) {
		case "v":
			v, err = strconv.ParseUint(string(val), 10, 64)
			haveV = true
		case "base":
			base, err = strconv.ParseUint(string(val), 10, 64)
			haveBase = true
		case "type":
			if string(val) != `"delta"` {
				err = fmt.Errorf("wire: a delta of type %s", val)
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	if !haveV || !haveBase {
		return errors.New(`wire: a delta without "v" and "base"`)
	}
	if base != h.v {
		return ErrOutOfStep
	}
	// The ops, in the order they apply: set, gone, copy (each source
	// read from the state held before the delta), add, push.
	var ops [5][]byte
	err = members(msg, func(key, val []byte) error {
		if i := opIndex(string(key)); i >= 0 {
			ops[i] = val
		}
		return nil
	})
	var paths []string
	var copied [][]byte
	if err == nil && ops[2] != nil {
		paths, copied, err = h.sources(ops[2])
	}
	if err == nil && ops[0] != nil {
		err = members(ops[0], func(path, val []byte) error { return h.set(string(path), bytes.Clone(val)) })
	}
	if err == nil && ops[1] != nil {
		err = elements(ops[1], func(path []byte) error {
			if len(path) < 2 || path[0] != '"' {
				return fmt.Errorf("wire: a gone path %s", path)
			}
			return h.remove(string(path[1 : len(path)-1]))
		})
	}
	for i := 0; err == nil && i < len(paths); i++ {
		err = h.set(paths[i], copied[i])
	}
	if err == nil && ops[3] != nil {
		err = members(ops[3], func(path, val []byte) error { return h.add(string(path), val) })
	}
	if err == nil && ops[4] != nil {
		err = members(ops[4], func(path, val []byte) error { return h.push(string(path), val) })
	}
	if err != nil {
		*h = Held{}
		return err
	}
	h.v = v
	return h.set("v", strconv.AppendUint(nil, v, 10))
}

// JSON appends the state held as one JSON object.
func (h *Held) JSON(b []byte) []byte {
	b = append(b, '{')
	for i, k := range h.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k)
		b = append(b, ':')
		b = append(b, h.vals[i]...)
	}
	return append(b, '}')
}

// Field is the JSON of the top-level field key held (nil: absent).
func (h *Held) Field(key string) []byte {
	if i := h.index(key); i >= 0 {
		return h.vals[i]
	}
	return nil
}

func (h *Held) index(key string) int {
	for i, k := range h.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// set sets path (a field, or a split field's member) to val.
func (h *Held) set(path string, val []byte) error {
	top, sub, nested := strings.Cut(path, ".")
	i := h.index(top)
	if !nested {
		if i < 0 {
			h.keys = append(h.keys, top)
			h.vals = append(h.vals, val)
		} else {
			h.vals[i] = val
		}
		return nil
	}
	if i < 0 {
		return fmt.Errorf("wire: a delta sets %s, but the state has no %s", path, top)
	}
	obj, err := setMember(h.vals[i], sub, val, false)
	if err != nil {
		return fmt.Errorf("wire: a delta sets %s: %w", path, err)
	}
	h.vals[i] = obj
	return nil
}

// remove removes path.
func (h *Held) remove(path string) error {
	top, sub, nested := strings.Cut(path, ".")
	i := h.index(top)
	if i < 0 {
		return fmt.Errorf("wire: a delta removes %s, which the state does not hold", path)
	}
	if !nested {
		h.keys = append(h.keys[:i], h.keys[i+1:]...)
		h.vals = append(h.vals[:i], h.vals[i+1:]...)
		return nil
	}
	obj, err := setMember(h.vals[i], sub, nil, true)
	if err != nil {
		return fmt.Errorf("wire: a delta removes %s: %w", path, err)
	}
	h.vals[i] = obj
	return nil
}

// deltaOps are a delta's ops, in the order they apply.
var deltaOps = [...]string{"set", "gone", "copy", "add", "push"}

// opIndex is the place of the op named key in deltaOps, or -1.
func opIndex(key string) int {
	for i, op := range deltaOps {
		if op == key {
			return i
		}
	}
	return -1
}

// get is the JSON at path (a field, or a split field's member), nil
// when the state holds none.
func (h *Held) get(path string) []byte {
	top, sub, nested := strings.Cut(path, ".")
	cur := h.Field(top)
	if !nested || cur == nil {
		return cur
	}
	return member(cur, sub)
}

// member is the JSON of member key of the JSON object obj, nil when it
// has none (or obj is not an object).
func member(obj []byte, key string) []byte {
	var got []byte
	if members(obj, func(k, v []byte) error {
		if string(k) == key {
			got = v
		}
		return nil
	}) != nil {
		return nil
	}
	return got
}

// sources reads a delta's copy from the state held (before any op
// applies): the paths to set, and the value each is set to (a copy of
// the value at its source path).
func (h *Held) sources(op []byte) (paths []string, vals [][]byte, err error) {
	err = members(op, func(path, src []byte) error {
		if len(src) < 2 || src[0] != '"' {
			return fmt.Errorf("wire: a delta copies %s from %s, not a path", path, src)
		}
		v := h.get(string(src[1 : len(src)-1]))
		if v == nil {
			return fmt.Errorf("wire: a delta copies %s from %s, which the state does not hold", path, src)
		}
		paths, vals = append(paths, string(path)), append(vals, bytes.Clone(v))
		return nil
	})
	return paths, vals, err
}

// add appends the entries of the JSON array entries to the array at path.
func (h *Held) add(path string, entries []byte) error {
	out, err := appendEntries(h.get(path), entries)
	if err != nil {
		return fmt.Errorf("wire: a delta adds to %s: %w", path, err)
	}
	return h.set(path, out)
}

// push inserts, for each member of the JSON object ins ({MEMBER: [AT,
// ENTRY]}), ENTRY at index AT of the array of that name in the object at
// path.
func (h *Held) push(path string, ins []byte) error {
	obj := h.get(path)
	if len(obj) < 2 || obj[0] != '{' {
		return fmt.Errorf("wire: a delta pushes to %s, which is not an object held", path)
	}
	err := members(ins, func(k, pair []byte) error {
		var at []byte
		var entry []byte
		n := 0
		if err := elements(pair, func(e []byte) error {
			switch n {
			case 0:
				at = e
			case 1:
				entry = e
			}
			n++
			return nil
		}); err != nil || n != 2 {
			return fmt.Errorf("%s: %s is not [AT, ENTRY]", k, pair)
		}
		i, err := strconv.Atoi(string(at))
		if err != nil || i < 0 {
			return fmt.Errorf("%s: the index %s", k, at)
		}
		out, err := insertEntry(member(obj, string(k)), i, entry)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		obj, err = setMember(obj, string(k), out, false)
		return err
	})
	if err != nil {
		return fmt.Errorf("wire: a delta pushes to %s: %w", path, err)
	}
	return h.set(path, obj)
}

// insertEntry is the JSON array cur with entry inserted at index at (at
// most its length).
func insertEntry(cur []byte, at int, entry []byte) ([]byte, error) {
	if len(cur) < 2 || cur[0] != '[' {
		return nil, errors.New("not an array held")
	}
	var elems [][]byte
	if err := elements(cur, func(e []byte) error {
		elems = append(elems, e)
		return nil
	}); err != nil {
		return nil, err
	}
	if at > len(elems) {
		return nil, fmt.Errorf("index %d past the array's %d entries", at, len(elems))
	}
	out := make([]byte, 0, len(cur)+len(entry)+1)
	out = append(out, '[')
	for i := 0; i <= len(elems); i++ {
		if i == at {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, entry...)
		}
		if i < len(elems) {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, elems[i]...)
		}
	}
	return append(out, ']'), nil
}

// appendEntries is the JSON array cur with the entries of the JSON array
// entries appended.
func appendEntries(cur, entries []byte) ([]byte, error) {
	if len(cur) < 2 || cur[0] != '[' || len(entries) < 2 || entries[0] != '[' {
		return nil, errors.New("not an array held")
	}
	inner := bytes.TrimSpace(entries[1 : len(entries)-1])
	if len(inner) == 0 {
		return cur, nil
	}
	out := make([]byte, 0, len(cur)+len(inner)+1)
	out = append(out, cur[:len(cur)-1]...)
	if len(bytes.TrimSpace(cur[1:len(cur)-1])) > 0 {
		out = append(out, ',')
	}
	return append(append(out, inner...), ']'), nil
}

// setMember returns the JSON object obj with member key set to val (or,
// with remove, without it).
func setMember(obj []byte, key string, val []byte, remove bool) ([]byte, error) {
	out := make([]byte, 0, len(obj)+len(val)+len(key)+4)
	out = append(out, '{')
	found := false
	err := members(obj, func(k, v []byte) error {
		if string(k) == key {
			found = true
			if remove {
				return nil
			}
			v = val
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, string(k))
		out = append(out, ':')
		out = append(out, v...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !found && remove {
		return nil, fmt.Errorf("no member %s", key)
	}
	if !found {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, key)
		out = append(out, ':')
		out = append(out, val...)
	}
	return append(out, '}'), nil
}

// elements calls f with each element of the JSON array arr.
func elements(arr []byte, f func(e []byte) error) error {
	i := skipWS(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return errors.New("wire: not a JSON array")
	}
	i = skipWS(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return nil
	}
	for {
		end, err := skipJSON(arr, i)
		if err != nil {
			return err
		}
		if err := f(arr[i:end]); err != nil {
			return err
		}
		i = skipWS(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipWS(arr, i+1)
			continue
		}
		if i < len(arr) && arr[i] == ']' {
			return nil
		}
		return errors.New("wire: not a JSON array")
	}
}
