//go:build unix

package bindings

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) the test process used so far:
// benchmarks report it per operation (cpu-ns/op), a figure a loaded
// machine distorts less than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
