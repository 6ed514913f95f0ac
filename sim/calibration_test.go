package sim

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestCalibrationTable: forecasts go to the bucket of their chance (the
// last bucket includes 1) and to the total row; each row has the mean
// forecast and the share made, and WriteTable prints them.
func TestCalibrationTable(t *testing.T) {
	var a calAcc
	a.add(0.55, true)
	a.add(0.58, false)
	a.add(0.97, true)
	a.add(1, true)
	got := a.table()
	if len(got) != 3 {
		t.Fatalf("table %+v, want 3 rows (50–60%%, 95–100%%, all)", got)
	}
	want := []CalBucket{
		{From: 0.5, To: 0.6, Bids: 2, Predicted: 0.565, Made: 0.5},
		{From: 0.95, To: 1, Bids: 2, Predicted: 0.985, Made: 1},
		{From: 0, To: 1, Bids: 4, Predicted: 0.775, Made: 0.75},
	}
	for i, w := range want {
		g := got[i]
		if g.From != w.From || g.To != w.To || g.Bids != w.Bids || math.Abs(g.Predicted-w.Predicted) > 1e-9 || g.Made != w.Made {
			t.Errorf("row %d: %+v, want %+v", i, g, w)
		}
	}
	var b calAcc
	b.merge(&a)
	b.merge(&a)
	if tb := b.table(); tb[2].Bids != 8 || tb[2].Made != 0.75 {
		t.Errorf("merged twice: %+v", tb[2])
	}
	r := &Result{Variant: "auction", Unit: "deals", Sides: []SideStats{{Bot: "expert", Calibration: got}, {Bot: "hard"}}}
	var out bytes.Buffer
	r.WriteTable(&out)
	for _, s := range []string{"expert's winning bids", "50–60%", "95–100%", "all", "56.5%", "98.5%"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, out.String())
		}
	}
}
