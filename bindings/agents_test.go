package bindings

import (
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/html"
)

// A window and its worker (same storage bucket) share one lock manager;
// when the worker terminates, its locks are released and its requests
// aborted, so the window's waiting request is granted.
func TestWindowAndWorkerShareLocks(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	wk := w.worker(win, "https://example.com/w.js")
	wk.exec(prelude + `
		navigator.locks.request('shared-name', lock => { log("worker holds", lock.name); return new Promise(() => {}); });
		navigator.locks.request('other', lock => new Promise(() => {}));
		navigator.locks.request('other', lock => { log("never granted"); });
	`)
	win.exec(prelude + `
		navigator.locks.query().then(s => {
			log("window sees held", s.held.map(l => l.name).sort().join(","), "pending", s.pending.length,
				"clients", new Set(s.held.map(l => l.clientId)).size);
		});
		navigator.locks.request('shared-name', {ifAvailable: true}, lock => log("ifAvailable got", lock));
		navigator.locks.request('shared-name', lock => { log("window granted after worker ended"); });
	`)
	expectLog(t, wk, "worker holds shared-name")
	expectLog(t, win, "window sees held other,shared-name pending 1 clients 1", "ifAvailable got null")
	wk.env.Agent().Terminate()
	w.settle()
	expectLog(t, win, "window granted after worker ended")
	expectLog(t, wk)
	win.exec(prelude + `navigator.locks.query().then(s => log("after", s.held.length, s.pending.length));`)
	expectLog(t, win, "after 0 0")
}

// Locks of a document are released when it is unloaded (its iframe is
// removed): "terminate remaining locks and requests" from the unloading
// document cleanup steps.
func TestUnloadReleasesLocks(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	childDoc, err := win.env.AssociatedDocument().CreateChildNavigableURL("https://example.com/frame.html", htmlChildOptions())
	if err != nil {
		t.Fatal(err)
	}
	frame := w.realmFor(childDoc.EnvironmentSettingsObject(), WindowGlobal)
	frame.exec(prelude + `navigator.locks.request('L', lock => new Promise(() => {}));`)
	win.exec(prelude + `
		navigator.locks.request('L', lock => log("parent granted"));
		navigator.locks.query().then(s => log("held", s.held.length, "pending", s.pending.length));
	`)
	expectLog(t, win, "held 1 pending 1")
	childDoc.Navigable().Destroy()
	w.settle()
	expectLog(t, win, "parent granted")
}

// Different origins have different lock managers; a storage bucket has its
// own lock manager, distinct from the default bucket's.
func TestLockManagerScopes(t *testing.T) {
	w := newWorld(t)
	a := w.window("https://a.example/")
	b := w.window("https://b.example/")
	a.exec(prelude + `navigator.locks.request('x', lock => new Promise(() => {}));`)
	b.exec(prelude + `navigator.locks.request('x', {ifAvailable: true}, lock => log("other origin:", lock && lock.name));`)
	expectLog(t, b, "other origin: x")
	a.async(prelude + `
		(async () => {
			const bucket = await navigator.storageBuckets.open("inbox");
			log("bucket", bucket.name, bucket.locks === bucket.locks, bucket.locks !== navigator.locks);
			await bucket.locks.request('x', {ifAvailable: true}, lock => log("bucket lock:", lock && lock.name));
			const again = await navigator.storageBuckets.open("inbox");
			again.locks.request('y', lock => new Promise(() => {}));
			await bucket.locks.request('y', {ifAvailable: true}, lock => log("same bucket:", lock));
			log("keys", (await navigator.storageBuckets.keys()).join());
			try { await navigator.storageBuckets.open("Bad Name"); } catch (e) { log("bad name", e.name); }
			done();
		})().catch(fail);
	`)
	got := strings.Join(a.takeLog(), "\n")
	want := "bucket inbox true true\nbucket lock: x\nsame bucket: null\nkeys inbox\nbad name TypeError"
	if got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}
}

func htmlChildOptions() html.ChildNavigableOptions { return html.ChildNavigableOptions{} }
