//go:build !linux

package play

// canPeek says peekReady can tell whether a socket has bytes to read:
// not here, so a connection waits in the WebSocket's own read.
const canPeek = false

// peekReady is not used where canPeek is false.
func (w *readWait) peekReady(uintptr) bool { return true }

// takePong is not used where canPeek is false.
func (w *readWait) takePong(uintptr) bool { return true }
