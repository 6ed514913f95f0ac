package pitch

import (
	"fmt"
	"strconv"
)

// ActionKind says what an action does. The kinds are the hand-record
// action fields (HAND-RECORD.md), one vocabulary from engine to wire to disk.
type ActionKind uint8

// The action kinds.
const (
	ActNone       ActionKind = iota
	ActBid                   // bid Bid points (10 is a moon in ten-point and pawnee)
	ActPass                  // pass in the auction
	ActCall                  // pawnee: call Card (PW-CALL-1)
	ActTrump                 // ten-point: name Suit as trump (TP-TR-1)
	ActGiveStock             // ten-point: Give the stock to the partner or not (TP-TR-4)
	ActPassTrumps            // ten-point: pass Cards to the partner (TP-TR-5)
	ActDiscard               // pawnee discard (PW-DIS) or ten-point burn (TP-TR-5) of Cards
	ActPlay                  // play Card to the trick
)

var actionKindNames = [...]string{"none", "bid", "pass", "call", "trump", "give_stock", "pass_trumps", "discard", "play"}

// String returns the kind's hand-record field name.
func (k ActionKind) String() string {
	if int(k) < len(actionKindNames) {
		return actionKindNames[k]
	}
	return fmt.Sprintf("ActionKind(%d)", k)
}

// Action is one decision by one seat. Only the fields of its Kind matter.
type Action struct {
	Kind  ActionKind
	Seat  int8
	Bid   int8    // ActBid
	Suit  Suit    // ActTrump
	Give  bool    // ActGiveStock
	Card  Card    // ActCall, ActPlay
	Cards CardSet // ActPassTrumps, ActDiscard
}

// Bid returns seat's bid of n.
func Bid(seat, n int) Action { return Action{Kind: ActBid, Seat: int8(seat), Bid: int8(n)} }

// Pass returns seat's pass in the auction.
func Pass(seat int) Action { return Action{Kind: ActPass, Seat: int8(seat)} }

// Call returns the pawnee bidder's call of card c.
func Call(seat int, c Card) Action { return Action{Kind: ActCall, Seat: int8(seat), Card: c} }

// NameTrump returns the ten-point pitcher's choice of trump suit.
func NameTrump(seat int, s Suit) Action { return Action{Kind: ActTrump, Seat: int8(seat), Suit: s} }

// GiveStock returns the ten-point pitcher's choice to hand the stock to the partner (give) or keep it.
func GiveStock(seat int, give bool) Action {
	return Action{Kind: ActGiveStock, Seat: int8(seat), Give: give}
}

// PassTrumps returns a ten-point seat's pass of cards to its partner.
func PassTrumps(seat int, cards CardSet) Action {
	return Action{Kind: ActPassTrumps, Seat: int8(seat), Cards: cards}
}

// Discard returns a discard (pawnee) or burn (ten-point) of cards.
func Discard(seat int, cards CardSet) Action {
	return Action{Kind: ActDiscard, Seat: int8(seat), Cards: cards}
}

// Play returns seat's play of card c.
func Play(seat int, c Card) Action { return Action{Kind: ActPlay, Seat: int8(seat), Card: c} }

// String describes the action in plain words, e.g. "seat 2 plays TH".
// (Written without fmt: the server logs every action in these words.)
func (a Action) String() string {
	var buf [64]byte
	b := append(buf[:0], "seat "...)
	b = strconv.AppendInt(b, int64(a.Seat), 10)
	b = append(b, ' ')
	switch a.Kind {
	case ActBid:
		b = append(b, "bids "...)
		b = strconv.AppendInt(b, int64(a.Bid), 10)
	case ActPass:
		b = append(b, "passes"...)
	case ActCall:
		b = append(b, "calls "...)
		b = append(b, a.Card.String()...)
	case ActTrump:
		b = append(b, "names trump "...)
		b = append(b, a.Suit.String()...)
	case ActGiveStock:
		if a.Give {
			b = append(b, "gives the stock to the partner"...)
		} else {
			b = append(b, "keeps the stock"...)
		}
	case ActPassTrumps:
		b = append(b, "passes "...)
		b = append(b, a.Cards.String()...)
		b = append(b, " to the partner"...)
	case ActDiscard:
		b = append(b, "discards "...)
		b = append(b, a.Cards.String()...)
	case ActPlay:
		b = append(b, "plays "...)
		b = append(b, a.Card.String()...)
	default:
		b = append(b, "does nothing"...)
	}
	return string(b)
}
