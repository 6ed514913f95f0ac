package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	_ "modernc.org/sqlite"             // database/sql driver "sqlite", pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// DefaultPath is the SQLite file Open uses for an empty dsn.
const DefaultPath = "pitch.db"

// Open opens (and creates or migrates as needed) the store named by dsn:
//
//   - "" — SQLite in DefaultPath;
//   - a file path, "file:PATH", "sqlite:PATH" or "sqlite://PATH" — SQLite
//     in that file, created on first start (its directory must exist);
//   - "postgres://…" or "postgresql://…" — PostgreSQL, by URL (pgx's
//     parameters apply, e.g. sslmode, search_path; connect_timeout is 10
//     seconds unless the URL says otherwise).
//
// Errors name the database (without any password) and say what is wrong,
// e.g. "store: open /srv/pitch.db: the database file is read-only (…)".
func Open(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	c := configure(opts)
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return openPostgres(ctx, dsn, c)
	case strings.HasPrefix(dsn, "sqlite://"):
		return openSQLite(ctx, strings.TrimPrefix(dsn, "sqlite://"), c)
	case strings.HasPrefix(dsn, "sqlite:"):
		return openSQLite(ctx, strings.TrimPrefix(dsn, "sqlite:"), c)
	case strings.HasPrefix(dsn, "file:"):
		return openSQLite(ctx, strings.TrimPrefix(dsn, "file:"), c)
	case dsn == "":
		return openSQLite(ctx, DefaultPath, c)
	}
	if scheme, _, ok := strings.Cut(dsn, "://"); ok && !strings.ContainsAny(scheme, `/\`) {
		return nil, fmt.Errorf("store: open %s: unsupported database %q (want a SQLite file path or a postgres:// URL)", redact(dsn), scheme)
	}
	return openSQLite(ctx, dsn, c)
}

// redact is a database URL fit for a message: without its password.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		if i := strings.LastIndex(dsn, "@"); i >= 0 && strings.Contains(dsn, "://") {
			return dsn[:strings.Index(dsn, "://")+3] + "…" + dsn[i:]
		}
		return dsn
	}
	return u.Redacted()
}

func openPostgres(ctx context.Context, dsn string, c config) (Store, error) {
	name := redact(dsn)
	fail := func(format string, args ...any) (Store, error) {
		return nil, fmt.Errorf("store: open %s: "+format, append([]any{name}, args...)...)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return fail("bad URL (%v)", errors.Unwrap(err))
	}
	if q := u.Query(); q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", "10")
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	db, err := sql.Open("pgx", dsn)
	if err == nil {
		// Bounded, so a busy server queues for connections instead of
		// using up the database's max_connections (100 by default); and
		// kept once opened: with fewer idle ones allowed than open, a busy
		// server closed and reopened connections by the hundred, each a
		// new PostgreSQL process, and every action waited behind them
		// (p99 0.67 s at 1,000 tables; 38–79 ms kept: performance.md).
		db.SetMaxOpenConns(20)
		db.SetMaxIdleConns(20)
	}
	if err != nil {
		return fail("%w", err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return fail("cannot connect to PostgreSQL: %w", err)
	}
	if err := migrate(ctx, db, postgresDialect); err != nil {
		db.Close()
		return fail("%w", err)
	}
	var schema string
	if err := db.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		db.Close()
		return fail("%w", err)
	}
	// Notification channels are the database's, not the schema's: one per
	// schema, so that pitch sites (or tests) in other schemas do not hear
	// each other.
	bw, err := sql.Open("pgx", dsn)
	if err != nil {
		db.Close()
		return fail("%w", err)
	}
	bw.SetMaxOpenConns(1)
	bw.SetMaxIdleConns(1)
	st := &sqlStore{d: postgresDialect, w: db, r: db, bw: bw, dsn: dsn, channel: "pitch:" + schema}
	st.batch = newBatcher(st, c.window) // group commit here too: one WAL flush per batch
	return st, nil
}

// SQLite: one writer connection whose transactions are BEGIN IMMEDIATE, so
// concurrent writers queue in the pool instead of failing with SQLITE_BUSY,
// and a pool of readers, which WAL lets run beside the writer. Every commit
// is synced (synchronous=FULL), so an accepted action survives kill -9 and
// power loss. busy_timeout covers other processes on the same file.
const (
	sqliteCommon = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	// The writer's journal mode is set by initSQLite, after the page
	// size (the driver runs a DSN's pragmas in alphabetical order, and
	// turning a new file to WAL fixes its page size).
	sqliteWriter = sqliteCommon + "&_pragma=synchronous(FULL)&_txlock=immediate"
	// Readers also map the file: see readerMmap.
	sqliteReader = sqliteCommon + "&_pragma=query_only(1)"
	// sqliteShared is the writer of OpenShared, which sets no journal
	// mode: a file the server made is in WAL already, and any other is
	// refused (checkSchema) without being written to.
	sqliteShared = sqliteCommon + "&_pragma=synchronous(FULL)&_txlock=immediate"
)

// OpenShared opens the store named by dsn (as Open does) for an
// operator's short command beside a running server (`pitch user`): a
// SQLite database is opened without its lock (lock_unix.go), which the
// server holds, and the two processes take turns to write (WAL, and
// each waits up to busy_timeout for the other's transaction); it is not
// migrated (the server's binary did that), and one whose schema lacks a
// migration this binary knows is refused. PostgreSQL is opened as Open
// does. The server acts on what such a command changes as it would on
// another process's change: see docs/accounts.md, Operators.
func OpenShared(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	c := configure(opts)
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return openPostgres(ctx, dsn, c)
	case strings.HasPrefix(dsn, "sqlite://"):
		dsn = strings.TrimPrefix(dsn, "sqlite://")
	case strings.HasPrefix(dsn, "sqlite:"):
		dsn = strings.TrimPrefix(dsn, "sqlite:")
	case strings.HasPrefix(dsn, "file:"):
		dsn = strings.TrimPrefix(dsn, "file:")
	case dsn == "":
		dsn = DefaultPath
	}
	return openSQLiteWith(ctx, dsn, true, c)
}

func openSQLite(ctx context.Context, path string, c config) (Store, error) {
	return openSQLiteWith(ctx, path, false, c)
}

// openSQLiteWith opens the SQLite database at path; shared: beside the
// process that holds its lock (OpenShared).
func openSQLiteWith(ctx context.Context, path string, shared bool, c config) (Store, error) {
	if path == "" {
		path = DefaultPath
	}
	fail := func(format string, args ...any) (Store, error) {
		return nil, fmt.Errorf("store: open %s: "+format, append([]any{path}, args...)...)
	}
	if strings.ContainsAny(path, "?#") {
		return fail("a SQLite path may not contain ? or # (options are set by the store)")
	}
	unlock := func() {}
	if shared {
		if _, err := os.Stat(path); err != nil { // not made: a server has made it
			return fail("%w", err)
		}
	} else {
		if err := checkWritable(path); err != nil {
			return fail("%w", err)
		}
		u, err := lockSQLite(path)
		if err != nil {
			return fail("%w", err)
		}
		unlock = u
	}
	ok := false
	defer func() {
		if !ok {
			unlock()
		}
	}()

	// Counted (iocount.go): the counters are made before the files are
	// opened, so that the VFS finds them.
	_, io := ioCounter(countingPath(path))
	io0 := io.read()
	vfs := ""
	if name := countingVFS(); name != "" {
		vfs = "&vfs=" + name
	}
	dsn := path + "?" + sqliteWriter + vfs
	if shared {
		dsn = path + "?" + sqliteShared + vfs // WAL already: the server's
	}
	// The writer sets the database up (or checks it), and is then opened
	// again with a wal_autocheckpoint that suits its page size, which it
	// then knows: a connection's setting, in the DSN so that any
	// connection the pool makes has it.
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return fail("%w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	var pageSize int64
	sqliteInit.Lock()
	if shared {
		err = checkSchema(ctx, w)
	} else {
		err = initSQLite(ctx, w)
	}
	if err == nil {
		err = w.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize)
	}
	if err == nil {
		err = w.Close()
	} else {
		w.Close()
	}
	sqliteInit.Unlock()
	if err != nil {
		return fail("%w", explainSQLite(err))
	}
	if w, err = sql.Open("sqlite", dsn+walLimits(pageSize)); err != nil {
		return fail("%w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	r, err := sql.Open("sqlite", path+"?"+sqliteReader+readerMmap()+vfs)
	if err != nil {
		w.Close()
		return fail("%w", err)
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	if err := r.PingContext(ctx); err != nil {
		w.Close()
		r.Close()
		return fail("%w", explainSQLite(err))
	}
	st := &sqlStore{d: sqliteDialect, w: w, r: r, bw: w, unlock: unlock, io: io, io0: io0, pageSize: pageSize}
	if err := w.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&st.autockpt); err != nil {
		w.Close()
		r.Close()
		return fail("%w", explainSQLite(err))
	}
	if err := st.prepareKept(ctx); err != nil {
		w.Close()
		r.Close()
		return fail("%w", explainSQLite(err))
	}
	st.batch = newBatcher(st, c.window)
	ok = true
	return st, nil
}

// checkSchema refuses a database (opened shared) that lacks a migration
// this binary knows: its server runs an older pitch, or never served it.
func checkSchema(ctx context.Context, w *sql.DB) error {
	ms, err := migrations(sqliteDialect.name)
	if err != nil {
		return err
	}
	var mode string
	if err := w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("the database is not in WAL mode (%s), as pitch serve leaves it: serve it once with pitch serve", mode)
	}
	var have int
	if err := w.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("the database has no pitch schema (%w): serve it once with pitch serve", err)
	}
	if want := ms[len(ms)-1].version; have < want {
		return fmt.Errorf("the database's schema is at migration %d, this pitch's at %d: run the pitch of the server that uses it, or restart that server with this one", have, want)
	}
	return nil
}

// sqliteInit lets one SQLite open of this process at a time set up its
// writer: turning a new file to WAL is a lock upgrade that SQLite answers
// with SQLITE_BUSY at once, without waiting busy_timeout, when another
// connection of the same file is doing the same (opens in one process
// share the file's lock, lockSQLite, so they can race there).
var sqliteInit sync.Mutex

// readerMmap is the readers' mmap_size: they map up to 256 MiB of the
// database file (address space; the pages are the kernel's page cache),
// so that a page not in SQLite's cache is read without a system call.
// With 1 KiB pages (newPageSize) such reads come four times as often as
// with 4 KiB: the leaderboard's pages took 2 to 5 times as long unmapped
// (docs/performance.md). None on 32-bit systems, short of address space.
func readerMmap() string {
	if strconv.IntSize < 64 {
		return ""
	}
	return "&_pragma=mmap_size(268435456)"
}

// SQLite's pages and WAL (issue 41; docs/performance.md, Store bytes
// and fsyncs per action). Each commit writes every page it changed,
// whole, to the WAL, and an action changes a few (its table's end of the
// events index, the events table's last page, the header): with 1 KiB
// pages an action wrote 2.0 KiB where 4 KiB pages, SQLite's default,
// made it 5.4 KiB (BenchmarkWrite/sqlite/append). A database made with
// 4 KiB pages keeps them (in WAL mode only a VACUUM out of WAL changes a
// page size: docs/deploy.md).
// The WAL is copied back into the main file (a checkpoint) once it holds
// walCheckpointBytes: each page once however often it changed, so a
// bigger WAL writes fewer bytes, and it is bounded; journalLimit
// truncates it back should it ever grow past that (a checkpoint held
// off by long reads).
const (
	newPageSize        = 1024
	walCheckpointBytes = 8 << 20
	journalLimit       = 2 * walCheckpointBytes
)

// walLimits is the writer's DSN parameters for the WAL of a database
// with pages of pageSize bytes.
func walLimits(pageSize int64) string {
	if pageSize <= 0 {
		pageSize = 4096
	}
	return fmt.Sprintf("&_pragma=wal_autocheckpoint(%d)&_pragma=journal_size_limit(%d)", walCheckpointBytes/pageSize, journalLimit)
}

// initSQLite sets a new database's page size (newPageSize) and WAL
// mode, checks the writer's settings took, and migrates.
func initSQLite(ctx context.Context, w *sql.DB) error {
	if _, err := w.ExecContext(ctx, fmt.Sprintf("PRAGMA page_size = %d", newPageSize)); err != nil {
		return err // a database's page size once made is kept: a no-op then
	}
	var mode string
	if err := w.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal_mode is %q, not wal (is the file system one SQLite can use WAL on?)", mode)
	}
	var sync int
	if err := w.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
		return err
	}
	if sync != 2 {
		return fmt.Errorf("synchronous is %d, not 2 (FULL)", sync)
	}
	return migrate(ctx, w, sqliteDialect)
}

// checkWritable refuses, with a clear message, a database file or
// directory that is read-only or cannot be written. It honours a file's
// or directory's missing owner write bit even for root, who would
// otherwise write to it regardless: a file made read-only was made so on
// purpose. A missing file is created (empty, which SQLite takes for an
// empty database) so that a directory we cannot write fails here.
func checkWritable(path string) error {
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("the database directory is not usable (%w)", err)
	case !di.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case di.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("the database directory %s is read-only (mode %04o); SQLite needs to create its -wal and -shm files beside the database", dir, di.Mode().Perm())
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil && !errors.Is(err, fs.ErrExist) { // another process may have just made it
			return fmt.Errorf("cannot create the database file (%w)", err)
		}
		if err == nil {
			f.Close()
		}
	case err != nil:
		return fmt.Errorf("cannot stat the database file (%w)", err)
	case fi.IsDir():
		return errors.New("it is a directory, not a database file")
	case fi.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("the database file is read-only (mode %04o)", fi.Mode().Perm())
	default:
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("the database file is read-only (%w)", err)
		}
		f.Close()
	}
	// The directory must take new files for the WAL, also for a user
	// that is not its owner.
	probe, err := os.CreateTemp(dir, ".pitch-probe-*")
	if err != nil {
		return fmt.Errorf("the database directory %s is read-only (%w); SQLite needs to create its -wal and -shm files beside the database", dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// explainSQLite says in words what the SQLite error codes that a bad file
// gives mean.
func explainSQLite(err error) error {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("the database file is read-only (%w)", err)
	case sqlite3.SQLITE_CANTOPEN:
		return fmt.Errorf("cannot open the database file or its -wal/-shm files (%w)", err)
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("the file is not a SQLite database (%w)", err)
	case sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("the database file is corrupt (%w)", err)
	case sqlite3.SQLITE_BUSY:
		return fmt.Errorf("the database is locked by another process for too long (%w)", err)
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("the disk is full (%w)", err)
	}
	return err
}

// timeNow is time.Now, normalised as stored.
func timeNow() time.Time { return normTime(time.Now()) }
