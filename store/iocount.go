package store

// What SQLite writes, counted: a VFS ("pitch") that wraps the default
// one and counts, for each database, the bytes written to its main file
// and to its WAL, and the syncs (fsync) of each, as SQLite asks for
// them (so exactly what reaches the kernel's write and fsync calls).
// The store's SQLite connections open through it (open.go); the counts
// are in IOStats (the server's /api/stats, BenchmarkWrite).

import (
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// IOStats is what a store has written since it was opened: SQLite's
// main file and WAL (zero on PostgreSQL, whose server writes), and the
// store's commits and writes (a write being one call such as Append,
// nearly always one per accepted action), so that bytes and syncs per
// commit and per action follow.
type IOStats struct {
	DBBytes    int64 `json:"db_bytes"`    // written to the main database file (checkpoints)
	DBSyncs    int64 `json:"db_syncs"`    // fsyncs of the main database file
	WALBytes   int64 `json:"wal_bytes"`   // written to the WAL (each commit's pages, whole)
	WALSyncs   int64 `json:"wal_syncs"`   // fsyncs of the WAL (one a commit, synchronous=FULL)
	OtherBytes int64 `json:"other_bytes"` // written to the database's other files (a rollback journal)
	Commits    int64 `json:"commits"`     // the store's transactions for writes (group commits)
	Writes     int64 `json:"writes"`      // the writes those carried
	PageSize   int64 `json:"page_size"`   // the database's page size in bytes
	// Checkpoint is wal_autocheckpoint: the WAL is copied back into the
	// main file once it holds this many pages.
	Checkpoint int64 `json:"autocheckpoint"`
}

// IOCounter is a store that counts its writes (every store Open returns).
type IOCounter interface {
	// IO is what the store has written since it was opened.
	IO() IOStats
}

// ioCount is one database's counters.
type ioCount struct {
	dbBytes, dbSyncs, walBytes, walSyncs, otherBytes atomic.Int64
}

// read is c's counts (no commits, writes or settings).
func (c *ioCount) read() IOStats {
	if c == nil {
		return IOStats{}
	}
	return IOStats{DBBytes: c.dbBytes.Load(), DBSyncs: c.dbSyncs.Load(), WALBytes: c.walBytes.Load(),
		WALSyncs: c.walSyncs.Load(), OtherBytes: c.otherBytes.Load()}
}

// IO implements IOCounter.
func (s *sqlStore) IO() IOStats {
	st := s.io.read()
	st.DBBytes -= s.io0.DBBytes
	st.DBSyncs -= s.io0.DBSyncs
	st.WALBytes -= s.io0.WALBytes
	st.WALSyncs -= s.io0.WALSyncs
	st.OtherBytes -= s.io0.OtherBytes
	if s.batch != nil {
		st.Commits, st.Writes = s.batch.tries.Load(), s.batch.writes.Load()
	}
	st.PageSize, st.Checkpoint = s.pageSize, s.autockpt
	return st
}

// The counters of the databases opened through the VFS, by the full path
// of the main file; a file's index in ioList is kept in its shim (C
// memory holds no Go pointer).
var (
	ioMu    sync.Mutex
	ioPaths = map[string]int64{}
	ioList  atomic.Pointer[[]*ioCount]
)

// ioCounter is the counters of the database at path, made on first use.
func ioCounter(path string) (int64, *ioCount) {
	ioMu.Lock()
	defer ioMu.Unlock()
	list := ioList.Load()
	if i, ok := ioPaths[path]; ok {
		return i, (*list)[i]
	}
	var next []*ioCount
	if list != nil {
		next = append(next, *list...)
	}
	c := &ioCount{}
	next = append(next, c)
	ioList.Store(&next)
	ioPaths[path] = int64(len(next) - 1)
	return int64(len(next) - 1), c
}

// countingPath is the key of the database at path in ioPaths, as the
// VFS will be given it: absolute, with symbolic links resolved (as
// SQLite's unix VFS resolves them).
func countingPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// countingVFS is the name of the counting VFS, registered on first use
// ("" if it could not be).
func countingVFS() string {
	vfsOnce.Do(registerVFS)
	return vfsName
}

var (
	vfsOnce sync.Once
	vfsName string
	// realVFS is the default VFS, which countingVFS wraps.
	realVFS uintptr
	// methods[v] is the shim's methods for a file whose own methods are
	// of version v (1 to 3): the shim offers no more than the file does.
	methods [4]uintptr
)

// The file the VFS opens: its methods, its counters' index and kind,
// then the default VFS's file.
const (
	shimMethods = 0
	shimIndex   = 8
	shimKind    = 12
	shimReal    = 16
)

// File kinds.
const (
	kindOther = iota
	kindDB
	kindWAL
)

func registerVFS() {
	tls := libc.NewTLS()
	defer tls.Close()
	realVFS = sqlite3.Xsqlite3_vfs_find(tls, 0)
	if realVFS == 0 {
		return
	}
	real := (*sqlite3.Tsqlite3_vfs)(ptr(realVFS))
	name, err := libc.CString("pitch")
	if err != nil {
		return
	}
	p := libc.Xcalloc(tls, 1, libc.Tsize_t(unsafe.Sizeof(sqlite3.Tsqlite3_vfs{})))
	if p == 0 {
		return
	}
	v := (*sqlite3.Tsqlite3_vfs)(ptr(p))
	*v = *real
	v.FpNext = 0
	v.FzName = name
	v.FszOsFile = shimReal + (real.FszOsFile+7)&^7
	v.FxOpen = cfunc(&struct {
		f func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32
	}{shimOpen})
	for ver := int32(1); ver <= 3; ver++ {
		m := libc.Xcalloc(tls, 1, libc.Tsize_t(unsafe.Sizeof(sqlite3.Tsqlite3_io_methods{})))
		if m == 0 {
			return
		}
		*(*sqlite3.Tsqlite3_io_methods)(ptr(m)) = shimMethodsOf(ver)
		methods[ver] = m
	}
	if sqlite3.Xsqlite3_vfs_register(tls, p, 0) != sqlite3.SQLITE_OK {
		return
	}
	vfsName = "pitch"
}

// ptr is the C memory at u (a conversion go vet would take for a Go
// pointer held as a uintptr).
func ptr(u uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&u)) }

// cfunc is the C function pointer of the Go function in the struct at
// f (the transpiled library's convention).
func cfunc[T any](f *T) uintptr { return *(*uintptr)(unsafe.Pointer(f)) }

// realMethods is the default VFS's methods of the shim file p.
func realMethods(p uintptr) *sqlite3.Tsqlite3_io_methods {
	return (*sqlite3.Tsqlite3_io_methods)(ptr(*(*uintptr)(ptr(p + shimReal))))
}

// counter is the counters of the shim file p, and its kind.
func counter(p uintptr) (*ioCount, int32) {
	list := ioList.Load()
	i := *(*int32)(ptr(p + shimIndex))
	if list == nil || i < 0 || int(i) >= len(*list) {
		return nil, kindOther
	}
	return (*list)[i], *(*int32)(ptr(p + shimKind))
}

func shimOpen(tls *libc.TLS, vfs, zName, p uintptr, flags int32, outFlags uintptr) int32 {
	real := (*sqlite3.Tsqlite3_vfs)(ptr(realVFS))
	*(*uintptr)(ptr(p + shimMethods)) = 0
	*(*int32)(ptr(p + shimIndex)) = -1
	rc := (*(*func(*libc.TLS, uintptr, uintptr, uintptr, int32, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{real.FxOpen})))(tls, realVFS, zName, p+shimReal, flags, outFlags)
	rm := *(*uintptr)(ptr(p + shimReal))
	if rm == 0 {
		return rc // no methods: SQLite will not call them
	}
	ver := (*sqlite3.Tsqlite3_io_methods)(ptr(rm)).FiVersion
	ver = min(max(ver, 1), 3)
	*(*uintptr)(ptr(p + shimMethods)) = methods[ver]
	if zName != 0 {
		name := libc.GoString(zName)
		kind := int32(kindOther)
		switch {
		case flags&sqlite3.SQLITE_OPEN_MAIN_DB != 0:
			kind = kindDB
		case flags&sqlite3.SQLITE_OPEN_WAL != 0:
			kind, name = kindWAL, strings.TrimSuffix(name, "-wal")
		default:
			name = strings.TrimSuffix(name, "-journal")
		}
		ioMu.Lock()
		i, ok := ioPaths[name]
		ioMu.Unlock()
		if ok {
			*(*int32)(ptr(p + shimIndex)) = int32(i)
			*(*int32)(ptr(p + shimKind)) = kind
		}
	}
	return rc
}

func shimClose(tls *libc.TLS, p uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxClose})))(tls, p+shimReal)
}

func shimRead(tls *libc.TLS, p, buf uintptr, n int32, off int64) int32 {
	return (*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxRead})))(tls, p+shimReal, buf, n, off)
}

func shimWrite(tls *libc.TLS, p, buf uintptr, n int32, off int64) int32 {
	rc := (*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxWrite})))(tls, p+shimReal, buf, n, off)
	if c, kind := counter(p); c != nil && rc == sqlite3.SQLITE_OK {
		switch kind {
		case kindDB:
			c.dbBytes.Add(int64(n))
		case kindWAL:
			c.walBytes.Add(int64(n))
		default:
			c.otherBytes.Add(int64(n))
		}
	}
	return rc
}

func shimTruncate(tls *libc.TLS, p uintptr, size int64) int32 {
	return (*(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxTruncate})))(tls, p+shimReal, size)
}

func shimSync(tls *libc.TLS, p uintptr, flags int32) int32 {
	rc := (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxSync})))(tls, p+shimReal, flags)
	if c, kind := counter(p); c != nil {
		switch kind {
		case kindDB:
			c.dbSyncs.Add(1)
		case kindWAL:
			c.walSyncs.Add(1)
		}
	}
	return rc
}

func shimFileSize(tls *libc.TLS, p, out uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxFileSize})))(tls, p+shimReal, out)
}

func shimLock(tls *libc.TLS, p uintptr, lock int32) int32 {
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxLock})))(tls, p+shimReal, lock)
}

func shimUnlock(tls *libc.TLS, p uintptr, lock int32) int32 {
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxUnlock})))(tls, p+shimReal, lock)
}

func shimCheckReservedLock(tls *libc.TLS, p, out uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxCheckReservedLock})))(tls, p+shimReal, out)
}

func shimFileControl(tls *libc.TLS, p uintptr, op int32, arg uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr, int32, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxFileControl})))(tls, p+shimReal, op, arg)
}

func shimSectorSize(tls *libc.TLS, p uintptr) int32 {
	f := realMethods(p).FxSectorSize
	if f == 0 {
		return 4096 // SQLITE_DEFAULT_SECTOR_SIZE
	}
	return (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{f})))(tls, p+shimReal)
}

func shimDeviceCharacteristics(tls *libc.TLS, p uintptr) int32 {
	f := realMethods(p).FxDeviceCharacteristics
	if f == 0 {
		return 0
	}
	return (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{f})))(tls, p+shimReal)
}

func shimShmMap(tls *libc.TLS, p uintptr, pg, size, extend int32, out uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr, int32, int32, int32, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxShmMap})))(tls, p+shimReal, pg, size, extend, out)
}

func shimShmLock(tls *libc.TLS, p uintptr, off, n, flags int32) int32 {
	return (*(*func(*libc.TLS, uintptr, int32, int32, int32) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxShmLock})))(tls, p+shimReal, off, n, flags)
}

func shimShmBarrier(tls *libc.TLS, p uintptr) {
	(*(*func(*libc.TLS, uintptr))(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxShmBarrier})))(tls, p+shimReal)
}

func shimShmUnmap(tls *libc.TLS, p uintptr, del int32) int32 {
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxShmUnmap})))(tls, p+shimReal, del)
}

func shimFetch(tls *libc.TLS, p uintptr, off int64, n int32, out uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr, int64, int32, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxFetch})))(tls, p+shimReal, off, n, out)
}

func shimUnfetch(tls *libc.TLS, p uintptr, off int64, page uintptr) int32 {
	return (*(*func(*libc.TLS, uintptr, int64, uintptr) int32)(unsafe.Pointer(&struct{ uintptr }{realMethods(p).FxUnfetch})))(tls, p+shimReal, off, page)
}

// shimMethodsOf is the shim's methods of version ver.
func shimMethodsOf(ver int32) sqlite3.Tsqlite3_io_methods {
	m := sqlite3.Tsqlite3_io_methods{
		FiVersion: ver,
		FxClose: cfunc(&struct {
			f func(*libc.TLS, uintptr) int32
		}{shimClose}),
		FxRead: cfunc(&struct {
			f func(*libc.TLS, uintptr, uintptr, int32, int64) int32
		}{shimRead}),
		FxWrite: cfunc(&struct {
			f func(*libc.TLS, uintptr, uintptr, int32, int64) int32
		}{shimWrite}),
		FxTruncate: cfunc(&struct {
			f func(*libc.TLS, uintptr, int64) int32
		}{shimTruncate}),
		FxSync: cfunc(&struct {
			f func(*libc.TLS, uintptr, int32) int32
		}{shimSync}),
		FxFileSize: cfunc(&struct {
			f func(*libc.TLS, uintptr, uintptr) int32
		}{shimFileSize}),
		FxLock: cfunc(&struct {
			f func(*libc.TLS, uintptr, int32) int32
		}{shimLock}),
		FxUnlock: cfunc(&struct {
			f func(*libc.TLS, uintptr, int32) int32
		}{shimUnlock}),
		FxCheckReservedLock: cfunc(&struct {
			f func(*libc.TLS, uintptr, uintptr) int32
		}{shimCheckReservedLock}),
		FxFileControl: cfunc(&struct {
			f func(*libc.TLS, uintptr, int32, uintptr) int32
		}{shimFileControl}),
		FxSectorSize: cfunc(&struct {
			f func(*libc.TLS, uintptr) int32
		}{shimSectorSize}),
		FxDeviceCharacteristics: cfunc(&struct {
			f func(*libc.TLS, uintptr) int32
		}{shimDeviceCharacteristics}),
	}
	if ver >= 2 {
		m.FxShmMap = cfunc(&struct {
			f func(*libc.TLS, uintptr, int32, int32, int32, uintptr) int32
		}{shimShmMap})
		m.FxShmLock = cfunc(&struct {
			f func(*libc.TLS, uintptr, int32, int32, int32) int32
		}{shimShmLock})
		m.FxShmBarrier = cfunc(&struct{ f func(*libc.TLS, uintptr) }{shimShmBarrier})
		m.FxShmUnmap = cfunc(&struct {
			f func(*libc.TLS, uintptr, int32) int32
		}{shimShmUnmap})
	}
	if ver >= 3 {
		m.FxFetch = cfunc(&struct {
			f func(*libc.TLS, uintptr, int64, int32, uintptr) int32
		}{shimFetch})
		m.FxUnfetch = cfunc(&struct {
			f func(*libc.TLS, uintptr, int64, uintptr) int32
		}{shimUnfetch})
	}
	return m
}
