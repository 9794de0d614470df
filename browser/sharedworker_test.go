package browser_test

import (
	"reflect"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

// sharedSite: the page and its two iframes connect to the shared worker
// sw.js; the worker answers every port with its Web Locks clientId and
// holds lock "L-" + its name from its first connection on.
var sharedSite = fstest.MapFS{
	"index.html": {Data: []byte(`<!doctype html><script>
function connect(win, name) {
  const w = new win.SharedWorker("sw.js", name);
  return new Promise((resolve, reject) => {
    w.onerror = () => reject(new Error("error event"));
    w.port.onmessage = e => resolve(e.data);
    w.port.postMessage("id");
  });
}
</script><iframe id=a src="frame.html"></iframe><iframe id=b src="frame.html"></iframe>`)},
	"frame.html": {Data: []byte(`<!doctype html><p>frame`)},
	"sw.js": {Data: []byte(`
// A lock of this global's own (whatever the client) and the lock
// "L-" + name, both held for ever from the first connection on.
const me = "me-" + Math.random();
let started = false;
onconnect = e => {
  const port = e.ports[0];
  if (e.source !== port) throw new Error("source is not the port");
  if (!started) {
    started = true;
    navigator.locks.request(me, () => new Promise(() => {}));
    navigator.locks.request("L-" + self.name, () => new Promise(() => {}));
  }
  port.onmessage = async m => {
    if (m.data === "id") {
      const s = await navigator.locks.query();
      port.postMessage(s.held.filter(l => l.name === me).map(l => l.clientId).join());
    }
  };
};
`)},
}

// TestSharedWorkerOneClient: two documents (iframes) connecting to one
// shared worker reach one worker, whose locks have one clientId; another
// name is another worker and another client.
func TestSharedWorkerOneClient(t *testing.T) {
	var mu sync.Mutex
	var logs []string
	b, w, ctx := open(t, sharedSite, browser.Config{Console: func(l string) { mu.Lock(); logs = append(logs, l); mu.Unlock() }})
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			t.Log(logs)
			mu.Unlock()
		}
	})
	got := eval(t, ctx, w, `Promise.all([connect(document.getElementById("a").contentWindow, "one"), connect(document.getElementById("b").contentWindow, "one"), connect(window, "two")])`)
	ids, ok := got.([]any)
	if !ok || len(ids) != 3 {
		t.Fatalf("ids: %#v", got)
	}
	if ids[0] == "" || ids[0] != ids[1] {
		t.Errorf("two documents see clientIds %q and %q, want one non-empty id", ids[0], ids[1])
	}
	if ids[2] == "" || ids[2] == ids[0] {
		t.Errorf("the worker named two has clientId %q, want one of its own (one: %q)", ids[2], ids[0])
	}
	workers := b.UserAgent().SharedWorkers()
	if len(workers) != 2 {
		t.Fatalf("%d shared workers, want 2", len(workers))
	}
	// The clientId is the shared worker's environment's id.
	for _, sw := range workers {
		want := ids[0]
		if sw.Name() == "two" {
			want = ids[2]
		}
		if sw.Env().ID() != want {
			t.Errorf("worker %q: environment id %s, clientId %v", sw.Name(), sw.Env().ID(), want)
		}
		if sw.Owners() != map[string]int{"one": 2, "two": 1}[sw.Name()] {
			t.Errorf("worker %q has %d owners", sw.Name(), sw.Owners())
		}
	}
}

// TestSharedWorkerLifetime: the worker lives while one of its owner
// documents does; when the last goes, it terminates and its lock is
// released (the page, waiting for it, gets it).
func TestSharedWorkerLifetime(t *testing.T) {
	b, w, ctx := open(t, sharedSite, browser.Config{})
	eval(t, ctx, w, `Promise.all([connect(document.getElementById("a").contentWindow, "one"), connect(document.getElementById("b").contentWindow, "one")])`)
	eval(t, ctx, w, `window.got = navigator.locks.request("L-one", () => "granted"); 0`)
	held := `navigator.locks.query().then(s => s.held.map(l => l.name.replace(/^me-.*/, "me")).join())`
	eval(t, ctx, w, `document.getElementById("a").remove()`)
	if got := eval(t, ctx, w, held); got != "me,L-one" {
		t.Fatalf("after removing one owner, held = %v", got)
	}
	if n := len(b.UserAgent().SharedWorkers()); n != 1 {
		t.Fatalf("%d shared workers after removing one owner, want 1", n)
	}
	eval(t, ctx, w, `document.getElementById("b").remove()`)
	if got := eval(t, ctx, w, `got`); got != "granted" {
		t.Fatalf("after the last owner went: %v", got)
	}
	if n := len(b.UserAgent().SharedWorkers()); n != 0 {
		t.Fatalf("%d shared workers after the last owner went, want 0", n)
	}
	if got := eval(t, ctx, w, held); !reflect.DeepEqual(got, "") {
		t.Fatalf("held at the end = %v", got)
	}
}
