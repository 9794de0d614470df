package html

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A reference model of navigables and documents, written from the
// definitions (fully active, unload a document and its descendants,
// destroy a child navigable, bfcache), checked against the implementation
// after every random operation.
type mNav struct {
	real      *Navigable
	parent    *mDoc // container document; nil for top-level
	active    *mDoc
	cached    []*mDoc
	destroyed bool
}

type mDoc struct {
	real      *Document
	nav       *mNav
	children  []*mNav
	discarded bool
	cleanups  int
}

func (d *mDoc) fullyActive() bool {
	n := d.nav
	if d.discarded || n.destroyed || n.active != d {
		return false
	}
	if n.parent == nil {
		return true
	}
	return n.parent.fullyActive()
}

// discard discards d and everything below it.
func (d *mDoc) discard() {
	for _, c := range d.children {
		c.destroyAll()
	}
	d.discarded = true
}

func (n *mNav) destroyAll() {
	n.destroyed = true
	for _, c := range n.cached {
		c.discard()
	}
	n.cached = nil
	if n.active != nil {
		n.active.discard()
	}
}

func TestNavigationModel(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 99))
		_, ua := manualUA()
		var navs []*mNav
		var docs []*mDoc
		sites := []string{"https://a.test/", "https://b.test/", "https://www.a.test/", "http://c.test/", "about:blank"}
		newDoc := func(n *mNav, real *Document) *mDoc {
			d := &mDoc{real: real, nav: n}
			real.AddUnloadingDocumentCleanupSteps(func() { d.cleanups++ })
			docs = append(docs, d)
			return d
		}
		open := func() {
			real, err := ua.OpenWindowURL(sites[r.IntN(4)])
			if err != nil {
				t.Fatal(err)
			}
			n := &mNav{real: real.Navigable()}
			n.active = newDoc(n, real)
			navs = append(navs, n)
		}
		open()
		for step := 0; step < 300; step++ {
			n := navs[r.IntN(len(navs))]
			op := r.IntN(10)
			desc := ""
			switch {
			case op < 3: // insert an iframe into a random document
				d := docs[r.IntN(len(docs))]
				real, err := d.real.CreateChildNavigableURL(sites[r.IntN(len(sites))], ChildNavigableOptions{Sandboxed: r.IntN(5) == 0})
				if d.discarded || d.nav.destroyed {
					// The model forbids it only for discarded documents.
					if d.discarded && err == nil {
						t.Fatalf("seed %d: iframe inserted into a discarded document", seed)
					}
					if err != nil {
						continue
					}
				}
				if err != nil {
					t.Fatalf("seed %d step %d: %v", seed, step, err)
				}
				c := &mNav{real: real.Navigable(), parent: d}
				c.active = newDoc(c, real)
				d.children = append(d.children, c)
				navs = append(navs, c)
				desc = "iframe"
			case op < 6: // navigate
				bf := r.IntN(2) == 0
				real, err := n.real.Navigate(mustURL(t, sites[r.IntN(4)]), NavigateOptions{KeepInBFCache: bf})
				destroyed := n.destroyed || (n.parent != nil && n.parent.discarded)
				if destroyed {
					if err == nil {
						t.Fatalf("seed %d: navigated a destroyed navigable", seed)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				old := n.active
				n.active = newDoc(n, real)
				if bf {
					n.cached = append(n.cached, old)
					for len(n.cached) > BFCacheSize {
						n.cached[0].discard()
						n.cached = n.cached[1:]
					}
				} else {
					old.discard()
				}
				desc = fmt.Sprint("navigate bf=", bf)
			case op < 8: // restore a cached document
				if len(n.cached) == 0 || n.destroyed {
					continue
				}
				i := r.IntN(len(n.cached))
				d := n.cached[i]
				keep := r.IntN(2) == 0
				if err := n.real.Restore(d.real, keep); err != nil {
					t.Fatal(err)
				}
				n.cached = append(n.cached[:i:i], n.cached[i+1:]...)
				old := n.active
				n.active = d
				if keep {
					n.cached = append(n.cached, old)
					for len(n.cached) > BFCacheSize {
						n.cached[0].discard()
						n.cached = n.cached[1:]
					}
				} else {
					old.discard()
				}
				desc = "restore"
			case op < 9: // destroy (remove iframe / close window)
				n.real.Destroy()
				if !n.destroyed {
					n.destroyAll()
				}
				desc = "destroy"
			default:
				open()
				desc = "open"
			}
			for i, d := range docs {
				want := d.fullyActive()
				if got := d.real.IsFullyActive(); got != want {
					t.Fatalf("seed %d step %d (%s): doc %d fully active = %v, model %v", seed, step, desc, i, got, want)
				}
				wantCleanups := 0
				if d.discarded {
					wantCleanups = 1
				}
				if d.cleanups != wantCleanups || d.real.IsUnloaded() != d.discarded {
					t.Fatalf("seed %d step %d (%s): doc %d cleanups %d unloaded %v, model discarded %v",
						seed, step, desc, i, d.cleanups, d.real.IsUnloaded(), d.discarded)
				}
			}
		}
		ua.Close()
	}
}
