package loadtest

import (
	"bytes"
	"encoding/json"

	"pitch/server/wire"
)

// A seat's client speaks protocol 2 (docs/protocol.md, "Protocol 2:
// deltas") unless Config.Protocol1: after the whole state, the server
// sends what changed, which the client applies to the state it holds
// through wire.Held, the reducer the tests check against the page's.
// The state held is then read as a whole state is (decodeState).

// heldState is what a protocol-2 connection holds, and the buffer its
// state is written into to be read.
type heldState struct {
	wire.Held
	buf []byte
}

// hello is a seat's hello, with the protocol the run speaks.
func (r *run) hello(token string) []byte {
	m := map[string]any{"type": "hello", "token": token}
	if !r.cfg.Protocol1 {
		m["protocol"] = wire.ProtocolDeltas
		m["ops"] = wire.DeltaOps
	}
	b, _ := json.Marshal(m)
	return b
}

// deltaPrefix starts every delta message, as the server writes it.
var deltaPrefix = []byte(`{"type":"delta",`)

// decodeMsg fills st from the server message data, counting the states'
// and deltas' bytes: a delta is applied to what h holds first, and st is
// then the state held. resync is true when the delta is from a version
// h does not hold: the client asks for the whole state, and st is unset.
func (r *run) decodeMsg(h *heldState, data []byte, st *state) (resync bool, err error) {
	if bytes.HasPrefix(data, deltaPrefix) {
		r.stateBytes.Add(int64(len(data)))
		r.stateMsgs.Add(1)
		if err := h.Apply(data); err != nil {
			return true, nil // out of step (wire.ErrOutOfStep), or dropped: the whole state again
		}
		h.buf = h.JSON(h.buf[:0])
		return false, decodeState(h.buf, st)
	}
	if err := decodeState(data, st); err != nil {
		return false, err
	}
	if st.Type == "state" {
		r.stateBytes.Add(int64(len(data)))
		r.stateMsgs.Add(1)
		if !r.cfg.Protocol1 {
			if err := h.Reset(data); err != nil {
				return false, err
			}
		}
	}
	return false, nil
}
