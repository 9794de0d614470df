package chromium

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// callAll returns when every call failed (the cleaning of a context whose
// session is gone): the cleaning once sent more errors than its channel
// held and hung the run.
func TestCallAllAllFailing(t *testing.T) {
	for _, n := range []int{0, 1, 7, 40} {
		calls := make([]func() error, n)
		for i := range calls {
			calls[i] = func() error { return fmt.Errorf("call %d failed", i) }
		}
		done := make(chan error, 1)
		go func() { done <- callAll(calls) }()
		select {
		case err := <-done:
			if (err != nil) != (n > 0) {
				t.Errorf("%d failing calls: %v", n, err)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("%d failing calls: callAll did not return", n)
		}
	}
	if err := callAll([]func() error{func() error { return nil }, func() error { return errors.New("x") }}); err == nil || err.Error() != "x" {
		t.Fatalf("one failing call of two: %v", err)
	}
}
