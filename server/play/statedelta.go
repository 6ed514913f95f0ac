package play

import (
	"fmt"

	"pitch"
	"pitch/server/wire"
)

// Protocol 2 (docs/protocol.md, "Protocol 2: deltas"): a connection
// whose hello says "protocol":2 is sent its seat's whole state, with a
// version, when it connects or asks, and otherwise only what changed
// since the version it holds. The table keeps, per seat (and one for the
// spectators), a wire.Tracker: the version last sent and a hash of each
// field, not the bytes. A connection records the version it was last
// queued (dver, for the seat dseat-1); one that is not at the version
// the delta starts from gets the whole state instead, and so does one
// that has not written the last message queued for it yet (it is
// behind: a whole state replaces what waits, as protocol 1's states
// replace each other).

// seatDelta is what a broadcast sends one seat's protocol-2 connections:
// the delta from version base to ver (nil when nothing changed, or
// when there is no delta to send: everyone gets the whole state), and
// the whole state with its version, made when first needed.
type seatDelta struct {
	base, ver uint64
	changed   bool
	delta     *stateBuf
	state     *stateBuf // the seat's encoded state (protocol 1's bytes)
	full      *stateBuf
}

// protocolError is the close reason for a hello with a protocol this
// server does not speak, or "" for one it speaks.
func protocolError(p int) string {
	if p == 0 || p == 1 || p == wire.ProtocolDeltas {
		return ""
	}
	return fmt.Sprintf("this page speaks protocol %d, which this server does not (it speaks 1 and 2): reload the page", p)
}

// track records sb, seat's state just encoded, in the seat's tracker
// and returns what its protocol-2 connections are sent. The lock must
// be held.
func (t *table) track(seat int, sb *stateBuf) *seatDelta {
	tr := t.trackers[seat+1]
	if tr == nil {
		tr = new(wire.Tracker)
		t.trackers[seat+1] = tr
	}
	d := &seatDelta{base: tr.Version(), state: sb}
	db := newStateBuf()
	out, changed, err := tr.Track(db.b[:0], sb.b, sb.keys)
	if err != nil {
		t.logger().Error("a state could not be tracked for protocol 2; whole states are sent", "seat", seat, "err", err.Error())
	}
	d.ver, d.changed = tr.Version(), changed || err != nil
	if changed && len(out) > 0 {
		db.b = out
		d.delta = db
	} else {
		db.release()
	}
	return d
}

// wholeState is d's whole state with its version, made once.
func (d *seatDelta) wholeState() *stateBuf {
	if d.full == nil {
		d.full = newStateBuf()
		d.full.b = wire.AppendVersioned(d.full.b[:0], d.state.b, d.ver)
	}
	return d.full
}

// release drops the broadcast's hold of d's buffers.
func (d *seatDelta) release() {
	if d != nil {
		d.delta.release()
		d.full.release()
	}
}

// sendDelta queues for c, a protocol-2 connection, what d says: nothing
// when c holds the newest version already, the delta when c holds its
// base, else the whole state. The table's lock must be held.
func (c *conn) sendDelta(d *seatDelta) {
	atBase := c.dseat == c.seat+1 && c.dver == d.base && d.base != 0
	switch {
	case atBase && !d.changed:
		return
	case atBase && d.delta != nil:
		c.queueVersioned(d.delta, d)
	default:
		c.queueVersioned(nil, d)
	}
	c.dseat, c.dver = c.seat+1, d.ver
}

// queueVersioned queues delta (nil: d's whole state) for c. When a state
// or delta queued before is still unwritten, the client is behind: they
// are dropped for the whole state.
func (c *conn) queueVersioned(delta *stateBuf, d *seatDelta) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ending {
		return
	}
	kept, behind := c.queue[:0], false
	for _, q := range c.queue {
		if q.state {
			q.buf.release() // stale, never to be written
			behind = true
			continue
		}
		kept = append(kept, q)
	}
	sb := delta
	if sb == nil || behind {
		sb = d.wholeState()
	}
	sb.hold()
	c.queue = append(kept, outMsg{data: sb.b, state: true, buf: sb})
	c.kick()
}

// resend sends c its whole state again (a hello after the first, or a
// protocol-2 resync): to a protocol-2 connection with a new version,
// which its seat's other protocol-2 connections get as a delta. The lock
// must be held.
func (t *table) resend(c *conn) {
	if c.proto < wire.ProtocolDeltas {
		c.sendState(t.stateFor(c.seat))
		return
	}
	c.dver = 0
	t.sendStates(c)
}

// trackers are a table's protocol-2 trackers, per seat + 1 (0: the
// spectators), made when first needed.
type trackers [pitch.MaxSeats + 1]*wire.Tracker
