//go:build !linux

package play

// watch: no poller here (wspoll_linux.go), so a connection has a reader
// goroutine of its own.
func (c *conn) watch() bool { return false }

// unwatch has nothing to do without a poller.
func (c *conn) unwatch() {}

// pollEvent is nothing without a poller.
type pollEvent struct{}
