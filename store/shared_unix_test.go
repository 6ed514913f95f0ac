//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenShared: a SQLite database held by another process (its flock
// taken on another open of the file, as a running server's is) is
// refused by Open with ErrInUse and opened by OpenShared, whose writes
// the holder's store reads; OpenShared refuses a file no server has
// made or migrated, and changes nothing there.
func TestOpenShared(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pitch.db")
	server, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	other, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// The lock as another process holds it: Open in this process shares
	// its own, so the test takes one the store does not know of.
	server.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, path); !errors.Is(err, ErrInUse) {
		t.Fatalf("Open of a database in use: %v, want ErrInUse", err)
	}
	cli, err := OpenShared(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatalf("OpenShared: %v", err)
	}
	if err := cli.CreateAccount(ctx, &Account{ID: "id-ada", Name: "Ada", NameKey: "ada"}); err != nil {
		t.Fatal(err)
	}
	if err := cli.SetDisabled(ctx, "id-ada", true); err != nil {
		t.Fatal(err)
	}
	cli.Close()
	_ = syscall.Flock(int(other.Fd()), syscall.LOCK_UN)
	again, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if a, err := again.AccountByName(ctx, "ada"); err != nil || !a.Disabled {
		t.Errorf("the shared open's change: %+v %v, want Ada disabled", a, err)
	}

	for _, c := range []struct {
		name, want string
		make       func(path string)
	}{
		{"missing", "no such file", func(string) {}},
		{"empty", "serve it once", func(p string) { _ = os.WriteFile(p, nil, 0o644) }},
	} {
		p := filepath.Join(dir, c.name+".db")
		c.make(p)
		_, err := OpenShared(ctx, p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("OpenShared of a %s file: %v, want an error saying %q", c.name, err, c.want)
		}
		if fi, err := os.Stat(p); err == nil && fi.Size() != 0 {
			t.Errorf("OpenShared of a %s file wrote to it", c.name)
		}
	}
}
