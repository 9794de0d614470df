package html_test

import (
	"fmt"
	"time"

	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/storage"
)

// A window, an iframe from another site, and what Web Locks needs of them.
func ExampleUserAgent_OpenWindowURL() {
	ua := html.NewUserAgent()
	defer ua.Close()
	top, _ := ua.OpenWindowURL("https://a.test/")
	frame, _ := top.CreateChildNavigableURL("https://b.test/frame", html.ChildNavigableOptions{})
	env := frame.EnvironmentSettingsObject()
	key, _ := env.StorageKey()
	fmt.Println(env.Origin().Serialize(), env.IsSecureContext(), frame.IsFullyActive())
	fmt.Println(key.Origin.Serialize(), key.TopLevelSite.Serialize())

	frame.AddUnloadingDocumentCleanupSteps(func() { fmt.Println("frame unloaded") })
	frame.Navigable().Destroy() // remove the iframe
	fmt.Println(frame.IsFullyActive())
	// Output:
	// https://b.test true true
	// https://b.test https://a.test
	// frame unloaded
	// false
}

// Tasks run in order on the event loop's goroutine; parallel queue steps run
// in parallel and talk back by queuing tasks.
func ExampleEventLoop_QueueTask() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://a.test/")
	loop := doc.EnvironmentSettingsObject().ResponsibleEventLoop()
	q := ua.StartANewParallelQueue()
	done := make(chan struct{})
	tasks := 0
	loop.SetMicrotaskCheckpoint(func() {
		fmt.Println("  microtask checkpoint")
		if tasks++; tasks == 3 {
			close(done)
		}
	})
	loop.QueueTask(html.DOMManipulationTaskSource, func() {
		fmt.Println("task 1 queues task 2, then enqueues steps on a parallel queue")
		loop.QueueTask(html.DOMManipulationTaskSource, func() { fmt.Println("task 2") })
		q.Enqueue(func() {
			loop.QueueTask(html.DOMManipulationTaskSource, func() {
				fmt.Println("task 3, queued from the parallel queue")
			})
		})
	})
	<-done
	// Output:
	// task 1 queues task 2, then enqueues steps on a parallel queue
	//   microtask checkpoint
	// task 2
	//   microtask checkpoint
	// task 3, queued from the parallel queue
	//   microtask checkpoint
}

// The manual scheduler lets a test choose every interleaving and move time.
func ExampleNewManualScheduler() {
	ms := html.NewManualScheduler()
	ua := html.NewUserAgent(html.WithScheduler(ms))
	defer ua.Close()
	a, _ := ua.OpenWindowURL("https://a.test/")
	loop := a.EnvironmentSettingsObject().ResponsibleEventLoop()
	ua.StartANewParallelQueue().Enqueue(func() { fmt.Println("parallel queue step") })
	loop.QueueTask(html.DOMManipulationTaskSource, func() { fmt.Println("window task") })
	loop.StartTimer(50*time.Millisecond, html.TimerTaskSource, nil, func() { fmt.Println("timer") })

	fmt.Println("runnable:", len(ms.Runnable()))
	loop.RunOne() // the window task first, by choice
	ms.RunUntilIdle()
	ms.Advance(50 * time.Millisecond)
	ms.RunUntilIdle()
	// Output:
	// runnable: 2
	// window task
	// parallel queue step
	// timer
}

// Workers share their owner's storage key; opaque origins have none.
func ExampleNewDedicatedWorker() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://a.test/")
	w, _ := html.NewDedicatedWorker(doc.EnvironmentSettingsObject(), doc.URL().JoinPath("worker.js"))
	sandboxed, _ := doc.CreateChildNavigableURL("https://a.test/s", html.ChildNavigableOptions{Sandboxed: true})
	_, errW := storage.ObtainALocalStorageBottleMap(w, "caches")
	_, errS := storage.ObtainALocalStorageBottleMap(sandboxed.EnvironmentSettingsObject(), "caches")
	fmt.Println(w.Agent().Kind(), errW == nil, errS != nil)
	// Output: dedicated worker agent true true
}
