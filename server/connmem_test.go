package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/loadtest"
	"pitch/server"
	"pitch/store"
)

// memChildEnv, when set, makes the test binary the clients of
// BenchmarkConnMemory instead of running tests: "idle URL N TABLE,…"
// or "play URL N". The clients live in a process of their own so that
// their memory is not counted as the server's.
const memChildEnv = "PITCH_MEMBENCH_CLIENTS"

func TestMain(m *testing.M) {
	if spec := os.Getenv(memChildEnv); spec != "" {
		if err := memClients(spec); err != nil {
			fmt.Fprintln(os.Stderr, "clients:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv("PITCH_MEMBENCH_PROFILE") != "" {
		runtime.MemProfileRate = 1 // every allocation, for the profile BenchmarkConnMemory writes
	}
	os.Exit(m.Run())
}

// memClients runs the clients of BenchmarkConnMemory until its stdin
// closes: idle spectators that said hello and read what they are sent,
// or seats playing pawnee with a second's thought (pitch loadtest).
func memClients(spec string) error {
	f := strings.Fields(spec)
	if len(f) < 3 {
		return fmt.Errorf("bad spec %q", spec)
	}
	url := f[1]
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }()
	switch f[0] {
	case "idle":
		tables := strings.Split(f[3], ",")
		for i := range n {
			ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/api/tables/"+tables[i%len(tables)]+"/ws", nil)
			if err != nil {
				return err
			}
			ws.SetReadLimit(1 << 20)
			if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
				return err
			}
			go func() {
				for {
					if _, _, err := ws.Read(ctx); err != nil {
						return
					}
				}
			}()
		}
		fmt.Println("ready")
		<-ctx.Done()
		return nil
	case "playing":
		fmt.Println("ready")
		_, err := loadtest.Run(ctx, loadtest.Config{URL: url, Tables: n / 5, Duration: 10 * time.Minute, Think: time.Second,
			Options: map[string]any{"target": 1000}})
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	return fmt.Errorf("bad mode %q", f[0])
}

// BenchmarkConnMemory reports what each open WebSocket adds to the
// server's live heap and goroutine stacks (runtime.MemStats HeapAlloc +
// StackInuse after a collection, less the same before the clients
// connected), with real clients over loopback in another process:
//
//   - idle: 1,000 spectators that said hello, spread over 100 tables
//     waiting for players (the tables made before the first measure);
//   - playing: 1,000 seats at 200 pawnee tables, each acting after a
//     second's thought on average (the tables, made by the clients, are
//     counted: their share of a table is part of a playing seat's cost).
//
// Aims (docs/performance.md): at most 20 KiB an idle connection, 30 KiB a
// playing one. rss-B/conn is the process's resident memory, for
// comparison (it holds what the collector has freed but not returned).
func BenchmarkConnMemory(b *testing.B) {
	for _, mode := range []string{"idle", "playing"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				m := connMemory(b, mode, 1000)
				b.ReportMetric(m.heap+m.stack, "B/conn")
				b.ReportMetric(m.heap, "heap-B/conn")
				b.ReportMetric(m.stack, "stack-B/conn")
				b.ReportMetric(m.goroutines, "goroutines/conn")
				b.ReportMetric(m.rss, "rss-B/conn")
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}

func connMemory(b *testing.B, mode string, n int) memFigures {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "mem.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(ctx, st, server.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = srv.HTTPServer() // as pitch serve runs it
	ts.Start()
	defer ts.Close()
	conns := func() int {
		resp, err := http.Get(ts.URL + "/api/stats")
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var s struct{ Connections int }
		if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
			b.Fatal(err)
		}
		return s.Connections
	}

	spec := mode + " " + ts.URL + " " + strconv.Itoa(n)
	if mode == "idle" {
		var ids []string
		for range n / 10 {
			resp, err := http.Post(ts.URL+"/api/tables", "application/json", strings.NewReader(`{"variant":"pawnee","seats":`+seatsBody("h", "h", "h", "h", "h")+`}`))
			if err != nil {
				b.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				b.Fatalf("create: %d %s", resp.StatusCode, body)
			}
			var tab tableJSON
			if err := json.Unmarshal(body, &tab); err != nil {
				b.Fatal(err)
			}
			ids = append(ids, tab.ID)
		}
		spec += " " + strings.Join(ids, ",")
	}
	before := memNow()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), memChildEnv+"="+spec)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		b.Fatalf("the clients did not start: %q %v", line, err)
	}
	// Every connection open (and, playing, a few seconds of play).
	deadline := time.Now().Add(90 * time.Second)
	for conns() < n {
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d connections open after 90 s", conns(), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if mode == "playing" {
		// PITCH_MEMBENCH_PLAY=DURATION plays longer than 5 s (a table's
		// log and its last hand grow over a match).
		play := 5 * time.Second
		if d, err := time.ParseDuration(os.Getenv("PITCH_MEMBENCH_PLAY")); err == nil && d > 0 {
			play = d
		}
		time.Sleep(play)
	} else {
		time.Sleep(time.Second)
	}
	after := memNow()
	// PITCH_MEMBENCH_PROFILE=FILE: the server's live heap, every
	// allocation, to FILE.idle or FILE.playing (go tool pprof).
	if f := os.Getenv("PITCH_MEMBENCH_PROFILE"); f != "" {
		w, err := os.Create(f + "." + mode)
		if err == nil {
			_ = pprof.WriteHeapProfile(w)
			w.Close()
		}
	}
	got := float64(conns())
	return memFigures{heap: (after.heap - before.heap) / got, stack: (after.stack - before.stack) / got,
		goroutines: (after.goroutines - before.goroutines) / got, rss: (after.rss - before.rss) / got}
}

// memFigures are the server's memory: live heap, goroutine stacks, the
// number of goroutines and resident memory.
type memFigures struct{ heap, stack, goroutines, rss float64 }

// memNow is the live heap and goroutine stacks after a collection, and
// the resident memory.
func memNow() memFigures {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memFigures{heap: float64(m.HeapAlloc), stack: float64(m.StackInuse), goroutines: float64(runtime.NumGoroutine()), rss: float64(procRSS())}
}

// procRSS is this process's resident memory in bytes (Linux; 0 elsewhere).
func procRSS() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}
