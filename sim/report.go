package sim

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the result as a plain table.
func (r *Result) WriteTable(w io.Writer) {
	if r.Against != "" {
		fmt.Fprintf(w, "%s: %d %s × %d seats × 2 bots = %d hands in %.1fs\n\n", r.Variant, r.Deals, r.Unit, r.Rotations, r.Hands, r.Elapsed)
	} else {
		fmt.Fprintf(w, "%s: %d %s × %d seatings = %d hands in %.1fs\n\n", r.Variant, r.Deals, r.Unit, r.Rotations, r.Hands, r.Elapsed)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\tseat-hands\tpoints/hand\t±95%\tpassed\tbids\tset\tmatch wins\t±95%\tdecisions/s\t")
	for _, s := range r.Sides {
		wins := "-\t-"
		if s.Matches > 0 {
			wins = fmt.Sprintf("%.1f%%\t%.1f%%", 100*s.WinRate, 100*s.WinCI)
		}
		fmt.Fprintf(tw, "%s\t%d\t%+.3f\t%.3f\t%.1f%%\t%d\t%.1f%%\t%s\t%.0f\t\n", s.Bot, s.SeatHands, s.PointsHand, s.PointsCI,
			100*s.PassRate, s.Bids, 100*s.SetRate, wins, s.DecisionSec)
	}
	tw.Flush()
	for _, s := range r.Sides {
		if len(s.Calibration) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s's winning bids: chance forecast against made\n", s.Bot)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "forecast\tbids\tmean forecast\tmade\t±95%\t")
		for _, b := range s.Calibration {
			label := fmt.Sprintf("%.0f–%.0f%%", 100*b.From, 100*b.To)
			if b.From == 0 && b.To == 1 {
				label = "all"
			}
			fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%.1f%%\t%.1f%%\t\n", label, b.Bids, 100*b.Predicted, 100*b.Made, 100*b.MadeCI)
		}
		tw.Flush()
	}
	r.writeWins(w)
	if r.Unit == "matches" {
		fmt.Fprintf(w, "\nunfinished: %d of %d matches (%.1f%%) had no winner after %d hands\n",
			r.Unfinished, r.Deals*r.Rotations, 100*r.UnfinishedShare, r.MaxHands)
	}
	if r.Against != "" && len(r.Sides) >= 2 {
		fmt.Fprintf(w, "\n%s − %s, each in one seat among %s: %+.3f ± %.3f points of standing per hand (95%%, %d paired %s; %d of %d seat-hands differ)\n",
			r.Sides[0].Bot, r.Sides[1].Bot, r.Against, r.Diff, r.DiffCI, len(r.Cumulative), r.Unit, r.Differ, r.SeatHands)
	} else if len(r.Sides) >= 2 {
		fmt.Fprintf(w, "\n%s − %s: %+.3f ± %.3f points per hand (95%%, %d paired %s)\n",
			r.Sides[0].Bot, r.Sides[1].Bot, r.Diff, r.DiffCI, len(r.Cumulative), r.Unit)
	}
}

// WriteSVG draws the cumulative difference between the first two bots
// over the deals.
func (r *Result) WriteSVG(w io.Writer) error {
	const width, height, pad = 800, 400, 50
	ys := r.Cumulative
	if len(ys) == 0 {
		return fmt.Errorf("nothing to draw: the SVG needs two bots")
	}
	lo, hi := 0.0, 0.0
	for _, y := range ys {
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	if hi == lo {
		hi = lo + 1
	}
	x := func(i int) float64 { return pad + float64(i)*(width-2*pad)/math.Max(1, float64(len(ys)-1)) }
	y := func(v float64) float64 { return height - pad - (v-lo)*(height-2*pad)/(hi-lo) }
	var pts strings.Builder
	for i, v := range ys {
		fmt.Fprintf(&pts, "%.1f,%.1f ", x(i), y(v))
	}
	title := fmt.Sprintf("%s: cumulative difference in points per hand, %s − %s, over %s", r.Variant, r.Sides[0].Bot, r.Sides[1].Bot, r.Unit)
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">
<title>%s</title>
<rect width="100%%" height="100%%" fill="white"/>
<text x="%d" y="20" font-size="14">%s</text>
<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#999" stroke-dasharray="4"/>
<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>
<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>
<text x="%d" y="%.1f" text-anchor="end">%.0f</text>
<text x="%d" y="%.1f" text-anchor="end">%.0f</text>
<text x="%d" y="%d" text-anchor="middle">%s (%d)</text>
<polyline fill="none" stroke="#1565c0" stroke-width="1.5" points="%s"/>
</svg>
`, width, height, width, height, title, pad, title,
		pad, y(0), width-pad, y(0),
		pad, height-pad, width-pad, height-pad,
		pad, pad, pad, height-pad,
		pad-5, y(hi)+4, hi, pad-5, y(lo)+4, lo,
		width/2, height-15, r.Unit, len(ys), pts.String())
	return err
}

// writeWins writes the match wins per seat held, outright and at the
// target, and the first two bots' comparison: always with matches, with
// hands only when some hand won the match.
func (r *Result) writeWins(w io.Writer) {
	won := false
	for _, s := range r.Sides {
		won = won || s.Wins.Won > 0
	}
	if r.Unit != "matches" && !won {
		return
	}
	games := "seat-matches"
	if r.Unit != "matches" {
		games = "seat-hands"
	}
	fmt.Fprintf(w, "\nmatch wins per seat held (95%%, by %s: the seatings of one share their cards)\n", strings.TrimSuffix(r.Unit, "s"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\t%s\twon\t±95%%\toutright\t±95%%\tat target\t±95%%\t\n", games)
	for _, s := range r.Sides {
		x := s.Wins
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%.1f%%\t%.1f%%\t%.1f%%\t%.1f%%\t%.1f%%\t\n", s.Bot, x.Games,
			100*x.Rate, 100*x.CI, 100*x.OutrightRate, 100*x.OutrightCI, 100*x.TargetRate, 100*x.TargetCI)
	}
	tw.Flush()
	if c := r.WinVs; c != nil && len(r.Sides) >= 2 {
		a, b := r.Sides[0].Bot, r.Sides[1].Bot
		fmt.Fprintf(w, "%s − %s: %+.1f%% ± %.1f%% match wins per seat (outright %+.1f%% ± %.1f%%, at target %+.1f%% ± %.1f%%; %d paired %s)\n",
			a, b, 100*c.Diff, 100*c.DiffCI, 100*c.OutrightDiff, 100*c.OutrightDiffCI, 100*c.TargetDiff, 100*c.TargetDiffCI, c.Deals, r.Unit)
		fmt.Fprintf(w, "%s takes %.1f%% ± %.1f%% of the wins of a %s seat and a %s seat (50%% is even)\n", a, 100*c.Share, 100*c.ShareCI, a, b)
	}
}
