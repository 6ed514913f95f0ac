package server

import "time"

// SetLag pins how far behind s runs at lag, for a test of overload: the
// probe no longer changes it.
func SetLag(s *Server, lag time.Duration) { s.play.PinLag(lag) }
