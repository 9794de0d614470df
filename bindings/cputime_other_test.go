//go:build !unix

package bindings

import "time"

// processCPU is not measured on this platform (cpu-ns/op reports 0).
func processCPU() time.Duration { return 0 }
