package dom

import "testing"

// BenchmarkAddRemoveAlgorithm is what a lock request with a signal costs
// the signal: add an abort algorithm, later remove it.
func BenchmarkAddRemoveAlgorithm(b *testing.B) {
	s := NewAbortSignal()
	f := func() {}
	b.ReportAllocs()
	for b.Loop() {
		s.RemoveAlgorithm(s.AddAlgorithm(f))
	}
}

func BenchmarkSignalAbortWithListener(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c := NewAbortController()
		c.Signal().AddEventListener("abort", func(*Event) {}, ListenerOptions{})
		c.Abort(nil)
	}
}

func BenchmarkAnyOfTwo(b *testing.B) {
	x, y := NewAbortController(), NewAbortController()
	b.ReportAllocs()
	for b.Loop() {
		AbortSignalAny([]*AbortSignal{x.Signal(), y.Signal()})
	}
}
