package server

import "time"

// SetLag pins how far behind s runs at lag, for a test of overload: the
// probe no longer changes it.
func SetLag(s *Server, lag time.Duration) {
	s.gauge.pinned.Store(true)
	s.gauge.set(lag)
}

// LeaseOwner returns the process holding the lease of table id in the
// PostgreSQL database at dsn, or "" (leaseOwner, for the package's
// external tests).
var LeaseOwner = leaseOwner
