// Package server is `pitch serve`: the HTTP API, the WebSocket play and
// the browser UI of a self-hosted Pitch server. The server is
// authoritative: every action is checked by the rules engine and written
// to the store before anyone hears of it; each connection sees only its
// seat's view.
//
// This package is the composition root only: it builds the parts (one
// package per resource under server/, see docs/architecture.md), mounts
// their routes on one mux behind the shared middleware, and owns start-up
// and shutdown.
package server

import (
	"bytes"
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"pitch/i18n"
	"pitch/server/access"
	"pitch/server/accountapi"
	"pitch/server/daily"
	"pitch/server/eventapi"
	"pitch/server/history"
	"pitch/server/httpx"
	"pitch/server/play"
	"pitch/server/ratings"
	"pitch/store"
)

// Misbehave makes a server cheat at fair deals on purpose, for the tests
// that check the pages catch it.
type Misbehave = play.Misbehave

// The defaults `pitch serve` uses unless told otherwise.
const (
	DefaultReadHeaderTimeout = 5 * time.Second               // the request line and headers
	DefaultReadTimeout       = 10 * time.Second              // the whole request, body included
	DefaultWriteTimeout      = 30 * time.Second              // from the end of the headers to the end of the answer
	DefaultIdleTimeout       = 30 * time.Second              // a keep-alive connection waiting for its next request
	DefaultPingInterval      = play.DefaultPingInterval      // between pings on a WebSocket
	DefaultReadyWait         = play.DefaultReadyWait         // the longest wait for the readers of a hand's summary
	DefaultOverloadLag       = play.DefaultOverloadLag       // the lag past which new work is refused
	DefaultLeaseTTL          = play.DefaultLeaseTTL          // a table's lease in a cluster
	DefaultSessionTTL        = accountapi.DefaultSessionTTL  // a sign-in
	DefaultDealWait          = play.DefaultDealWait          // a due deal's wait for contributions
	DefaultAddrSignIns       = accountapi.DefaultAddrSignIns // failed sign-ins an address may make an hour
	DefaultHashMemory        = accountapi.DefaultHashMemory  // MiB of argon2id memory the hashes running at once may use
	// RestartReason is the close reason (with close code 1012, service
	// restart) every WebSocket gets at a graceful shutdown.
	RestartReason = play.RestartReason
)

// HSTS is the Strict-Transport-Security every answer over HTTPS carries
// (TLS, `pitch serve --https` behind a proxy that ends it, or an
// https:// --origin): browsers then use nothing but HTTPS for the site
// and its subdomains for two years. Plain HTTP (local use) gets none.
const HSTS = "max-age=63072000; includeSubDomains"

// Server serves the API, the WebSocket play and the UI.
type Server struct {
	opts    Options
	log     *slog.Logger
	play    *play.Server
	acct    *accountapi.API
	history *history.API
	ratings *ratings.API
	events  *eventapi.API
	daily   *daily.Daily
	// lookups are the name lookups per client address that can tell
	// whether a name has an account (lookup.go).
	lookups *httpx.Limiter
	// onServed, set by a test (export_test.go), hears of every request
	// to a data route whether it asked the access policy.
	onServed atomic.Pointer[func(pattern string, asked bool)]
}

// New returns a server over st, with every unfinished table loaded from
// its log so play resumes where it stopped.
func New(ctx context.Context, st store.Store, opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&opts.ReadHeaderTimeout, DefaultReadHeaderTimeout}, {&opts.ReadTimeout, DefaultReadTimeout},
		{&opts.WriteTimeout, DefaultWriteTimeout}, {&opts.IdleTimeout, DefaultIdleTimeout}} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	if opts.Origin != "" {
		o, err := accountapi.ParseOrigin(opts.Origin)
		if err != nil {
			return nil, err
		}
		opts.Origin = o
	}
	p, err := play.New(ctx, st, opts.play())
	if err != nil {
		return nil, err
	}
	lookups := httpx.NewLimiter(1/nameLookupEvery.Seconds(), nameLookupBurst)
	acct := accountapi.New(accountapi.Config{Store: st, Tables: p, Log: opts.Logger,
		SessionTTL: opts.SessionTTL, Origin: opts.Origin, HTTPS: opts.HTTPS, SignUpsPerHour: opts.SignUpsPerHour,
		AddrSignIns: opts.AddrSignIns, HashMemory: opts.HashMemory, NameLookups: lookups})
	p.SetWho(acct.Who)
	p.SetSessionLive(acct.SessionLive)
	s := &Server{opts: opts, log: opts.Logger, play: p, acct: acct, lookups: lookups,
		history: history.New(history.Config{Store: st, Tables: p, Closing: p.Closing, Log: opts.Logger, Viewer: viewerOf(acct)}),
		ratings: ratings.New(ratings.Config{Store: st, Log: opts.Logger}),
	}
	s.events, s.daily = newEvents(p, acct, st, s.opts)
	return s, nil
}

// viewerOf says who asks, as the access policy knows viewers: an account
// holder when signed in (acct.Who), else anonymous.
func viewerOf(acct *accountapi.API) func(*http.Request) access.Viewer {
	return func(r *http.Request) access.Viewer {
		a, ok := acct.Who(r)
		return access.Signed(a.ID, ok)
	}
}

// Close stops the server at once: the bots stop and every connection is
// closed with 1001 "the server is shutting down", without waiting. Use
// Shutdown to stop gracefully.
func (s *Server) Close() { s.play.Close() }

// Shutdown stops the server gracefully (play.Server.Shutdown): it stops
// accepting (hs, if not nil), lets every action under way be stored and
// sent, and closes every WebSocket with RestartReason. The store is the
// caller's to close afterwards.
func (s *Server) Shutdown(ctx context.Context, hs *http.Server) error {
	return s.play.Shutdown(ctx, hs)
}

// Handler returns the server's HTTP handler: every part's routes on one
// mux, the API behind the per-address limit, everything behind the
// security headers and the refusal of cross-site changes, and the
// client's address taken from a trusted proxy's header
// (Options.TrustedProxies) before anything counts it. An /api/
// address no route serves answers in JSON: 405 with Allow for a method
// the address does not take, 404 for no such address.
func (s *Server) Handler() http.Handler {
	api := http.NewServeMux()
	for _, rt := range s.routes() {
		var h http.Handler = rt.Handler
		if rt.Data {
			h = s.guard(rt)
		}
		if strings.HasPrefix(rt.Pattern, profilePrefix) {
			h = s.lookupLimited(h)
		}
		api.Handle(rt.Pattern, h)
	}
	pages := http.NewServeMux()
	if s.opts.Static != nil {
		s.static(pages)
	}
	apiAll := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serveAPI(api, w, r) })
	limited := s.play.Limit(apiAll)
	return s.opts.TrustedProxies.Handler(httpx.SecurityHeaders(httpx.SameOrigin(s.log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.acct.Secure(r) { // over HTTPS: only ever over HTTPS, for two years
			w.Header().Set("Strict-Transport-Security", HSTS)
		}
		switch {
		case r.URL.Path == "/api/health": // never limited
			apiAll.ServeHTTP(w, r)
		case strings.HasPrefix(r.URL.Path, "/api/"):
			limited.ServeHTTP(w, r)
		default:
			pages.ServeHTTP(w, r)
		}
	}))))
}

// serveAPI serves r by the API's routes, or answers in JSON why none
// does.
func (s *Server) serveAPI(api *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	const op = "api"
	if _, pattern := api.Handler(r); pattern != "" {
		api.ServeHTTP(w, r)
		return
	}
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		other := *r
		other.Method = m
		if _, pattern := api.Handler(&other); pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		httpx.WriteError(s.log, w, r, httpx.Errorf(httpx.NotFound, op, "no API at %s", httpx.Clip(r.URL.Path, 100)).With("no_route", nil))
		return
	}
	if allow[0] == http.MethodGet {
		allow = slices.Insert(allow, 1, http.MethodHead)
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	httpx.WriteError(s.log, w, r, httpx.Errorf(httpx.NotAllowed, op, "%s takes %s, not %s", httpx.Clip(r.URL.Path, 100), strings.Join(allow, ", "), httpx.Clip(r.Method, 10)).
		With("method_not_allowed", map[string]any{"Allow": strings.Join(allow, ", ")}))
}

// routes are every part's routes: the tables and their play, accounts,
// history, ratings, events and the daily deals.
func (s *Server) routes() []httpx.Route {
	return slices.Concat(s.play.Routes(), s.acct.Routes(), s.history.Routes(), s.ratings.Routes(), s.events.Routes(), s.daily.Routes())
}

// guard serves a route that serves table, hand or event data. Its handler
// asks the access policy itself (access.Ask); when a test watches
// (onServed), guard also tells it, after each request, whether the
// policy was asked.
func (s *Server) guard(rt httpx.Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served := s.onServed.Load()
		if served == nil {
			rt.Handler(w, r)
			return
		}
		ctx, asked := access.Track(r.Context())
		rt.Handler(w, r.WithContext(ctx))
		(*served)(rt.Pattern, asked())
	})
}

// static mounts the browser UI: its files, and the page at every address
// the page itself routes.
func (s *Server) static(mux *http.ServeMux) {
	files := http.FileServerFS(s.opts.Static)
	page, pageErr := fs.ReadFile(s.opts.Static, "index.html")
	index := func(w http.ResponseWriter, r *http.Request) {
		if pageErr != nil {
			http.ServeFileFS(w, r, s.opts.Static, "index.html")
			return
		}
		// The page in the language the browser asks for (the script
		// then follows the player's choice, or navigator.languages).
		lang := i18n.Match(r.Header.Get("Accept-Language"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Language", lang)
		w.Header().Add("Vary", "Accept-Language")
		_, _ = w.Write(bytes.Replace(page, []byte(`<html lang="en">`), []byte(`<html lang="`+lang+`">`), 1))
	}
	for _, p := range pages {
		mux.HandleFunc("GET "+p, index)
	}
	mux.Handle("GET /", files)
}

// pages are the addresses the page routes itself (app.js).
var pages = []string{
	"/t/{id}",
	"/e/{id}",                      // an event (js/event.js)
	"/e/{id}/board",                // its board
	"/e/{id}/table/{n}",            // a table card's address: table N of the round now (js/eventtable.js)
	"/e/{id}/print/cards",          // the table cards to print (js/eventprint.js)
	"/e/{id}/print/standings",      // the standings to print
	"/e/{id}/deals/{round}/{deal}", // a duplicate deal's results (js/daily.js)
	"/daily",                       // the daily deals (js/daily.js)
	"/events/new",                  // a new event's form
	"/history",
	"/account",
	"/reset",
	"/u/{name}",
	"/leaderboard",
	"/replay",
	"/t/{id}/hands/{n}",
	"/{$}",
}

// HTTPServer returns an http.Server for the server's handler with its
// timeouts set, so that no slow or idle client holds a connection for
// long: a request (headers and body) must arrive within ReadTimeout, its
// answer go out within WriteTimeout, and a keep-alive connection is closed
// after IdleTimeout without a request. WebSockets are not bound by these
// (a hijacked connection loses its deadlines): they have their pings.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: min(s.opts.ReadHeaderTimeout, s.opts.ReadTimeout),
		ReadTimeout:       s.opts.ReadTimeout,
		WriteTimeout:      s.opts.WriteTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}
