package wire

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"reflect"
	"slices"
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
// The server never decodes a state to find what changed: a Tracker
// compares a 64-bit hash of each field's bytes with the one it sent
// last, keeping hashes, not copies. Track scans a whole encoded state
// (the same bytes protocol 1 sends) field by field; a table's broadcast
// uses TrackParts (parts.go), with the fields every viewer shares
// encoded and hashed once for all of them and only each viewer's own
// fields encoded for it. Held is the client's side, the one
// reducer of Go clients (the load test, the tests); the page has the
// same in web/static/js/table/statedelta.js.

// ProtocolDeltas is the protocol number of states sent as deltas.
const ProtocolDeltas = 2

// DeltaOps are the delta ops a client's hello names (ClientMsg.Ops) when
// it applies them besides set, gone and add (deltaops.go).
var DeltaOps = []string{"copy", "push"}

// AppliesOps reports whether a hello's ops include every one of DeltaOps.
func AppliesOps(ops []string) bool {
	for _, want := range DeltaOps {
		if !slices.Contains(ops, want) {
			return false
		}
	}
	return true
}

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

// split says, by id, which top-level fields are compared member by
// member, and slot numbers them from 1 (0: top-level, or not split).
var split, slot = func() (s [256]bool, n [256]uint8) {
	for i, f := range splitFields {
		s[keyIDs[f]] = true
		n[keyIDs[f]] = uint8(i + 1)
	}
	return s, n
}()

// fingerprint is what a Tracker keeps of one field sent: its path (ids),
// and the hash of its bytes. For a split field that is an object, obj is
// set and its members follow; for a top-level array (the log, the score
// sheet, which grow), the hash is of its bytes without the closing
// bracket, and n their length, so that appended entries are told from a
// change.
type fingerprint struct {
	parent, key uint8
	obj         bool
	n           int32
	h           uint64
}

var hashSeed = maphash.MakeSeed()

// hashOf is the fingerprint of a value's bytes: a short value (a number,
// true, a card) is its own fingerprint, its bytes and length packed;
// a longer one is hashed.
func hashOf(b []byte) uint64 {
	if len(b) > 7 {
		return maphash.Bytes(hashSeed, b)
	}
	h := uint64(len(b)) << 56
	for i, c := range b {
		h |= uint64(c) << (8 * i)
	}
	return h
}

// A Tracker is what one viewer (a table's seat, or its spectators) was
// last sent in protocol 2: the version, and a fingerprint of each field.
// Its zero value has sent nothing.
type Tracker struct {
	ver      uint64
	newOps   bool          // the last delta made has a copy or a push
	sent     []fingerprint // Track: every field sent
	next     []fingerprint
	haveSent bool
	// TrackParts: the shared fields sent (a Shared's fingerprints, which
	// every tracker that sent them holds, not a copy), and the viewer's
	// own.
	shared        []fingerprint
	own, ownSpare []fingerprint
}

// Version is the version of the state last tracked (0: none yet).
func (t *Tracker) Version() uint64 { return t.ver }

// NewOps reports whether the delta to the version last tracked has a copy
// or a push (DeltaOps), which a client must say it applies.
func (t *Tracker) NewOps() bool { return t.newOps }

// change is one entry of a delta under construction.
type change struct {
	kind        byte // 's' set, 'g' gone, 'a' add, 'c' copy, 'p' push
	parent, key uint8
	srcParent   uint8 // copy: the path copied
	src         uint8
	val         []byte // set: the value; add: the entries added and ']'; push: {MEMBER: [AT, ENTRY], …}

}

// emptyObject is the value a new split field is set to before its
// members.
var emptyObject = []byte("{}")

// ErrUntracked is returned by Track for a state with a field it does not
// know (which the wire types would name): such a state goes whole.
var ErrUntracked = errors.New("wire: a state field the delta tracker does not know")

// Track records state, the encoded state message (AppendStateKeys'
// bytes) whose top-level fields start at keys (nil: found by scanning
// state), as sent, and appends to dst the delta from the version sent
// last to it. changed is false, and dst is returned as it is, when no
// field changed: the version then stays. On ErrUntracked (or a state
// that is not a JSON object), t is reset: every viewer then needs the
// whole state. A split field's members are scanned only when the
// field's bytes changed.
func (t *Tracker) Track(dst, state []byte, keys Keys) (out []byte, changed bool, err error) {
	if keys == nil {
		if keys, err = scanKeys(state); err != nil {
			*t = Tracker{}
			return dst, false, err
		}
	}
	next := t.next[:0]
	var vbuf [128][]byte // each fingerprint's value, in order (nil: unchanged)
	vals := vbuf[:0]
	// field splits state[p:end] into its key and value: p is at the
	// ',' or '{' before the key.
	field := func(p, end int) (key, val []byte, ok bool) {
		if p < 0 || p+2 > end || end > len(state) {
			return nil, nil, false
		}
		q := bytes.IndexByte(state[p+2:end], '"')
		if q < 0 || p+2+q+2 > end {
			return nil, nil, false
		}
		return state[p+2 : p+2+q], state[p+2+q+2 : end], true
	}
	for i := 0; i < len(keys) && err == nil; i++ {
		p := int(keys[i])
		if p&Member != 0 {
			err = ErrUntracked // a member with no field before it
			break
		}
		// Its members recorded, if any, and its end.
		m := i + 1
		for m < len(keys) && keys[m]&Member != 0 {
			m++
		}
		end := len(state) - 1
		if m < len(keys) {
			end = int(keys[m])
		}
		key, val, ok := field(p, end)
		if !ok {
			err = ErrUntracked
			break
		}
		id, ok := t.keyID(key, len(next))
		if !ok {
			err = ErrUntracked
			break
		}
		switch {
		case split[id] && len(val) > 0 && val[0] == '{':
			var h uint64
			if m == i+1 { // members to scan: not when their bytes are the same
				h = maphash.Bytes(hashSeed, val)
			}
			next = append(next, fingerprint{key: id, obj: true, h: h})
			vals = append(vals, val)
			if j := t.find(0, id); m == i+1 && j >= 0 && t.sent[j].obj && t.sent[j].h == h {
				// The same bytes: the same members.
				for _, f := range t.sent[j+1:] {
					if f.parent != id {
						break
					}
					next = append(next, f)
					vals = append(vals, nil)
				}
				break
			}
			if m > i+1 { // the members' starts were recorded
				for k := i + 1; k < m && err == nil; k++ {
					mend := end - 1 // the last member ends at the closing brace
					if k+1 < m {
						mend = int(keys[k+1] &^ Member)
					}
					mk, mv, ok := field(int(keys[k]&^Member), mend)
					sub, known := t.keyID(mk, len(next))
					if !ok || !known {
						err = ErrUntracked
						break
					}
					next = append(next, fingerprint{parent: id, key: sub, h: hashOf(mv)})
					vals = append(vals, mv)
				}
				break
			}
			err = members(val, func(k, v []byte) error {
				sub, ok := keyIDs[string(k)]
				if !ok {
					return ErrUntracked
				}
				next = append(next, fingerprint{parent: id, key: sub, h: hashOf(v)})
				vals = append(vals, v)
				return nil
			})
		case len(val) >= 2 && val[0] == '[': // an array: the log, the sheet grow
			next = append(next, fingerprint{key: id, n: int32(len(val)), h: maphash.Bytes(hashSeed, val[:len(val)-1])})
			vals = append(vals, val)
		default:
			next = append(next, fingerprint{key: id, h: hashOf(val)})
			vals = append(vals, val)
		}
		i = m - 1
	}
	if err != nil {
		*t = Tracker{}
		return dst, false, err
	}
	out, changed = t.commit(dst, next, vals)
	return out, changed, nil
}

// commit records next, the fingerprints of vals, as sent, and appends to
// dst the delta from what was sent before (changed false when nothing
// changed; no delta when nothing was sent before).
func (t *Tracker) commit(dst []byte, next []fingerprint, vals [][]byte) (out []byte, changed bool) {
	var buf [96]change
	changes := buf[:0]
	if t.haveSent {
		changes = t.diff(changes, next, vals)
	}
	t.next, t.sent = t.sent, next
	return t.version(dst, changes)
}

// version moves t to the next version when changes is not empty, or
// nothing was sent before, and appends to dst the delta of changes from
// the version before (none when nothing was sent before: callers send
// the whole state).
func (t *Tracker) version(dst []byte, changes []change) (out []byte, changed bool) {
	first := !t.haveSent
	t.haveSent = true
	if len(changes) == 0 && !first {
		return dst, false
	}
	t.newOps = false
	for _, c := range changes {
		if c.kind == 'c' || c.kind == 'p' {
			t.newOps = true
		}
	}
	base := t.ver
	t.ver++
	if base == 0 || first {
		return dst, true
	}
	return appendDelta(dst, t.ver, base, changes), true
}

// keyID is the id of key, the name of fingerprint i of the state being
// tracked: most often that of fingerprint i of the state sent last.
func (t *Tracker) keyID(key []byte, i int) (uint8, bool) {
	if i < len(t.sent) && keyNames[t.sent[i].key] == string(key) {
		return t.sent[i].key, true
	}
	id, ok := keyIDs[string(key)]
	return id, ok
}

// find is the index in t.sent of the field parent.key (parent 0: a
// top-level field), or -1.
func (t *Tracker) find(parent, key uint8) int {
	for i, f := range t.sent {
		if f.parent == parent && f.key == key {
			return i
		}
	}
	return -1
}

// scanKeys finds where each top-level field of state starts, as
// AppendStateKeys records it.
func scanKeys(state []byte) (Keys, error) {
	var keys Keys
	err := members(state, func(key, _ []byte) error {
		// key is a slice of state: its field starts 2 bytes before.
		off := cap(state) - cap(key) - 2
		keys = append(keys, int32(off))
		return nil
	})
	return keys, err
}

// diff lists the changes from t.sent to next, the fingerprints of vals.
func (t *Tracker) diff(changes []change, next []fingerprint, vals [][]byte) []change {
	sc := scopeOf(t.sent, next)
	return diffIn(changes, t.sent, next, vals, &sc)
}

// scope is what the diff of some of a state's fields needs to know of
// the split fields (view, last_hand, fair), by slot: those that are
// objects now (their members are compared), and those new (an object
// now, not sent as one: set to {} and each of its members set, or
// copied, as any new member is).
type scope struct {
	objs, fresh [len(splitFields) + 1]bool
}

// scopeOf is the scope of the split fields from old to next.
func scopeOf(old, next []fingerprint) (sc scope) {
	for _, f := range next {
		if f.obj {
			sc.objs[slot[f.key]] = true
			sc.fresh[slot[f.key]] = true
		}
	}
	for _, o := range old {
		if o.obj && o.parent == 0 {
			sc.fresh[slot[o.key]] = false
		}
	}
	return sc
}

// diffIn lists the changes from old to next, the fingerprints of vals,
// in scope sc.
func diffIn(changes []change, old, next []fingerprint, vals [][]byte, sc *scope) []change {
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
	for i, f := range next {
		if f.obj && sc.fresh[slot[f.key]] {
			// New: an empty object, its members set after it (the
			// last hand's log, say, copied from the log held).
			changes = append(changes, change{kind: 's', key: f.key, val: emptyObject})
			continue
		}
		j := find(f.parent, f.key, cursor)
		if j >= 0 {
			cursor = j + 1
		}
		switch {
		case f.obj:
		case j < 0 && f.parent != 0:
			changes = memberChange(changes, f, nil, vals[i], old)
		case j < 0:
			changes = append(changes, change{kind: 's', parent: f.parent, key: f.key, val: vals[i]})
		case f.n > 0 && f.parent == 0:
			o := old[j]
			v := vals[i]
			switch {
			case o.n == f.n && o.h == f.h:
			case o.n > 2 && f.n > o.n && v[o.n-1] == ',' && maphash.Bytes(hashSeed, v[:o.n-1]) == o.h:
				// Grown: only the entries appended (written as an array).
				changes = append(changes, change{kind: 'a', key: f.key, val: v[o.n:]})
			default:
				changes = append(changes, change{kind: 's', key: f.key, val: v})
			}
		case old[j].obj:
			changes = append(changes, change{kind: 's', parent: f.parent, key: f.key, val: vals[i]})
		case old[j].h != f.h && f.parent != 0:
			changes = memberChange(changes, f, &old[j], vals[i], old)
		case old[j].h != f.h:
			changes = append(changes, change{kind: 's', parent: f.parent, key: f.key, val: vals[i]})
		}
	}
	// What was sent and is no longer there.
	var in [len(splitFields) + 1][4]uint64 // next's paths: by parent's slot, a bit per key
	for _, f := range next {
		in[slot[f.parent]][f.key/64] |= 1 << (f.key % 64)
	}
	for _, o := range old {
		if o.parent != 0 && (sc.fresh[slot[o.parent]] || !sc.objs[slot[o.parent]]) {
			continue // its parent went, or is new
		}
		if in[slot[o.parent]][o.key/64]&(1<<(o.key%64)) == 0 {
			changes = append(changes, change{kind: 'g', parent: o.parent, key: o.key})
		}
	}
	return changes
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
	for _, kind := range []byte{'s', 'g', 'c', 'a', 'p'} {
		first := true
		for _, c := range changes {
			if c.kind != kind {
				continue
			}
			if first {
				switch kind {
				case 'c':
					b = append(b, `,"copy":{`...)
				case 's':
					b = append(b, `,"set":{`...)
				case 'g':
					b = append(b, `,"gone":[`...)
				case 'a':
					b = append(b, `,"add":{`...)
				default:
					b = append(b, `,"push":{`...)
				}
				first = false
			} else {
				b = append(b, ',')
			}
			b = appendPath(b, c.parent, c.key)
			switch kind {
			case 's', 'p':
				b = append(b, ':')
				b = append(b, c.val...)
			case 'a': // the entries after the ones held, and the closing bracket
				b = append(b, ':', '[')
				b = append(b, c.val...)
			case 'c':
				b = append(b, ':')
				b = appendPath(b, c.srcParent, c.src)
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

// Members calls f with each member of the JSON object obj: its key
// (without quotes; an escaped key is refused) and its value's bytes, as
// the tracker and Held read states. Tests compare states with it.
func Members(obj []byte, f func(key, val []byte) error) error { return members(obj, f) }

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
