package event

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// shuffled returns a shuffled copy of ids.
func shuffled(ids []int, rng *rand.Rand) []int {
	out := slices.Clone(ids)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// spread seats order at tables of the given sizes, in order, with the
// bots that fill the gap spread one a table from the bottom table up
// (each at its table's last seat), so that no table has two bots while
// another has none.
func spread(order []int, sizes []int) []Table {
	total := 0
	for _, s := range sizes {
		total += s
	}
	bots := make([]int, len(sizes))
	for b, i := total-len(order), len(sizes)-1; b > 0; b-- {
		bots[i]++
		if i--; i < 0 {
			i = len(sizes) - 1
		}
	}
	tables := make([]Table, len(sizes))
	k := 0
	for i, s := range sizes {
		seats := make([]int, 0, s)
		for range s - bots[i] {
			seats = append(seats, order[k])
			k++
		}
		for range bots[i] {
			seats = append(seats, Bot)
		}
		tables[i] = Table{Seats: seats}
	}
	return tables
}

// met counts, for each pair of entries, the rounds before r in which they
// sat at the same table.
func (e *Event) met(r int) map[[2]int]int {
	m := map[[2]int]int{}
	for _, round := range e.Rounds[:r] {
		for _, t := range round.Tables {
			for i, a := range t.Seats {
				for _, b := range t.Seats[i+1:] {
					if a != Bot && b != Bot {
						m[pair(a, b)]++
					}
				}
			}
		}
	}
	return m
}

func pair(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// mixRestarts is how many shuffled starts the mixed seating improves.
const mixRestarts = 8

// mix seats round r so that people meet as few of the people they have
// sat with before as it can (the mixed and duplicate movements): from
// several shuffled seatings it swaps two people at different tables while
// that lowers the sum, over tables, of the times each pair at the table
// has met, and keeps the best. Bots are spread as in the first round.
func (e *Event) mix(r int, ids []int) []Table {
	sizes := e.Settings.TableSizes(len(ids))
	met := e.met(r)
	rng := e.rng(r)
	var best []Table
	bestCost := -1
	for range mixRestarts {
		tables := spread(shuffled(ids, rng), sizes)
		cost := improve(tables, met)
		if bestCost < 0 || cost < bestCost {
			best, bestCost = tables, cost
		}
		if cost == 0 {
			break
		}
	}
	return best
}

// tableCost is how many times the pairs at seats have met before.
func tableCost(seats []int, met map[[2]int]int) int {
	c := 0
	for i, a := range seats {
		for _, b := range seats[i+1:] {
			if a != Bot && b != Bot {
				c += met[pair(a, b)]
			}
		}
	}
	return c
}

// improve swaps people between tables while a swap lowers the total cost,
// and returns the cost reached.
func improve(tables []Table, met map[[2]int]int) int {
	costs := make([]int, len(tables))
	total := 0
	for i, t := range tables {
		costs[i] = tableCost(t.Seats, met)
		total += costs[i]
	}
	for better := true; better && total > 0; {
		better = false
		for ti := range tables {
			for tj := ti + 1; tj < len(tables); tj++ {
				a, b := tables[ti].Seats, tables[tj].Seats
				for i := range a {
					for j := range b {
						if a[i] == Bot && b[j] == Bot {
							continue
						}
						a[i], b[j] = b[j], a[i]
						ci, cj := tableCost(a, met), tableCost(b, met)
						if ci+cj < costs[ti]+costs[tj] {
							total += ci + cj - costs[ti] - costs[tj]
							costs[ti], costs[tj] = ci, cj
							better = true
						} else {
							a[i], b[j] = b[j], a[i]
						}
					}
				}
			}
		}
	}
	return total
}

// slot is one place in the progressive order: an entry (or Bot) and the
// group it moves with (the winners or the losers of one table).
type slot struct {
	id, group int
}

// progress seats round r (r > 0) of a progressive event from round r-1's
// results. The order of the new round is W1 W2 L2 W3 L3 … Wk Lk L1 (Wi:
// the winners at table i, Li: its losers; table 1 is the head table),
// and it is cut into tables in that order: the winners at each table move
// up one, the losers stay, the head table's winners stay and its losers
// go to the bottom. People who joined since take the places of bots from
// the bottom up, else sit at the bottom, and bots fill the last table.
// At a table made of two groups of the same size in a game of fixed
// partnerships, partners switch (the two groups are seated so that each
// person's partner comes from the other group) when SwitchPartners is
// set, except at the head table when HeadStays is set; otherwise each
// group stays together.
func (e *Event) progress(r int, ids []int) []Table {
	prev := e.Rounds[r-1].Tables
	var seq []slot
	add := func(seats []int, g int) {
		for _, id := range seats {
			seq = append(seq, slot{id, g})
		}
	}
	groups := make([][2][]int, len(prev))
	for i, t := range prev {
		groups[i][0], groups[i][1] = e.split(t)
	}
	add(groups[0][0], 0)
	for i := 1; i < len(prev); i++ {
		add(groups[i][0], 2*i)
		add(groups[i][1], 2*i+1)
	}
	add(groups[0][1], 1)
	// Late joiners take the places of bots, from the bottom up.
	joiners := []int{}
	for _, id := range ids {
		if e.Entries[id].Joined == r {
			joiners = append(joiners, id)
		}
	}
	for i := len(seq) - 1; i >= 0 && len(joiners) > 0; i-- {
		if seq[i].id == Bot {
			seq[i] = slot{joiners[0], -1}
			joiners = joiners[1:]
		}
	}
	for _, id := range joiners {
		seq = append(seq, slot{id, -1})
	}
	sizes := e.Settings.TableSizes(len(ids))
	total := 0
	for _, s := range sizes {
		total += s
	}
	for i := len(seq) - 1; len(seq) > total && i >= 0; i-- {
		if seq[i].id == Bot {
			seq = slices.Delete(seq, i, i+1)
		}
	}
	for len(seq) < total {
		seq = append(seq, slot{Bot, -2})
	}
	return e.cut(seq, sizes)
}

// present returns the entries to seat in round r under FillByes or
// FillBots, in entry order: those who have joined by then and neither
// left, were withdrawn nor merged into another. (A leaver's place is not
// held by a bot: they are simply not seated.)
func (e *Event) present(r int) []int {
	var ids []int
	for i, en := range e.Entries {
		if en.Joined <= r && en.Left < 0 && en.MergedInto == nil {
			ids = append(ids, i)
		}
	}
	return ids
}

// byesBefore counts, per entry, the rounds before r they sat out.
func (e *Event) byesBefore(r int) map[int]int {
	n := map[int]int{}
	for _, round := range e.Rounds[:r] {
		for _, i := range round.Byes {
			n[i]++
		}
	}
	return n
}

// seatRound seats round r when Settings.Fill is FillByes or FillBots,
// and returns its tables and (FillByes) who sits it out.
//
// The order of the round: at a progressive event after the first round,
// the movement's W1 W2 L2 … Wk Lk L1 of those still present, then those
// back from a bye in the round before (in the order they sat out), then
// those who joined since (in the order they joined): both re-enter at the
// bottom. Otherwise (the first round, mixed, duplicate) a shuffle from
// the round's seed.
//
// FillByes: only full tables are seated (at auction without
// partnerships, 3 to 7 a table, nobody sits out but when fewer than 3
// are present), and the rest sit out: those with the fewest byes so
// far, then those who joined first (a latecomer has missed rounds
// already), then those lowest in the order — the bottom of the ladder in
// a progressive event, a draw from the seed otherwise. So nobody sits
// out twice before everyone present has sat out once. Fewer people than
// one table is refused (ErrTooFew).
//
// FillBots: everyone is seated; the bots that fill the gap all sit at
// the bottom table, and stay there each round (they are not in the
// movement's order).
func (e *Event) seatRound(r int) ([]Table, []int, error) {
	ids := e.present(r)
	if len(ids) == 0 {
		return nil, nil, ErrNoPlayers
	}
	byes := e.Settings.Fill == FillByes
	need := e.Settings.MinPlayers()
	if byes && len(ids) < need {
		return nil, nil, &Refusal{Code: "event_too_few", Params: map[string]any{"Present": len(ids), "Need": need}, Err: ErrTooFew,
			Msg: fmt.Sprintf("%v: %d present, %d needed at %s; with the setting %q bots fill the gaps instead", ErrTooFew, len(ids), need,
				e.Settings.Variant, FillBots)}
	}
	rng := e.rng(r)
	var seq []slot
	progressive := e.Settings.Movement == Progressive
	if progressive && r > 0 {
		seq = e.ladder(r, ids)
	} else {
		for _, id := range shuffled(ids, rng) {
			seq = append(seq, slot{id, -1})
		}
	}
	var out []int
	var sizes []int
	if size := e.Settings.fixedSize(); byes && size > 0 {
		k := len(seq) / size
		sizes = make([]int, k)
		for i := range sizes {
			sizes[i] = size
		}
		seq, out = e.chooseByes(r, seq, len(seq)-k*size)
	} else {
		sizes = e.Settings.TableSizes(len(seq))
	}
	total := 0
	for _, s := range sizes {
		total += s
	}
	for len(seq) < total {
		seq = append(seq, slot{Bot, -2}) // FillBots: the bottom table
	}
	if progressive {
		return e.cut(seq, sizes), out, nil
	}
	order := make([]int, len(seq))
	for i, sl := range seq {
		order[i] = sl.id
	}
	return e.mixFixed(r, order, sizes, rng), out, nil
}

// ladder is the order of progressive round r (r > 0) of the entries ids
// (present): the movement from round r-1's results, then those back from
// a bye, then the newcomers (seatRound).
func (e *Event) ladder(r int, ids []int) []slot {
	here := map[int]bool{}
	for _, id := range ids {
		here[id] = true
	}
	var seq []slot
	add := func(seats []int, g int) {
		for _, id := range seats {
			if id != Bot && here[id] {
				seq = append(seq, slot{id, g})
				delete(here, id)
			}
		}
	}
	prev := e.Rounds[r-1].Tables
	groups := make([][2][]int, len(prev))
	for i, t := range prev {
		groups[i][0], groups[i][1] = e.split(t)
	}
	if len(prev) > 0 {
		add(groups[0][0], 0)
		for i := 1; i < len(prev); i++ {
			add(groups[i][0], 2*i)
			add(groups[i][1], 2*i+1)
		}
		add(groups[0][1], 1)
	}
	add(e.Rounds[r-1].Byes, -1)
	for _, id := range ids {
		if here[id] {
			seq = append(seq, slot{id, -1})
		}
	}
	return seq
}

// chooseByes takes n people out of seq to sit out round r: the fewest
// byes so far first, then the earliest joined, then the lowest in seq.
// It returns the rest, in order, and those sitting out.
func (e *Event) chooseByes(r int, seq []slot, n int) ([]slot, []int) {
	if n <= 0 {
		return seq, nil
	}
	had := e.byesBefore(r)
	pos := make([]int, len(seq))
	for i := range pos {
		pos[i] = i
	}
	slices.SortStableFunc(pos, func(a, b int) int {
		x, y := seq[a].id, seq[b].id
		if had[x] != had[y] {
			return had[x] - had[y]
		}
		if jx, jy := e.Entries[x].Joined, e.Entries[y].Joined; jx != jy {
			return jx - jy
		}
		return b - a // the lower in the order first
	})
	out := map[int]bool{}
	var byes []int
	for _, p := range pos[:n] {
		out[p] = true
		byes = append(byes, seq[p].id)
	}
	var rest []slot
	for i, sl := range seq {
		if !out[i] {
			rest = append(rest, sl)
		}
	}
	return rest, byes
}

// cut cuts the progressive order seq into tables of sizes, in order,
// seating partners as the movement says (progress).
func (e *Event) cut(seq []slot, sizes []int) []Table {
	teams := e.Settings.Teams()
	tables := make([]Table, len(sizes))
	off := 0
	for i, s := range sizes {
		part := seq[off : off+s]
		off += s
		seats := make([]int, s)
		for k, sl := range part {
			seats[k] = sl.id
		}
		h := s / 2
		if teams && s%2 == 0 && part[0].group >= 0 && part[0].group == part[h-1].group && part[h].group == part[s-1].group &&
			part[h].group >= 0 && part[0].group != part[h].group {
			keep := !e.Settings.SwitchPartners || (i == 0 && e.Settings.HeadStays)
			if keep { // x1 y1 x2 y2 …: seats 0, 2, … are one group
				for k := range h {
					seats[2*k], seats[2*k+1] = part[k].id, part[h+k].id
				}
			}
			// else x1 x2 y1 y2: seats 0 and 2 are x1 and y1, a new pair
		}
		tables[i] = Table{Seats: seats}
	}
	return tables
}

// mixFixed seats order (people first, then any bots) at tables of sizes
// so that people meet as few of those they have sat with as it can, as
// mix does, but with the bots kept at the bottom table: no swap moves a
// bot.
func (e *Event) mixFixed(r int, order []int, sizes []int, rng *rand.Rand) []Table {
	met := e.met(r)
	people := slices.DeleteFunc(slices.Clone(order), func(id int) bool { return id == Bot })
	var best []Table
	bestCost := -1
	for try := range mixRestarts {
		o := people
		if try > 0 {
			o = shuffled(people, rng)
		}
		tables := fillBottom(o, sizes)
		cost := improveFixed(tables, met)
		if bestCost < 0 || cost < bestCost {
			best, bestCost = tables, cost
		}
		if cost == 0 {
			break
		}
	}
	return best
}

// fillBottom seats order at tables of sizes, in order; the bots that
// fill the gap take the last seats, at the bottom table.
func fillBottom(order []int, sizes []int) []Table {
	tables := make([]Table, len(sizes))
	k := 0
	for i, s := range sizes {
		seats := make([]int, s)
		for j := range seats {
			seats[j] = Bot
			if k < len(order) {
				seats[j] = order[k]
				k++
			}
		}
		tables[i] = Table{Seats: seats}
	}
	return tables
}

// improveFixed is improve without moving a bot.
func improveFixed(tables []Table, met map[[2]int]int) int {
	costs := make([]int, len(tables))
	total := 0
	for i, t := range tables {
		costs[i] = tableCost(t.Seats, met)
		total += costs[i]
	}
	for better := true; better && total > 0; {
		better = false
		for ti := range tables {
			for tj := ti + 1; tj < len(tables); tj++ {
				a, b := tables[ti].Seats, tables[tj].Seats
				for i := range a {
					for j := range b {
						if a[i] == Bot || b[j] == Bot {
							continue
						}
						a[i], b[j] = b[j], a[i]
						ci, cj := tableCost(a, met), tableCost(b, met)
						if ci+cj < costs[ti]+costs[tj] {
							total += ci + cj - costs[ti] - costs[tj]
							costs[ti], costs[tj] = ci, cj
							better = true
						} else {
							a[i], b[j] = b[j], a[i]
						}
					}
				}
			}
		}
	}
	return total
}
