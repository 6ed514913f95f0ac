package play

import (
	"slices"
	"sync"
	"time"
)

// A connection's messages are handled on a worker goroutine, not on the
// connection's own reader (handOff). An action's work (checked, stored,
// every connection's state built and encoded) needs a deep stack, 16 KiB
// and more; done on the reader, every reader's stack grew to that at its
// first action and stayed so (the collector halves a stack only when a
// quarter of it is in use, and then the next action grew it again,
// copying it). Thousands of readers each kept a stack the size of the
// deepest action, about 18 KiB a playing connection, and copied it
// again after each collection (docs/performance.md, "Issue 41"). Now the
// readers keep the small stack that reading needs, and the deep stacks
// are those of the few workers that are handling a message at any one
// moment: about as many as messages are handled at once (actions a
// second times how long each takes, a few under steady play), at most
// maxHandlers. Past that (a burst: thousands of clients connecting at
// once), a message is handled on its reader, as before.

const (
	// handlerIdle is how long a worker waits for another message
	// before it ends.
	handlerIdle = 2 * time.Second
	// maxHandlers is how many workers there are at most.
	maxHandlers = 64
)

// handlerJob is one message for a worker: handle(data), then a signal
// on done; or, with run set, run() and no signal (runOnWorker).
type handlerJob struct {
	handle func([]byte)
	data   []byte
	done   chan struct{}
	run    func()
}

// handlerWorker is a worker goroutine: it handles the jobs sent to it.
type handlerWorker struct{ jobs chan handlerJob }

// handlerPool is the workers: those waiting for a message, the one that
// waited least on top, and how many there are. The most recently busy
// is handed the next message, so that in a lull the others wait out
// handlerIdle and end.
var handlerPool struct {
	mu   sync.Mutex
	idle []*handlerWorker
	n    int
}

// handOff runs handle(data) on a worker goroutine and returns once it
// has: a connection's messages are still handled one at a time, in the
// order read. done is the caller's own channel (buffered, of 1), reused
// for each message.
func handOff(handle func([]byte), data []byte, done chan struct{}) {
	w := takeWorker()
	if w == nil {
		handle(data) // a burst: on the reader's own stack
		return
	}
	w.jobs <- handlerJob{handle: handle, data: data, done: done}
	<-done
}

// runOnWorker runs f on a worker goroutine and returns at once; past
// maxHandlers workers (a burst), on a goroutine of its own. A
// connection's reading and handling of what its client sent run so
// when the poller says it has sent something (wspoll_linux.go).
func runOnWorker(f func()) {
	w := takeWorker()
	if w == nil {
		go f()
		return
	}
	w.jobs <- handlerJob{run: f} // an idle worker's channel is empty: this does not wait
}

// takeWorker is the idle worker that waited least, or a new one while
// there are fewer than maxHandlers; nil when all of them are busy.
func takeWorker() *handlerWorker {
	p := &handlerPool
	var w *handlerWorker
	p.mu.Lock()
	switch {
	case len(p.idle) > 0:
		w = p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
	case p.n < maxHandlers:
		p.n++
		w = &handlerWorker{jobs: make(chan handlerJob, 1)}
		go w.run()
	}
	p.mu.Unlock()
	return w
}

// run handles the worker's jobs until none comes for handlerIdle.
func (w *handlerWorker) run() {
	p := &handlerPool
	idle := time.NewTimer(handlerIdle)
	defer idle.Stop()
	for {
		select {
		case j := <-w.jobs:
			if j.run != nil {
				j.run()
			} else {
				j.handle(j.data)
				j.done <- struct{}{}
			}
			p.mu.Lock()
			p.idle = append(p.idle, w)
			p.mu.Unlock()
			idle.Reset(handlerIdle)
		case <-idle.C:
			p.mu.Lock()
			if i := slices.Index(p.idle, w); i >= 0 { // else it has just been handed a job: take it
				p.idle = slices.Delete(p.idle, i, i+1)
				p.n--
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
		}
	}
}
