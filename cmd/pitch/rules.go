package main

import (
	"fmt"
	"io"
	"strings"

	"pitch"
)

// runRules implements `pitch rules [VARIANT]`.
func runRules(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintln(stderr, "pitch rules: give at most one VARIANT (auction, ten-point or pawnee)")
		return 2
	}
	vs := pitch.Variants
	if len(args) == 1 {
		v, err := pitch.ParseVariant(args[0])
		if err != nil {
			fmt.Fprintf(stderr, "pitch rules: %v\n", err)
			return 2
		}
		vs = []pitch.Variant{v}
	}
	for i, v := range vs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, strings.TrimLeft(pitch.RulesText(v), "\n"))
	}
	return 0
}
