package htmlhost

import (
	"net/url"

	"github.com/gowebengine/weblocks/html"
)

// The differential test's world: two user agents (a profile and a private
// browsing session of it) and, in them, environments covering every way
// locks could wrongly be shared or separated:
//
//	0 top-level https://a.test/                 (window agent A)
//	1 same-origin iframe of 0                    (agent A: shares it with 0)
//	2 dedicated worker owned by 0                (its own agent)
//	3 top-level https://b.test/                  (agent B)
//	4 https://a.test/ iframe in 3                (partitioned: a.test under b.test)
//	5 sandboxed iframe in 3                      (opaque origin: SecurityError)
//	6 another top-level https://a.test/          (another group and agent, same key as 0)
//	7 https://x.a.test/ iframe in 0              (same site as 0, another origin)
//	8 top-level https://a.test/ in the private session (another user agent)
//	9 dedicated worker owned by 4
func (h *harness) buildWorld() {
	ua0 := html.NewUserAgent(html.WithScheduler(h.sched))
	ua1 := ua0.NewPrivateBrowsingSession()
	u0 := h.addUA(ua0)
	u1 := h.addUA(ua1)
	must := func(d *html.Document, err error) *html.Document {
		h.t.Helper()
		if err != nil {
			h.t.Fatal(err)
		}
		return d
	}
	worker := func(owner *html.EnvironmentSettingsObject, u string) *html.EnvironmentSettingsObject {
		h.t.Helper()
		pu, _ := url.Parse(u)
		w, err := html.NewDedicatedWorker(owner, pu)
		if err != nil {
			h.t.Fatal(err)
		}
		return w
	}
	d0 := must(ua0.OpenWindowURL("https://a.test/"))
	d1 := must(d0.CreateChildNavigableURL("https://a.test/frame", html.ChildNavigableOptions{}))
	c0 := h.addClient(d0.EnvironmentSettingsObject(), u0, -1)
	h.addClientDoc(d1, u0, c0)
	h.addClient(worker(d0.EnvironmentSettingsObject(), "https://a.test/w.js"), u0, c0)
	d3 := must(ua0.OpenWindowURL("https://b.test/"))
	c3 := h.addClient(d3.EnvironmentSettingsObject(), u0, -1)
	d4 := must(d3.CreateChildNavigableURL("https://a.test/embedded", html.ChildNavigableOptions{}))
	c4 := h.addClientDoc(d4, u0, c3)
	d5 := must(d3.CreateChildNavigableURL("https://b.test/sandboxed", html.ChildNavigableOptions{Sandboxed: true}))
	h.addClientDoc(d5, u0, c3)
	d6 := must(ua0.OpenWindowURL("https://a.test/other"))
	h.addClient(d6.EnvironmentSettingsObject(), u0, -1)
	d7 := must(d0.CreateChildNavigableURL("https://x.a.test/", html.ChildNavigableOptions{}))
	h.addClientDoc(d7, u0, c0)
	d8 := must(ua1.OpenWindowURL("https://a.test/"))
	h.addClient(d8.EnvironmentSettingsObject(), u1, -1)
	h.addClient(worker(d4.EnvironmentSettingsObject(), "https://a.test/w2.js"), u0, c4)
	for _, c := range h.clients {
		if c.env.Kind() == html.DedicatedWorkerEnvironment {
			c.owner = c.parent
			c.parent = -1
		} else {
			c.owner = -1
		}
	}
	if h.sched.Pending() != 0 {
		h.t.Fatalf("setup left %d pending steps", h.sched.Pending())
	}
}

// addClientDoc adds the client of an iframe document whose container
// document is the client parent.
func (h *harness) addClientDoc(d *html.Document, ua, parent int) int {
	return h.addClient(d.EnvironmentSettingsObject(), ua, parent)
}

// unload unloads c's document, mirroring html's Document.Unload in the
// model: the document and its descendants (descendants first) stop being
// fully active and run their unloading document cleanup steps; then each is
// destroyed: the dedicated workers of its environment terminate, and an
// agent left without documents terminates.
func (h *harness) unload(c *dClient) {
	var docs []*dClient
	var collect func(c *dClient)
	collect = func(c *dClient) {
		for _, x := range h.clients {
			if x.doc != nil && x.parent >= 0 && h.clients[x.parent] == c {
				collect(x)
			}
		}
		if !c.destroyed {
			docs = append(docs, c)
		}
	}
	collect(c)
	c.doc.Unload()
	for _, d := range docs {
		d.ref.fullyActive = false
		d.destroyed = true
	}
	for _, d := range docs {
		h.ref.unloadDocument(d.ref)
	}
	for _, d := range docs {
		for _, w := range h.clients {
			if w.owner >= 0 && h.clients[w.owner] == d {
				h.refTerminateAgent(h.agents[w.agent])
			}
		}
		left := 0
		for _, x := range h.clients {
			if x.doc != nil && x.agent == d.agent && !x.afterDestroy && x != d {
				left++
			}
		}
		d.afterDestroy = true
		if left == 0 {
			h.refTerminateAgent(h.agents[d.agent])
		}
	}
}

// replenish keeps the world populated: when unloads and terminations have
// left fewer than six live clients, a new one joins (a top-level window, an
// iframe of a live document, or a dedicated worker of a live document, of a
// random origin and user agent), so that long runs keep exercising locks
// rather than only rejections.
func (h *harness) replenish() {
	var live, docs []int
	for i, c := range h.clients {
		if !c.ref.gone && !h.agents[c.agent].ref.terminated && (c.doc == nil || c.ref.fullyActive) {
			live = append(live, i)
			if c.doc != nil && !c.ref.opaque {
				docs = append(docs, i)
			}
		}
	}
	if len(live) >= 6 {
		return
	}
	pending := h.sched.Pending()
	origins := []string{"https://a.test/", "https://b.test/", "https://x.a.test/"}
	u := origins[h.rng.IntN(len(origins))]
	switch k := h.rng.IntN(3); {
	case k == 0 || len(docs) == 0:
		ui := h.rng.IntN(len(h.uas))
		d, err := h.uas[ui].OpenWindowURL(u)
		if err != nil {
			h.t.Fatal(err)
		}
		h.tracef("new window %s in user agent %d", u, ui)
		h.addClient(d.EnvironmentSettingsObject(), ui, -1)
	case k == 1:
		p := docs[h.rng.IntN(len(docs))]
		d, err := h.clients[p].doc.CreateChildNavigableURL(u, html.ChildNavigableOptions{Sandboxed: h.rng.IntN(8) == 0})
		if err != nil {
			h.t.Fatal(err)
		}
		h.tracef("new iframe %s in client %d", u, p)
		h.addClient(d.EnvironmentSettingsObject(), h.agents[h.clients[p].agent].ua, p)
	default:
		p := docs[h.rng.IntN(len(docs))]
		owner := h.clients[p].env
		wu, _ := url.Parse(owner.Origin().Serialize() + "/w.js")
		w, err := html.NewDedicatedWorker(owner, wu)
		if err != nil {
			h.t.Fatal(err)
		}
		h.tracef("new worker of client %d", p)
		c := h.addClient(w, h.agents[h.clients[p].agent].ua, -1)
		h.clients[c].owner = p
	}
	if h.sched.Pending() != pending {
		h.fatalf("creating a client queued work")
	}
}
