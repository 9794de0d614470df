package bindings

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// world is a user agent on a manual scheduler: nothing runs until the test
// steps it, timers use a fake clock, so every test is deterministic.
type world struct {
	t     testing.TB
	sched *html.ManualScheduler
	ua    *html.UserAgent
}

func newWorld(t testing.TB) *world {
	t.Helper()
	s := html.NewManualScheduler()
	ua := html.NewUserAgent(html.WithScheduler(s))
	t.Cleanup(ua.Close)
	return &world{t: t, sched: s, ua: ua}
}

// jsRealm is a realm under test with its console output and reported
// errors collected.
type jsRealm struct {
	w      *world
	r      *Realm
	env    *html.EnvironmentSettingsObject
	mu     sync.Mutex
	log    []string
	errors []string
	done   bool
}

func (w *world) hooks(j *jsRealm) Options {
	return Options{
		Console: func(level ConsoleLevel, msg string) {
			j.mu.Lock()
			defer j.mu.Unlock()
			j.log = append(j.log, msg)
		},
		OnError: func(se *ScriptError) {
			j.mu.Lock()
			defer j.mu.Unlock()
			j.errors = append(j.errors, se.Error())
		},
		OnUnhandledRejection: func(reason sobek.Value, se *ScriptError) {
			j.mu.Lock()
			defer j.mu.Unlock()
			j.errors = append(j.errors, "unhandled rejection: "+se.Error())
		},
	}
}

// window opens a top-level window at rawURL and creates its realm.
func (w *world) window(rawURL string) *jsRealm {
	w.t.Helper()
	doc, err := w.ua.OpenWindowURL(rawURL)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.realmFor(doc.EnvironmentSettingsObject(), WindowGlobal)
}

// worker starts a dedicated worker owned by owner and creates its realm.
func (w *world) worker(owner *jsRealm, scriptURL string) *jsRealm {
	w.t.Helper()
	u, err := url.Parse(scriptURL)
	if err != nil {
		w.t.Fatal(err)
	}
	env, err := html.NewDedicatedWorker(owner.env, u)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.realmFor(env, DedicatedWorkerGlobal)
}

func (w *world) realmFor(env *html.EnvironmentSettingsObject, kind GlobalKind) *jsRealm {
	w.t.Helper()
	return w.realmWith(env, kind, false)
}

// realmWith is realmFor with the realm creating its interface objects
// eagerly (eager) or lazily (the default).
func (w *world) realmWith(env *html.EnvironmentSettingsObject, kind GlobalKind, eager bool) *jsRealm {
	w.t.Helper()
	j := &jsRealm{w: w, env: env}
	opts := w.hooks(j)
	opts.eagerInterfaces = eager
	var r *Realm
	var err error
	if kind == WindowGlobal {
		r, err = NewWindowRealm(env, opts)
	} else {
		r, err = NewDedicatedWorkerRealm(env, opts)
	}
	if err != nil {
		w.t.Fatal(err)
	}
	j.r = r
	// done() marks the end of an asynchronous test script.
	r.DefineGlobalFunction("done", 0, func(sobek.FunctionCall) sobek.Value {
		j.mu.Lock()
		j.done = true
		j.mu.Unlock()
		return sobek.Undefined()
	})
	return j
}

// settle runs tasks and fires timers (advancing the fake clock) until
// nothing is left to do or limit of fake time has passed.
func (w *world) settle() {
	w.settleFor(time.Hour)
}

func (w *world) settleFor(limit time.Duration) {
	var elapsed time.Duration
	for i := 0; ; i++ {
		if i > 100000 {
			w.t.Fatalf("the world does not settle (endless timers?)")
		}
		w.sched.RunUntilIdle()
		d, ok := w.sched.NextTimer()
		if !ok || elapsed+d > limit {
			return
		}
		if d <= 0 {
			d = 0
		}
		w.sched.Advance(d)
		elapsed += d
	}
}

// exec runs src as a script task, settles the world and fails the test on
// an uncaught exception.
func (j *jsRealm) exec(src string) {
	j.w.t.Helper()
	var scriptErr error
	ran := false
	j.r.QueueScript("test.js", src, func(err error) { scriptErr, ran = err, true })
	j.w.settle()
	if !ran {
		j.w.t.Fatalf("script did not run")
	}
	if scriptErr != nil {
		j.w.t.Fatalf("script error: %v", scriptErr)
	}
}

// async runs src, which must call done() eventually, and fails if it does
// not or if any error was reported.
func (j *jsRealm) async(src string) {
	j.w.t.Helper()
	j.asyncWithErrors(src)
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.errors) > 0 {
		j.w.t.Fatalf("errors reported: %v\nlog:\n%s", j.errors, strings.Join(j.log, "\n"))
	}
}

// asyncWithErrors is async for scripts that report errors on purpose
// (check them with takeErrors).
func (j *jsRealm) asyncWithErrors(src string) {
	j.w.t.Helper()
	j.mu.Lock()
	j.done = false
	j.mu.Unlock()
	j.exec(src)
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.done {
		j.w.t.Fatalf("done() was not called; log:\n%s\nerrors: %v", strings.Join(j.log, "\n"), j.errors)
	}
}

// eval evaluates expr in a task and returns its string value.
func (j *jsRealm) eval(expr string) string {
	j.w.t.Helper()
	var out string
	var err error
	j.r.QueueTask(func(vm *sobek.Runtime) {
		var v sobek.Value
		v, err = vm.RunString(expr)
		if err == nil {
			out = fmt.Sprint(v)
		}
	})
	j.w.settle()
	if err != nil {
		j.w.t.Fatalf("eval %q: %v", expr, err)
	}
	return out
}

// takeLog returns and clears the console log.
func (j *jsRealm) takeLog() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	l := j.log
	j.log = nil
	return l
}

func (j *jsRealm) takeErrors() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	e := j.errors
	j.errors = nil
	return e
}

func TestWindowRealmBasics(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/dir/page.html?q=1#frag")
	checks := map[string]string{
		"self === globalThis":                     "true",
		"window === self":                         "true",
		"origin":                                  "https://example.com",
		"isSecureContext":                         "true",
		"location.href":                           "https://example.com/dir/page.html?q=1#frag",
		"location.pathname":                       "/dir/page.html",
		"location.search":                         "?q=1",
		"location.hash":                           "#frag",
		"location.host":                           "example.com",
		"String(location)":                        "https://example.com/dir/page.html?q=1#frag",
		"typeof performance.now()":                "number",
		"typeof queueMicrotask":                   "function",
		"setTimeout.length":                       "1",
		"typeof console.log":                      "function",
		"Object.prototype.toString.call(console)": "[object console]",
	}
	for expr, want := range checks {
		if got := win.eval(expr); got != want {
			t.Errorf("%s = %q, want %q", expr, got, want)
		}
	}
}

func TestTimersNestingClamp(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	// Nested zero-delay timers: from nesting level 6 on, the timeout is
	// clamped to 4 ms.
	win.async(`
		const times = [];
		let depth = 0;
		function tick() {
			times.push(performance.now());
			if (++depth < 10) setTimeout(tick, 0); else {
				const gaps = times.slice(1).map((t, i) => Math.round(t - times[i]));
				console.log(gaps.join(","));
				done();
			}
		}
		setTimeout(tick, 0);
	`)
	got := win.takeLog()
	if len(got) != 1 || got[0] != "0,0,0,0,0,4,4,4,4" {
		t.Errorf("gaps = %v", got)
	}
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
