package accountapi

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestHashGate: no more hashes run at once than the memory allows; past
// hashWaiters waiting, the next is refused at once (errBusy), and a
// waiter whose request ends stops waiting.
func TestHashGate(t *testing.T) {
	if n := cap(newHashGate(64).slots); n != 3 {
		t.Errorf("64 MiB holds %d hashes of 19 MiB, want 3", n)
	}
	if n := cap(newHashGate(1).slots); n != 1 {
		t.Errorf("1 MiB: %d at once, want 1 (always one)", n)
	}
	g := newHashGate(1)
	g.wait = time.Hour // no waiter gives up while the test runs
	release := make(chan struct{})
	var running, most atomic.Int32
	hash := func() {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		running.Add(-1)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = g.run(context.Background(), hash) }()
	for running.Load() == 0 { // the first holds the only turn
		runtime.Gosched()
	}
	for range hashWaiters {
		wg.Add(1)
		go func() { defer wg.Done(); _ = g.run(context.Background(), hash) }()
	}
	for g.waiting.Load() < hashWaiters {
		runtime.Gosched()
	}
	if err := g.run(context.Background(), hash); !errors.Is(err, errBusy) {
		t.Errorf("with %d waiting, another got %v, want errBusy", hashWaiters, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g.waiting.Add(-1) // room for one more waiter, whose request has ended
	if err := g.run(ctx, hash); !errors.Is(err, context.Canceled) {
		t.Errorf("a waiter whose request ended got %v, want context.Canceled", err)
	}
	g.waiting.Add(1)
	close(release)
	wg.Wait()
	if m := most.Load(); m != 1 {
		t.Errorf("%d hashes ran at once, want 1", m)
	}
}

// TestThrottleGivesBack: a success gives back what its check took; a
// failure keeps it, and costs the address its clean pass.
func TestThrottleGivesBack(t *testing.T) {
	th := newThrottle(-1)
	for i := range 20 { // successes cost nothing
		a, _ := th.begin("ada", "192.0.2.1")
		if a == nil {
			t.Fatalf("success %d refused", i)
		}
		a.succeeded()
	}
	for i := range signInPairBurst {
		a, _ := th.begin("ada", "192.0.2.1")
		if a == nil {
			t.Fatalf("failure %d refused", i)
		}
		a.failed()
	}
	if a, wait := th.begin("ada", "192.0.2.1"); a != nil || wait <= 0 {
		t.Errorf("after %d failures, a check was not refused (%v)", signInPairBurst, wait)
	}
	if th.clean.Wait("192.0.2.1") == 0 {
		t.Errorf("a failing address keeps its clean pass")
	}
	if th.clean.Wait("192.0.2.2") != 0 {
		t.Errorf("another address lost its clean pass")
	}
}
