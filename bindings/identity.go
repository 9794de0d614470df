package bindings

import (
	"sync"

	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings/webidl"
)

var patchOnce sync.Once

// patchGlobalIdentity makes the attributes whose value is the global object
// (self, window, frames, top, parent) and Event's target/srcElement/
// currentTarget return the global object itself rather than a wrapper of
// the global's implementation: webidl.Install links the global object to
// the implementation for brand checks but not for wrapping. The getters
// keep the generated brand checks.
func patchGlobalIdentity() {
	patchOnce.Do(func() {
		self := func(iface string) func(r *webidl.Realm, this goja.Value) goja.Value {
			return func(r *webidl.Realm, this goja.Value) goja.Value {
				r.This(this, iface)
				return r.Global()
			}
		}
		patch := func(iface string, get func(string) func(*webidl.Realm, goja.Value) goja.Value, names ...string) {
			def := Interfaces.Lookup(iface)
			if def == nil {
				return
			}
			for i := range def.Members {
				m := &def.Members[i]
				for _, n := range names {
					if m.Name == n && m.Kind == webidl.Attribute && !m.Static && m.Get != nil {
						generated, patched := m.Get, get(n)
						// Realms not made by this package keep the
						// generated getter.
						m.Get = func(r *webidl.Realm, this goja.Value) goja.Value {
							if _, ours := r.Data.(*Realm); !ours {
								return generated(r, this)
							}
							return patched(r, this)
						}
					}
				}
			}
		}
		patch("Window", func(string) func(*webidl.Realm, goja.Value) goja.Value { return self("Window") },
			"self", "window", "frames", "top", "parent")
		patch("WorkerGlobalScope", func(string) func(*webidl.Realm, goja.Value) goja.Value { return self("WorkerGlobalScope") },
			"self")
		patch("Event", func(name string) func(*webidl.Realm, goja.Value) goja.Value {
			return func(r *webidl.Realm, this goja.Value) goja.Value {
				e := webidl.Self[*eventImpl](r, this, "Event")
				t := e.ev.Target()
				if name == "currentTarget" {
					t = e.ev.CurrentTarget()
				}
				return realmOf(r).targetValue(t)
			}
		}, "target", "srcElement", "currentTarget")
	})
}
