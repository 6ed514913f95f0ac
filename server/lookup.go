package server

import (
	"net/http"
	"strconv"
	"time"

	"pitch/server/httpx"
)

// Name lookups. A profile (/api/users/NAME and the pages under it) says
// whether a name has an account, and so do the checks of a sign-up's
// name: unbounded, they would list the accounts of the server to anyone
// with a list of guesses. So they draw on one bucket per client address:
// nameLookupBurst in a row, then one each nameLookupEvery. A profile
// that is found gives its token back — people follow links to players
// who exist, and so never run out — so what counts is the names that
// have no account, which is what a guesser mostly gets; a sign-up's
// check costs its token either way (accountapi.Config.NameLookups).
const (
	nameLookupBurst = 30
	nameLookupEvery = 20 * time.Second
	profilePrefix   = "GET /api/users/{name}"
)

// lookupLimited serves h, a profile route, within the client address's
// name lookups: the token is taken before the lookup (so that lookups
// sent at once are counted too) and given back unless the answer is 404.
func (s *Server) lookupLimited(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := httpx.ClientAddr(r)
		if ok, wait := s.lookups.Take(addr); !ok {
			secs := int(wait.Seconds()) + 1
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			httpx.WriteError(s.log, w, r, httpx.Errorf(httpx.TooMany, "user", "too many names looked up from your address: try again later (in %d s)", secs).
				With("too_many_lookups", map[string]any{"Count": secs}))
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.status != http.StatusNotFound {
			s.lookups.Give(addr)
		}
	})
}

// statusWriter remembers the status a handler answered.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}
