#!/usr/bin/env bash
# pinned-load.sh BIN TABLES DURATION
#
# Measures what the server costs per action with the server on a core
# of its own (issue 41; docs/performance.md): `BIN serve` on a fresh
# SQLite database in a temporary directory, pinned to CPU 0, and
# `BIN loadtest` (five-seat pawnee tables, think 1 s) pinned to CPU 1.
# At the moments play begins and ends (the load test's --marks) it reads
# the server's /proc/PID/stat (utime+stime), /proc/PID/io (wchar: every
# byte it wrote, sockets and database together), /proc/PID/status
# (VmRSS), and prints them per confirmed action with what the load test
# reports: the bytes its sockets received, its own CPU, the server's
# allocations over play (GET /api/stats) and the latencies.
#
# Environment:
#   LOADFLAGS   extra flags for `BIN loadtest` (e.g. "--setup-at-once 200")
#   SERVEFLAGS  extra flags for `BIN serve` (e.g. "--pprof 127.0.0.1:6060")
#   PROFILE     a directory: the server's CPU profile over play
#               (serve.prof, from its --pprof listener), its heap
#               profiles as play begins and ends (allocs-begin.prof,
#               allocs-end.prof: `go tool pprof -sample_index=alloc_objects
#               -base allocs-begin.prof BIN allocs-end.prof` is what play
#               allocated) and the load test's whole run (loadtest.prof)
#   KEEP        1: keep the temporary directory (database, logs, reports)
#
# Example: go build -o pitch ./cmd/pitch && tools/pinned-load.sh ./pitch 500 25s
set -euo pipefail

die() { echo "pinned-load.sh: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: tools/pinned-load.sh BIN TABLES DURATION (e.g. ./pitch 500 25s)"
BIN=$1 TABLES=$2 DURATION=$3
[ -x "$BIN" ] || die "$BIN is not an executable (build it: go build -o pitch ./cmd/pitch)"
[[ $TABLES =~ ^[0-9]+$ ]] && [ "$TABLES" -ge 1 ] || die "TABLES must be a number of tables, 1 or more, not '$TABLES'"
command -v taskset >/dev/null || die "taskset is missing: it pins the server and the load test to a CPU each (Debian: apt-get install util-linux)"
command -v curl >/dev/null || die "curl is missing: it waits for the server to answer"
cpus=$(nproc)
[ "$cpus" -ge 2 ] || die "this machine gives this process $cpus CPU; the server and the load test need one each (2 or more)"
[ -r /proc/self/io ] || die "/proc/PID/io cannot be read here: the bytes the server writes are read from it (Linux)"

tmp=$(mktemp -d /tmp/pinned-load.XXXXXX)
spid= ltpid= rpid=
cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2>/dev/null || true
	[ -n "$ltpid" ] && kill "$ltpid" 2>/dev/null || true
	if [ -n "$spid" ]; then
		kill -TERM "$spid" 2>/dev/null || true
		wait "$spid" 2>/dev/null || true
	fi
	if [ "${KEEP:-}" = 1 ]; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

sprof=() lprof=() window=
if [ -n "${PROFILE:-}" ]; then
	case $DURATION in
	*[0-9]s) window=${DURATION%s} ;;
	*[0-9]m) window=$((${DURATION%m} * 60)) ;;
	esac
	[[ $window =~ ^[0-9]+$ ]] || die "with PROFILE, DURATION is whole seconds or minutes (25s, 2m), not '$DURATION'"
	mkdir -p "$PROFILE"
	sprof=(--pprof 127.0.0.1:0)
	lprof=(--cpuprofile "$PROFILE/loadtest.prof")
fi

# The server: its limits for one address off (the load comes from one),
# the overload refusal off (to measure, not to refuse).
# shellcheck disable=SC2086 # SERVEFLAGS is a list of flags
taskset -c 0 "$BIN" serve --addr 127.0.0.1:0 --db "$tmp/pitch.db" --addr-rate 0 --addr-conns 0 \
	--tables-per-hour 0 --overload-lag 0 --max-tables 0 "${sprof[@]}" ${SERVEFLAGS:-} >"$tmp/serve.out" 2>"$tmp/serve.log" &
spid=$!
url=
for _ in $(seq 100); do
	url=$(sed -n 's/^pitch: serving on \(http[^ ]*\) .*/\1/p' "$tmp/serve.out")
	[ -n "$url" ] && curl -fs "$url/api/stats" >/dev/null && break
	kill -0 "$spid" 2>/dev/null || die "the server did not start: $(cat "$tmp/serve.log")"
	url=
	sleep 0.1
done
[ -n "$url" ] || die "the server did not answer within 10 s"
pprof=
if [ -n "$window" ]; then
	pprof=$(sed -n 's/.*profiles served" url=\(http[^ ]*\).*/\1/p' "$tmp/serve.log")
	[ -n "$pprof" ] || die "the server did not say where its profiles are: $(cat "$tmp/serve.log")"
fi

clk=$(getconf CLK_TCK)
# sample NAME: the server's figures now, into $tmp/NAME, with bash's own
# builtins only (no process started: the moment is the mark's): the
# time, utime+stime in ticks (fields 14 and 15 of /proc/PID/stat; the
# command's name before them holds no space), wchar of /proc/PID/io and
# VmRSS of /proc/PID/status.
sample() {
	local t=$EPOCHREALTIME stat k v wchar= rss= f on rdelay=0 ltdelay=0
	read -r -a stat <"/proc/$spid/stat"
	# run delay: the time each thread spent runnable, waiting for a CPU
	# (field 2 of /proc/PID/task/TID/schedstat, ns): the core shared
	for f in /proc/"$spid"/task/*/schedstat; do read -r on k _ 2>/dev/null <"$f" && rdelay=$((rdelay + k)); done
	for f in /proc/"$ltpid"/task/*/schedstat; do read -r on k _ 2>/dev/null <"$f" && ltdelay=$((ltdelay + k)); done
	while read -r k v; do [ "$k" = wchar: ] && wchar=$v; done <"/proc/$spid/io"
	while read -r k v _; do [ "$k" = VmRSS: ] && rss=$v; done <"/proc/$spid/status"
	printf 'time %s\nticks %s\nwchar %s\nrss_kb %s\nwait_ns %s\nlt_wait_ns %s\n' "$t" "$((stat[13] + stat[14]))" "$wchar" "$rss" "$rdelay" "$ltdelay" >"$tmp/$1"
}
get() { awk -v k="$2" '$1 == k {print $2}' "$tmp/$1"; }

sample idle
rss_before=$(get idle rss_kb)
mkfifo "$tmp/marks"
# shellcheck disable=SC2086 # LOADFLAGS is a list of flags
taskset -c 1 "$BIN" loadtest --addr "$url" --tables "$TABLES" --duration "$DURATION" --variant pawnee --think 1s \
	--marks --json "${lprof[@]}" ${LOADFLAGS:-} >"$tmp/loadtest.json" 2>"$tmp/marks" &
ltpid=$!
(while IFS= read -r line; do
	case $line in
	"pitch loadtest: play begins")
		sample begin
		curl -fs -o "$tmp/stats-begin.json" "$url/api/stats" || true
		if [ -n "$pprof" ]; then
			curl -fs -o "$PROFILE/allocs-begin.prof" "${pprof}allocs" || true
			{ curl -fs -o "$PROFILE/serve.prof" "${pprof}profile?seconds=$window" || true; } &
		fi
		;;
	"pitch loadtest: play ends")
		sample end
		curl -fs -o "$tmp/stats-end.json" "$url/api/stats" || true
		[ -z "$pprof" ] || curl -fs -o "$PROFILE/allocs-end.prof" "${pprof}allocs" || true
		;;
	*) printf '%s\n' "$line" >&2 ;;
	esac
done <"$tmp/marks"; wait) & # wait: for the CPU profile, if any
rpid=$!
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
status=0
wait "$ltpid" || status=$?
ltpid=
wait "$rpid" || true
rpid=
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
[ -s "$tmp/begin" ] && [ -s "$tmp/end" ] || die "the load test ended before play did (exit $status): $(cat "$tmp/loadtest.json")"

j() { sed -n "s/^  \"$1\": \([0-9.e+-]*\),*$/\1/p" "$tmp/loadtest.json"; } # a top-level number of the report
actions=$(j actions)
[ "${actions:-0}" -gt 0 ] || die "no action was confirmed (exit $status): $(cat "$tmp/loadtest.json")"
d() { awk -v a="$(get begin "$1")" -v b="$(get end "$1")" 'BEGIN {printf "%.6f", b - a}'; }
calc() { awk "BEGIN {printf \"%.${2:-3}f\", $1}"; } # calc EXPR [DECIMALS]
ms() { calc "$1 / 1e6" 1; }
secs=$(d time)
cpu=$(calc "$(d ticks) / $clk" 6)       # the server's CPU over play, s
ltcpu=$(calc "$(j cpu_ns) / 1e9" 6)     # the load test's, s
sockets=$((TABLES * 5))
rss_end=$(get end rss_kb)

echo "pinned-load: $TABLES pawnee tables ($sockets sockets), $DURATION, think 1s; server on CPU 0, load test on CPU 1 ($(nproc --all) CPUs)"
echo "load average: $load_before at the start, $load_after at the end"
echo "play: $(calc "$secs" 1) s; actions confirmed: $actions ($(calc "$actions / $secs" 0)/s); set up in $(calc "$(j setup_ns) / 1e9" 1) s"
echo "server CPU: $(calc "$cpu * 1000 / $actions") ms an action ($(calc "$cpu * 100 / $secs" 0)% of its core); its threads waited $(calc "$(d wait_ns) / 1e9" 1) s in all for a CPU (runnable, another process on it)"
echo "load test CPU: $(calc "$ltcpu * 1000 / $actions") ms an action ($(calc "$ltcpu * 100 / $secs" 0)% of its core); its threads waited $(calc "$(d lt_wait_ns) / 1e9" 1) s in all for a CPU"
echo "server writes: $(calc "$(d wchar) / $actions" 0) B an action in all (wchar: sockets and database); $(calc "$(j ws_bytes_received) / $actions" 0) B an action to the sockets (received by the load test)"
if [ "$(j server_allocs)" -gt 0 ]; then
	echo "server allocations: $(calc "$(j server_allocs) / $actions" 1) objects, $(calc "$(j server_alloc_bytes) / $actions" 0) B an action"
fi
# st NAME KEY: a number of the store's counts in GET /api/stats at a mark
st() { tr -d ' \n' <"$tmp/stats-$1.json" 2>/dev/null | sed -n "s/.*\"store\":{[^}]*\"$2\":\([0-9]*\).*/\1/p"; }
if [ -n "$(st begin commits)" ] && [ -n "$(st end commits)" ]; then
	commits=$(($(st end commits) - $(st begin commits))) writes=$(($(st end writes) - $(st begin writes)))
	[ "$commits" -gt 0 ] && echo "store: $commits commits, $(calc "$writes / $commits" 2) writes a commit; $(calc "($(st end wal_syncs) + $(st end db_syncs) - $(st begin wal_syncs) - $(st begin db_syncs)) / $actions" 3) fsyncs and $(calc "($(st end wal_bytes) + $(st end db_bytes) - $(st begin wal_bytes) - $(st begin db_bytes)) / $actions" 0) B written an action"
fi
echo "server RSS: $((rss_end / 1024)) MiB at the end of play: $(calc "$rss_end / $sockets" 1) KiB a socket in all, $(calc "($rss_end - $rss_before) / $sockets" 1) KiB a socket over the idle server's $((rss_before / 1024)) MiB"
# loaded KEY: a number of the report's server_loaded (GET /api/stats?gc=1 a second before the end)
loaded() { awk -v k="\"$1\":" '/"server_loaded"/ {on = 1} on && $1 == k {gsub(/,/, "", $2); print $2; exit}' "$tmp/loadtest.json"; }
if [ "$(loaded connections)" -gt 0 ]; then
	echo "server memory after a collection, a second before the end, $(loaded connections) sockets: heap $(calc "$(loaded heap) / 1048576" 1) MiB, stacks $(calc "$(loaded stack) / 1048576" 1) MiB, RSS $(calc "$(loaded rss) / 1048576" 1) MiB; a socket: $(calc "($(loaded heap) + $(loaded stack)) / 1024 / $(loaded connections)" 1) KiB of heap and stacks, $(calc "$(loaded rss) / 1024 / $(loaded connections)" 1) KiB of RSS"
fi
echo "latency as the clients see it: p50 $(ms "$(j p50_ns)") ms, p99 $(ms "$(j p99_ns)") ms, max $(ms "$(j max_ns)") ms; the server's own part: p50 ≤ $(ms "$(j server_p50_ns)") ms, p99 ≤ $(ms "$(j server_p99_ns)") ms"
echo "errors $(j errors), reconnects $(j reconnects)"
if [ "$status" -ne 0 ]; then
	echo "the load test exited $status" >&2
fi
exit "$status"
