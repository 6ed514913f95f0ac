package pitch

import (
	"errors"
	"strings"
	"testing"
)

// TestReadRecordRefusesUnknownDealFields: a misspelt field inside the deal
// ("widoww") is refused with a message naming it, not silently ignored —
// the record would otherwise fail later with a misleading complaint about
// the widow.
func TestReadRecordRefusesUnknownDealFields(t *testing.T) {
	_, err := ReadRecord(strings.NewReader(`{"variant":"pawnee","dealer":0,"deal":{"hands":[],"widoww":[]},"actions":[]}`))
	var re *RecordError
	if !errors.As(err, &re) || re.Action != -1 || !strings.Contains(re.Message, `unknown field "widoww"`) {
		t.Errorf("err = %v, want a record error naming the unknown field widoww", err)
	}
}
