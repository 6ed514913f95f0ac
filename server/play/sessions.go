package play

import (
	"context"
	"time"

	"github.com/gobwas/ws"
)

// The WebSockets of an account's sessions end with them (docs/accounts.md):
// a connection remembers the account and the session (the SHA-256 of its
// cookie's token, never the token) of the request that opened it. When
// the accounts end sessions in this process (sign-out, a password change
// or reset, a deletion) they call CloseSockets at once; a session ended
// elsewhere (`pitch user disable`, another process of a cluster) is
// found by the sweep (CheckSessions) within SessionSweep.

// SessionSweep is how often the server checks that the sessions its
// WebSockets were opened with still stand (CheckSessions).
const SessionSweep = time.Minute

// SessionEndedReason is the close reason (with close code 1008) of a
// connection whose session ended without this process being told (the
// account was disabled, the session expired, or it ended at another
// process). The accounts give their own for the ends they make
// (accountapi.SignedOutReason, …).
const SessionEndedReason = "your session has ended: sign in again to play your seat"

// SessionLive tells whether the session with hash session (as in
// Account.Session) still stands: not ended, not expired, its account not
// disabled. An error (the store is down) leaves the connections be.
type SessionLive func(ctx context.Context, session string) (bool, error)

// SetSessionLive makes live the server's way of checking the sessions of
// its WebSockets, and starts the sweep (every SessionSweep, until the
// server stops). Call it once, before serving.
func (s *Server) SetSessionLive(live SessionLive) {
	s.sessionLive = live
	go func() {
		tick := time.NewTicker(SessionSweep)
		defer tick.Stop()
		for {
			select {
			case <-s.sweepStop:
				return
			case <-tick.C:
				ctx, cancel := context.WithTimeout(context.Background(), SessionSweep/2)
				s.CheckSessions(ctx)
				cancel()
			}
		}
	}()
}

// CheckSessions closes, with SessionEndedReason, every WebSocket opened
// with a session that no longer stands (SetSessionLive); one check per
// session, however many connections it opened.
func (s *Server) CheckSessions(ctx context.Context) {
	if s.sessionLive == nil {
		return
	}
	bySession := map[string][]*conn{}
	s.conns.mu.Lock()
	for c := range s.conns.all {
		if c.session != "" {
			bySession[c.session] = append(bySession[c.session], c)
		}
	}
	s.conns.mu.Unlock()
	for session, cs := range bySession {
		live, err := s.sessionLive(ctx, session)
		if err != nil {
			s.log.Warn("cannot check the sessions of open connections", "err", err.Error())
			return // the next sweep tries again
		}
		if !live {
			for _, c := range cs {
				c.closeWith(ws.StatusPolicyViolation, SessionEndedReason, false)
			}
		}
	}
}

// CloseSockets implements accountapi.Tables: it closes, with close code
// 1008 and reason, the WebSockets of account id opened with session (a
// session's hash, as in Account.Session); with session "", every one
// opened with any session of the account, and every one that plays a
// seat the account holds (a guest's connection to a seat the account
// took over since). Other accounts' connections are untouched.
func (s *Server) CloseSockets(id, session, reason string) {
	if id == "" {
		return
	}
	var out []*conn
	s.conns.mu.Lock()
	for c := range s.conns.all {
		if c.account == id && (session == "" || c.session == session) {
			out = append(out, c)
		}
	}
	s.conns.mu.Unlock()
	if session == "" {
		for _, t := range s.tableList() {
			t.mu.Lock()
			for c := range t.conns {
				if c.seat >= 0 && c.seat < len(t.info.Seats) && t.info.Seats[c.seat].Account == id {
					out = append(out, c)
				}
			}
			t.mu.Unlock()
		}
	}
	for _, c := range out {
		c.closeWith(ws.StatusPolicyViolation, reason, false)
	}
}
