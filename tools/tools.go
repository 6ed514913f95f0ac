//go:build tools

// Package tools pins the developer tools (staticcheck, benchstat) in a
// module of their own, so the product's go.mod stays clean.
package tools

import (
	_ "golang.org/x/perf/cmd/benchstat"
	_ "honnef.co/go/tools/cmd/staticcheck"
)
