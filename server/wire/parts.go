package wire

import (
	"hash/maphash"
	"reflect"
	"strings"

	"pitch"
)

// A broadcast sends every viewer of a table its state after each change,
// and most of a state is the same for every viewer: the table, the score
// sheet, the last hand's head, the view but for the viewer's hand, and
// so on. In protocol 2 (statedelta.go) nothing needs the viewer's whole
// state, only its fields: so the fields every viewer shares are encoded
// and fingerprinted once a broadcast (AppendStateParts, shared), and
// each viewer's own (its seat, hand, log, legal actions, …) for it
// alone, and a viewer's Tracker compares the two together with what it
// sent last (TrackParts). The bytes of each field are those
// AppendStateViews writes for the viewer (TestStatePartsMatch).

// Parts is some of a state's fields, encoded, and where each one's
// value lies: what every viewer shares, or one viewer's own
// (AppendStateParts). Its zero value is ready to use.
type Parts struct {
	b   []byte
	f   []part
	ids [64]keyID // the ids of keys met before (recorder.id)
}

// keyID is a field's start as the encoder writes it (',' or '{', the
// quoted key, ':' and perhaps its value's start) and its key's id.
type keyID struct {
	s  string
	id uint8
}

// part is one field of a Parts: its path, where its value lies in the
// bytes, and the fingerprint of those bytes (as a Tracker keeps it).
// An object split member by member (obj) has no value of its own: its
// members follow it.
type part struct {
	parent, key uint8
	obj         bool
	start, end  int32
	n           int32
	h           uint64
}

// Len is how many bytes p holds.
func (p *Parts) Len() int { return len(p.b) }

// AppendStateParts encodes into p (replacing what it held) the fields
// of m (with the views written from v and lv, as AppendStateViews
// writes them) that every viewer shares (own false) or that are the
// viewer's own (own true), and fingerprints them.
func (p *Parts) AppendStateParts(own bool, m *State, v, lv *pitch.View, lastLog LogJSON) error {
	p.f = p.f[:0]
	r := recorder{p: p, own: own, top: -1, mem: -1}
	b, err := appendStateTo(p.b[:0], m, v, lv, lastLog, &r)
	if err != nil {
		p.b, p.f = p.b[:0], p.f[:0]
		return err
	}
	p.b = b
	for i := range p.f {
		x := &p.f[i]
		if x.obj {
			continue
		}
		val := b[x.start:x.end]
		if x.parent == 0 && len(val) >= 2 && val[0] == '[' { // an array that may grow (Track)
			x.n, x.h = int32(len(val)), maphash.Bytes(hashSeed, val[:len(val)-1])
		} else {
			x.h = hashOf(val)
		}
	}
	return nil
}

// recorder records, while a state is encoded, where its fields are:
// their starts in keys (AppendStateKeys), or each field's path and value
// in p (AppendStateParts), whose encoder then writes only the fields of
// one part (own: the viewer's own, else the shared ones). A nil
// recorder records nothing.
type recorder struct {
	keys     *Keys
	p        *Parts
	own      bool
	parent   uint8 // the split field whose members are being written
	top, mem int   // the records still open (their ends unknown), -1: none
	err      bool  // a field the tracker does not know
	last     uint8 // the id of the last key recorded
}

// want reports whether the part being written has the top-level field
// starting at pos, own if it is the viewer's own (its key then written
// by key); it ends the records open.
func (r *recorder) want(pos int, own bool) bool { return r == nil || r.wantRec(pos, own, false) }

// wantMember is want for a member of the split field being written (its
// key then written by member).
func (r *recorder) wantMember(pos int, own bool) bool { return r == nil || r.wantRec(pos, own, true) }

// wantRec is want (or wantMember, member true) with r not nil.
func (r *recorder) wantRec(pos int, own, member bool) bool {
	if r.p == nil {
		return true
	}
	if member {
		r.endObj(pos)
	} else {
		r.close(pos)
		r.parent = 0
	}
	return own == r.own
}

// key appends s, the start of a top-level field (its ',' or '{' and its
// quoted key, ':' and perhaps its value's start), and records it.
func (r *recorder) key(b []byte, s string) []byte {
	if r != nil {
		r.keyRec(b, s, false)
	}
	return append(b, s...)
}

// member is key for a member of the split field being written.
func (r *recorder) member(b []byte, s string) []byte {
	if r != nil {
		r.keyRec(b, s, true)
	}
	return append(b, s...)
}

// keyRec records the key s starting at len(b), r not nil.
func (r *recorder) keyRec(b []byte, s string, member bool) {
	switch {
	case r.keys != nil && member:
		*r.keys = append(*r.keys, int32(len(b))|Member)
	case r.keys != nil:
		*r.keys = append(*r.keys, int32(len(b)))
	case member:
		r.mem = r.add(b, s, r.parent)
	default:
		r.top = r.add(b, s, 0)
	}
}

// split starts the top-level field whose key is s, an object whose
// members are recorded one by one (splitFields): it is in every part.
func (r *recorder) split(b []byte, s string) []byte {
	switch {
	case r == nil:
	case r.keys != nil:
		*r.keys = append(*r.keys, int32(len(b)))
	default:
		r.close(len(b))
		r.parent = r.id(s)
		if !r.own { // the split fields' presence is every viewer's
			r.top = r.add(b, s, 0)
			r.p.f[r.top].obj = true
		}
	}
	return append(b, s...)
}

// add records the field whose key (after its ',' or '{') is s, its
// value starting after s, and returns its index.
func (r *recorder) add(b []byte, s string, parent uint8) int {
	r.p.f = append(r.p.f, part{parent: parent, key: r.id(s), start: int32(len(b) + len(s)), end: -1})
	return len(r.p.f) - 1
}

// id is the id of the key in s (a field's start: ',' or '{', the quoted
// key, ':' and perhaps the value's start).
func (r *recorder) id(s string) uint8 {
	// The same few dozen starts, written by the encoder from its
	// constants, come at every encoding: remember them.
	c := &r.p.ids[(len(s)*7+int(s[2])*3+int(s[len(s)-2]))&63]
	if c.s == s && c.id != 0 {
		r.last = c.id
		return c.id
	}
	id := r.findID(s)
	if id != 0 {
		*c = keyID{s, id}
	}
	return id
}

// findID is id without its memory.
func (r *recorder) findID(s string) uint8 {
	name := s[2:]
	name = name[:strings.IndexByte(name, '"')]
	// The ids are numbered in the order of the fields, the order they
	// are written in: try the few after the last (a part skips some).
	for g := int(r.last) + 1; g < len(keyNames) && g <= int(r.last)+8; g++ {
		if keyNames[g] == name {
			r.last = uint8(g)
			return r.last
		}
	}
	id := keyIDs[name]
	if id == 0 {
		r.err = true
	}
	r.last = id
	return id
}

// endObj ends the member open at pos: the split field's end, or the
// next member's start.
func (r *recorder) endObj(pos int) {
	if r != nil && r.p != nil && r.mem >= 0 {
		r.p.f[r.mem].end = int32(pos)
		r.mem = -1
	}
}

// close ends the records open at pos.
func (r *recorder) close(pos int) {
	if r == nil || r.p == nil {
		return
	}
	r.endObj(pos)
	if r.top >= 0 {
		r.p.f[r.top].end = int32(pos)
		r.top = -1
	}
}

// sharedPart reports whether the fields every viewer shares are
// written.
func (r *recorder) sharedPart() bool { return r == nil || r.p == nil || !r.own }

// ofParts is r when it records Parts, else nil: the members of the
// last hand's summary are recorded only there.
func (r *recorder) ofParts() *recorder {
	if r != nil && r.p != nil {
		return r
	}
	return nil
}

// scanMembers records, when r records the shared Parts, the members of
// the split field being written, whose object starts at b[start].
func (r *recorder) scanMembers(b []byte, start int) {
	if r == nil || r.p == nil || r.own {
		return
	}
	obj := b[start:]
	err := members(obj, func(k, v []byte) error {
		id := keyIDs[string(k)]
		if id == 0 {
			return ErrUntracked
		}
		off := start + cap(obj) - cap(v)
		r.p.f = append(r.p.f, part{parent: r.parent, key: id, start: int32(off), end: int32(off + len(v))})
		return nil
	})
	if err != nil {
		r.err = true
	}
}

// memberParts is the members of the object obj as scanMembers records
// them, from obj's start, to be recorded again by addMembers; nil when
// one is not a field the tracker knows.
func memberParts(obj []byte) []part {
	r := recorder{p: &Parts{}, top: -1, mem: -1}
	if r.scanMembers(obj, 0); r.err {
		return nil
	}
	return r.p.f
}

// addMembers records, when r records the shared Parts, the members ps
// (memberParts) of the split field being written, whose object starts
// at start: what scanMembers would record, without scanning.
func (r *recorder) addMembers(ps []part, start int) {
	if r == nil || r.p == nil || r.own {
		return
	}
	for _, x := range ps {
		x.parent, x.start, x.end = r.parent, x.start+int32(start), x.end+int32(start)
		r.p.f = append(r.p.f, x)
	}
}

// failed reports whether r met a field it does not know.
func (r *recorder) failed() bool { return r != nil && r.err }

// rank orders the paths as a state's encoding does: a top-level field by
// its place in State, a member after its field, by its place in its
// field's type.
var rank = func() (out [len(splitFields) + 1][256]uint16) {
	place := func(v any) map[string]int {
		m := map[string]int{}
		ty := reflect.TypeOf(v)
		for i := range ty.NumField() {
			name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
			if name != "" && name != "-" {
				m[name] = i + 1
			}
		}
		return m
	}
	top := place(State{})
	for name, i := range top {
		out[0][keyIDs[name]] = uint16(i) << 8
	}
	for s, v := range []any{View{}, HandSummary{}, Fair{}} {
		for name, i := range place(v) {
			out[s+1][keyIDs[name]] = uint16(i)
		}
	}
	return out
}()

// order is where the path parent.key goes among a state's fields.
func order(parent, key uint8) uint16 {
	if parent == 0 {
		return rank[0][key]
	}
	return rank[0][parent] | rank[slot[parent]][key]
}

// Shared is the fields every viewer shares at one broadcast (Parts
// encoded once), fingerprinted once: the trackers of the broadcast's
// viewers compare them with what they sent, and keep their fingerprints
// (a reference, the same for every tracker, not a copy). The changes
// from what most trackers sent (the last broadcast's Shared) are found
// once, for all of them.
type Shared struct {
	parts *Parts
	fp    []fingerprint // never changed once made: trackers keep it
	vals  [][]byte      // each fingerprint's value, in parts (nil: an object)
	// The changes from fingerprints from (a tracker's), found once.
	from    []fingerprint
	changes []change
	sc      scope
	cached  bool
}

// Reset makes s the fields of p, the fields every viewer shares
// (AppendStateParts, own false), for TrackParts; p must not change while
// s is in use. last is what the viewers were sent at the broadcast
// before (Fingerprints): when p's fingerprints are the same, s keeps
// last's, and a tracker that sent them finds nothing changed at once.
func (s *Shared) Reset(p *Parts, last Fingerprints) {
	s.parts, s.from, s.changes, s.cached = p, nil, s.changes[:0], false
	s.vals = s.vals[:0]
	fresh := len(last.f) != len(p.f)
	for i, x := range p.f {
		if !fresh {
			o := last.f[i]
			fresh = o.parent != x.parent || o.key != x.key || o.obj != x.obj || o.n != x.n || o.h != x.h
		}
		var v []byte
		if !x.obj {
			v = p.b[x.start:x.end]
		}
		s.vals = append(s.vals, v)
	}
	if !fresh {
		s.fp = last.f
		return
	}
	s.fp = make([]fingerprint, len(p.f)) // new: the trackers keep it, never changed
	for i, x := range p.f {
		s.fp[i] = fingerprint{parent: x.parent, key: x.key, obj: x.obj, n: x.n, h: x.h}
	}
}

// Fingerprints are the shared fields' fingerprints of a broadcast
// (Shared.Fingerprints), for the next (Reset).
type Fingerprints struct{ f []fingerprint }

// Fingerprints are s's fingerprints.
func (s *Shared) Fingerprints() Fingerprints { return Fingerprints{s.fp} }

// same reports whether a and b are the same fingerprints (the same
// Shared's).
func same(a, b []fingerprint) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// TrackParts is Track for the state made of sh, the fields every viewer
// shares, and own, the viewer's (AppendStateParts, own true): it records
// the state as sent and appends to dst the delta from the version sent
// last (changed false, dst as it is, when nothing changed).
func (t *Tracker) TrackParts(dst []byte, sh *Shared, own *Parts) (out []byte, changed bool) {
	var vbuf [32][]byte
	next := t.ownSpare[:0]
	vals := vbuf[:0]
	for _, x := range own.f {
		next = append(next, fingerprint{parent: x.parent, key: x.key, n: x.n, h: x.h})
		vals = append(vals, own.b[x.start:x.end])
	}
	var buf [64]change
	changes := buf[:0]
	if t.haveSent {
		var sc scope
		if sh.cached && same(sh.from, t.shared) {
			changes, sc = append(changes, sh.changes...), sh.sc
		} else {
			sc = scopeOf(t.shared, sh.fp)
			changes = diffIn(changes, t.shared, sh.fp, sh.vals, &sc)
			if !sh.cached {
				sh.from, sh.changes, sh.sc, sh.cached = t.shared, append(sh.changes[:0], changes...), sc, true
			}
		}
		changes = diffIn(changes, t.own, next, vals, &sc)
	}
	t.shared = sh.fp
	t.own, t.ownSpare = next, t.own
	return t.version(dst, changes)
}

// fingerprintSize is the bytes of one fingerprint.
var fingerprintSize = int(reflect.TypeFor[fingerprint]().Size())

// Bytes is about what t holds in memory: itself and its fingerprints,
// but for the shared fields' (Fingerprints.Bytes), which every tracker
// that sent them holds together.
func (t *Tracker) Bytes() int {
	return int(reflect.TypeFor[Tracker]().Size()) + fingerprintSize*(cap(t.sent)+cap(t.next)+cap(t.own)+cap(t.ownSpare))
}

// Bytes is what f holds in memory, once for all the trackers that hold
// it.
func (f Fingerprints) Bytes() int { return fingerprintSize * cap(f.f) }
