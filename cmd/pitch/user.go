package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"pitch/account"
	"pitch/server/play"
	"pitch/store"
)

// resetTTL is how long a reset link of `pitch user reset-password` works.
const resetTTL = 24 * time.Hour

// runUser implements `pitch user`: the operator's account commands, run
// against the server's database (docs/accounts.md).
func runUser(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	const synopsis = "user list | reset-password NAME | disable NAME | enable NAME | delete NAME [--db pitch.db] [--url URL]"
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(stderr, "usage: pitch %s\n", synopsis)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	action := args[0]
	fs := flag.NewFlagSet("user "+action, flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "pitch.db", "SQLite file, or a postgres:// URL: the server's database")
	base := fs.String("url", "http://localhost:8080", "the site's address, for the reset link")
	setUsage(fs, synopsis, `The accounts of a pitch serve database.
  list                 every account: name, ID, created, password or passkeys, disabled
  reset-password NAME  print a one-time link (24 hours) that sets a new password
  disable NAME         no sign-in; every session ends at once
  enable NAME          undo disable
  delete NAME          delete the account as its owner would: personal data goes,
                       the hands stay replayable under an anonymous name
Works while pitch serve runs on the database; the server closes a disabled or
deleted account's connections within seconds.
example: pitch user reset-password Ada --db pitch.db --url https://pitch.example`)
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	var name string
	if rest := fs.Args(); len(rest) > 0 {
		name = rest[0]
		if err := fs.Parse(rest[1:]); err != nil { // flags after the name
			return 2
		}
		if fs.NArg() > 0 {
			return usageError(stderr, "user", "unexpected argument %q", fs.Arg(0))
		}
	}
	needsName := action != "list"
	switch {
	case !strings.Contains(" list reset-password disable enable delete ", " "+action+" "):
		return usageError(stderr, "user", "unknown action %q: use list, reset-password, disable, enable or delete", action)
	case needsName && name == "":
		return usageError(stderr, "user", "%s needs the account's NAME", action)
	case !needsName && name != "":
		return usageError(stderr, "user", "list takes no name")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, *db)
	running := false
	if errors.Is(err, store.ErrInUse) {
		// A running pitch serve holds the SQLite file: work beside it; the
		// server notices (docs/accounts.md, Operators).
		st, err = store.OpenShared(ctx, *db)
		running = true
	}
	if err != nil {
		fmt.Fprintf(stderr, "pitch user: %v\n", err)
		return 1
	}
	defer st.Close()
	noticed := func() {
		if running {
			fmt.Fprintf(stderr, "the running server acts on it within %s: the account's connections close\n", play.DefaultAccountCheck)
		}
	}
	if action == "list" {
		return listAccounts(ctx, st, stdout, stderr)
	}
	a, err := st.AccountByName(ctx, account.Key(name))
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "pitch user: no account is named %q\n", name)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "pitch user: %v\n", err)
		return 1
	}
	switch action {
	case "reset-password":
		token := rand.Text() + rand.Text()
		h := sha256.Sum256([]byte(token))
		if err = st.CreateReset(ctx, h[:], a.ID, time.Now().Add(resetTTL)); err == nil {
			// The token rides in the fragment: it never reaches a server log
			// nor a Referer header.
			fmt.Fprintf(stdout, "%s/reset#%s\n", strings.TrimRight(*base, "/"), token)
			fmt.Fprintf(stderr, "a one-time link for %s, good for %s: give it to them privately\n", a.Name, resetTTL)
		}
	case "disable":
		if err = st.SetDisabled(ctx, a.ID, true); err == nil {
			fmt.Fprintf(stdout, "%s is disabled; every session has ended\n", a.Name)
			noticed()
		}
	case "enable":
		if err = st.SetDisabled(ctx, a.ID, false); err == nil {
			fmt.Fprintf(stdout, "%s is enabled\n", a.Name)
		}
	case "delete":
		if err = st.DeleteAccount(ctx, a.ID, account.AnonName()); err == nil {
			fmt.Fprintf(stdout, "%s is deleted\n", a.Name)
			noticed()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "pitch user: %v\n", err)
		return 1
	}
	return 0
}

func listAccounts(ctx context.Context, st store.Store, stdout, stderr io.Writer) int {
	list, err := st.ListAccounts(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "pitch user: %v\n", err)
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tID\tCREATED\tSIGN-IN\tSTATE")
	for _, a := range list {
		keys, err := st.Passkeys(ctx, a.ID)
		if err != nil {
			fmt.Fprintf(stderr, "pitch user: %v\n", err)
			return 1
		}
		var how []string
		if a.Password != "" {
			how = append(how, "password")
		}
		if len(keys) > 0 {
			how = append(how, fmt.Sprintf("%d passkeys", len(keys)))
		}
		state := "active"
		if a.Disabled {
			state = "disabled"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", a.Name, a.ID, a.Created.Format("2006-01-02"), strings.Join(how, ", "), state)
	}
	if err := tw.Flush(); err != nil {
		return 1
	}
	fmt.Fprintf(stderr, "%d accounts\n", len(list))
	return 0
}
