package server

import (
	"pitch/server/httpx"
	"time"
)

// SetLag pins how far behind s runs at lag, for a test of overload: the
// probe no longer changes it.
func SetLag(s *Server, lag time.Duration) { s.play.PinLag(lag) }

// OnServed has f told, after every request to a route that serves table,
// hand or event data, whether its handler asked the access policy.
func OnServed(s *Server, f func(pattern string, asked bool)) { s.onServed.Store(&f) }

// RouteList is every route the server mounts.
func RouteList(s *Server) []httpx.Route { return s.routes() }

// PasswordHashes is how many argon2id hashes s's accounts have run: a
// test counts the password checks a burst of sign-ins got to make.
func PasswordHashes(s *Server) int64 { return s.acct.Hashes() }
