package wire

import (
	"hash/maphash"
)

// A member of a split field (view, last_hand, fair) that changed is set
// whole unless the client can make it from what it holds, which saves
// most of its bytes (docs/protocol.md, "Protocol 2: deltas"):
//
//   - copy: an array that is a top-level array the client holds with
//     entries appended ("last_hand.log" at a hand's end is the hand's
//     "log" and the last action): {"copy":{PATH:SRC}} and the entries
//     appended as an add;
//   - add: an array with one entry appended ("view.trick" as a card is
//     played);
//   - push: an object whose arrays (up to pushArrays of them) each have
//     at most one entry appended and are otherwise the same ("fair.next"
//     as a seat contributes: its "contributed" and "hashes"):
//     {"push":{PATH:{MEMBER:[ENTRY],…}}}.
//
// The tracker keeps hashes, not bytes: it tells each case by rebuilding
// from the new value what the old one would have been and comparing its
// hash with the one it kept.

// pushArrays is how many array members of an object push looks at: the
// candidates are every non-empty subset of them, 2^n − 1.
const pushArrays = 3

// memberChange appends the change of a split field's member f, whose new
// value is v: a copy, an add, a push or a set. o is what was sent of it
// (nil: it is new), old every fingerprint sent.
func memberChange(changes []change, f fingerprint, o *fingerprint, v []byte, old []fingerprint) []change {
	set := change{kind: 's', parent: f.parent, key: f.key, val: v}
	if len(v) < 2 {
		return append(changes, set)
	}
	switch v[0] {
	case '[':
		last, ok := lastElement(v)
		var hw uint64 // the hash of v without its last element
		if ok {
			var buf [256]byte
			hw = hashOf(withoutLast(buf[:0], v, last))
			if o != nil && hw == o.h {
				return append(changes, change{kind: 'a', parent: f.parent, key: f.key, val: v[last:]})
			}
		}
		for _, c := range old {
			switch {
			case c.obj || (c.parent == f.parent && c.key == f.key):
			case c.parent == 0 && c.n > 2 && int(c.n) < len(v) && v[c.n-1] == ',' && maphash.Bytes(hashSeed, v[:c.n-1]) == c.h:
				// A top-level array (a fingerprint of its bytes but
				// for the bracket) that v begins with.
				return append(changes, change{kind: 'c', parent: f.parent, key: f.key, srcParent: c.parent, src: c.key},
					change{kind: 'a', parent: f.parent, key: f.key, val: v[c.n:]})
			case c.parent != 0 && ok && last > 1 && c.h == hw:
				// A member array that v is with one entry added.
				return append(changes, change{kind: 'c', parent: f.parent, key: f.key, srcParent: c.parent, src: c.key},
					change{kind: 'a', parent: f.parent, key: f.key, val: v[last:]})
			}
		}
	case '{':
		if o == nil {
			break
		}
		if val, ok := pushed(v, o.h); ok {
			return append(changes, change{kind: 'p', parent: f.parent, key: f.key, val: val})
		}
	}
	return append(changes, set)
}

// lastElement is where the last element of the JSON array arr starts;
// false when arr is empty or not an array.
func lastElement(arr []byte) (int, bool) {
	start := -1
	err := elements(arr, func(e []byte) error {
		start = cap(arr) - cap(e)
		return nil
	})
	return start, err == nil && start > 0
}

// withoutLast appends to dst the array arr without its last element,
// which starts at last.
func withoutLast(dst, arr []byte, last int) []byte {
	head := arr[:last]
	if head[len(head)-1] == ',' {
		head = head[:len(head)-1]
	}
	dst = append(dst, head...)
	return append(dst, ']')
}

// arrayMember is one array member of an object: where its value starts,
// where its last element starts, and where it ends.
type arrayMember struct {
	key              []byte
	start, last, end int
}

// pushed is the push (an object of each array member's last element, as
// an array) that makes obj from the object whose hash is h, when there
// is one.
func pushed(obj []byte, h uint64) ([]byte, bool) {
	var abuf [pushArrays]arrayMember
	arrays := abuf[:0]
	tooMany := false
	err := members(obj, func(k, val []byte) error {
		if len(val) < 3 || val[0] != '[' {
			return nil
		}
		last, ok := lastElement(val)
		if !ok {
			return nil
		}
		if len(arrays) == pushArrays {
			tooMany = true
			return nil
		}
		start := cap(obj) - cap(val)
		arrays = append(arrays, arrayMember{key: k, start: start, last: start + last, end: start + len(val)})
		return nil
	})
	if err != nil || tooMany || len(arrays) == 0 {
		return nil, false
	}
	var buf [512]byte
	for mask := 1; mask < 1<<len(arrays); mask++ {
		cand := buf[:0]
		at := 0
		for i, a := range arrays {
			if mask&(1<<i) == 0 {
				continue
			}
			cand = append(cand, obj[at:a.start]...)
			cand = withoutLast(cand, obj[a.start:a.end], a.last-a.start)
			at = a.end
		}
		cand = append(cand, obj[at:]...)
		if hashOf(cand) != h {
			continue
		}
		out := []byte{'{'}
		for i, a := range arrays {
			if mask&(1<<i) == 0 {
				continue
			}
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, '"')
			out = append(out, a.key...)
			out = append(out, '"', ':', '[')
			out = append(out, obj[a.last:a.end]...)
		}
		return append(out, '}'), true
	}
	return nil, false
}
