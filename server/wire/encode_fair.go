package wire

import (
	"slices"
	"strconv"
)

// The fair deals' part of a state (Fair), encoded once for every seat.

// Encode encodes f's JSON once, for every seat's state to share: f must
// not change after.
func (f *Fair) Encode() {
	f.EncodeInto(make([]byte, 0, 512))
	f.parts = memberParts(f.raw)
}

// EncodeInto is Encode into buf's array, which f then holds (buf must not
// be written while f is in use), and returns f's JSON.
func (f *Fair) EncodeInto(buf []byte) []byte {
	f.raw, f.parts = nil, nil
	f.raw = appendFair(buf[:0], f)
	return f.raw
}

// Encoded is f's JSON as Encode wrote it, nil before.
func (f *Fair) Encoded() []byte { return f.raw }

// Clone is a copy of f sharing nothing with it, its JSON (if encoded)
// included, and its members found for the trackers (as Encode finds
// them).
func (f *Fair) Clone() *Fair {
	out := &Fair{Dealing: f.Dealing}
	if f.raw != nil {
		out.raw = slices.Clone(f.raw)
		out.parts = memberParts(out.raw)
	}
	if f.Next != nil {
		n := *f.Next
		n.Contributed, n.Hashes = slices.Clone(f.Next.Contributed), slices.Clone(f.Next.Hashes)
		out.Next = &n
	}
	if f.Hand != nil {
		h := *f.Hand
		out.Hand = &h
	}
	if f.Last != nil {
		l := *f.Last
		out.Last = &l
	}
	return out
}

// appendFair appends f's JSON (its raw, when made by Encode).
func appendFair(b []byte, f *Fair) []byte {
	if f.raw != nil {
		return append(b, f.raw...)
	}
	b = append(b, `{"dealing":`...)
	b = strconv.AppendBool(b, f.Dealing)
	if n := f.Next; n != nil {
		b = append(b, `,"next":{"hand":`...)
		b = strconv.AppendInt(b, int64(n.Hand), 10)
		b = append(b, `,"commitment":`...)
		b = appendStr(b, n.Commitment)
		b = append(b, `,"committed_at":`...)
		b = appendStr(b, n.CommittedAt)
		if n.Dealer != NoDealer {
			b = append(b, `,"dealer":`...)
			b = strconv.AppendInt(b, int64(n.Dealer), 10)
		}
		b = append(b, `,"contributed":`...)
		b = appendInts(b, n.Contributed)
		b = append(b, `,"hashes":`...)
		if n.Hashes == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for i, h := range n.Hashes {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"seat":`...)
				b = strconv.AppendInt(b, int64(h.Seat), 10)
				b = append(b, `,"hash":`...)
				b = appendStr(b, h.Hash)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if n.Frozen {
			b = append(b, `,"frozen":true`...)
		}
		if n.Shared {
			b = append(b, `,"shared":true`...)
		}
		b = append(b, '}')
	}
	if h := f.Hand; h != nil {
		b = append(b, `,"hand":{"hand":`...)
		b = strconv.AppendInt(b, int64(h.Hand), 10)
		b = append(b, `,"commitment":`...)
		b = appendStr(b, h.Commitment)
		b = append(b, '}')
	}
	if l := f.Last; l != nil {
		b = append(b, `,"last":{"hand":`...)
		b = strconv.AppendInt(b, int64(l.Hand), 10)
		b = append(b, `,"commitment":`...)
		b = appendStr(b, l.Commitment)
		b = append(b, `,"secret":`...)
		b = appendStr(b, l.Secret)
		b = append(b, '}')
	}
	return append(b, '}')
}
