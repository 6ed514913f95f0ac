package main

import "fmt"

// Each WebSocket is an open file, of the server's and of the load test's.
// A process past its open-file limit cannot accept a connection (the
// listener fails with "too many open files" and the client waits,
// without a word), so the limit caps the sockets a process may hold,
// less some for the listener, the database and plain HTTP requests.

// filesKept is how many of a process's open files are kept for other
// than WebSockets: at most 512, a quarter of a small limit.
func filesKept(limit uint64) uint64 { return min(512, limit/4) }

// connsWithin is the WebSockets a server may hold open at once given
// --max-conns (0: no limit) and its open-file limit (0: unknown or
// unlimited), and, when the limit lowers it, why, in words for the log.
func connsWithin(maxConns int, limit uint64) (int, string) {
	if limit == 0 {
		return maxConns, ""
	}
	most := int(limit - filesKept(limit))
	if maxConns != 0 && maxConns <= most {
		return maxConns, ""
	}
	asked := fmt.Sprintf("--max-conns %d", maxConns)
	if maxConns == 0 {
		asked = "--max-conns 0 (no limit)"
	}
	return most, fmt.Sprintf("%s is more WebSockets than this process's open-file limit of %d allows (%d kept for the listener, the database and HTTP requests): holding at most %d, refusing more with server_full; raise the limit (ulimit -n, or LimitNOFILE= in a systemd unit) to hold more",
		asked, limit, filesKept(limit), most)
}

// socketsWithin says why a load test of sockets WebSockets cannot run
// under the open-file limit (0: unknown or unlimited), or "" if it can.
func socketsWithin(sockets int, limit uint64) string {
	if limit == 0 || uint64(sockets) <= limit-filesKept(limit) {
		return ""
	}
	return fmt.Sprintf("%d WebSockets need more open files than this process's limit of %d allows (%d kept for other files): lower --tables, or raise the limit (ulimit -n)",
		sockets, limit, filesKept(limit))
}
