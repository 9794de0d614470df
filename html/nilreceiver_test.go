package html

import (
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"testing"
	"time"
)

// Every exported method of the html package's main types, called on a
// nil receiver (with zero arguments), returns zero values or an error
// (ErrNoUserAgent and the like) instead of panicking or blocking.
func TestNilReceivers(t *testing.T) {
	for _, typ := range []any{
		(*UserAgent)(nil), (*Agent)(nil), (*AgentCluster)(nil), (*BrowsingContextGroup)(nil),
		(*EventLoop)(nil), (*ManualScheduler)(nil), (*ParallelQueue)(nil), (*Timer)(nil),
		(*EnvironmentSettingsObject)(nil), (*Document)(nil), (*Navigable)(nil),
		(*MessagePort)(nil), (*BroadcastChannel)(nil), (*SharedWorker)(nil),
	} {
		v := reflect.ValueOf(typ)
		rt := v.Type()
		if rt.NumMethod() == 0 {
			t.Errorf("%s has no methods", rt)
		}
		for i := 0; i < rt.NumMethod(); i++ {
			m := rt.Method(i)
			name := fmt.Sprintf("(%s)(nil).%s", rt, m.Name)
			args := []reflect.Value{v}
			for j := 1; j < m.Type.NumIn(); j++ {
				args = append(args, reflect.Zero(m.Type.In(j)))
			}
			done := make(chan string, 1)
			go func() {
				defer func() {
					if x := recover(); x != nil {
						done <- fmt.Sprintf("panics: %v\n%s", x, debug.Stack())
					}
				}()
				if m.Type.IsVariadic() {
					m.Func.CallSlice(args)
				} else {
					m.Func.Call(args)
				}
				done <- ""
			}()
			select {
			case msg := <-done:
				if msg != "" {
					t.Errorf("%s %s", name, msg)
				}
			case <-time.After(30 * time.Second):
				// A bound on a bug, not a timing assumption: the call
				// returns at once or never.
				t.Errorf("%s blocks", name)
			}
		}
	}
	// The methods with an error result say why.
	if err := (*EventLoop)(nil).CheckCurrent(); !errors.Is(err, ErrNoUserAgent) {
		t.Errorf("(*EventLoop)(nil).CheckCurrent() = %v", err)
	}
	if err := (*BroadcastChannel)(nil).PostMessage(SerializedWithTransfer{}); !errors.Is(err, ErrNoUserAgent) {
		t.Errorf("(*BroadcastChannel)(nil).PostMessage() = %v", err)
	}
	if (*EventLoop)(nil).QueueTask(NewTaskSource("t"), func() { t.Error("ran") }) {
		t.Error("(*EventLoop)(nil).QueueTask queued")
	}
}
