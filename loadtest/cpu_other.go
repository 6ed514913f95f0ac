//go:build !unix

package loadtest

import "time"

// processCPU is 0 (unknown) where there is no getrusage.
func processCPU() time.Duration { return 0 }
