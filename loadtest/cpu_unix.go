//go:build unix

package loadtest

import (
	"syscall"
	"time"
)

// processCPU is the CPU this process has used so far, user and system
// time together (0 if unknown).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
