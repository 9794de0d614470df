package html

import (
	"testing"
)

func TestSmoke(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	doc, err := ua.OpenWindowURL("https://example.com/")
	if err != nil {
		t.Fatal(err)
	}
	env := doc.EnvironmentSettingsObject()
	done := make(chan bool)
	ua.LockTaskQueue().Enqueue(func() {
		env.ResponsibleEventLoop().QueueTask(WebLocksTaskSource, func() { done <- doc.IsFullyActive() })
	})
	if !<-done {
		t.Fatal("not fully active")
	}
	ms := NewManualScheduler()
	ua2 := NewUserAgent(WithScheduler(ms))
	d2, _ := ua2.OpenWindowURL("https://a.test/")
	ran := false
	ua2.LockTaskQueue().Enqueue(func() {
		d2.EnvironmentSettingsObject().ResponsibleEventLoop().QueueTask(WebLocksTaskSource, func() { ran = true })
	})
	if n := ms.RunUntilIdle(); n != 2 || !ran {
		t.Fatal(n, ran)
	}
}
