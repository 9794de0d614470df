package bindings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/idl"
	"github.com/gowebengine/weblocks/internal/testenv"
	"github.com/grafana/sobek"
)

// TestUpstreamIdlharness runs the upstream testharness.js and idlharness.js
// (npm package wpt-runner) in a window realm and a dedicated worker realm
// against the Web Locks IDL of @webref/idl, with the objects WPT's
// web-locks/idlharness.https.any.js adds (navigator.locks and a Lock). Every
// subtest must pass.
func TestUpstreamIdlharness(t *testing.T) {
	harness := filepath.Join(testenv.NPMPackage(t, "wpt-runner"), "testharness")
	webref := testenv.NPMPackage(t, "@webref/idl")
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	scripts := []struct{ name, src string }{
		{"testharness.js", read(filepath.Join(harness, "testharness.js"))},
		{"setup.js", `setup({explicit_done: true, explicit_timeout: true, output: false});
			add_completion_callback((tests, status) => {
				globalThis.__results = tests.map(t => [t.name, t.status, t.message || ""]);
				globalThis.__status = status.status;
			});`},
		{"WebIDLParser.js", read(filepath.Join(harness, "webidl2", "lib", "webidl2.js"))},
		{"idlharness.js", read(filepath.Join(harness, "idlharness.js"))},
	}
	// The dependency IDLs are cut down (with the idl package) to the
	// definitions idlharness consults for Web Locks — the whole HTML IDL
	// takes sobek half a minute to tokenize with webidl2.js.
	deps := map[string]bool{"Navigator": true, "WorkerNavigator": true, "EventTarget": true, "Event": true,
		"EventInit": true, "AbortSignal": true, "EventListener": true, "EventListenerOptions": true,
		"AddEventListenerOptions": true, "EventHandler": true, "EventHandlerNonNull": true}
	idls := map[string]string{"web-locks": read(filepath.Join(webref, "web-locks.idl"))}
	for _, n := range []string{"html", "dom"} {
		idls[n] = idlSubset(t, n+".idl", read(filepath.Join(webref, n+".idl")), deps)
	}
	const test = `
		(async () => {
			self.lock = await new Promise(resolve => navigator.locks.request('idl-test', l => { resolve(l); return new Promise(() => {}); }));
			const idl_array = new IdlArray();
			idl_array.add_idls(IDLS["web-locks"]);
			idl_array.add_dependency_idls(IDLS["html"]);
			idl_array.add_dependency_idls(IDLS["dom"]);
			idl_array.add_objects({ LockManager: ['navigator.locks'], Lock: ['lock'] });
			idl_array.test();
			done();
		})();`
	for _, worker := range []bool{false, true} {
		name := "window"
		if worker {
			name = "worker"
		}
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			j := w.window("https://web-platform.test/web-locks/idlharness.https.any.html")
			if worker {
				j = w.worker(j, "https://web-platform.test/web-locks/idlharness.https.any.worker.js")
				// The worker environment reports to its owner; nobody listens.
				j.r.SetHostHooks(HostHooks{PostMessage: func(sobek.Value, string, []*sobek.Object) error { return nil }})
			}
			if !worker {
				// Only what testharness.js's window environment reads
				// with output off (the go product supplies a real DOM).
				j.exec(`document.getElementsByTagName = () => []; document.getElementById = () => null;`)
			}
			j.r.QueueTask(func(vm *sobek.Runtime) {
				o := vm.NewObject()
				for k, v := range idls {
					_ = o.Set(k, v)
				}
				_ = vm.Set("IDLS", o)
			})
			for _, s := range scripts {
				j.r.QueueScript(s.name, s.src, func(err error) {
					if err != nil {
						t.Errorf("%s: %v", s.name, err)
					}
				})
			}
			if !worker {
				// The window environment waits for the load event.
				j.r.QueueTask(func(*sobek.Runtime) { j.r.FireEvent("load", false, nil) })
			}
			j.r.QueueScript("idlharness.https.any.js", test, nil)
			w.settle()
			var results [][]any
			var status int64 = -1
			j.r.QueueTask(func(vm *sobek.Runtime) {
				if v := vm.Get("__results"); v != nil && !sobek.IsUndefined(v) {
					for _, r := range v.Export().([]any) {
						results = append(results, r.([]any))
					}
					status = vm.Get("__status").ToInteger()
				}
			})
			w.settle()
			if status != 0 {
				t.Fatalf("harness status %d (0 = OK); log: %v; errors: %v", status, j.takeLog(), j.takeErrors())
			}
			if len(results) < 20 {
				t.Fatalf("only %d subtests", len(results))
			}
			var failed []string
			for _, r := range results {
				if r[1].(int64) != 0 {
					failed = append(failed, r[0].(string)+": "+r[2].(string))
				}
			}
			if len(failed) > 0 {
				t.Errorf("%d of %d subtests failed:\n%s", len(failed), len(results), strings.Join(failed, "\n"))
			}
			t.Logf("%d subtests passed", len(results)-len(failed))
		})
	}
}

// idlSubset returns the definitions of src whose names are in keep (all
// partials of them), written back as IDL text.
func idlSubset(t *testing.T, name, src string, keep map[string]bool) string {
	t.Helper()
	f, err := idl.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// Mixins included by kept interfaces are kept too.
	mixins := map[string]bool{}
	for _, d := range f.Definitions {
		if inc, ok := d.(*idl.Includes); ok && keep[inc.Target] {
			mixins[inc.Mixin] = true
		}
	}
	var defs []idl.Definition
	for _, d := range f.Definitions {
		inc, isInc := d.(*idl.Includes)
		if isInc && keep[inc.Target] || !isInc && (keep[d.DefinitionName()] || mixins[d.DefinitionName()]) {
			defs = append(defs, d)
		}
	}
	sub := *f
	sub.Definitions = defs
	return string(idl.Write(&sub))
}
