// Command iofloor measures the floor this machine sets under one pitch
// action's socket work (issue 41; docs/performance.md, "The floor on this
// machine"): the I/O pattern of an action and nothing else, no game, no
// JSON, no store.
//
// A server process pinned to CPU 0 (taskset -c 0, so GOMAXPROCS 1, as
// tools/pinned-load.sh runs pitch serve) accepts TABLES×SEATS loopback
// TCP connections from a client process pinned to CPU 1, a goroutine
// reading each, as the real server has. For each action one client of a
// table writes a small message (IN bytes on the wire: a masked client
// frame in the WebSocket modes); the server reads it through Go's net
// poller and writes one message (OUT bytes on the wire) to each of the
// table's SEATS connections, each its own write system call; the clients
// read them. A table's seats act in turn, THINK after each action is
// confirmed (every seat has its message); THINK 0 runs flat out.
//
// Modes (-mode):
//
//	raw  plain TCP: IN bytes in, OUT bytes out, no framing
//	ws   WebSocket frames by hand: the client's masked (a 6-byte header),
//	     unmasked by the server; the server's with a 4-byte header, built
//	     per connection; no handshake (it is not per action)
//	lib  github.com/coder/websocket, the server's library (HTTP upgrade,
//	     then Conn.Read and Conn.Write, compression off)
//
// -spawn writes each connection's message on a goroutine started for it,
// as the real server starts a writer per connection for each burst
// (server/play/ws.go, flushQueue), instead of on the reader's goroutine.
//
// The tool starts both processes itself (it runs itself with -role) and,
// when the client says play begins (after -warmup) and ends (after
// -duration), reads the server's /proc/PID/stat (utime+stime),
// /proc/PID/io (wchar) and the run delay of its threads
// (/proc/PID/task/*/schedstat: runnable, waiting for CPU 0). It prints
// one line: the actions confirmed, the server's CPU and bytes written per
// action, its share of its core, how often its threads slept (voluntary
// context switches: each a wait for work, and a wake-up after it) per
// action, and the client's CPU per action.
//
//	go -C tools build -o /tmp/iofloor ./iofloor
//	/tmp/iofloor -mode ws -tables 500 -think 1s -duration 25s
//	/tmp/iofloor -mode ws -tables 500 -think 0 -duration 25s
//
// Linux only (taskset, /proc).
package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

var (
	role      = flag.String("role", "", "internal: server or client (empty: run both, pinned, and report)")
	mode      = flag.String("mode", "ws", "raw, ws or lib (see the package comment)")
	spawn     = flag.Bool("spawn", false, "write each connection's message on a goroutine of its own")
	tables    = flag.Int("tables", 500, "tables")
	seats     = flag.Int("seats", 5, "connections a table")
	think     = flag.Duration("think", time.Second, "pause after each confirmed action (0: flat out)")
	duration  = flag.Duration("duration", 25*time.Second, "measured play")
	warmup    = flag.Duration("warmup", 3*time.Second, "play before the measuring begins")
	inSize    = flag.Int("in", 60, "bytes of a client's action on the wire (headers included)")
	outSize   = flag.Int("out", 470, "bytes of each message the server writes on the wire (headers included)")
	addr      = flag.String("addr", "", "internal: the server's address (client)")
	serverCPU = flag.String("server-cpu", "0", "the CPU the server is pinned to")
	clientCPU = flag.String("client-cpu", "1", "the CPU the client is pinned to")
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("iofloor: ")
	flag.Parse()
	if *mode != "raw" && *mode != "ws" && *mode != "lib" {
		log.Fatalf("-mode %q: want raw, ws or lib", *mode)
	}
	if (*mode != "raw" && *inSize < 7) || (*mode == "ws" && (*inSize > 131 || *outSize < 130 || *outSize > 65539)) {
		log.Fatalf("-in %d / -out %d do not fit the frames (ws: 7 ≤ in ≤ 131, 130 ≤ out ≤ 65539)", *inSize, *outSize)
	}
	switch *role {
	case "server":
		serve()
	case "client":
		play()
	case "":
		run()
	default:
		log.Fatalf("-role %q: want server or client", *role)
	}
}

// Payload sizes: what the library or our framing adds comes off the
// sizes on the wire (client frames: 2-byte header and 4-byte mask under
// 126 bytes; server frames: 4-byte header from 126 to 65535 bytes).
func inPayload() int {
	if *mode == "raw" {
		return *inSize
	}
	return *inSize - 6
}

func outPayload() int {
	if *mode == "raw" {
		return *outSize
	}
	return *outSize - 4
}

// ---- the orchestrator ----

// sample is the server's counters at one moment.
type sample struct {
	at     time.Time
	ticks  int64 // utime+stime, clock ticks
	wchar  int64
	waitNs int64 // its threads' run delay
	sleeps int64 // its threads' voluntary context switches: waits for work
}

func read(pid int) (sample, error) {
	s := sample{at: time.Now()}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return s, err
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:])) // f[0] is field 3
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	s.ticks = ut + st
	b, err = os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return s, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			s.wchar, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	for _, t := range tasks {
		if b, err := os.ReadFile(t + "/schedstat"); err == nil {
			if f := strings.Fields(string(b)); len(f) > 1 {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				s.waitNs += n
			}
		}
		if b, err := os.ReadFile(t + "/status"); err == nil {
			for line := range strings.Lines(string(b)) {
				if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
					n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
					s.sleeps += n
				}
			}
		}
	}
	return s, nil
}

// run starts the server and the client, each pinned, and reports.
func run() {
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	args := func(r string) []string {
		return []string{"-role", r, "-mode", *mode, "-spawn=" + strconv.FormatBool(*spawn),
			"-tables", strconv.Itoa(*tables), "-seats", strconv.Itoa(*seats), "-think", think.String(),
			"-duration", duration.String(), "-warmup", warmup.String(),
			"-in", strconv.Itoa(*inSize), "-out", strconv.Itoa(*outSize)}
	}
	srv := exec.Command("taskset", append([]string{"-c", *serverCPU, self}, args("server")...)...)
	srv.Stderr = os.Stderr
	srv.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // should this process die first
	sout, err := srv.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		log.Fatal(err)
	}
	var cl *exec.Cmd
	fatalf := func(format string, args ...any) { // without leaving the processes behind
		if cl != nil && cl.Process != nil {
			_ = cl.Process.Kill()
		}
		_ = srv.Process.Kill()
		log.Fatalf(format, args...)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	line, err := bufio.NewReader(sout).ReadString('\n')
	if err != nil {
		fatalf("the server did not start: %v", err)
	}
	a, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if !ok {
		fatalf("the server said %q", line)
	}
	cl = exec.Command("taskset", append([]string{"-c", *clientCPU, self}, append(args("client"), "-addr", a)...)...)
	cl.Stderr = os.Stderr
	cl.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cout, err := cl.StdoutPipe()
	if err != nil {
		fatalf("%v", err)
	}
	load0, _ := os.ReadFile("/proc/loadavg")
	if err := cl.Start(); err != nil {
		fatalf("%v", err)
	}
	var begin, end sample
	var result string
	sc := bufio.NewScanner(cout)
	for sc.Scan() {
		switch l := sc.Text(); {
		case l == "begin":
			begin, err = read(srv.Process.Pid)
		case strings.HasPrefix(l, "end "):
			end, err = read(srv.Process.Pid)
			result = l
		}
		if err != nil {
			fatalf("the server's counters: %v", err)
		}
	}
	if err := cl.Wait(); err != nil || result == "" {
		fatalf("the client failed: %v", err)
	}
	load1, _ := os.ReadFile("/proc/loadavg")
	var actions, clientNs, rttNs int64
	if _, err := fmt.Sscanf(result, "end %d %d %d", &actions, &clientNs, &rttNs); err != nil || actions == 0 {
		fatalf("the client said %q (%v)", result, err)
	}
	secs := end.at.Sub(begin.at).Seconds()
	cpu := float64(end.ticks-begin.ticks) / 100 // CLK_TCK is 100 on Linux
	name := *mode
	if *spawn {
		name += "+spawn"
	}
	fmt.Printf("iofloor %s: %d tables × %d, think %s, in %d B, out %d B; load %s → %s\n", name, *tables, *seats, *think,
		*inSize, *outSize, strings.Join(strings.Fields(string(load0))[:3], " "), strings.Join(strings.Fields(string(load1))[:3], " "))
	fmt.Printf("  %d actions in %.1f s (%.0f/s); server CPU %.1f µs an action (%.0f%% of its core, waited %.1f s for it); "+
		"server wrote %.0f B an action, slept %.2f times an action; client CPU %.1f µs an action; round trip %.2f ms\n",
		actions, secs, float64(actions)/secs, cpu*1e6/float64(actions), cpu*100/secs, float64(end.waitNs-begin.waitNs)/1e9,
		float64(end.wchar-begin.wchar)/float64(actions), float64(end.sleeps-begin.sleeps)/float64(actions), float64(clientNs)/1e3/float64(actions), float64(rttNs)/1e6/float64(actions))
}

// ---- the server ----

// srvConn is one connection as the server sees it.
type srvConn interface {
	readMsg() error                // the next action (its bytes are dropped)
	writeMsg(payload []byte) error // one message, one write
}

// srvTable is a table's connections.
type srvTable struct {
	mu    sync.Mutex
	conns []srvConn
}

var srvTables []*srvTable

func serve() {
	srvTables = make([]*srvTable, *tables)
	for i := range srvTables {
		srvTables[i] = &srvTable{conns: make([]srvConn, *seats)}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening %s\n", ln.Addr())
	if *mode == "lib" {
		log.Fatal(http.Serve(ln, http.HandlerFunc(libAccept)))
	}
	for {
		nc, err := ln.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go func() {
			br := bufio.NewReaderSize(nc, 512) // the real server's read buffer
			var hello [4]byte
			if _, err := io.ReadFull(br, hello[:]); err != nil {
				return
			}
			var c srvConn
			if *mode == "raw" {
				c = &rawSrv{nc: nc, br: br, buf: make([]byte, *inSize)}
			} else {
				c = &wsSrv{nc: nc, br: br, in: make([]byte, 125)}
			}
			t, s := int(binary.BigEndian.Uint16(hello[:])), int(hello[2])
			if !register(t, s, c) {
				return
			}
			if _, err := nc.Write([]byte{1}); err != nil { // registered
				return
			}
			serveConn(t, c)
		}()
	}
}

func register(t, s int, c srvConn) bool {
	if t >= len(srvTables) || s >= *seats {
		return false
	}
	st := srvTables[t]
	st.mu.Lock()
	st.conns[s] = c
	st.mu.Unlock()
	return true
}

// serveConn reads c's actions and answers each with a message to every
// seat of table t.
func serveConn(t int, c srvConn) {
	payload := make([]byte, outPayload())
	for i := range payload {
		payload[i] = 'a' + byte(i%26)
	}
	st := srvTables[t]
	var conns []srvConn
	for {
		if err := c.readMsg(); err != nil {
			return
		}
		st.mu.Lock() // as a table's lock is held (the conns are read under it)
		conns = append(conns[:0], st.conns...)
		st.mu.Unlock()
		for _, o := range conns {
			if *spawn {
				go func() { _ = o.writeMsg(payload) }()
			} else if err := o.writeMsg(payload); err != nil {
				return
			}
		}
	}
}

// rawSrv is a plain TCP connection: IN bytes in, OUT bytes out.
type rawSrv struct {
	nc  net.Conn
	br  *bufio.Reader
	buf []byte
}

func (c *rawSrv) readMsg() error { _, err := io.ReadFull(c.br, c.buf); return err }

func (c *rawSrv) writeMsg(p []byte) error { _, err := c.nc.Write(p); return err }

// wsSrv speaks WebSocket frames, by hand.
type wsSrv struct {
	nc  net.Conn
	br  *bufio.Reader
	in  []byte
	mu  sync.Mutex // out: -spawn writes a table's messages at once
	out []byte
}

// readMsg reads a masked text frame of under 126 bytes and unmasks it.
func (c *wsSrv) readMsg() error {
	var h [6]byte
	if _, err := io.ReadFull(c.br, h[:]); err != nil {
		return err
	}
	n := int(h[1] & 0x7f)
	if h[0] != 0x81 || h[1]&0x80 == 0 || n >= 126 {
		return errors.New("not a masked text frame under 126 bytes")
	}
	p := c.in[:n]
	if _, err := io.ReadFull(c.br, p); err != nil {
		return err
	}
	for i := range p {
		p[i] ^= h[2+i&3]
	}
	return nil
}

// writeMsg frames p (126 to 65535 bytes) and writes it.
func (c *wsSrv) writeMsg(p []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out = append(c.out[:0], 0x81, 126, byte(len(p)>>8), byte(len(p)))
	c.out = append(c.out, p...)
	_, err := c.nc.Write(c.out)
	return err
}

// libSrv is a coder/websocket connection.
type libSrv struct{ ws *websocket.Conn }

func (c *libSrv) readMsg() error {
	_, _, err := c.ws.Read(context.Background())
	return err
}

func (c *libSrv) writeMsg(p []byte) error {
	return c.ws.Write(context.Background(), websocket.MessageText, p)
}

func libAccept(w http.ResponseWriter, r *http.Request) {
	t, err1 := strconv.Atoi(r.URL.Query().Get("t"))
	s, err2 := strconv.Atoi(r.URL.Query().Get("s"))
	if err1 != nil || err2 != nil {
		http.Error(w, "t and s", http.StatusBadRequest)
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return
	}
	ws.SetReadLimit(1 << 20)
	c := &libSrv{ws: ws}
	if !register(t, s, c) || ws.Write(context.Background(), websocket.MessageBinary, []byte{1}) != nil {
		ws.CloseNow()
		return
	}
	serveConn(t, c) // on the handler's goroutine: one a connection
}

// ---- the client ----

// cliConn is one connection as a client sees it.
type cliConn interface {
	send() error // an action
	recv() error // the server's next message
}

func play() {
	var (
		wg      sync.WaitGroup
		sem     = make(chan struct{}, 64) // connections being made at once
		ts      = make([][]cliConn, *tables)
		failed  atomic.Int64
		connect = func(t, s int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			c, err := dial(t, s)
			if err != nil {
				if failed.Add(1) == 1 {
					log.Printf("connect: %v", err)
				}
				return
			}
			ts[t][s] = c
		}
	)
	for t := range ts {
		ts[t] = make([]cliConn, *seats)
		for s := range ts[t] {
			wg.Add(1)
			go connect(t, s)
		}
	}
	wg.Wait()
	if failed.Load() > 0 {
		log.Fatalf("%d connections failed", failed.Load())
	}
	var actions, rtt atomic.Int64
	for t := range ts {
		go table(ts[t], &actions, &rtt)
	}
	time.Sleep(*warmup)
	a0, r0, c0 := actions.Load(), rtt.Load(), cpuNs()
	fmt.Println("begin")
	time.Sleep(*duration)
	a1, r1, c1 := actions.Load(), rtt.Load(), cpuNs()
	fmt.Printf("end %d %d %d\n", a1-a0, c1-c0, r1-r0)
}

// table plays one table: its seats act in turn, each action confirmed
// once every seat has the server's message.
func table(cs []cliConn, actions, rtt *atomic.Int64) {
	got := make(chan error, len(cs))
	for _, c := range cs {
		go func() {
			for {
				got <- c.recv()
			}
		}()
	}
	if *think > 0 { // the tables' turns spread over a think
		time.Sleep(rand.N(*think))
	}
	for turn := 0; ; turn++ {
		t0 := time.Now()
		if err := cs[turn%len(cs)].send(); err != nil {
			log.Fatalf("send: %v", err)
		}
		for range cs {
			if err := <-got; err != nil {
				log.Fatalf("recv: %v", err)
			}
		}
		rtt.Add(int64(time.Since(t0)))
		actions.Add(1)
		if *think > 0 {
			time.Sleep(*think)
		}
	}
}

func cpuNs() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		log.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func dial(t, s int) (cliConn, error) {
	if *mode == "lib" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://%s/?t=%d&s=%d", *addr, t, s),
			&websocket.DialOptions{CompressionMode: websocket.CompressionDisabled})
		if err != nil {
			return nil, err
		}
		ws.SetReadLimit(1 << 20)
		if _, _, err := ws.Read(context.Background()); err != nil { // registered
			return nil, err
		}
		return &libCli{ws: ws, msg: make([]byte, inPayload())}, nil
	}
	nc, err := net.DialTimeout("tcp", *addr, 30*time.Second)
	if err != nil {
		return nil, err
	}
	var hello [4]byte
	binary.BigEndian.PutUint16(hello[:], uint16(t))
	hello[2] = byte(s)
	if _, err := nc.Write(hello[:]); err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(nc, hello[:1]); err != nil {
		return nil, err
	}
	c := &rawCli{nc: nc, br: bufio.NewReaderSize(nc, 4096)}
	if *mode == "raw" {
		c.msg, c.in = make([]byte, *inSize), make([]byte, *outSize)
	} else {
		c.ws = true
		c.msg, c.in = make([]byte, *inSize), make([]byte, outPayload())
	}
	return c, nil
}

// rawCli is a client of modes raw and ws.
type rawCli struct {
	nc  net.Conn
	br  *bufio.Reader
	ws  bool
	msg []byte // the action on the wire
	in  []byte
}

func (c *rawCli) send() error {
	if c.ws { // a masked text frame, a new mask each time
		n := len(c.msg) - 6
		c.msg[0], c.msg[1] = 0x81, 0x80|byte(n)
		binary.LittleEndian.PutUint32(c.msg[2:6], rand.Uint32())
		for i := range n {
			c.msg[6+i] = ('a' + byte(i%26)) ^ c.msg[2+i&3]
		}
	}
	_, err := c.nc.Write(c.msg)
	return err
}

func (c *rawCli) recv() error {
	if c.ws {
		var h [4]byte
		if _, err := io.ReadFull(c.br, h[:]); err != nil {
			return err
		}
		if n := int(h[2])<<8 | int(h[3]); h[0] != 0x81 || h[1] != 126 || n != len(c.in) {
			return fmt.Errorf("unexpected frame % x", h)
		}
	}
	_, err := io.ReadFull(c.br, c.in)
	return err
}

// libCli is a coder/websocket client.
type libCli struct {
	ws  *websocket.Conn
	msg []byte
}

func (c *libCli) send() error {
	return c.ws.Write(context.Background(), websocket.MessageText, c.msg)
}

func (c *libCli) recv() error {
	_, _, err := c.ws.Read(context.Background())
	return err
}
