package membrane_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/bindings/membrane"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// TestBindingsRealms joins a window and its same-origin iframe (realms of
// the bindings package, one event loop) and uses the frame's
// navigator.locks from the parent: the request runs in the frame's realm,
// its promise and lock are the frame's, DOMExceptions are the frame's.
func TestBindingsRealms(t *testing.T) {
	sched := html.NewManualScheduler()
	ua := html.NewUserAgent(html.WithScheduler(sched))
	t.Cleanup(ua.Close)
	doc, err := ua.OpenWindowURL("https://example.com/")
	if err != nil {
		t.Fatal(err)
	}
	child, err := doc.EnvironmentSettingsObject().AssociatedDocument().CreateChildNavigableURL("https://example.com/frame.html", html.ChildNavigableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logs []string
	opts := bindings.Options{
		Console: func(_ bindings.ConsoleLevel, msg string) {
			mu.Lock()
			logs = append(logs, msg)
			mu.Unlock()
		},
		OnError: func(se *bindings.ScriptError) { t.Errorf("script error: %v", se) },
	}
	parent, err := bindings.NewWindowRealm(doc.EnvironmentSettingsObject(), opts)
	if err != nil {
		t.Fatal(err)
	}
	frame, err := bindings.NewWindowRealm(child.EnvironmentSettingsObject(), opts)
	if err != nil {
		t.Fatal(err)
	}
	m := membrane.New()
	parent.QueueTask(func(vm *sobek.Runtime) {
		for _, r := range []*bindings.Realm{parent, frame} {
			if err := m.Add(r.Runtime()); err != nil {
				t.Error(err)
			}
		}
		parent.DefineGlobal("frameWindow", m.Wrap(frame.Runtime(), vm, frame.Global()))
	})
	sched.RunUntilIdle()
	var scriptErr error
	parent.QueueScript("test.js", `
		const w = frameWindow;
		const p = w.navigator.locks.request("L", lock => {
			console.log("granted", lock.name, lock instanceof w.Lock, !(lock instanceof Lock));
			return 7;
		});
		console.log("promise", p instanceof w.Promise, !(p instanceof Promise));
		p.then(v => console.log("resolved", v));
		w.navigator.locks.request("-bad", () => {}).catch(e =>
			console.log("rejected", e instanceof w.DOMException, !(e instanceof DOMException), e.name));
		try { new w.Lock(); } catch (e) { console.log("sync", e instanceof w.TypeError, !(e instanceof TypeError)); }
		(async () => {
			const held = await w.navigator.locks.request("M", async lock => (await w.navigator.locks.query()).held.length);
			console.log("await", held);
		})();
		console.log("identity", w.navigator === w.navigator, w.navigator.locks === w.navigator.locks, w.window === w);
	`, func(err error) { scriptErr = err })
	sched.RunUntilIdle()
	if scriptErr != nil {
		t.Fatal(scriptErr)
	}
	// The same frame made cross-origin: a SecurityError of the parent.
	rules := &membrane.CrossOriginRules{
		Kind: func(o *sobek.Object) membrane.ObjectKind {
			if o == frame.Global() {
				return membrane.WindowObject
			}
			return membrane.OtherObject
		},
		SameOrigin: func(*sobek.Object) bool { return false },
		Error: func(*sobek.Runtime, *sobek.Object, membrane.Op, sobek.Value) sobek.Value {
			return parent.NewDOMException("SecurityError", "Blocked a frame from accessing a cross-origin frame.")
		},
	}
	parent.QueueTask(func(*sobek.Runtime) { m.SetPolicy(frame.Runtime(), parent.Runtime(), rules.Policy()) })
	parent.QueueScript("cross.js", `
		try { frameWindow.navigator; } catch (e) {
			console.log("cross-origin", e instanceof DOMException, e.name, frameWindow.window === frameWindow);
		}
	`, func(err error) { scriptErr = err })
	sched.RunUntilIdle()
	if scriptErr != nil {
		t.Fatal(scriptErr)
	}
	mu.Lock()
	got := strings.Join(logs, "\n")
	mu.Unlock()
	for _, want := range []string{
		"promise true true",
		"identity true true true",
		"sync true true",
		"granted L true true",
		"resolved 7",
		"rejected true true NotSupportedError",
		"await 1",
		"cross-origin true SecurityError true",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q; log:\n%s", want, got)
		}
	}
}
