package rating

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"
)

// golden is testdata/openskill.json, made by testdata/gen/gen.mjs with the
// openskill npm package 5.0.1.
type golden struct {
	Generator string `json:"generator"`
	Cases     []struct {
		Name       string     `json:"name"`
		Teams      [][]Rating `json:"teams"`
		Rank       []float64  `json:"rank"`
		Want       [][]Rating `json:"want"`
		PredictWin []float64  `json:"predict_win"`
	} `json:"cases"`
	History []struct {
		Teams [][]Rating `json:"teams"`
		Rank  []float64  `json:"rank"`
		Want  [][]Rating `json:"want"`
	} `json:"history"`
	Ordinals []struct {
		Rating  Rating  `json:"rating"`
		Ordinal float64 `json:"ordinal"`
	} `json:"ordinals"`
}

func readGolden(t *testing.T) golden {
	t.Helper()
	b, err := os.ReadFile("testdata/openskill.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if g.Generator != "openskill 5.0.1" || len(g.Cases) < 70 || len(g.History) != 30 {
		t.Fatalf("testdata/openskill.json: generator %q, %d cases, %d history; want openskill 5.0.1, ≥70, 30", g.Generator, len(g.Cases), len(g.History))
	}
	return g
}

const tolerance = 1e-9

func sameRatings(t *testing.T, name string, got, want [][]Rating) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d teams, want %d", name, len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("%s: team %d has %d players, want %d", name, i, len(got[i]), len(want[i]))
		}
		for k := range want[i] {
			g, w := got[i][k], want[i][k]
			if math.Abs(g.Mu-w.Mu) > tolerance || math.Abs(g.Sigma-w.Sigma) > tolerance {
				t.Errorf("%s: team %d player %d = %+v, openskill %+v", name, i, k, g, w)
			}
		}
	}
}

// TestGolden checks Rate and PredictWin against openskill 5.0.1: ranks
// given and not, ties, teams of 1 and 2, 2 to 7 teams.
func TestGolden(t *testing.T) {
	g := readGolden(t)
	m := Default()
	for _, c := range g.Cases {
		got, err := m.Rate(c.Teams, c.Rank)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		sameRatings(t, c.Name, got, c.Want)
		pw, err := m.PredictWin(c.Teams)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for i := range c.PredictWin {
			if math.Abs(pw[i]-c.PredictWin[i]) > tolerance {
				t.Errorf("%s: PredictWin[%d] = %v, openskill %v", c.Name, i, pw[i], c.PredictWin[i])
			}
		}
	}
}

// TestGoldenHistory carries one player's rating through 30 matches, each
// starting from the Go result of the one before, against openskill's chain.
func TestGoldenHistory(t *testing.T) {
	g := readGolden(t)
	m := Default()
	me := m.New()
	for i, h := range g.History {
		teams := h.Teams
		teams[0] = []Rating{me}
		got, err := m.Rate(teams, h.Rank)
		if err != nil {
			t.Fatal(err)
		}
		sameRatings(t, "history", got, h.Want)
		me = got[0][0]
		if t.Failed() {
			t.Fatalf("history diverged at match %d", i)
		}
	}
}

func TestOrdinal(t *testing.T) {
	g := readGolden(t)
	for _, o := range g.Ordinals {
		if got := Default().Ordinal(o.Rating); math.Abs(got-o.Ordinal) > tolerance {
			t.Errorf("Ordinal(%+v) = %v, openskill %v", o.Rating, got, o.Ordinal)
		}
	}
}

// TestRateDoesNotChangeInput: the caller's slices are left as they were.
func TestRateDoesNotChangeInput(t *testing.T) {
	m := Default()
	teams := [][]Rating{{m.New()}, {{Mu: 30, Sigma: 2}}, {m.New()}}
	ranks := []float64{3, 1, 2}
	if _, err := m.Rate(teams, ranks); err != nil {
		t.Fatal(err)
	}
	if teams[0][0] != m.New() || teams[1][0] != (Rating{30, 2}) || ranks[0] != 3 || ranks[1] != 1 {
		t.Errorf("Rate changed its input: %v %v", teams, ranks)
	}
}

func TestRateRefuses(t *testing.T) {
	m := Default()
	p := m.New()
	for _, c := range []struct {
		name  string
		teams [][]Rating
		ranks []float64
	}{
		{"one team", [][]Rating{{p}}, nil},
		{"no teams", nil, nil},
		{"empty team", [][]Rating{{p}, {}}, nil},
		{"ranks short", [][]Rating{{p}, {p}}, []float64{1}},
		{"NaN rank", [][]Rating{{p}, {p}}, []float64{1, math.NaN()}},
		{"zero sigma", [][]Rating{{p}, {{Mu: 25, Sigma: 0}}}, nil},
		{"NaN mu", [][]Rating{{p}, {{Mu: math.NaN(), Sigma: 1}}}, nil},
		{"infinite mu", [][]Rating{{p}, {{Mu: math.Inf(1), Sigma: 1}}}, nil},
	} {
		_, err := m.Rate(c.teams, c.ranks)
		if !errors.Is(err, ErrBadMatch) {
			t.Errorf("%s: err = %v, want ErrBadMatch", c.name, err)
		}
	}
}

// BenchmarkRate rates one finished match of each shape pitch plays: four
// and five players alone, seven players, two partnerships of two.
func BenchmarkRate(b *testing.B) {
	m := Default()
	p := m.New()
	for _, c := range []struct {
		name  string
		teams [][]Rating
		ranks []float64
	}{
		{"4x1", [][]Rating{{p}, {p}, {p}, {p}}, []float64{2, 1, 3, 3}},
		{"5x1", [][]Rating{{p}, {p}, {p}, {p}, {p}}, []float64{2, 1, 3, 5, 4}},
		{"7x1", [][]Rating{{p}, {p}, {p}, {p}, {p}, {p}, {p}}, []float64{2, 1, 3, 5, 4, 7, 6}},
		{"2x2", [][]Rating{{p, p}, {p, p}}, []float64{2, 1}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := m.Rate(c.teams, c.ranks); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBots: every game has a fixed rating for every level people choose,
// the files read, and a level not rated has none.
func TestBots(t *testing.T) {
	all, err := readBots()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"auction", "ten-point", "pawnee"} {
		for _, level := range []string{"easy", "medium", "hard", "expert"} {
			r, ok := Bot(v, level)
			if !ok || r != all[v][level] || r.Sigma <= 0 || r.Sigma > ProvisionalSigma {
				t.Errorf("Bot(%s, %s) = %+v, %v: want a settled rating", v, level, r, ok)
			}
		}
		if easy, _ := Bot(v, "easy"); !(easy.Mu < all[v]["hard"].Mu) {
			t.Errorf("%s: easy %+v not below hard %+v", v, easy, all[v]["hard"])
		}
	}
	if _, ok := Bot("auction", "random"); ok {
		t.Error("random has a rating; it is not a level people choose")
	}
}
