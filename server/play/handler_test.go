package play

import (
	"net/http"
	"strings"

	"pitch/server/history"
	"pitch/server/httpx"
	"pitch/server/ratings"
)

// Handler is the play part's routes, with the history's and the
// ratings' (built as server.New builds them), behind the middleware the
// server puts in front of them (server.Server.Handler), for this
// package's tests.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mountAll(mux, s.Routes())
	mountAll(mux, history.New(history.Config{Store: s.store, Tables: s, Closing: s.Closing, Log: s.log}).Routes())
	mountAll(mux, ratings.New(ratings.Config{Store: s.store, Log: s.log}).Routes())
	s.eventRoutes(mux) // events_api_test.go
	api := s.Limit(mux)
	return httpx.SecurityHeaders(httpx.SameOrigin(s.log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") && r.URL.Path != "/api/health" {
			api.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})))
}

// mountAll mounts routes on mux.
func mountAll(mux *http.ServeMux, routes []httpx.Route) {
	for _, rt := range routes {
		mux.HandleFunc(rt.Pattern, rt.Handler)
	}
}
