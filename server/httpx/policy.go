package httpx

import "pitch/server/access"

// Refused is the error that answers a refusal of the access policy:
// 404 for what is not there yet (a hand still being played), 409 for
// what is hidden until a round or a competition is over, 403 for
// another's data.
func Refused(op string, d access.Decision) *Error {
	switch d.Reason {
	case access.NotFinished:
		return Errorf(NotFound, op, "that hand is not finished: its record exists once it is").With("hand_not_finished", nil)
	case access.Competing:
		return Errorf(Conflict, op, "no hints or reviews at a competition (an event, a daily deal, a rated match) until it is over").With("advice_competition", nil)
	case access.RoundNotOver:
		return Errorf(Conflict, op, "this is hidden until the round is over, so that no one still to play its deals learns anything of them").With("round_not_over", nil)
	default:
		return Errorf(Forbidden, op, "this is not yours to see").With("not_yours", nil)
	}
}
