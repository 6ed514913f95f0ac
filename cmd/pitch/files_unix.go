//go:build unix

package main

import "syscall"

// openFileLimit is this process's open-file limit (Go raises the soft
// limit to the hard one as it starts), 0 if unknown or unlimited.
func openFileLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur >= 1<<40 {
		return 0
	}
	return r.Cur
}
