package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"pitch/server"
	"pitch/store"
	"pitch/web"
)

// runServe implements `pitch serve`: the multiplayer server with the UI.
func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", ":8080", "address to listen on")
	db := fs.String("db", "pitch.db", "SQLite file, or a postgres:// URL")
	botDelay := fs.Duration("bot-delay", 800*time.Millisecond, "pause before a bot acts")
	awayDelay := fs.Duration("away-delay", 3*time.Second, "pause before a bot plays for a disconnected player")
	addrRate := fs.Float64("addr-rate", 30, "API requests and messages a second one client address may send (0: no limit, for load tests from one address)")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := store.Open(ctx, *db)
	if err != nil {
		fmt.Fprintf(stderr, "pitch serve: %v\n", err)
		return 1
	}
	defer st.Close()
	srv, err := server.New(ctx, st, server.Options{BotDelay: *botDelay, AwayDelay: *awayDelay, AddrRate: *addrRate, Logger: log, Static: web.FS()})
	if err != nil {
		fmt.Fprintf(stderr, "pitch serve: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "pitch serve: %v\n", err)
		return 1
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	fmt.Fprintf(stdout, "pitch: serving on %s (store: %s); press Ctrl+C to stop\n", browseURL(ln.Addr()), storeName(*db))
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "pitch serve: %v\n", err)
			return 1
		}
	case <-ctx.Done():
	}
	srv.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return 0
}

// storeName describes the store without a password.
func storeName(db string) string {
	if len(db) > 11 && (db[:11] == "postgres://" || len(db) > 13 && db[:13] == "postgresql://") {
		return "postgresql"
	}
	return "sqlite " + db
}
