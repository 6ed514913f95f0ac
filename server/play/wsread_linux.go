package play

import "syscall"

// canPeek says peekReady can tell whether a socket has bytes to read.
const canPeek = true

// peekReady reports whether the socket fd has a byte to read, is at its
// end, or failed (the WebSocket's read then finds out which): false
// only when a read would wait.
func (w *readWait) peekReady(fd uintptr) bool {
	for {
		_, _, err := syscall.Recvfrom(int(fd), w.peek[:1], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch err {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		return true
	}
}

// takePong is readable on the socket fd: it peeks at the socket's first
// bytes, and when they are a whole pong frame (FIN and opcode 0xA,
// masked, a payload of at most pongMax-6 bytes) takes them and puts
// them before the socket's, with an empty message after them.
func (w *readWait) takePong(fd uintptr) (more bool) {
	for {
		n, _, err := syscall.Recvfrom(int(fd), w.peek[:pongMax], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return false
		case err != nil || n == 0: // failed, or the client is gone
			return true
		}
		b := w.peek[:n]
		if len(b) < 2 || b[0] != 0x8A || b[1]&0x80 == 0 {
			return true
		}
		size := 6 + int(b[1]&0x7F)
		if size > len(b) {
			return true // longer, or not all here yet: the WebSocket's read takes it
		}
		for {
			if n, _, err = syscall.Recvfrom(int(fd), w.peek[:size], syscall.MSG_DONTWAIT); err != syscall.EINTR {
				break
			}
		}
		if err == nil && n == size {
			copy(w.peek[size:], emptyFrame[:])
			w.src.pre = w.peek[:size+len(emptyFrame)]
			w.posed++
		}
		return true
	}
}
