package play

import (
	"context"
	"slices"
	"time"

	"pitch/event"
	"pitch/server/eventview"
)

// What an event shows (eventview): to anyone, and to each of its people
// where they sit. Its HTTP side is server/eventapi.

// view is the public state. The lock must be held.
func (e *liveEvent) view() eventview.Event {
	ev := e.d.Event
	v := eventview.Event{ID: e.id, Settings: ev.Settings, Round: len(ev.Rounds), Entries: []eventview.Entry{}, Rounds: [][]eventview.Table{},
		People: len(ev.Entries), Teams: ev.Settings.Teams()}
	if n := len(ev.Rounds); n > 0 {
		v.Tables = len(ev.Rounds[n-1].Tables)
	} else if active := activeCount(ev); active > 0 {
		v.Tables = len(ev.Settings.TableSizes(active))
	}
	v.Stand, v.StandAfter = standings(ev)
	v.StandCount = len(v.Stand)
	switch n := len(ev.Rounds); {
	case ev.Over():
		v.State = "over"
	case n == 0:
		v.State = "waiting"
	case ev.Rounds[n-1].Done():
		v.State = "between"
	default:
		v.State = "playing"
		v.Started = &e.d.Started[n-1]
		v.Paused = e.d.Paused
		if !e.d.EndsAt[n-1].IsZero() {
			v.EndsAt = &e.d.EndsAt[n-1]
			left := max(time.Until(e.d.EndsAt[n-1]), 0).Milliseconds()
			if e.d.Paused {
				left = e.d.Held.Milliseconds()
			}
			v.LeftMS = &left
		}
	}
	v.Ended = ev.Ended
	for i, en := range ev.Entries {
		v.Entries = append(v.Entries, eventview.Entry{Entry: i, Name: en.Name, Joined: en.Joined, Left: en.Left})
	}
	var before map[int]int // entry: table number in the round before
	for r, round := range ev.Rounds {
		var tabs []eventview.Table
		at := map[int]int{}
		for ti, tab := range round.Tables {
			tj := eventview.Table{Table: e.d.Tables[r][ti], Result: tab.Result, Winner: ev.Winners(r, ti)}
			for _, id := range tab.Seats {
				sj := eventview.Seat{Entry: id, Bot: id == event.Bot}
				if id != event.Bot {
					sj.Name, sj.Bot = ev.Entries[id].Name, ev.BotPlays(id, r)
					at[id] = ti + 1
					if !sj.Bot {
						sj.From = before[id]
					}
				}
				tj.Seats = append(tj.Seats, sj)
			}
			bots := make([]bool, len(tj.Seats))
			for k, sj := range tj.Seats {
				bots[k] = sj.Bot
			}
			for k, n := range eventview.BotNumbers(bots) {
				tj.Seats[k].BotNo = n
			}
			tabs = append(tabs, tj)
		}
		v.Rounds = append(v.Rounds, tabs)
		before = at
		if ev.Settings.Movement == event.Duplicate {
			v.MP = append(v.MP, ev.Matchpoints(r))
			v.Commitments = append(v.Commitments, e.commitments(r))
		}
	}
	e.duplicateView(&v)
	e.deskView(&v)
	return v
}

// activeCount is how many of the event's people have not left.
func activeCount(ev *event.Event) int {
	n := 0
	for _, en := range ev.Entries {
		if en.Left < 0 {
			n++
		}
	}
	return n
}

// standings are the event's standings after the rounds every table of
// which has finished, and how many rounds that is: while a round is
// played, everyone in it ranked on the rounds before (a solo event's one
// round counts each table as it finishes).
func standings(ev *event.Event) ([]event.Standing, int) {
	n := len(ev.Rounds)
	if n == 0 || ev.Settings.Solo || ev.Rounds[n-1].Done() {
		return ev.Standings(), n
	}
	// Everyone seated in the round is ranked, on the rounds before it.
	before := *ev
	before.Rounds = slices.Clone(ev.Rounds)
	playing := slices.Clone(ev.Rounds[n-1].Tables)
	for i := range playing {
		playing[i].Result = nil
	}
	before.Rounds[n-1].Tables = playing
	return before.Standings(), n - 1
}

// seatOf says where entry i sits now, with their seat's token. The lock
// must be held.
func (e *liveEvent) seatOf(i int) eventview.MySeat {
	ev := e.d.Event
	me := eventview.MySeat{Entry: i, Name: ev.Entries[i].Name, Seat: -1, Left: ev.Entries[i].Left >= 0}
	if ti, seat, ok := ev.Seated(i); ok && !ev.BotPlays(i, len(ev.Rounds)-1) {
		r := len(ev.Rounds) - 1
		me.Round, me.TableNo, me.Seat = r+1, ti+1, seat
		me.Table = e.d.Tables[r][ti]
		me.SeatToken = seatToken(e.d.Token[i], me.Table, seat)
		me.Done = ev.Rounds[r].Tables[ti].Result != nil
	}
	e.byeOf(&me)
	return me
}

// eventView is event id as anyone may see it: the live event's, or else
// read from the store without making it live (a finished event stays
// out of memory).
func (s *Server) eventView(ctx context.Context, id string) (eventview.Event, error) {
	s.ev.mu.Lock()
	e, ok := s.ev.byID[id]
	s.ev.mu.Unlock()
	if !ok {
		rec, err := s.store.Tournament(ctx, id)
		if err != nil {
			return eventview.Event{}, err
		}
		if e, err = liveFrom(rec); err != nil {
			return eventview.Event{}, err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.view(), nil
}

// holdTables stops or restarts play at the tables ids held in memory
// (after their event's pause or resume). No event lock may be held.
func (s *Server) holdTables(ids []string, pause bool) {
	for _, id := range ids {
		if t := s.inMemory(id); t != nil {
			t.mu.Lock()
			t.hold(pause)
			t.mu.Unlock()
		}
	}
}
