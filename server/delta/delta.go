// Package delta computes and applies the changes between two JSON
// documents, so that a server can send a follower what changed instead of
// the whole document each time (docs/protocol.md, "Changes").
//
// A change is an Op, written in JSON as an array: [path, value] sets the
// place named by path to value, and [path] removes it. A path is an array
// of object keys (strings) and array indices (numbers) from the root; []
// is the whole document. Setting an array's index equal to its length
// appends; removing an array's index i cuts the array to length i (a
// shorter array loses its tail). Applying the ops of Diff(a, b) to a, in
// order, gives b.
//
// The same Apply is written in JavaScript for the pages
// (web/static/js/delta.js); web's tests check the two agree.
package delta

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Op is one change of a document.
type Op struct {
	// Path names the place: object keys (string) and array indices (int)
	// from the root.
	Path []any
	// Value is what the place is set to, as a decoded JSON value (nil,
	// bool, float64, string, []any, map[string]any); unused when Remove.
	Value any
	// Remove removes the place: an object's key, or an array's tail from
	// the index on.
	Remove bool
}

// MarshalJSON writes the op as [path, value] or [path].
func (o Op) MarshalJSON() ([]byte, error) {
	path := o.Path
	if path == nil {
		path = []any{}
	}
	if o.Remove {
		return json.Marshal([1]any{path})
	}
	return json.Marshal([2]any{path, o.Value})
}

// UnmarshalJSON reads an op written by MarshalJSON; a path's numbers
// become ints.
func (o *Op) UnmarshalJSON(b []byte) error {
	var parts []json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("a change is [path, value] or [path]: %w", err)
	}
	if len(parts) < 1 || len(parts) > 2 {
		return fmt.Errorf("a change is [path, value] or [path], not %d parts", len(parts))
	}
	var path []any
	if err := json.Unmarshal(parts[0], &path); err != nil {
		return fmt.Errorf("a change's path is an array of keys and indices: %w", err)
	}
	for i, p := range path {
		switch p := p.(type) {
		case string:
		case float64:
			if p < 0 || p != float64(int(p)) {
				return fmt.Errorf("a path's index is a whole number from 0, not %v", p)
			}
			path[i] = int(p)
		default:
			return fmt.Errorf("a path holds keys and indices, not %T", p)
		}
	}
	*o = Op{Path: path, Remove: len(parts) == 1}
	if !o.Remove {
		return json.Unmarshal(parts[1], &o.Value)
	}
	return nil
}

// Decode reads a JSON document as the values Diff and Apply work on.
func Decode(b []byte) (any, error) {
	var v any
	err := json.Unmarshal(b, &v)
	return v, err
}

// Diff returns the ops that turn document a into document b (both as
// Decode returns them; a may be nil, for no document yet). Where the
// changes inside an object or array would take more bytes than the new
// value itself, the value is set whole. The ops are in a stable order.
func Diff(a, b any) []Op {
	var out []Op
	diff(nil, a, b, &out)
	return out
}

// diff appends to out the ops that turn a into b at path.
func diff(path []any, a, b any, out *[]Op) {
	switch bv := b.(type) {
	case map[string]any:
		if av, ok := a.(map[string]any); ok {
			var sub []Op
			keys := make([]string, 0, len(bv))
			for k := range bv {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if old, ok := av[k]; ok {
					diff(with(path, k), old, bv[k], &sub)
				} else {
					sub = append(sub, Op{Path: with(path, k), Value: bv[k]})
				}
			}
			gone := []string{}
			for k := range av {
				if _, ok := bv[k]; !ok {
					gone = append(gone, k)
				}
			}
			slices.Sort(gone)
			for _, k := range gone {
				sub = append(sub, Op{Path: with(path, k), Remove: true})
			}
			choose(path, b, sub, out)
			return
		}
	case []any:
		if av, ok := a.([]any); ok {
			var sub []Op
			for i, v := range bv {
				if i < len(av) {
					diff(with(path, i), av[i], v, &sub)
				} else {
					sub = append(sub, Op{Path: with(path, i), Value: v})
				}
			}
			if len(bv) < len(av) {
				sub = append(sub, Op{Path: with(path, len(bv)), Remove: true})
			}
			choose(path, b, sub, out)
			return
		}
	}
	if !same(a, b) {
		*out = append(*out, Op{Path: slices.Clone(path), Value: b})
	}
}

// choose appends sub, the changes inside b at path, or setting b whole
// when that is shorter.
func choose(path []any, b any, sub []Op, out *[]Op) {
	if len(sub) == 0 {
		return
	}
	if len(sub) > 1 {
		whole, err1 := json.Marshal(b)
		parts, err2 := json.Marshal(sub)
		if err1 == nil && err2 == nil && len(whole)+len(pathJSON(path)) < len(parts) {
			*out = append(*out, Op{Path: slices.Clone(path), Value: b})
			return
		}
	}
	*out = append(*out, sub...)
}

func pathJSON(path []any) []byte {
	b, _ := json.Marshal(path)
	return b
}

// same reports whether two decoded values are equal; objects and arrays
// are compared by diff, so here they are never the same as each other.
func same(a, b any) bool {
	switch a.(type) {
	case map[string]any, []any:
		return false
	}
	switch b.(type) {
	case map[string]any, []any:
		return false
	}
	return a == b
}

// with returns path with k appended, never sharing path's array.
func with(path []any, k any) []any {
	return append(slices.Clip(path), k)
}

// ErrPath is the error of an op whose path does not name a place in the
// document.
var ErrPath = errors.New("delta: the path names no place in the document")

// Apply applies ops to doc in order and returns the document (doc's
// objects and arrays are changed in place; the result may be another
// value when an op sets the root). An op whose path names no place is
// an error, and the ops after it are not applied.
func Apply(doc any, ops []Op) (any, error) {
	for _, op := range ops {
		var err error
		if doc, err = apply(doc, op); err != nil {
			return doc, err
		}
	}
	return doc, nil
}

func apply(doc any, op Op) (any, error) {
	if len(op.Path) == 0 {
		if op.Remove {
			return nil, nil
		}
		return op.Value, nil
	}
	last := op.Path[len(op.Path)-1]
	// set replaces the place's container (an array grown or cut) where
	// it is held.
	cur := doc
	set := func(v any) { doc = v }
	for _, k := range op.Path[:len(op.Path)-1] {
		switch c := cur.(type) {
		case map[string]any:
			key, ok := k.(string)
			if !ok {
				return doc, fmt.Errorf("%w: %v is not a key of an object", ErrPath, k)
			}
			child, ok := c[key]
			if !ok {
				return doc, fmt.Errorf("%w: no key %q", ErrPath, key)
			}
			set = func(v any) { c[key] = v }
			cur = child
		case []any:
			i, ok := index(k)
			if !ok || i >= len(c) {
				return doc, fmt.Errorf("%w: no index %v in an array of %d", ErrPath, k, len(c))
			}
			set = func(v any) { c[i] = v }
			cur = c[i]
		default:
			return doc, fmt.Errorf("%w: %v is inside a %T", ErrPath, k, cur)
		}
	}
	switch c := cur.(type) {
	case map[string]any:
		key, ok := last.(string)
		if !ok {
			return doc, fmt.Errorf("%w: %v is not a key of an object", ErrPath, last)
		}
		if op.Remove {
			delete(c, key)
		} else {
			c[key] = op.Value
		}
	case []any:
		i, ok := index(last)
		if !ok || i > len(c) {
			return doc, fmt.Errorf("%w: no index %v in an array of %d", ErrPath, last, len(c))
		}
		switch {
		case op.Remove:
			set(c[:i])
		case i == len(c):
			set(append(c, op.Value))
		default:
			c[i] = op.Value
		}
	default:
		return doc, fmt.Errorf("%w: %v is inside a %T", ErrPath, last, cur)
	}
	return doc, nil
}

// index reads an array index of a path: an int, or a JSON number.
func index(k any) (int, bool) {
	switch k := k.(type) {
	case int:
		return k, k >= 0
	case float64:
		return int(k), k >= 0 && k == float64(int(k))
	}
	return 0, false
}
