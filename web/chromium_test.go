package web_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The browser tests share one Chromium process: starting one takes seconds,
// and the package has dozens of tests. Each test opens its tabs in a browser
// context of its own (newTab), so no cookie, localStorage entry or cache
// passes from one test to another, and closing the test's tabs disposes of
// that context. A test that needs two people gives each a browser context
// (chromedp.WithNewBrowserContext on a tab of its own); a second tab made
// from a test's tab without it shares that tab's context, as a second tab
// of one person's browser does.

// chromium is the shared browser, started by the first test that needs it
// and stopped by TestMain.
var chromium struct {
	mu     sync.Mutex
	ctx    context.Context // the browser's first tab, never used for a page
	cancel func()
}

// parallelTests holds the tests that have a tab from newTab (made parallel
// by it, unless alone).
var parallelTests sync.Map

// alone names the browser tests that keep the CPU busy (the server's match
// reviews) and so run by themselves, before the parallel ones start: among
// three others on a loaded machine they overran their time.
var alone = map[string]bool{"TestBrowserReplayTable": true}

// defaultParallel is how many browser tests run at once unless go test's
// -parallel says otherwise: a browser test mostly waits (for bots, the
// page's pace, round trips between the test, Chromium and the server), so
// four at once keep two cores busy where GOMAXPROCS (2 on CI) would not.
const defaultParallel = "4"

// TestMain runs the tests (defaultParallel at once, unless -parallel is
// given), then stops the shared browser if one started.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", defaultParallel); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	code := m.Run()
	stopChromium()
	os.Exit(code)
}

// sharedChromium returns the context of the shared browser, starting it (or
// starting it again, if it died) the first time. It skips the test when no
// Chromium is installed.
func sharedChromium(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		t.Skip("skipping the browser test: chromium is not installed (apt-get install chromium)")
	}
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	if chromium.ctx != nil && chromium.ctx.Err() == nil {
		return chromium.ctx
	}
	if chromium.cancel != nil {
		chromium.cancel()
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1280, 900),
	)
	// The browser outlives the test that starts it: its context is the
	// package's, not the test's.
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		bcancel()
		acancel()
		t.Fatalf("starting %s: %v", path, err)
	}
	chromium.ctx = bctx
	chromium.cancel = func() {
		bcancel()
		acancel()
	}
	return bctx
}

// stopChromium closes the shared browser, if it started.
func stopChromium() {
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	if chromium.ctx == nil {
		return
	}
	ctx, cancel := context.WithTimeout(chromium.ctx, 10*time.Second)
	defer cancel()
	_ = chromedp.Cancel(ctx) // a graceful close; the cancel below stops it anyway
	chromium.cancel()
	chromium.ctx, chromium.cancel = nil, nil
}

// hangAfter is when a browser test that takes d on a quiet machine is
// taken to hang: three times d. A test's budget only stops a test that
// would otherwise wait for good, never decides a verdict, and a 2-core
// machine loaded beside the tests (CI's, or one shared with other work)
// has stretched a 100 s test past 100 s.
func hangAfter(d time.Duration) time.Duration { return 3 * d }

// newTab opens a tab of the shared browser in a new browser context (a
// fresh profile: no cookies, no storage) for a test that may take up to d
// in all. The tab and its context close when the test ends, or when
// hangAfter(d) has passed, which fails whatever the test still does in it.
//
// newTab makes the test parallel: a browser test spends most of its time
// waiting for bots, the page's pace and the network, so several run side
// by side (defaultParallel, or go test's -parallel), except those named
// in alone. A test that calls newTab must not share mutable state with
// another test unguarded.
func newTab(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	if chromiumPath() == "" {
		t.Skip("skipping the browser test: chromium is not installed (apt-get install chromium)")
	}
	if _, again := parallelTests.LoadOrStore(t, true); !again { // not a test's second tab
		t.Cleanup(func() { parallelTests.Delete(t) })
		if !alone[t.Name()] {
			t.Parallel()
		}
	}
	bctx := sharedChromium(t)
	tctx, cancel := context.WithTimeout(bctx, hangAfter(d))
	t.Cleanup(cancel)
	tab, tcancel := chromedp.NewContext(tctx, chromedp.WithNewBrowserContext())
	t.Cleanup(tcancel)
	return tab
}

// settleJS resolves once the page has laid out what last changed (two
// frames drawn since: the resize event, the ResizeObservers and the layout
// they cause) and no animation or transition of finite length still
// runs; after a second at most.
const settleJS = `new Promise((done) => {
  const end = performance.now() + 1000;
  setTimeout(() => done(true), 1000);
  const moving = () => document.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  const check = () => requestAnimationFrame(() => requestAnimationFrame(() => (moving() && performance.now() < end ? check() : done(true))));
  check();
})`

// settled waits for the page to settle (settleJS): after a resize
// (chromedp.EmulateViewport), before the page is measured or shot.
func settled() chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](settleJS, chromedp.EvalAwaitPromise)
}
