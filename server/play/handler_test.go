package play

import (
	"net/http"
	"strings"

	"pitch/server/httpx"
)

// Handler is the play part's routes behind the middleware the server
// puts in front of them (server.Server.Handler), for this package's tests.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.Routes(mux)
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
