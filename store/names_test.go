package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"pitch/account"
	"pitch/store/storetest"
)

func TestNamesSQLite(t *testing.T) {
	testNames(t, func(t *testing.T) string { return filepath.Join(t.TempDir(), "pitch.db") })
}

func TestNamesPostgres(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	testNames(t, func(t *testing.T) string { t.Helper(); return storetest.FreshPostgres(t, base) })
}

// testNames: an account's name that looks like one taken (the same
// confusable skeleton, account.Skeleton) is taken, in several scripts;
// NameTaken says so for keys and skeletons alike; and migration 0014's Go
// step gives the accounts made before it their skeletons.
func testNames(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	create := func(id, name string) error {
		_, key, err := account.CheckName(name)
		if err != nil {
			key = account.Key(name) // a name made before the script check
		}
		return s.CreateAccount(ctx, &Account{ID: id, Name: name, NameKey: key})
	}
	for i, c := range []struct {
		name  string
		taken bool
	}{
		{"Ada", false},
		{"ADA", true},  // the same key
		{"Αda", true},  // a Greek capital alpha
		{"Аda", true},  // a Cyrillic capital a
		{"аdа", true},  // Cyrillic small a twice
		{"Ida", false}, // another name
		{"lda", true},  // looks like Ida (capital I, small l)
		{"Sergey", false},
		{"Ѕеrgеу", true}, // all Cyrillic
		{"Νίκος", false}, // Greek
		{"Nikos", false}, // not like Νίκος: ν and ι are not n and i
		{"さくら", false},
		{"サクラ", false}, // Katakana is not Hiragana
		{"Bob0", false},
		{"BobO", true}, // zero and O
	} {
		err := create("id-"+string(rune('a'+i)), c.name)
		if c.taken != errors.Is(err, ErrConflict) || (!c.taken && err != nil) {
			t.Errorf("CreateAccount(%q): %v, want taken %v", c.name, err, c.taken)
		}
		taken, err := s.NameTaken(ctx, c.name)
		if err != nil || !taken {
			t.Errorf("NameTaken(%q) = %v (%v), want true: it or a look-alike has an account", c.name, taken, err)
		}
	}
	for _, name := range []string{"Grace", "Αlan", "Zoë"} {
		if taken, err := s.NameTaken(ctx, name); err != nil || taken {
			t.Errorf("NameTaken(%q) = %v (%v), want false", name, taken, err)
		}
	}
	// An account made before migration 0014 has no skeleton until its Go
	// step runs.
	ss := s.(*sqlStore)
	if _, err := ss.w.ExecContext(ctx, ss.d.q(`INSERT INTO accounts (id, name, name_key, created) VALUES ('old', 'Grace', 'grace', ?)`), ss.d.timeArg(timeNow())); err != nil {
		t.Fatal(err)
	}
	tx, err := ss.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := fillSkeletons(ctx, tx, ss.d); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := create("id-grace", "Grаce"); !errors.Is(err, ErrConflict) {
		t.Errorf("a look-alike of an account made before the migration: %v, want ErrConflict", err)
	}
}
