// Package httpx is what every part of the server shares to speak HTTP:
// the application error and its status, JSON bodies read strictly and
// written, the per-address rate limit, the security headers and the
// refusal of cross-site requests, and the checks of names and IDs.
package httpx

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
	NotAllowed              // the address does not take the request's method
)

var kindStatus = map[Kind]int{Internal: 500, Invalid: 400, NotFound: 404, Conflict: 409, Forbidden: 403, Unavailable: 503, TooMany: 429, NotAllowed: 405}

// Error is an application error: what the client is told (Msg, Code,
// Params) is kept apart from what is logged (Op and Err).
type Error struct {
	Kind Kind
	Op   string // what was being done, for the log
	Msg  string // for the client, in English
	Err  error  // the cause, for the log only
	// Code names the error for a program (a client showing it in the
	// player's language, see docs/protocol.md); empty means the kind's
	// name. Params are its seats, numbers and cards.
	Code   string
	Params map[string]any
}

// kindCodes are the codes of errors that have no code of their own.
var kindCodes = map[Kind]string{Internal: "internal", Invalid: "invalid", NotFound: "not_found", Conflict: "conflict",
	Forbidden: "forbidden", Unavailable: "unavailable", TooMany: "too_many", NotAllowed: "method_not_allowed"}

// With gives e a code and parameters.
func (e *Error) With(code string, params map[string]any) *Error {
	e.Code, e.Params = code, params
	return e
}

// Error is the message for the log.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Op, e.Msg, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Op, e.Msg)
}

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf is an error of kind k, its message for the client.
func Errorf(k Kind, op, format string, args ...any) *Error {
	return &Error{Kind: k, Op: op, Msg: fmt.Sprintf(format, args...)}
}

// Unexpected wraps a cause the client must not see.
func Unexpected(op string, err error) *Error {
	return &Error{Kind: Internal, Op: op, Msg: "internal error", Err: err}
}

// StoreDown wraps a store failure: the client may retry.
func StoreDown(op string, err error) *Error {
	return &Error{Kind: Unavailable, Op: op, Msg: "the server cannot reach its database; try again shortly", Err: err}
}

// ClientErr is what a client may be told of an error.
type ClientErr struct {
	Status  int            `json:"-"`
	Message string         `json:"error"`
	Code    string         `json:"code"`
	Params  map[string]any `json:"params,omitempty"`
}

// ClientError returns what the client may be told of err.
func ClientError(err error) ClientErr {
	var e *Error
	if errors.As(err, &e) && e.Kind != Internal {
		code := e.Code
		if code == "" {
			code = kindCodes[e.Kind]
		}
		return ClientErr{Status: kindStatus[e.Kind], Message: e.Msg, Code: code, Params: e.Params}
	}
	return ClientErr{Status: 500, Message: "internal error", Code: "internal"}
}

// WriteError logs err (server side detail) to log and answers with the
// client's part.
func WriteError(log *slog.Logger, w http.ResponseWriter, r *http.Request, err error) {
	ce := ClientError(err)
	level := slog.LevelInfo
	var e *Error
	if ce.Status >= 500 && (!errors.As(err, &e) || e.Kind == Internal || e.Err != nil) {
		level = slog.LevelError // a fault or a failing store; not a limit the server keeps on purpose
	}
	log.Log(r.Context(), level, "request failed", "method", r.Method, "path", r.URL.Path, "status", ce.Status, "err", err.Error())
	WriteJSON(w, ce.Status, ce)
}

// WriteJSON answers with v as JSON and the status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
