package play

import (
	"fmt"
	"sync"

	"pitch"
	"pitch/server/wire"
)

// Protocol 2 (docs/protocol.md, "Protocol 2: deltas"): a connection
// whose hello says "protocol":2 is sent its seat's whole state, with a
// version, when it connects or asks, and otherwise only what changed
// since the version it holds. The table keeps, per seat (and one for the
// spectators), a wire.Tracker: the version last sent and a hash of each
// of the seat's own fields, not the bytes; the hashes of the fields every
// seat shares are made once a broadcast and held once (lastShared), by
// the table and the trackers that sent them. A broadcast encodes no
// whole state unless a connection needs one (protocol 1, a connection's
// first, one behind). A connection records the version it was last
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
	newOps    bool // the delta has a copy or a push (wire.DeltaOps)
	delta     *stateBuf
	full      *stateBuf
	bc        *bcast // the broadcast, which encodes the seat's whole state
	seat      int
}

// bcast is one broadcast's states (sendStates), each made when first
// needed and once: every seat's whole state (protocol 1's bytes, and a
// protocol-2 connection's first), the fields every viewer shares
// (encoded once for all the seats' deltas), and each seat's delta.
type bcast struct {
	t      *table
	sh     *stateShared
	enc    [pitch.MaxSeats + 1]*stateBuf
	deltas [pitch.MaxSeats + 1]seatDelta // made: bc set
	shared *wire.Parts                   // nil until made
	fp     *wire.Shared                  // shared, fingerprinted
	own    *wire.Parts                   // a seat's own fields, one seat after another
	err    bool                          // the shared fields could not be encoded
}

// partsPool holds the buffers broadcasts encode the fields of states in.
var partsPool = sync.Pool{New: func() any { return new(wire.Parts) }}

// sharedPool holds the fingerprints of the shared fields of broadcasts.
var sharedPool = sync.Pool{New: func() any { return new(wire.Shared) }}

// state is seat's whole state, encoded once (nil when it cannot be: the
// error is logged).
func (bc *bcast) state(seat int) *stateBuf {
	if sb := bc.enc[seat+1]; sb != nil {
		return sb
	}
	sb := newStateBuf()
	b, err := bc.t.appendStateJSON(sb.b[:0], bc.sh, seat)
	if err != nil {
		sb.release()
		bc.t.logger().Error("a state could not be encoded", "seat", seat, "err", err.Error())
		return nil
	}
	sb.b = b
	bc.enc[seat+1] = sb
	return sb
}

// parts encodes the fields every viewer shares, once, and seat's own,
// for its tracker; false when they cannot be encoded (logged).
func (bc *bcast) parts(seat int) bool {
	t, sh := bc.t, bc.sh
	if bc.shared == nil && !bc.err {
		bc.shared = partsPool.Get().(*wire.Parts)
		m, _ := t.stateBase(sh, -1)
		v := sh.view(-1)
		if err := bc.shared.AppendStateParts(false, &m, &v, nil, wire.LogJSON{}); err != nil {
			bc.err = true
			t.logger().Error("a state's shared fields could not be encoded; whole states are sent", "err", err.Error())
		} else {
			bc.fp = sharedPool.Get().(*wire.Shared)
			bc.fp.Reset(bc.shared, t.lastShared)
			t.lastShared = bc.fp.Fingerprints()
		}
	}
	if bc.err {
		return false
	}
	if bc.own == nil {
		bc.own = partsPool.Get().(*wire.Parts)
	}
	m, v, lvp, lastLog := t.stateViews(sh, seat)
	if err := bc.own.AppendStateParts(true, &m, &v, lvp, lastLog); err != nil {
		t.logger().Error("a state could not be encoded; whole states are sent", "seat", seat, "err", err.Error())
		return false
	}
	return true
}

// bcastPool holds broadcasts' states (sendStates), made anew each time.
var bcastPool = sync.Pool{New: func() any { return new(bcast) }}

// release drops the broadcast's hold of its buffers and puts bc back in
// bcastPool.
func (bc *bcast) release() {
	defer func() {
		*bc = bcast{}
		bcastPool.Put(bc)
	}()
	for i, sb := range bc.enc {
		if bc.deltas[i].bc != nil {
			bc.deltas[i].release()
		}
		sb.release()
	}
	if bc.fp != nil {
		sharedPool.Put(bc.fp)
	}
	for _, p := range []*wire.Parts{bc.shared, bc.own} {
		if p != nil && p.Len() <= 64<<10 {
			partsPool.Put(p)
		}
	}
}

// protocolError is the close reason for a hello with a protocol this
// server does not speak, or "" for one it speaks.
func protocolError(p int) string {
	if p == 0 || p == 1 || p == wire.ProtocolDeltas {
		return ""
	}
	return fmt.Sprintf("this page speaks protocol %d, which this server does not (it speaks 1 and 2): reload the page", p)
}

// track records seat's state now in the seat's tracker and returns
// what its protocol-2 connections are sent (once a broadcast): the fields every viewer
// shares are encoded once a broadcast (bc), the seat's own for it. The
// lock must be held.
func (t *table) track(bc *bcast, seat int) *seatDelta {
	d := &bc.deltas[seat+1]
	if d.bc != nil {
		return d // made already
	}
	tr := t.trackers[seat+1]
	if tr == nil {
		tr = new(wire.Tracker)
		t.trackers[seat+1] = tr
	}
	*d = seatDelta{base: tr.Version(), bc: bc, seat: seat}
	if !bc.parts(seat) {
		*tr = wire.Tracker{} // every connection of the seat gets the whole state
		d.ver, d.changed = tr.Version(), true
		return d
	}
	db := newStateBuf()
	out, changed := tr.TrackParts(db.b[:0], bc.fp, bc.own)
	d.ver, d.changed, d.newOps = tr.Version(), changed, tr.NewOps()
	if changed && len(out) > 0 {
		db.b = out
		d.delta = db
	} else {
		db.release()
	}
	return d
}

// wholeState is d's whole state with its version, made once (nil when
// the state cannot be encoded).
func (d *seatDelta) wholeState() *stateBuf {
	if d.full == nil {
		sb := d.bc.state(d.seat)
		if sb == nil {
			return nil
		}
		d.full = newStateBuf()
		d.full.b = wire.AppendVersioned(d.full.b[:0], sb.b, d.ver)
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
// base (and applies its ops: an earlier page may not), else the whole
// state. The table's lock must be held.
func (c *conn) sendDelta(d *seatDelta) {
	atBase := c.dseat == c.seat+1 && c.dver == d.base && d.base != 0
	var delta *stateBuf
	switch {
	case atBase && !d.changed:
		return
	case atBase && d.delta != nil && (c.ops || !d.newOps):
		delta = d.delta
	}
	c.dseat, c.dver = c.seat+1, d.ver
	if !c.queueVersioned(delta, d) {
		c.dver = 0 // nothing could be sent: the next state goes whole
	}
}

// queueVersioned queues delta (nil: d's whole state) for c. When a state
// or delta queued before is still unwritten, the client is behind: they
// are dropped for the whole state. It is false when the whole state
// could not be encoded.
func (c *conn) queueVersioned(delta *stateBuf, d *seatDelta) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ending {
		return true
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
		if sb = d.wholeState(); sb == nil {
			return false
		}
	}
	sb.hold()
	c.queue = append(kept, outMsg{data: sb.b, state: true, buf: sb})
	c.kick()
	return true
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
