package play

import "syscall"

// canPeek says peekReady can tell whether a socket has bytes to read.
const canPeek = true

// peekReady reports whether the socket fd has a byte to read, is at its
// end, or failed (the read then finds out which): false only when a read
// would wait.
func (r *wsReader) peekReady(fd uintptr) bool {
	for {
		_, _, err := syscall.Recvfrom(int(fd), r.hdr[:1], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch err {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		return true
	}
}
