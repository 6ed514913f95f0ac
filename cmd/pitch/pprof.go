package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// --pprof ADDR serves Go's profiles (net/http/pprof: CPU, heap,
// allocations, goroutines, mutex and block) on a listener of their
// own, apart from the site, for measuring a running server
// (docs/performance.md). Off by default. The address must be a loopback
// one: a profile shows the process's memory and code paths, and is
// nobody's business but the operator's, who reaches it on the machine
// (or through an SSH tunnel).

// loopbackAddr checks that addr (host:port) listens on loopback only.
func loopbackAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port (e.g. 127.0.0.1:6060)", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address: profiles are served on 127.0.0.1 or [::1] only (e.g. 127.0.0.1:6060)", addr)
	}
	return nil
}

// servePprof serves the profiles on addr, a loopback address (checked
// by the caller), until stop is called; it logs where.
func servePprof(addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // heap, allocs, goroutine, mutex, block, …
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("pprof: stopped serving", "err", err.Error())
		}
	}()
	log.Info("pprof: profiles served", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	return func() { _ = hs.Close() }, nil
}
