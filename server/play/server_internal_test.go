package play

import (
	"context"
	"testing"

	"pitch/store"
)

// internalServer returns a server with opts on the store at dsn, both
// closed when the test ends.
func internalServer(t testing.TB, dsn string, opts Options) (store.Store, *Server) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := New(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return st, srv
}
