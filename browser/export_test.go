package browser

import "time"

// SetForwardPatience sets how long a renderer's broadcast waits for a
// renderer whose queue is full (tests); it returns the restore function.
func SetForwardPatience(d time.Duration) (restore func()) {
	was := forwardPatience.Swap(int64(d))
	return func() { forwardPatience.Store(was) }
}
