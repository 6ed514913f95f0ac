//go:build !linux

package play

// canPeek says peekReady can tell whether a socket has bytes to read:
// not here, so a connection has a reader goroutine of its own.
const canPeek = false

// peekReady is not used where canPeek is false.
func (r *wsReader) peekReady(uintptr) bool { return true }
