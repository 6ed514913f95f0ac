package server

import "context"

// CheckSessions runs one sweep of the sessions of s's WebSockets
// (play.Server.CheckSessions), as the server does every play.SessionSweep.
func CheckSessions(s *Server) { s.play.CheckSessions(context.Background()) }
