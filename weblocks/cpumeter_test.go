package weblocks

import (
	"testing"
	"time"
)

// cpuMeter reports, next to ns/op (wall time, which a loaded machine
// inflates), the CPU time the process spent per op: cpu-ns/op.
type cpuMeter struct {
	b     *testing.B
	start time.Duration
	total time.Duration
}

func startCPU(b *testing.B) *cpuMeter { return &cpuMeter{b: b, start: processCPU()} }

func (m *cpuMeter) report() {
	m.total += processCPU() - m.start
	if m.total > 0 {
		m.b.ReportMetric(float64(m.total.Nanoseconds())/float64(m.b.N), "cpu-ns/op")
	}
}
