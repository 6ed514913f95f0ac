package play

import (
	"sync"
	"syscall"
)

// The poller: one goroutine waits, in epoll_wait, for every connection's
// client to send something, in place of a goroutine a connection, each
// with its stack (2 KiB at least, 4–8 KiB once it had read a message) and
// its runtime record. When a client has sent something, its connection
// is read and handled on a worker (runOnWorker, readReady), which then
// asks the poller to watch it again. A socket is watched with
// EPOLLONESHOT: the poller reports it once, and not again until it is
// rearmed, so one worker at a time reads a connection, in order. Its
// file descriptor stays in Go's own poller too (the connection reads and
// writes it as ever); each system call on it goes through
// syscall.RawConn.Control, which holds the descriptor open meanwhile, so
// a descriptor closed and reused by another socket is never touched.
// The kernel drops a closed socket from the poller by itself.
//
// A connection's state with the poller (inbox.poll):
const (
	pollBusy  = iota // a worker reads it (or it is being watched first)
	pollArmed        // watched: the poller hands it to a worker when its client sends
	pollDone         // it has ended: after has run, or is running
)

// poller is the process's epoll instance and the connections it watches,
// by key (inbox.id; the key is the event's data, not the descriptor,
// which may be reused once closed). The event's data holds the key and
// the arming's number (inbox.gen): an event is acted on only for the
// connection's current arming, so that one worker at a time reads it.
var poller struct {
	once  sync.Once
	fd    int // -1: none could be made; connections have readers of their own
	mu    sync.Mutex
	conns map[uint32]*conn
	next  uint32
}

// pollEvent is what the poller is told of a connection: what to watch
// it for and its key.
type pollEvent = syscall.EpollEvent

// pollEvents is what a connection is watched for: bytes to read, the
// client's end of the socket closed, with one report until rearmed.
const pollEvents = syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLONESHOT

// startPoller makes the epoll instance and starts its goroutine, once.
func startPoller() {
	poller.fd = -1
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return
	}
	poller.fd = fd
	poller.conns = map[uint32]*conn{}
	go pollLoop(fd)
}

// pollLoop waits for the watched sockets and hands each that is ready
// to a worker.
func pollLoop(fd int) {
	var evs [128]syscall.EpollEvent
	for {
		n, err := syscall.EpollWait(fd, evs[:], -1)
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			// Not expected of a valid epoll descriptor. The watched
			// connections would wait for ever: end them (their clients
			// reconnect), and watch no more.
			poller.mu.Lock()
			all := poller.conns
			poller.conns, poller.fd = nil, -1
			poller.mu.Unlock()
			for _, c := range all {
				c.closeWith(statusTryLater, "the server cannot watch connections just now: reconnect", false)
			}
			return
		}
		for _, ev := range evs[:n] {
			poller.mu.Lock()
			c := poller.conns[uint32(ev.Fd)]
			poller.mu.Unlock()
			// An event of an earlier arming (the first, reported while the
			// connection was busy, and handled late) is let go.
			if c != nil && uint32(ev.Pad) == c.in.gen.Load() && c.in.poll.CompareAndSwap(pollArmed, pollBusy) {
				runOnWorker(c.in.read)
			}
		}
	}
}

// watch has the poller watch c, once its hello has been handled
// (readOn); false when it cannot (no poller, or no descriptor to watch):
// c then needs a reader of its own. What the client has sent already is
// read at once, on a worker.
func (c *conn) watch() bool {
	poller.once.Do(startPoller)
	if c.rd == nil || c.rd.rc == nil {
		return false
	}
	poller.mu.Lock()
	if poller.fd < 0 {
		poller.mu.Unlock()
		return false
	}
	epfd := poller.fd
	for {
		poller.next++
		if _, used := poller.conns[poller.next]; !used && poller.next != 0 {
			break
		}
	}
	in := c.in
	in.id = poller.next
	poller.conns[in.id] = c
	poller.mu.Unlock()
	in.poll.Store(pollBusy)
	in.read = c.readReady
	in.ev = syscall.EpollEvent{Events: pollEvents, Fd: int32(in.id)}
	op := syscall.EPOLL_CTL_ADD // then MOD, to rearm
	in.ctl = func(fd uintptr) {
		if syscall.EpollCtl(epfd, op, int(fd), &in.ev) != nil {
			in.ctlFailed.Store(true)
		}
	}
	err := c.rd.rc.Control(in.ctl)
	op = syscall.EPOLL_CTL_MOD
	if err != nil || in.ctlFailed.Load() {
		poller.mu.Lock()
		delete(poller.conns, c.in.id)
		poller.mu.Unlock()
		return false
	}
	// Reported while busy, an event is let go (the poller hands over only
	// an armed connection); rearm has the poller look again.
	runOnWorker(in.read)
	return true
}

// readReady reads and handles what c's client has sent, on a worker,
// frame by frame (a frame not all here yet is waited for), until none is
// left in c's buffer, and has the poller watch c again; or, once c has
// ended, runs its after.
func (c *conn) readReady() {
	for c.rd.readable() {
		if !c.readOne(nil) {
			go c.readEnded() // its after waits for the close: not on a worker
			return
		}
		if !c.rd.buffered() {
			break
		}
	}
	c.rearm()
}

// rearm has the poller report c again when its client sends: at once if
// it has sent something meanwhile. When c's socket is closed already,
// c has ended.
func (c *conn) rearm() {
	c.in.ev.Pad = int32(c.in.gen.Add(1))
	c.in.poll.Store(pollArmed)
	err := c.rd.rc.Control(c.in.ctl)
	if (err != nil || c.in.ctlFailed.Load()) && c.in.poll.CompareAndSwap(pollArmed, pollDone) {
		c.readEnded()
	}
}

// unwatch is told that c's socket is closed (end): a socket closed
// while watched is never reported, so its after runs here; one a worker
// reads ends there.
func (c *conn) unwatch() {
	c.mu.Lock()
	in := c.in // nil while the hello is read: readOn's watch then finds the socket closed
	c.mu.Unlock()
	if in != nil && in.poll.CompareAndSwap(pollArmed, pollDone) {
		go c.readEnded()
	}
}

// readEnded forgets c, whose reading has ended, and runs its after.
func (c *conn) readEnded() {
	c.in.poll.Store(pollDone)
	poller.mu.Lock()
	delete(poller.conns, c.in.id)
	poller.mu.Unlock()
	c.in.after()
}
