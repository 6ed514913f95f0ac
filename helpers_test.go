package pitch

import (
	"errors"
	"strings"
	"testing"
)

// assertRefused checks that a is refused with an *ActionError whose
// message holds every part of want, and that the refusal changed nothing
// (C-7).
func assertRefused(t *testing.T, s *State, a Action, want ...string) {
	t.Helper()
	before := *s
	err := s.Apply(a)
	var ae *ActionError
	if !errors.As(err, &ae) {
		t.Fatalf("%s: got error %v, want an *ActionError", a, err)
	}
	for _, w := range want {
		if !strings.Contains(ae.Problem, w) {
			t.Errorf("%s: message %q does not say %q", a, ae.Problem, w)
		}
	}
	if *s != before {
		t.Errorf("%s: the refused action changed the state", a)
	}
}
