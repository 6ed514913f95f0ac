//go:build unix

package bot

import (
	"flag"
	"slices"
	"syscall"
	"testing"
	"time"

	"pitch"
)

// p99Hands is the number of hands whose decisions BenchmarkExpertP99
// times: enough (about 1,000 decisions or more) that the 99th percentile
// is not one of the three slowest.
const p99Hands = 60

// p99Bot is the bot BenchmarkExpertP99 times: the expert, or a setting
// of it measured before it becomes the game's (go test -bench ExpertP99
// ./bot -args -p99bot expert:SETTINGS).
var p99Bot = flag.String("p99bot", "expert", "the bot BenchmarkExpertP99 times (expert or expert:SETTINGS)")

// BenchmarkExpertP99 times the expert's decisions, one game at a time, for
// the target of at most 100 ms a decision at the 99th percentile on one
// core (run it with -cpu 1; docs/bots.md, "Speed"). One op is every
// decision of the game's pool, once: the decisions with a choice of
// p99Hands hands dealt at random and played by the heuristic, each put to a fresh bot (-p99bot) with a generator of its
// own, so a run times the same searches whatever -benchtime is.
//
// A decision's time is the CPU time the process spent on it (user and
// system, getrusage), which with -cpu 1 is the time it takes on one
// core of its own: the wall-clock time also counts the time other work
// on a shared machine held the core. It reports the 99th percentile and
// the median of the decision times in milliseconds (p99-ms, median-ms),
// the 99th percentile of bids, of the other choices before play and of
// play (bid-p99-ms, pre-p99-ms, play-p99-ms), the slowest decision
// (max-ms), and the 99th percentile of the wall-clock times
// (wall-p99-ms).
func BenchmarkExpertP99(b *testing.B) {
	for _, v := range pitch.Variants {
		b.Run(v.String(), func(b *testing.B) {
			if _, err := New(*p99Bot); err != nil {
				b.Fatal(err)
			}
			pool := decisionPoints(v, p99Hands, 99)
			views := make([]pitch.View, len(pool))
			legal := make([][]pitch.Action, len(pool))
			for i := range pool {
				views[i] = pool[i].View(pool[i].Turn())
				legal[i] = pool[i].Legal(nil)
			}
			var all, cpu, bids, pre, play []time.Duration
			for b.Loop() {
				for i := range pool {
					req := Request{View: &views[i], Legal: legal[i], Rand: pitch.NewRand(uint64(i))}
					c0 := cpuTime()
					t0 := time.Now()
					bt, _ := New(*p99Bot)
					bt.Act(req)
					d := time.Since(t0)
					all = append(all, d)
					d = cpuTime() - c0
					cpu = append(cpu, d)
					switch views[i].Phase {
					case pitch.PhaseBid:
						bids = append(bids, d)
					case pitch.PhasePlay:
						play = append(play, d)
					default:
						pre = append(pre, d)
					}
				}
			}
			ms := func(ts []time.Duration, q float64) float64 {
				if len(ts) == 0 {
					return 0
				}
				slices.Sort(ts)
				return float64(ts[min(len(ts)-1, int(q*float64(len(ts))))].Nanoseconds()) / 1e6
			}
			b.ReportMetric(ms(all, 0.99), "wall-p99-ms")
			b.ReportMetric(ms(cpu, 0.99), "p99-ms")
			b.ReportMetric(ms(cpu, 0.5), "median-ms")
			b.ReportMetric(ms(cpu, 1), "max-ms")
			b.ReportMetric(ms(bids, 0.99), "bid-p99-ms")
			b.ReportMetric(ms(pre, 0.99), "pre-p99-ms")
			b.ReportMetric(ms(play, 0.99), "play-p99-ms")
			b.ReportMetric(float64(len(pool)), "decisions")
		})
	}
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
