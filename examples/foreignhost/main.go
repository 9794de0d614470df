// Command foreignhost is a browser host of its own that gives its pages
// navigator.locks through the lock service contract of package weblocks:
// each page has its own event loop (a goroutine reading a queue) and its
// own sobek runtime, and registers one weblocks.Client with a
// weblocks.Service. It uses no html user agent, document or event loop,
// and neither the bindings nor the browser package. The glue between the
// contract and the host is glue.go; the rest of this file is the host.
//
// Run it with `go run ./examples/foreignhost`; example_test.go shows what
// it does.
package main

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/grafana/sobek"
)

// prelude is what the host's pages have besides navigator.locks: a
// DOMException, a minimal AbortController (over functions of glue.go), a
// Lock interface object (its instances are the callbacks' locks),
// navigator, and log.
const prelude = `
class DOMException extends Error {
  constructor(message, name) { super(message); this.name = name; }
}
// AbortController over dom's AbortSignal (which the page side takes as it
// is); only abort() and signal, which request() accepts.
class AbortController {
  constructor() { this.signal = newAbortSignal(); }
  abort(reason) {
    signalAbort(this.signal, reason === undefined ? new DOMException("signal is aborted without reason", "AbortError") : reason);
  }
}
class Lock {
  constructor() { throw new TypeError("Illegal constructor"); }
}
// The callback with a new Lock (or null when not granted), its result as
// a waiting promise: a promise, or a plain value (a promise fulfilled with
// it).
function invokeLockCallback(callback, granted, name, mode) {
  let lock = null;
  if (granted) { lock = Object.create(Lock.prototype); lock.name = name; lock.mode = mode; }
  try {
    const v = callback(lock);
    return v !== null && (typeof v === "object" || typeof v === "function") ? Promise.resolve(v) : v;
  } catch (e) { return Promise.reject(e); }
}
// Calls f once the waiting promise v settles (at once for a plain value).
function whenSettled(v, f) { if (v instanceof Promise) v.then(f, f); else f(); }
var navigator = {locks: {
  request(name, options, callback) {
    if (callback === undefined) { callback = options; options = {}; }
    if (typeof callback !== "function") throw new TypeError("the callback is not a function");
    const {mode = "exclusive", ifAvailable = false, steal = false, signal = null} = options || {};
    if (mode !== "exclusive" && mode !== "shared") throw new TypeError("bad mode " + mode);
    return lockRequest(String(name), mode === "shared" ? 1 : 0, !!ifAvailable, !!steal, signal, callback);
  },
  query() { return lockQuery(); },
}};
`

// loop is a page's event loop: functions posted to it run one after
// another on its goroutine. Posting never blocks.
type loop struct {
	mu    sync.Mutex
	tasks []func()
	wake  chan struct{}
	stop  chan struct{}
}

func newLoop() *loop {
	l := &loop{wake: make(chan struct{}, 1), stop: make(chan struct{})}
	go l.run()
	return l
}

func (l *loop) post(f func()) {
	l.mu.Lock()
	l.tasks = append(l.tasks, f)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *loop) run() {
	for {
		select {
		case <-l.wake:
		case <-l.stop:
			return
		}
		for {
			l.mu.Lock()
			if len(l.tasks) == 0 {
				l.mu.Unlock()
				break
			}
			f := l.tasks[0]
			l.tasks = l.tasks[1:]
			l.mu.Unlock()
			f()
		}
	}
}

// Page is one page of the host: a runtime on a loop, with a lock client.
type Page struct {
	loop   *loop
	vm     *sobek.Runtime
	Client weblocks.Client
}

// NewPage opens a page with the environment id id, whose storage key is
// that of the origin of url, on svc. log receives what its script logs.
func NewPage(svc *weblocks.Service, id, url string, log func(string)) (*Page, error) {
	o := origin.Parse(url)
	key := storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(o)}
	p := &Page{loop: newLoop()}
	c, err := svc.Register(weblocks.ClientConfig{ID: id, Bucket: weblocks.Bucket{Key: key}, Deliver: weblocks.DeliverFunc(p.loop.post)})
	if err != nil {
		return nil, err
	}
	p.Client = c
	done := make(chan error)
	p.loop.post(func() {
		p.vm = sobek.New()
		_ = p.vm.Set("log", func(s string) { log(s) })
		_, err := p.vm.RunString(prelude)
		if err == nil {
			installLocks(p.vm, svc, c)
		}
		done <- err
	})
	return p, <-done
}

// Run runs script on the page's loop and, when its completion value is a
// promise, waits for it to settle (10 seconds at most); it returns the
// outcome as a string.
func (p *Page) Run(script string) string {
	done := make(chan string, 1)
	p.loop.post(func() {
		v, err := p.vm.RunString(script)
		if err != nil {
			done <- "error: " + err.Error()
			return
		}
		pr, ok := v.Export().(*sobek.Promise)
		if !ok {
			done <- v.String()
			return
		}
		settled := func(prefix string) func(sobek.Value) {
			return func(v sobek.Value) { done <- prefix + v.String() }
		}
		then, _ := sobek.AssertFunction(p.vm.ToValue(pr).ToObject(p.vm).Get("then"))
		_, _ = then(p.vm.ToValue(pr), p.vm.ToValue(settled("")), p.vm.ToValue(settled("rejected: ")))
	})
	select {
	case s := <-done:
		return s
	case <-time.After(10 * time.Second):
		return "timed out: the promise did not settle"
	}
}

// Close stops the page's loop.
func (p *Page) Close() { close(p.loop.stop) }

func main() {
	svc := weblocks.NewService()
	log := func(s string) { fmt.Println(s) }
	a, err := NewPage(svc, "page-a", "https://example.com/", log)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer a.Close()
	fmt.Println(a.Run(`navigator.locks.request("demo", lock => { log("granted " + lock.name + " (" + lock.mode + ")"); return "done"; })`))
	fmt.Println(a.Run(`navigator.locks.query().then(s => JSON.stringify(s))`))
}
