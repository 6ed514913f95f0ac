package store

import "time"

// DefaultCommitWindow is the least time between the starts of two commits
// while several tables write at once (CommitWindow): 15 ms, about eight
// writes a commit at 500 busy tables (docs/performance.md, "Deltas that
// copy and push").
const DefaultCommitWindow = 15 * time.Millisecond

// Option changes how Open and OpenShared open a store.
type Option func(*config)

type config struct {
	window time.Duration
}

func configure(opts []Option) config {
	c := config{window: DefaultCommitWindow}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// CommitWindow sets the least time between the starts of two commits
// while writes come from several tables at once: a write that arrives
// sooner waits, up to that, to share the next commit with others. A write
// is still answered only once its commit is on disk; what the window
// trades is a few milliseconds of an action's latency under load for
// fewer commits, fsyncs and pages written (docs/performance.md, "Commits
// shared by time"). A lone writer, or writes further apart than d, never
// wait. 0 commits as soon as the last commit is done, sharing it only with
// the writes that came meanwhile; d below 0 is taken as 0.
func CommitWindow(d time.Duration) Option {
	return func(c *config) { c.window = max(d, 0) }
}
