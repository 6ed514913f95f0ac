package event

import (
	"slices"
	"sort"
)

// Ranking returns the seats of a finished table from first to last: the
// seats that won the match first, then by score, a tie broken by the last
// hand in which the tied seats' changes of score differ (the better one
// first), then by seat. At a game of fixed partnerships partners rank
// together, as their side.
func Ranking(res *Result) []int {
	n := len(res.Scores)
	won := make([]bool, n)
	for _, w := range res.Winner {
		won[w] = true
	}
	seats := make([]int, n)
	for i := range seats {
		seats[i] = i
	}
	sort.SliceStable(seats, func(i, j int) bool {
		a, b := seats[i], seats[j]
		if won[a] != won[b] {
			return won[a]
		}
		if res.Scores[a] != res.Scores[b] {
			return res.Scores[a] > res.Scores[b]
		}
		for h := len(res.Hands) - 1; h >= 0; h-- {
			if d := res.Hands[h]; d[a] != d[b] {
				return d[a] > d[b]
			}
		}
		return a < b
	})
	return seats
}

// sides returns the winning and the losing seats of a finished table:
// at a game of fixed partnerships the side of the first-ranked seat wins,
// each side in seat order; otherwise the first half of the ranking
// (rounded down, at least one) wins, each part in order of rank.
func (e *Event) sides(t Table) (win, lose []int) {
	rank := Ranking(t.Result)
	if e.Settings.Teams() && len(t.Seats)%2 == 0 {
		for s := range t.Seats {
			if s%2 == rank[0]%2 {
				win = append(win, s)
			} else {
				lose = append(lose, s)
			}
		}
		return win, lose
	}
	w := max(1, len(rank)/2)
	return rank[:w], rank[w:]
}

// split returns the entries at the winning and the losing seats of a
// finished table, in the order of sides.
func (e *Event) split(t Table) (win, lose []int) {
	ws, ls := e.sides(t)
	for _, s := range ws {
		win = append(win, t.Seats[s])
	}
	for _, s := range ls {
		lose = append(lose, t.Seats[s])
	}
	return win, lose
}

// Winners returns the seats that won table t of round r, in seat order
// (nil while it plays): the winning side, or the first half of the
// ranking.
func (e *Event) Winners(r, t int) []int {
	tab := e.Rounds[r].Tables[t]
	if tab.Result == nil {
		return nil
	}
	w, _ := e.sides(tab)
	w = slices.Clone(w)
	slices.Sort(w)
	return w
}

// Standing is one person's place in an event.
type Standing struct {
	Entry int    `json:"entry"`
	Name  string `json:"name"`
	Place int    `json:"place"` // 1 for the first; people tied on every count share a place
	// Progressive and mixed: Total is the sum of the person's own score
	// (their side's, at a game of partnerships) at the end of each round
	// that counts for them; Won the tables they won; Best their best round.
	Total  int `json:"total"`
	Won    int `json:"won"`
	Best   int `json:"best"`
	Rounds int `json:"rounds"` // the rounds counted
	// Duplicate: Percent is the average matchpoint percentage of the
	// person's results, Boards how many results were compared.
	Percent float64 `json:"percent"`
	Boards  int     `json:"boards"`
	Left    bool    `json:"left,omitempty"` // they left the event; their score so far stays
	// Withdrawn: the host withdrew them (a no-show); Left too.
	Withdrawn bool `json:"withdrawn,omitempty"`
	// Byes: the rounds they sat out (counted in Rounds at a progressive
	// or mixed event, which score them ByeScore).
	Byes int `json:"byes,omitempty"`
	// Adjusted: the host's corrections of the results of tables they
	// sat at, with the reasons.
	Adjusted []Note `json:"adjusted,omitempty"`
}

// Note is a correction of a table's result, as the standings show it.
type Note struct {
	Round  int    `json:"round"` // 1 for the first
	Table  int    `json:"table"` // 1 for the head table
	Reason string `json:"reason"`
}

// ByeScore is what a bye in round r scores at a progressive or mixed
// event, once every table of the round has finished: the average of the
// round's scores of the people who played it (each their own score, their
// side's at a game of partnerships; bots and seats that count for nobody
// left out), rounded to the nearest whole point, halves up (7.5 is 8,
// −7.5 is −7). 0 while the round plays, or when nobody's score counts.
func (e *Event) ByeScore(r int) int {
	if r < 0 || r >= len(e.Rounds) || !e.Rounds[r].Done() {
		return 0
	}
	sum, n := 0, 0
	for _, t := range e.Rounds[r].Tables {
		for s, id := range t.Seats {
			if id != Bot && e.Counts(id, r) {
				sum += t.Result.Scores[s]
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return floorDiv(2*sum+n, 2*n)
}

// floorDiv is a/b rounded down (b > 0).
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// Standings returns everyone who has played, best first. Progressive and
// mixed events rank by Total, then tables won, then best round; duplicate
// events by average percentage, then the number of results compared.
// People equal on every count share a place and are listed in the order
// they joined.
func (e *Event) Standings() []Standing {
	dup := e.Settings.Movement == Duplicate
	var sum map[int]*[2]float64 // duplicate: entry → percent sum, count
	if dup {
		sum = map[int]*[2]float64{}
		for r := range e.Rounds {
			for _, m := range e.Matchpoints(r) {
				if m.Entry == Bot || !e.Counts(m.Entry, r) {
					continue
				}
				if sum[m.Entry] == nil {
					sum[m.Entry] = &[2]float64{}
				}
				sum[m.Entry][0] += m.Percent
				sum[m.Entry][1]++
			}
		}
	}
	seated := map[int]bool{} // solo: the entries whose table has finished
	if e.Settings.Solo && len(e.Rounds) > 0 {
		for _, t := range e.Rounds[0].Tables {
			seated[t.Seats[0]] = t.Result != nil
		}
	}
	bye := map[int]int{} // round: what a bye scores
	st := make([]Standing, 0, len(e.Entries))
	for i, en := range e.Entries {
		if e.removed(i) || en.Joined >= len(e.Rounds) || en.Unranked {
			continue
		}
		if e.Settings.Solo && !seated[i] {
			continue // joined, not yet played (or still playing)
		}
		s := Standing{Entry: i, Name: en.Name, Left: en.Left >= 0, Withdrawn: en.Withdrawn}
		first := true
		for r, round := range e.Rounds {
			if !e.Counts(i, r) {
				continue
			}
			if e.SitsOut(i, r) && round.Done() {
				s.Byes++
				if !dup {
					if _, ok := bye[r]; !ok {
						bye[r] = e.ByeScore(r)
					}
					s.Total += bye[r]
					s.Rounds++
				}
			}
			for ti, t := range round.Tables {
				seat := slices.Index(t.Seats, i)
				if seat < 0 || t.Result == nil {
					continue
				}
				score := t.Result.Scores[seat]
				s.Total += score
				s.Rounds++
				if first || score > s.Best {
					s.Best, first = score, false
				}
				if slices.Contains(e.Winners(r, ti), seat) {
					s.Won++
				}
				if t.Adjusted != nil {
					s.Adjusted = append(s.Adjusted, Note{Round: r + 1, Table: ti + 1, Reason: t.Adjusted.Reason})
				}
			}
		}
		if p := sum[i]; p != nil && p[1] > 0 {
			s.Percent, s.Boards = p[0]/p[1], int(p[1])
		}
		st = append(st, s)
	}
	less := func(a, b Standing) int { // <0: a ranks above b
		if dup {
			switch {
			case a.Percent != b.Percent:
				return cmpDesc(a.Percent, b.Percent)
			case a.Boards != b.Boards:
				return b.Boards - a.Boards
			}
			return 0
		}
		switch {
		case a.Total != b.Total:
			return b.Total - a.Total
		case a.Won != b.Won:
			return b.Won - a.Won
		}
		return b.Best - a.Best
	}
	slices.SortStableFunc(st, less)
	for i := range st {
		if i > 0 && less(st[i-1], st[i]) == 0 {
			st[i].Place = st[i-1].Place
		} else {
			st[i].Place = i + 1
		}
	}
	return st
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

// MP is one result of a duplicate round compared with the others on the
// same cards: table Table's seat Seat on deal Deal (0 for the first) of
// round Round.
type MP struct {
	Round   int     `json:"round"`
	Deal    int     `json:"deal"`
	Table   int     `json:"table"`
	Seat    int     `json:"seat"`
	Entry   int     `json:"entry"`   // the entry at the seat, or Bot
	Result  int     `json:"result"`  // the seat's result on the deal: its side's change less the other's, or its own change (Matchpoints)
	Points  int     `json:"points"`  // matchpoints: 2 for each result beaten, 1 for each tie
	Max     int     `json:"max"`     // 2 × (the results compared − 1)
	Percent float64 `json:"percent"` // 100 × Points / Max
}

// Matchpoints compares every result of duplicate round r with the others
// on the same cards: the same deal, at the same seat, at tables of the
// same size (which play the same deals). A deal played at one table
// only is compared with nothing and has no matchpoints. The list is by
// deal, seat, then table.
//
// A seat's result on a deal is, in a game of fixed partnerships
// (ten-point, auction with partners), its side's change of score less
// the other side's (the net: setting the opponents counts as much as
// making one's bid), so the two sides of a table get complementary
// matchpoints: theirs sum to the top. In a game where each plays for
// themselves (auction without partners; pawnee, whose partners change
// every hand) it is the seat's own change of score, as in an individual
// duplicate: each seat is compared with the same seat at the other
// tables.
func (e *Event) Matchpoints(r int) []MP {
	if r < 0 || r >= len(e.Rounds) {
		return nil
	}
	tables := e.Rounds[r].Tables
	var out []MP
	sizes := map[int]bool{}
	for _, t := range tables {
		sizes[len(t.Seats)] = true
	}
	order := make([]int, 0, len(sizes))
	for s := range sizes {
		order = append(order, s)
	}
	slices.Sort(order)
	for _, size := range order {
		deals := 0
		for _, t := range tables {
			if len(t.Seats) == size && t.Result != nil {
				deals = max(deals, len(t.Result.Hands))
			}
		}
		fixed := false
		if g, err := e.Settings.Game(size); err == nil {
			fixed = g.FixedTeams()
		}
		result := func(d []int, seat int) int {
			if fixed {
				return d[seat] - d[(seat+1)%len(d)] // the seats' sides alternate
			}
			return d[seat]
		}
		played := make([][]int, deals)
		for ti, t := range tables {
			if len(t.Seats) == size && t.Result != nil && !e.unranked(&t) {
				for d := range len(t.Result.Hands) {
					played[d] = append(played[d], ti)
				}
			}
		}
		for d := range deals {
			for seat := range size {
				at := played[d] // tables that played deal d
				if len(at) < 2 {
					continue
				}
				// Sorted, each result's place among the others gives
				// how many it beats and ties (a solo event may have
				// thousands of tables).
				all := make([]int, len(at))
				for k, ti := range at {
					all[k] = result(tables[ti].Result.Hands[d], seat)
				}
				slices.Sort(all)
				for _, ti := range at {
					x := result(tables[ti].Result.Hands[d], seat)
					below, _ := slices.BinarySearch(all, x)
					upto, _ := slices.BinarySearch(all, x+1)
					m := MP{Round: r, Deal: d, Table: ti, Seat: seat, Entry: tables[ti].Seats[seat], Result: x, Max: 2 * (len(at) - 1),
						Points: 2*below + (upto - below - 1)}
					m.Percent = 100 * float64(m.Points) / float64(m.Max)
					out = append(out, m)
				}
			}
		}
	}
	return out
}
