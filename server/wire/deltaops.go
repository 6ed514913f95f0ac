package wire

import (
	"hash/maphash"
	"strconv"
)

// A member of a split field (view, last_hand, fair) that changed is set
// whole unless the client can make it from what it holds, which saves
// most of its bytes (docs/protocol.md, "Protocol 2: deltas"):
//
//   - copy: an array that is one the client holds with entries appended
//     (a top-level array: "last_hand.log" at a hand's end is the hand's
//     "log" and the last action; or a member with one entry more:
//     "view.last_trick" is the trick and its last card):
//     {"copy":{PATH:SRC}} and the entries appended as an add;
//   - add: an array with one entry appended ("view.trick" as a card is
//     played);
//   - push: an object whose arrays (up to pushArrays of them) each have
//     at most one entry more, anywhere, and are otherwise the same
//     ("fair.next" as a seat contributes: its "contributed" and "hashes",
//     in seat order): {"push":{PATH:{MEMBER:[AT,ENTRY],…}}}, ENTRY
//     inserted at index AT.
//
// The tracker keeps hashes, not bytes: it tells each case by rebuilding
// from the new value what the old one would have been and comparing its
// hash with the one it kept.

// pushArrays is how many array members of an object push looks at.
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

// arrayMember is one array member of an object: where its value starts
// and ends, and where each of its elements starts and ends.
type arrayMember struct {
	key        []byte
	start, end int
	elems      [][2]int
}

// maxPushTries bounds the candidates pushed tries: each array member
// without one of its elements, or whole, every combination but all
// whole.
const maxPushTries = 64

// pushed is the push that makes obj from the object whose hash is h,
// when there is one: an entry inserted into each of some of its array
// members, as {MEMBER: [AT, ENTRY], …}.
func pushed(obj []byte, h uint64) ([]byte, bool) {
	var abuf [pushArrays]arrayMember
	arrays := abuf[:0]
	tooMany := false
	err := members(obj, func(k, val []byte) error {
		if len(val) < 3 || val[0] != '[' {
			return nil
		}
		if len(arrays) == pushArrays {
			tooMany = true
			return nil
		}
		start := cap(obj) - cap(val)
		a := arrayMember{key: k, start: start, end: start + len(val)}
		err := elements(val, func(e []byte) error {
			es := cap(obj) - cap(e)
			a.elems = append(a.elems, [2]int{es, es + len(e)})
			return nil
		})
		if err == nil && len(a.elems) > 0 {
			arrays = append(arrays, a)
		}
		return nil
	})
	if err != nil || tooMany || len(arrays) == 0 {
		return nil, false
	}
	// A candidate is, for each array, the element left out (its index)
	// or none (-1): counted in mixed radix, len(elems)+1 each.
	tries := 1
	for _, a := range arrays {
		tries *= len(a.elems) + 1
		if tries > maxPushTries+1 {
			return nil, false
		}
	}
	var out [pushArrays]int
	var buf [512]byte
	for n := 1; n < tries; n++ {
		r := n
		for i, a := range arrays {
			out[i] = r%(len(a.elems)+1) - 1
			r /= len(a.elems) + 1
		}
		cand := buf[:0]
		at := 0
		for i, a := range arrays {
			if out[i] < 0 {
				continue
			}
			cand = append(cand, obj[at:a.start]...)
			cand = withoutElement(cand, obj, a, out[i])
			at = a.end
		}
		cand = append(cand, obj[at:]...)
		if hashOf(cand) != h {
			continue
		}
		val := []byte{'{'}
		for i, a := range arrays {
			if out[i] < 0 {
				continue
			}
			if len(val) > 1 {
				val = append(val, ',')
			}
			val = append(val, '"')
			val = append(val, a.key...)
			val = append(val, '"', ':', '[')
			val = strconv.AppendInt(val, int64(out[i]), 10)
			val = append(val, ',')
			e := a.elems[out[i]]
			val = append(val, obj[e[0]:e[1]]...)
			val = append(val, ']')
		}
		return append(val, '}'), true
	}
	return nil, false
}

// withoutElement appends to dst the array a of obj without its element k.
func withoutElement(dst, obj []byte, a arrayMember, k int) []byte {
	dst = append(dst, '[')
	for i, e := range a.elems {
		if i == k {
			continue
		}
		if len(dst) > 0 && dst[len(dst)-1] != '[' {
			dst = append(dst, ',')
		}
		dst = append(dst, obj[e[0]:e[1]]...)
	}
	return append(dst, ']')
}
