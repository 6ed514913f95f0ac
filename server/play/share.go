package play

import (
	"cmp"
	"hash/fnv"
	"slices"
)

// Sharing the tables among the processes of a cluster: every process
// works out, from the same list of live processes and of unfinished
// tables, which process is to drive each table, and takes the leases of
// its own and gives up those of others (cluster.go). Rendezvous hashing
// ranks the processes for each table, so that a process that joins or
// leaves moves only its share; a cap keeps the shares even.

// assign returns the process each table is for: the first in its ranking
// (rendezvous hashing: the highest hash of process and table) that has
// fewer than ⌈tables/processes⌉ plus 5% already, tables taken in the
// order of their ids. Each process so drives between that cap and what
// the others leave, never more than ⌈n/p⌉+⌈n/20p⌉. Every process that
// calls it with the same lists gets the same answer.
func assign(tables, procs []string) map[string]string {
	out := make(map[string]string, len(tables))
	if len(procs) == 0 {
		return out
	}
	n, p := len(tables), len(procs)
	share := (n + p - 1) / p
	limit := share + (share+19)/20
	ids := slices.Clone(tables)
	slices.Sort(ids)
	count := make(map[string]int, p)
	type ranked struct {
		proc  string
		score uint64
	}
	rank := make([]ranked, p)
	for _, id := range ids {
		for i, pr := range procs {
			rank[i] = ranked{pr, score(pr, id)}
		}
		slices.SortFunc(rank, func(a, b ranked) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return cmp.Compare(a.proc, b.proc)
		})
		for _, r := range rank {
			if count[r.proc] < limit {
				out[id] = r.proc
				count[r.proc]++
				break
			}
		}
	}
	return out
}

// score is the rendezvous hash of a process and a table: FNV-1a of both,
// mixed (splitmix64's finalizer) so that close names score apart.
func score(proc, table string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(proc))
	h.Write([]byte{0})
	h.Write([]byte(table))
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
