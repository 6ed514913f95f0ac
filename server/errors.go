package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
)

// Kind is what sort of failure an Error is; it decides the HTTP status.
type Kind int

// The kinds of failure.
const (
	Internal    Kind = iota // our fault; the client is told only that
	Invalid                 // the request is wrong: it says how
	NotFound                // no such table, seat or hand
	Conflict                // the seat is taken, the hand is not over, …
	Forbidden               // the token does not fit the seat
	Unavailable             // the store is down; try again
	TooMany                 // rate limited
)

var kindStatus = map[Kind]int{Internal: 500, Invalid: 400, NotFound: 404, Conflict: 409, Forbidden: 403, Unavailable: 503, TooMany: 429}

// Error is an application error: what the client is told (Msg) is kept
// apart from what is logged (Op and Err).
type Error struct {
	Kind Kind
	Op   string // what was being done, for the log
	Msg  string // for the client
	Err  error  // the cause, for the log only
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Op, e.Msg, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Op, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(k Kind, op, format string, args ...any) *Error {
	return &Error{Kind: k, Op: op, Msg: fmt.Sprintf(format, args...)}
}

// internal wraps a cause the client must not see.
func internal(op string, err error) *Error {
	return &Error{Kind: Internal, Op: op, Msg: "internal error", Err: err}
}

// unavailable wraps a store failure: the client may retry.
func unavailable(op string, err error) *Error {
	return &Error{Kind: Unavailable, Op: op, Msg: "the server cannot reach its database; try again shortly", Err: err}
}

// clientError returns what the client may be told of err, and the status.
func clientError(err error) (int, string) {
	var e *Error
	if errors.As(err, &e) {
		if e.Kind == Internal {
			return 500, "internal error"
		}
		return kindStatus[e.Kind], e.Msg
	}
	return 500, "internal error"
}

// writeError logs err (server side detail) and answers with the client's part.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := clientError(err)
	level := slog.LevelInfo
	var e *Error
	if status >= 500 && (!errors.As(err, &e) || e.Kind == Internal || e.Err != nil) {
		level = slog.LevelError // a fault or a failing store; not a limit the server keeps on purpose
	}
	s.log.Log(r.Context(), level, "request failed", "method", r.Method, "path", r.URL.Path, "status", status, "err", err.Error())
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
