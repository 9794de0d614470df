package ipc

import (
	"testing"

	"github.com/gowebengine/weblocks/weblocks"
)

// BenchmarkContractCycle is one request/grant/release cycle of the lock
// service contract from a client whose event loop is the benchmark's
// goroutine: "local" on a *weblocks.Service in this process, "remote"
// through a RemoteService, a LockServer and a socket pair to the same
// kind of service (both ends in this process: the cost of the wire,
// gRPC and the session, without a second process's scheduling).
func BenchmarkContractCycle(b *testing.B) {
	run := func(b *testing.B, s weblocks.LockService) {
		l := make(chan weblocks.Task, 16)
		c, err := s.Register(weblocks.ClientConfig{ID: "env", Bucket: benchBucket(), Deliver: func(t weblocks.Task) { l <- t }})
		if err != nil {
			b.Fatal(err)
		}
		var got weblocks.Outcome
		r := weblocks.ReceiverFunc(func(o weblocks.Outcome) { got = o })
		for b.Loop() {
			if _, err := s.Request(c, "a", weblocks.Exclusive, weblocks.Wait, r); err != nil {
				b.Fatal(err)
			}
			(<-l).RunTask()
			if got.Kind != weblocks.OutcomeGranted {
				b.Fatalf("%v", got.Kind)
			}
			if err := s.Release(got.Lock); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("local", func(b *testing.B) { run(b, weblocks.NewService()) })
	b.Run("remote", func(b *testing.B) {
		ls := NewLockServer(weblocks.NewService(), nil)
		rs, _, _ := grpcSession.remoteRenderer(b, ls, "https://a.test")
		run(b, rs)
	})
	b.Run("framed", func(b *testing.B) {
		ls := NewLockServer(weblocks.NewService(), nil)
		rs, _, _ := framedSession.remoteRenderer(b, ls, "https://a.test")
		run(b, rs)
	})
}
