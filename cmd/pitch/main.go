// Command pitch plays, scores and simulates the Pitch card games.
//
//	pitch play [--variant V] [--seat S] [--level L]  a match against bots in the terminal
//	pitch sim ...              bots against bots, with statistics
//	pitch score [FILE]         score a hand record (standard input without FILE)
//	pitch verify [FILE]        check a served hand's fair deal (docs/fairness.md)
//	pitch deal --variant V --seed N [--dealer D] [--players N] [--play BOT]
//	pitch rules [VARIANT]      the rules as implemented, with options and defaults
//	pitch advise [--level L] [--json] [FILE]  a bot's ranked options at a decision
//	pitch user list | reset-password NAME | disable NAME | enable NAME | delete NAME   operators' account commands
//	pitch review [--seat S] [--json] [FILE]   each decision of a hand (or of a match file's hands) weighed: mistakes and blunders
package main

import (
	"fmt"
	"io"
	"net"
	"os"
)

// command is one subcommand: it reads args and writes to stdout and stderr,
// returning the process exit code.
type command struct {
	name, usage string
	run         func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands []command

func init() {
	commands = []command{
		{"loadtest", "loadtest [--addr URL] [--tables N] [--duration D] [--think D]: load a running server with bot clients", runLoadtest},
		{"serve", "serve [--addr :8080] [--db pitch.db | --db postgres://…]: the multiplayer server with the browser UI", runServe},
		{"play", "play [--variant V] [--seat S] [--level easy|medium|hard] [--seed N]: a match against bots in the terminal", runPlay},
		{"score", "score [FILE]: score a hand record and print the result as JSON", runScore},
		{"verify", "verify [FILE]: check that a hand record from a pitch serve table was dealt fairly (docs/fairness.md)", runVerify},
		{"deal", "deal --variant V --seed N [--dealer D] [--players N] [--play BOT]: print a hand record of a random deal (played out by bots with --play)", runDeal},
		{"review", "review [--seat S|all] [--worlds N] [--seed N] [--json] [FILE]: each decision of a hand record (or of every hand of a match file) weighed from what its seat knew: mistakes, blunders and the best options, counted by seat for a match", runReview},
		{"advise", "advise [--level expert|hard|medium] [--seed N] [--json] [FILE]: the options of the seat to act at the end of a hand record, best first, with expected values and bids' chances", runAdvise},
		{"rules", "rules [--lang L] [VARIANT]: print the rules as implemented, with the options and their defaults", runRules},
		{"user", "user list | reset-password NAME | disable NAME | enable NAME | delete NAME [--db pitch.db] [--url URL]: the accounts of a server's database (docs/accounts.md)", runUser},
		{"sim", "sim --variant V (--seats B,B,... | --a B --b B) (--hands N | --matches N [--max-hands N]) [--duplicate] [--seed N] [--workers N] [--json] [--svg FILE]: bots against bots", runSim},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "pitch: internal error: %v\n", r)
			code = 2
		}
	}()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "pitch: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pitch COMMAND [ARGS]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %s\n", c.usage)
	}
}

// browseURL is the address a person can open for a server listening on
// addr: an unspecified host (":8080", "[::]:8080", "0.0.0.0:8080") is
// written as localhost.
func browseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
