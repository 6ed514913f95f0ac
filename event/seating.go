package event

import (
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
