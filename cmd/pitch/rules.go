package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"pitch"
	"pitch/i18n"
)

// runRules implements `pitch rules [--lang L] [VARIANT]`.
func runRules(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang := langFlag(fs)
	setUsage(fs, "rules [--lang L] [VARIANT]",
		"Prints the rules as implemented, short and plain, with each game's options and\n"+
			"their defaults: every game, or the one named (auction, ten-point or pawnee).\n\n"+
			"example: pitch rules --lang it pawnee")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	p, ok := printerFor(*lang, "rules", stderr)
	if !ok {
		return 2
	}
	if fs.NArg() > 1 {
		return usageError(stderr, "rules", "give at most one VARIANT (auction, ten-point or pawnee)")
	}
	vs := pitch.Variants
	if fs.NArg() == 1 {
		v, err := pitch.ParseVariant(fs.Arg(0))
		if err != nil {
			return usageError(stderr, "rules", "%v", err)
		}
		vs = []pitch.Variant{v}
	}
	for i, v := range vs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, rulesText(p, v))
	}
	return 0
}

// rulesKeys and optionHelpKeys name the catalog's messages for the rules.
var (
	rulesKeys      = map[pitch.Variant]string{pitch.Auction: "rules.auction", pitch.TenPoint: "rules.ten-point", pitch.Pawnee: "rules.pawnee"}
	optionHelpKeys = map[string]string{
		"target": "rules.opt.target", "players": "rules.opt.players", "partnerships": "rules.opt.partnerships",
		"low_to_holder": "rules.opt.low_to_holder", "call_own_card": "rules.opt.call_own_card",
		"pawnee_score_tricks": "rules.opt.pawnee_score_tricks", "pawnee_fail_bidder_only": "rules.opt.pawnee_fail_bidder_only",
	}
)

// rulesText is the rules of v in p's language, then the options with
// their hand-record names and defaults (the engine's).
func rulesText(p *i18n.Printer, v pitch.Variant) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(p.T(rulesKeys[v], nil), "\n"))
	b.WriteString("\n\n" + p.T("rules.options", nil) + "\n")
	defaults := pitch.MustNewGame(v).OptionMap()
	for _, k := range pitch.OptionNames(v) {
		fmt.Fprintf(&b, "  %-24s %-6v %s\n", k, defaults[k], p.T(optionHelpKeys[k], nil))
	}
	return b.String()
}

// langFlag adds --lang, whose default is the environment's language
// (LC_ALL, LC_MESSAGES, LANG).
func langFlag(fs *flag.FlagSet) *string {
	var tags []string
	for _, l := range i18n.Languages {
		tags = append(tags, l.Tag)
	}
	return fs.String("lang", "", "language: "+strings.Join(tags, ", ")+" (default: from LC_ALL, LC_MESSAGES or LANG, else en)")
}

// printerFor returns the printer of the language asked for (the
// environment's when lang is empty), or says which languages there are.
func printerFor(lang, cmd string, stderr io.Writer) (*i18n.Printer, bool) {
	if lang == "" {
		return i18n.New(i18n.FromEnv()), true
	}
	if !i18n.Supported(lang) {
		var tags []string
		for _, l := range i18n.Languages {
			tags = append(tags, l.Tag)
		}
		usageError(stderr, cmd, "unknown language %q: the languages are %s", lang, strings.Join(tags, ", "))
		return nil, false
	}
	return i18n.New(lang), true
}
