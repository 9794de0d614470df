//go:build !unix

package htmlhost

import (
	"time"
)

func processCPU() time.Duration { return 0 }
