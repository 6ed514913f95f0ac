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
	"slices"
	"strings"
	"syscall"
	"time"

	"pitch/server"
	"pitch/server/accountapi"
	"pitch/server/httpx"
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
	readyWait := fs.Duration("ready-wait", server.DefaultReadyWait, "longest a table waits after a hand for its people to close the hand's summary")
	addrRate := fs.Float64("addr-rate", 30, "API requests and messages a second one client address may send (0: no limit, for load tests from one address)")
	addrConns := fs.Int("addr-conns", 32, "anonymous WebSockets one client address may hold open; players count per seat (0: no limit)")
	maxConns := fs.Int("max-conns", 20000, "WebSockets the server holds open at once (0: no limit)")
	readTimeout := fs.Duration("read-timeout", server.DefaultReadTimeout, "time a client has to send a whole request, body included")
	idleTimeout := fs.Duration("idle-timeout", server.DefaultIdleTimeout, "time an idle keep-alive connection is kept open")
	tablesPerHour := fs.Int("tables-per-hour", 20, "tables one client address may create in an hour (0: no limit)")
	signupsPerHour := fs.Int("signups-per-hour", 10, "accounts one client address may create in an hour (0: no limit)")
	addrSignIns := fs.Int("addr-signins", server.DefaultAddrSignIns, "failed sign-ins one client address may make in an hour, a twelfth of them in a row (0: no limit per address; the limits per name stay)")
	hashMemory := fs.Int("hash-memory", server.DefaultHashMemory, "MiB of argon2id memory the password hashes running at once may use (19 MiB each; at least one runs); more wait briefly or are answered 429 busy")
	var proxies proxiesFlag
	fs.Var(&proxies, "trusted-proxy", "comma-separated CIDRs or addresses of proxies whose X-Forwarded-For / X-Real-IP names the client (repeatable; default: none, every limit counts the peer's address)")
	https := fs.Bool("https", false, "the site is served over HTTPS by a proxy in front: Secure __Host- session cookies and HSTS")
	origin := fs.String("origin", "", "the site's address as browsers see it (https://pitch.example): passkeys are bound to it, not to each request's Host header (docs/deploy.md); implies --https when https://")
	maxTables := fs.Int("max-tables", 10000, "unfinished tables the server holds at once; past it, creating one is refused (0: no limit)")
	idleDays := fs.Int("idle-days", 14, "close an unfinished table nobody has joined, played at or watched for this many days; its record is kept (0: never)")
	drain := fs.Duration("drain", 10*time.Second, "on SIGTERM or SIGINT, time to let clients finish and be told the server is restarting")
	overloadLag := fs.Duration("overload-lag", server.DefaultOverloadLag, "how far behind the server may run (its scheduling lag, smoothed) before it refuses new connections and tables, keeping those it has (0: never)")
	lease := fs.Duration("lease", server.DefaultLeaseTTL, "with PostgreSQL, how long a table's lease lasts unrenewed: another process takes the tables of one that died within about this long (docs/deploy.md)")
	cpuprof := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file, for `go tool pprof` (docs/performance.md); off when empty")
	commitWindow := fs.Duration("commit-window", store.DefaultCommitWindow, "while several tables write at once, the least time between two commits: a write waits up to this to share a commit, and its fsync, with others (0: commit at once; docs/performance.md)")
	pprofAddr := fs.String("pprof", "", "serve Go's profiles (net/http/pprof) at /debug/pprof/ on this loopback address, e.g. 127.0.0.1:6060 (docs/performance.md); off when empty")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"addr-conns", *addrConns}, {"max-conns", *maxConns}, {"tables-per-hour", *tablesPerHour}, {"max-tables", *maxTables}, {"idle-days", *idleDays}, {"addr-signins", *addrSignIns}} {
		if f.v < 0 {
			return usageError(stderr, "serve", "--%s must be 0 (no limit) or more, not %d", f.name, f.v)
		}
	}
	if *hashMemory < 1 {
		return usageError(stderr, "serve", "--hash-memory must be 1 MiB or more, not %d", *hashMemory)
	}
	if *addrSignIns == 0 {
		*addrSignIns = -1 // no limit, as Options says it
	}
	if *commitWindow < 0 || *commitWindow > time.Second {
		return usageError(stderr, "serve", "--commit-window must be 0 (commit at once) to 1s, not %s", *commitWindow)
	}
	if *overloadLag < 0 {
		return usageError(stderr, "serve", "--overload-lag must be 0 (never) or more, not %s", *overloadLag)
	}
	if *idleDays > 3650 {
		return usageError(stderr, "serve", "--idle-days must be 0 (never) to 3650, not %d", *idleDays)
	}
	for _, f := range []struct {
		name string
		v    time.Duration
	}{{"read-timeout", *readTimeout}, {"idle-timeout", *idleTimeout}, {"ready-wait", *readyWait}, {"drain", *drain}, {"lease", *lease}} {
		if f.v <= 0 {
			return usageError(stderr, "serve", "--%s must be above 0, not %s", f.name, f.v)
		}
	}
	if *origin != "" {
		o, err := accountapi.ParseOrigin(*origin)
		if err != nil {
			return usageError(stderr, "serve", "--origin: %v", err)
		}
		*origin = o
	}
	if *pprofAddr != "" {
		if err := loopbackAddr(*pprofAddr); err != nil {
			return usageError(stderr, "serve", "--pprof: %v", err)
		}
	}
	stopProfile, err := cpuProfile(*cpuprof)
	if err != nil {
		fmt.Fprintf(stderr, "pitch serve: %v\n", err)
		return 1
	}
	defer stopProfile()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	if *pprofAddr != "" {
		stopPprof, err := servePprof(*pprofAddr, log)
		if err != nil {
			fmt.Fprintf(stderr, "pitch serve: %v\n", err)
			return 1
		}
		defer stopPprof()
	}
	if n, why := connsWithin(*maxConns, openFileLimit()); why != "" {
		log.Warn("serve: fewer WebSockets than asked", "max_conns", n, "why", why)
		*maxConns = n
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := store.Open(ctx, *db, store.CommitWindow(*commitWindow))
	if err != nil {
		fmt.Fprintf(stderr, "pitch serve: %v\n", err)
		return 1
	}
	defer st.Close()
	srv, err := server.New(ctx, st, server.Options{BotDelay: *botDelay, AwayDelay: *awayDelay, ReadyWait: *readyWait, AddrRate: *addrRate,
		AddrConns: *addrConns, MaxConns: *maxConns, ReadTimeout: *readTimeout, IdleTimeout: *idleTimeout,
		TablesPerHour: *tablesPerHour, SignUpsPerHour: *signupsPerHour, AddrSignIns: *addrSignIns, HashMemory: *hashMemory, TrustedProxies: proxies.p,
		HTTPS: *https, Origin: *origin, MaxTables: *maxTables, OverloadLag: *overloadLag, IdleClose: time.Duration(*idleDays) * 24 * time.Hour,
		Logger: log, Static: web.FS(), Cluster: storeName(*db) == "postgresql", LeaseTTL: *lease})
	if err != nil {
		fmt.Fprintf(stderr, "pitch serve: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "pitch serve: %v\n", err)
		return 1
	}
	hs := srv.HTTPServer()
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
	// Drain: stop accepting, let actions under way be stored and sent,
	// tell every client the server is restarting, and wait for them, up
	// to --drain. A second signal stops at once.
	stop()
	log.Info("draining", "within", drain.String())
	sctx, cancel := context.WithTimeout(context.Background(), *drain)
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-sctx.Done():
		}
	}()
	start := time.Now()
	if err := srv.Shutdown(sctx, hs); err != nil {
		log.Warn("drain cut short", "err", err.Error(), "after", time.Since(start).String())
	} else {
		log.Info("drained", "after", time.Since(start).String())
	}
	return 0
}

// storeName describes the store without a password.
func storeName(db string) string {
	if len(db) > 11 && (db[:11] == "postgres://" || len(db) > 13 && db[:13] == "postgresql://") {
		return "postgresql"
	}
	return "sqlite " + db
}

// proxiesFlag is --trusted-proxy: CIDRs, comma-separated, the flag given
// once or more.
type proxiesFlag struct {
	list []string
	p    httpx.Proxies
}

func (f *proxiesFlag) String() string { return strings.Join(f.list, ",") }

func (f *proxiesFlag) Set(v string) error {
	p, err := httpx.ParseProxies(strings.Join(append(slices.Clone(f.list), v), ","))
	if err != nil {
		return err
	}
	f.list, f.p = append(f.list, v), p
	return nil
}
