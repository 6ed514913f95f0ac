package wire

import (
	"errors"
	"fmt"
	"hash/maphash"
	"reflect"
	"strconv"
	"strings"
)

// Protocol 2 (docs/protocol.md, "Protocol 2: deltas"): a connection that
// says so in its hello is sent its whole state, with a version "v", once,
// and after that only what changed for its seat:
//
//	{"type":"delta","v":N,"base":M,"set":{PATH:VALUE,…},"gone":[PATH,…],"add":{PATH:[ENTRY,…]}}
//
// A PATH is a state's top-level field ("seq", "legal") or, for the
// fields split one level down (view, last_hand, fair), the field and
// one of its members ("view.turn"). set replaces (or adds) the value at
// the path, gone removes it, add appends entries to the array there
// (the hand's log, when it only grew). A client holding version M
// applies the delta and holds version N; a client holding another
// version asks for the whole state ({"type":"resync"}).
//
// The server never decodes a state to find what changed: Tracker scans
// the state it encoded (the same bytes protocol 1 sends) field by field
// and compares a 64-bit hash of each field's bytes with the one it sent
// last, keeping hashes, not copies. Held is the client's side, the one
// reducer of Go clients (the load test, the tests); the page has the
// same in web/static/js/table/statedelta.js.

// ProtocolDeltas is the protocol number of states sent as deltas.
const ProtocolDeltas = 2

// splitFields are the state's object fields whose members are compared
// one by one: one card played changes a few of the view's members, not
// the whole view.
var splitFields = [...]string{"view", "last_hand", "fair"}

// keyNames are the names of every field and split member a state has,
// by id (0 is none), and keyIDs the ids by name: made once from the
// wire types' JSON names.
var keyNames, keyIDs = func() ([]string, map[string]uint8) {
	names := []string{""}
	ids := map[string]uint8{}
	for _, v := range []any{State{}, View{}, HandSummary{}, Fair{}} {
		ty := reflect.TypeOf(v)
		for i := range ty.NumField() {
			name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" || ids[name] != 0 {
				continue
			}
			ids[name] = uint8(len(names))
			names = append(names, name)
		}
	}
	return names, ids
}()

// isSplit reports whether top-level field id is compared member by member.
func isSplit(id uint8) bool {
	for _, s := range splitFields {
		if keyIDs[s] == id {
			return true
		}
	}
	return false
}

var logID = keyIDs["log"]

// fingerprint is what a Tracker keeps of one field sent: its path (ids),
// and the hash of its bytes. For a split field that is an object, obj is
// set and its members follow; for the log, the hash is of its bytes
// without the closing bracket, and n their length, so that an appended
// entry is told from a change.
type fingerprint struct {
	parent, key uint8
	obj         bool
	n           int32
	h           uint64
}

var hashSeed = maphash.MakeSeed()

// A Tracker is what one viewer (a table's seat, or its spectators) was
// last sent in protocol 2: the version, and a fingerprint of each field.
// Its zero value has sent nothing.
type Tracker struct {
	ver      uint64
	sent     []fingerprint
	next     []fingerprint
	haveSent bool
}

// Version is the version of the state last tracked (0: none yet).
func (t *Tracker) Version() uint64 { return t.ver }

// change is one entry of a delta under construction.
type change struct {
	kind        byte // 's' set, 'g' gone, 'a' add
	parent, key uint8
	val         []byte
}

// ErrUntracked is returned by Track for a state with a field it does not
// know (which the wire types would name): such a state goes whole.
var ErrUntracked = errors.New("wire: a state field the delta tracker does not know")

// Track records state, the encoded state message (AppendStateViews'
// bytes), as sent, and appends to dst the delta from the version sent
// last to it. changed is false, and dst is returned as it is, when no
// field changed: the version then stays. On ErrUntracked (or a state
// that is not a JSON object), t is reset: every viewer then needs the
// whole state.
func (t *Tracker) Track(dst, state []byte) (out []byte, changed bool, err error) {
	next := t.next[:0]
	var vbuf [128][]byte // each fingerprint's value, in order
	vals := vbuf[:0]
	err = members(state, func(key, val []byte) error {
		id, ok := keyIDs[string(key)]
		if !ok {
			return ErrUntracked
		}
		switch {
		case isSplit(id) && len(val) > 0 && val[0] == '{':
			next = append(next, fingerprint{key: id, obj: true})
			vals = append(vals, val)
			return members(val, func(k, v []byte) error {
				sub, ok := keyIDs[string(k)]
				if !ok {
					return ErrUntracked
				}
				next = append(next, fingerprint{parent: id, key: sub, h: maphash.Bytes(hashSeed, v)})
				vals = append(vals, v)
				return nil
			})
		case id == logID && len(val) >= 2:
			next = append(next, fingerprint{key: id, n: int32(len(val)), h: maphash.Bytes(hashSeed, val[:len(val)-1])})
		default:
			next = append(next, fingerprint{key: id, h: maphash.Bytes(hashSeed, val)})
		}
		if id != 0 && !(isSplit(id) && len(val) > 0 && val[0] == '{') {
			vals = append(vals, val)
		}
		return nil
	})
	if err != nil {
		*t = Tracker{}
		return dst, false, err
	}
	var buf [96]change
	changes := buf[:0]
	if !t.haveSent {
		// Nothing sent before: everything is new (a delta from nothing is
		// never sent; callers send the whole state).
		changes = append(changes, change{kind: 's'})
	} else {
		changes = t.diff(changes, next, vals)
	}
	t.next, t.sent = t.sent, next
	t.haveSent = true
	if len(changes) == 0 {
		return dst, false, nil
	}
	base := t.ver
	t.ver++
	if base == 0 {
		return dst, true, nil
	}
	return appendDelta(dst, t.ver, base, changes), true, nil
}

// diff lists the changes from t.sent to next, the fingerprints of vals.
func (t *Tracker) diff(changes []change, next []fingerprint, vals [][]byte) []change {
	old := t.sent
	find := func(parent, key uint8, from int) int {
		for i := from; i < len(old); i++ {
			if old[i].parent == parent && old[i].key == key {
				return i
			}
		}
		for i := 0; i < from && i < len(old); i++ {
			if old[i].parent == parent && old[i].key == key {
				return i
			}
		}
		return -1
	}
	cursor := 0
	wholeParent := uint8(0) // a split field sent whole: its members go with it
	for i, f := range next {
		if f.parent != 0 && f.parent == wholeParent {
			continue
		}
		j := find(f.parent, f.key, cursor)
		if j >= 0 {
			cursor = j + 1
		}
		switch {
		case f.obj:
			if j < 0 || !old[j].obj {
				wholeParent = f.key
				changes = append(changes, change{kind: 's', key: f.key, val: vals[i]})
			}
		case j < 0:
			changes = append(changes, change{kind: 's', parent: f.parent, key: f.key, val: vals[i]})
		case f.key == logID && f.parent == 0:
			o := old[j]
			v := vals[i]
			switch {
			case o.n == f.n && o.h == f.h:
			case o.n > 2 && f.n > o.n && v[o.n-1] == ',' && maphash.Bytes(hashSeed, v[:o.n-1]) == o.h:
				// Grown: only the entries appended, as an array.
				entries := make([]byte, 0, len(v)-int(o.n)+1)
				entries = append(append(entries, '['), v[o.n:]...)
				changes = append(changes, change{kind: 'a', key: f.key, val: entries})
			default:
				changes = append(changes, change{kind: 's', key: f.key, val: v})
			}
		case old[j].h != f.h || old[j].obj:
			changes = append(changes, change{kind: 's', parent: f.parent, key: f.key, val: vals[i]})
		}
	}
	// What was sent and is no longer there.
	for _, o := range old {
		if o.parent != 0 && (o.parent == wholeParent || !hasObj(next, o.parent)) {
			continue // its parent went, or went whole
		}
		found := false
		for _, f := range next {
			if f.parent == o.parent && f.key == o.key {
				found = true
				break
			}
		}
		if !found {
			changes = append(changes, change{kind: 'g', parent: o.parent, key: o.key})
		}
	}
	return changes
}

// hasObj reports whether fs holds split field id as an object.
func hasObj(fs []fingerprint, id uint8) bool {
	for _, f := range fs {
		if f.parent == 0 && f.key == id {
			return f.obj
		}
	}
	return false
}

// appendPath appends the quoted path of a change.
func appendPath(b []byte, parent, key uint8) []byte {
	b = append(b, '"')
	if parent != 0 {
		b = append(b, keyNames[parent]...)
		b = append(b, '.')
	}
	b = append(b, keyNames[key]...)
	return append(b, '"')
}

// appendDelta appends the delta message of changes, from version base to v.
func appendDelta(b []byte, v, base uint64, changes []change) []byte {
	b = append(b, `{"type":"delta","v":`...)
	b = strconv.AppendUint(b, v, 10)
	b = append(b, `,"base":`...)
	b = strconv.AppendUint(b, base, 10)
	for _, kind := range []byte{'s', 'g', 'a'} {
		first := true
		for _, c := range changes {
			if c.kind != kind {
				continue
			}
			if first {
				switch kind {
				case 's':
					b = append(b, `,"set":{`...)
				case 'g':
					b = append(b, `,"gone":[`...)
				default:
					b = append(b, `,"add":{`...)
				}
				first = false
			} else {
				b = append(b, ',')
			}
			b = appendPath(b, c.parent, c.key)
			if kind != 'g' {
				b = append(b, ':')
				b = append(b, c.val...)
			}
		}
		if !first {
			if kind == 'g' {
				b = append(b, ']')
			} else {
				b = append(b, '}')
			}
		}
	}
	return append(b, '}')
}

// AppendVersioned appends state (an encoded state message) with the
// version v added as its last field "v": protocol 2's whole state.
func AppendVersioned(b, state []byte, v uint64) []byte {
	if len(state) < 2 || state[len(state)-1] != '}' {
		return append(b, state...)
	}
	b = append(b, state[:len(state)-1]...)
	b = append(b, `,"v":`...)
	b = strconv.AppendUint(b, v, 10)
	return append(b, '}')
}

// members calls f with each member of the JSON object obj: its key
// (without quotes; an escaped key is refused) and its value's bytes.
func members(obj []byte, f func(key, val []byte) error) error {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errNotObject
	}
	i = skipWS(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return trailing(obj, i+1)
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return errNotObject
		}
		end, err := skipJSON(obj, i)
		if err != nil {
			return err
		}
		key := obj[i+1 : end-1]
		for _, c := range key {
			if c == '\\' {
				return ErrUntracked
			}
		}
		i = skipWS(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return errNotObject
		}
		i = skipWS(obj, i+1)
		end, err = skipJSON(obj, i)
		if err != nil {
			return err
		}
		if err := f(key, obj[i:end]); err != nil {
			return err
		}
		i = skipWS(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = skipWS(obj, i+1)
			continue
		}
		if i < len(obj) && obj[i] == '}' {
			return trailing(obj, i+1)
		}
		return errNotObject
	}
}

var errNotObject = errors.New("wire: not a JSON object")

// trailing checks that only white space follows the end of an object at i.
func trailing(b []byte, i int) error {
	if skipWS(b, i) != len(b) {
		return errNotObject
	}
	return nil
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipJSON returns the end of the JSON value starting at b[i]; it checks
// the nesting and the strings, not the numbers' and words' spelling.
func skipJSON(b []byte, i int) (int, error) {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(b) {
				return 0, errors.New("wire: an unterminated string")
			}
			i++
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			if depth == 0 {
				return 0, fmt.Errorf("wire: an unexpected %q", c)
			}
			depth--
			i++
		case ' ', '\n', '\t', '\r', ',', ':':
			if depth == 0 {
				return 0, fmt.Errorf("wire: an unexpected %q", c)
			}
			i++
			continue
		default:
			j := i
			for j < len(b) && !delim(b[j]) {
				j++
			}
			if j == i {
				return 0, fmt.Errorf("wire: an unexpected %q", c)
			}
			i = j
		}
		if depth == 0 {
			return i, nil
		}
	}
	return 0, errors.New("wire: the JSON ends too soon")
}

// delim reports whether c ends a number or a word.
func delim(c byte) bool {
	switch c {
	case ' ', '\n', '\t', '\r', ',', ':', ']', '}':
		return true
	}
	return false
}
