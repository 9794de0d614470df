//go:build !unix

package weblocks

import "time"

func processCPU() time.Duration { return 0 }
