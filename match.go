package pitch

import (
	"fmt"
	"math/rand/v2"
)

// Match is a sequence of hands played until the game's end rule names a
// winner (C-6). Every random choice comes from Seed, so the seed and the
// decisions replay the match exactly.
type Match struct {
	Game *Game
	Seed uint64

	rng     *rand.Rand
	state   State
	actions []Action // this hand's actions
	hands   []Record // finished hands
	history []Action // every action of the match
	last    State    // the last finished hand
	winner  []int
	// byDeck: every hand is dealt from a deck the caller gives (DealNext),
	// not from rng; awaiting: the hand in State is not dealt yet.
	byDeck, awaiting bool
}

// NewRand returns the generator a match with this seed uses.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// NewMatch starts a match of g: the first dealer is drawn from the seed
// (C-2) and the first hand is dealt.
func NewMatch(g *Game, seed uint64) *Match {
	m := &Match{Game: g, Seed: seed, rng: NewRand(seed)}
	dealer := m.rng.IntN(g.seats)
	m.state = Deal(g, dealer, make([]int, g.seats), m.rng)
	return m
}

// NewMatchByDeck starts a match of g whose hands the caller deals with
// DealNext, each from a deck order of its own (a server's fair deals,
// docs/fairness.md). The first dealer is drawn from seed exactly as
// NewMatch draws it (C-2); the seed deals no cards. Until DealNext the
// match awaits its first deal: State is an empty hand with no seat to act.
func NewMatchByDeck(g *Game, seed uint64) *Match {
	m := &Match{Game: g, Seed: seed, rng: NewRand(seed), byDeck: true}
	m.await(m.rng.IntN(g.seats), make([]int, g.seats))
	return m
}

// await makes the hand in progress an undealt hand of dealer.
func (m *Match) await(dealer int, scores []int) {
	m.state.reset(m.Game, int8(dealer), scores)
	m.state.turn = -1
	m.state.setSides()
	m.awaiting = true
}

// AwaitingDeal reports whether the hand in progress waits for its deck
// (DealNext): never for a match made by NewMatch.
func (m *Match) AwaitingDeal() bool { return m.awaiting }

// DealNext deals the hand the match awaits from deck (top first, exactly
// the game's deck, as NewHand takes it), with the dealer and the scores
// the match gives it.
func (m *Match) DealNext(deck []Card) error {
	if !m.awaiting {
		return fmt.Errorf("no hand awaits a deal: the hand in progress is dealt")
	}
	s, err := NewHand(m.Game, m.state.Dealer(), m.state.Scores(), deck)
	if err != nil {
		return err
	}
	m.state, m.awaiting = s, false
	return nil
}

// Replay rebuilds a match from its seed and every action taken in it (C-6).
func Replay(g *Game, seed uint64, actions []Action) (*Match, error) {
	m := NewMatch(g, seed)
	for i, a := range actions {
		if err := m.Apply(a); err != nil {
			return nil, fmt.Errorf("action %d (%s): %w", i, a, err)
		}
	}
	return m, nil
}

// NextDealer is the seat that deals the next hand to be dealt: the
// awaited hand's dealer, or, while a hand is in play, the seat to its
// dealer's left (C-2). A server names it with the commitment of that
// deal (docs/fairness.md).
func (m *Match) NextDealer() int {
	if m.awaiting {
		return m.state.Dealer()
	}
	return int(m.state.next(m.state.dealer))
}

// State returns the hand in progress (or the final hand once the match is over).
func (m *Match) State() *State { return &m.state }

// Over reports whether the match has a winner.
func (m *Match) Over() bool { return m.winner != nil }

// Winner returns the seats that won the match, or nil.
func (m *Match) Winner() []int { return m.winner }

// Records returns the hand records of every finished hand.
func (m *Match) Records() []Record { return m.hands }

// History returns every action taken in the match, in order.
func (m *Match) History() []Action { return m.history }

// HandActions returns the actions of the hand in progress.
func (m *Match) HandActions() []Action { return m.actions }

// LastHand returns the last finished hand, or nil before the first ends.
func (m *Match) LastHand() *State {
	if len(m.hands) == 0 {
		return nil
	}
	return &m.last
}

// Apply applies a to the hand in progress. When the hand ends it is
// recorded and, unless the match is over, the next hand is dealt by the
// seat to the old dealer's left (C-2).
func (m *Match) Apply(a Action) error {
	if m.Over() {
		return &ActionError{Action: a, Problem: "the match is over: no more actions are allowed"}
	}
	if m.awaiting {
		return &ActionError{Action: a, Problem: "the hand is not dealt yet: wait for the deal"}
	}
	if err := m.state.Apply(a); err != nil {
		return err
	}
	m.actions = append(m.actions, a)
	m.history = append(m.history, a)
	if !m.state.Terminal() {
		return nil
	}
	m.hands = append(m.hands, m.state.Record(m.actions))
	m.actions = nil
	m.last = m.state
	if w := m.state.Winners(); w != nil {
		m.winner = w
		return nil
	}
	if m.byDeck {
		m.await(int(m.state.next(m.state.dealer)), m.state.NewScores())
		return nil
	}
	m.state = Deal(m.Game, int(m.state.next(m.state.dealer)), m.state.NewScores(), m.rng)
	return nil
}
