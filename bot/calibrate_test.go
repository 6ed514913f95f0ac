package bot

import (
	"testing"

	"pitch"
)

// TestEstimateTracksOutcome checks the heuristic's hand estimate, which
// its bids rest on: over many deals where one seat wins the auction at the
// minimum and the hand is played out by the heuristic, a higher estimate
// must mean more points taken on average, and the calibration used by
// bidAction must be within a point of what is taken. (AP-BID-1, TP-BID-1,
// PW-BID-1: bids are points the side expects to take.)
func TestEstimateTracksOutcome(t *testing.T) {
	calib := map[pitch.Variant]func(e float64) float64{
		pitch.Auction:  func(e float64) float64 { return 1.65*e - 0.84 },
		pitch.TenPoint: func(e float64) float64 { return 4.43 + 0.64*e },
		pitch.Pawnee:   func(e float64) float64 { return 4.47 + 0.64*e },
	}
	minBid := map[pitch.Variant]int{pitch.Auction: 1, pitch.TenPoint: 4, pitch.Pawnee: 5}
	for _, v := range pitch.Variants {
		g := pitch.MustNewGame(v)
		var sum, cnt, est [16]float64
		for d := range 1500 {
			s := pitch.Deal(g, 0, nil, pitch.NewRand(uint64(d)))
			_, e := bestSuit(&s, 1)
			if err := s.Apply(pitch.Bid(1, minBid[v])); err != nil {
				t.Fatal(err)
			}
			for s.Phase() == pitch.PhaseBid {
				if err := s.Apply(pitch.Pass(s.Turn())); err != nil {
					t.Fatal(err)
				}
			}
			rollout(&s)
			b := min(int(e), 15)
			sum[b] += float64(s.Taken(1))
			est[b] += e
			cnt[b]++
		}
		prev := -1.0
		for b := range sum {
			if cnt[b] < 100 {
				continue
			}
			mean := sum[b] / cnt[b]
			if mean <= prev {
				t.Errorf("%s: estimate %d..%d takes %.2f on average, no more than the bin below (%.2f)", v, b, b+1, mean, prev)
			}
			if want := calib[v](est[b] / cnt[b]); mean < want-1 || mean > want+1 {
				t.Errorf("%s: estimate %.2f takes %.2f on average; the calibration says %.2f", v, est[b]/cnt[b], mean, want)
			}
			t.Logf("%s bin %d: est %.2f taken %.2f n %d", v, b, est[b]/cnt[b], mean, int(cnt[b]))
			prev = mean
		}
	}
}
