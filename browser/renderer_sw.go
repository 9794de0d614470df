package browser

import (
	"context"
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Shared workers across renderer processes. The browser process keeps
// the registry (storage key, constructor URL, name → the renderer that
// runs the worker): the first renderer whose window constructs it runs
// it (a renderer of the worker's site); new SharedWorker() in another
// renderer gets a SharedWorker object whose port is the stub of a link
// to the worker's renderer, where the link's new port is the connect
// event's port and the connecting document an external owner of the
// worker (html.SharedWorker.AddExternalOwner, keyed by the link) until it
// is unloaded (SharedWorkerReleased) or its renderer ends. So one worker
// serves every renderer of the site (one agent, one Web Locks client).
// When the worker ends, its renderer reports it (the registry forgets it)
// and the ports of other renderers' connections are closed; when its
// renderer ends, the links close and the registry forgets its workers.
// The embedder's Window.Close of the window whose renderer runs a worker
// that other renderers' documents use closes only its traversable there:
// the renderer runs on until it hosts nothing (the worker ended when its
// last owner left), then ends. Deviation: a worker does not outlive a
// crash or kill of its renderer (the renderer of its first client): its
// other clients' ports are closed then, and their next new SharedWorker()
// starts a new one.

// swKey is a shared worker's identity in the registry.
type swKey struct {
	key       storage.StorageKey
	url, name string
}

// swEntry is a registered shared worker: its renderer, and the
// connections of other renderers' documents (link → client renderer).
type swEntry struct {
	host  *rendererProc
	conns map[uint64]*rendererProc
}

// externalOwner is the key, in a shared worker's owner set, of the
// document of another renderer that connected through a link (the
// link's number).
type externalOwner uint64

// wireKeyOf parses a storage key of the wire (ok false: opaque origin).
func wireKeyOf(k *rendererpb.StorageKey) (storage.StorageKey, bool) {
	o := origin.Parse(k.GetOrigin())
	if o.IsOpaque() {
		return storage.StorageKey{}, false
	}
	return storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(origin.Parse(k.GetTopLevelSite())), HasCrossSiteAncestor: k.GetHasCrossSiteAncestor()}, true
}

// SharedWorker is the registry's answer to a renderer's new
// SharedWorker().
func (h *hostServer) SharedWorker(ctx context.Context, req *rendererpb.SharedWorkerRequest) (*rendererpb.SharedWorkerReply, error) {
	p := h.p
	key, ok := wireKeyOf(req.GetKey())
	u, err := url.Parse(req.GetUrl())
	switch {
	case !ok || origin.ObtainSite(key.Origin) != p.site:
		p.refuse("a shared worker of the storage key of %.100s", req.GetKey().GetOrigin())
		return nil, status.Error(codes.PermissionDenied, "not the renderer's site")
	case err != nil || origin.FromURL(u) != key.Origin:
		p.refuse("a shared worker of the URL %.100q for %.100s", req.GetUrl(), key.Origin.Serialize())
		return nil, status.Error(codes.PermissionDenied, "not the storage key's origin")
	}
	k := swKey{key: key, url: u.String(), name: req.GetName()}
	m := &p.b.router
	m.mu.Lock()
	if m.workers == nil {
		m.workers = map[swKey]*swEntry{}
	}
	e := m.workers[k]
	if e == nil || e.host == p || m.procs[e.host.id] == nil {
		m.workers[k] = &swEntry{host: p, conns: map[uint64]*rendererProc{}}
		m.mu.Unlock()
		return &rendererpb.SharedWorkerReply{Local: true}, nil
	}
	if !m.addLinks(p, e.host, []uint64{req.GetLink()}) {
		m.mu.Unlock()
		return nil, status.Error(codes.PermissionDenied, "a bad link")
	}
	e.conns[req.GetLink()] = p
	host := e.host
	m.mu.Unlock()
	host.forward(&rendererpb.Command{Command: &rendererpb.Command_ConnectSharedWorker{ConnectSharedWorker: &rendererpb.ConnectSharedWorker{
		Key: req.GetKey(), Url: k.url, Name: k.name, Link: req.GetLink(), Owner: p.id}}}, 256)
	return &rendererpb.SharedWorkerReply{}, nil
}

// servesOthers reports whether p runs a shared worker that documents of
// other renderers are connected to.
func (m *msgRouter) servesOthers(p *rendererProc) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.workers {
		if e.host == p && len(e.conns) > 0 {
			return true
		}
	}
	return false
}

// sharedWorkerClosed forgets a renderer's shared worker that ended.
func (m *msgRouter) sharedWorkerClosed(p *rendererProc, c *rendererpb.SharedWorkerClosed) {
	key, ok := wireKeyOf(c.GetKey())
	if !ok {
		return
	}
	k := swKey{key: key, url: c.GetUrl(), name: c.GetName()}
	m.mu.Lock()
	if e := m.workers[k]; e != nil && e.host == p {
		delete(m.workers, k)
	}
	m.mu.Unlock()
}

// removeWorkers forgets the shared workers an ended renderer ran, and
// tells the renderers of the workers it used that its documents no longer
// own them (under m.mu; the notes are sent after).
func (m *msgRouter) removeWorkers(p *rendererProc) (hosts []*rendererProc) {
	seen := map[*rendererProc]bool{}
	for k, e := range m.workers {
		if e.host == p {
			delete(m.workers, k)
			continue
		}
		for link, c := range e.conns {
			if c == p {
				delete(e.conns, link)
				if !seen[e.host] {
					seen[e.host] = true
					hosts = append(hosts, e.host)
				}
			}
		}
	}
	return hosts
}

// sharedWorkerReleased passes a renderer's unloaded document's release of
// a shared worker of another renderer on to that renderer.
func (m *msgRouter) sharedWorkerReleased(p *rendererProc, r *rendererpb.SharedWorkerReleased) bool {
	link := r.GetLink()
	if link>>32 != p.id {
		p.refuse("a release of shared worker connection %#x, which is not its", link)
		return false
	}
	m.mu.Lock()
	var host *rendererProc
	for _, e := range m.workers {
		if e.conns[link] == p {
			delete(e.conns, link)
			host = e.host
			break
		}
	}
	m.mu.Unlock()
	if host != nil {
		host.forward(&rendererpb.Command{Command: &rendererpb.Command_SharedWorkerOwnerGone{SharedWorkerOwnerGone: &rendererpb.SharedWorkerOwnerGone{Owner: p.id, Link: link}}}, 64)
	}
	return true
}

// connectSharedWorker is, in a renderer, new SharedWorker() asking the
// browser process's registry first: it reports true when the worker runs
// in another renderer (c's port then is the stub of a link to it); false
// when it runs, or is to run, here (x nil: not a renderer; a URL of
// another origin or data:, which stay here).
func (x *rendererMsg) connectSharedWorker(owner envHandle, u *url.URL, c *bindings.SharedWorkerConnection) bool {
	if x == nil || strings.EqualFold(u.Scheme, "data") || origin.FromURL(u) != owner.Origin() {
		return false
	}
	key := owner.ObtainAStorageKeyForNonStoragePurposes()
	// The stub is ready before the browser process can connect the link
	// (the worker may answer at once); this event loop runs no script
	// meanwhile, so nothing is posted through it before the answer.
	link := x.link(0, c.Port)
	rep, err := x.host.SharedWorker(context.Background(), &rendererpb.SharedWorkerRequest{Key: wireKey(key), Url: u.String(), Name: c.Name, Link: link})
	if err == nil && !rep.GetLocal() {
		// The document owns the worker until it is unloaded.
		release := func() {
			x.r.send(&rendererpb.Report{Report: &rendererpb.Report_SharedWorkerReleased{SharedWorkerReleased: &rendererpb.SharedWorkerReleased{Link: link}}})
		}
		if doc := owner.AssociatedDocument(); doc == nil || doc.AddUnloadingDocumentCleanupSteps(release) == 0 {
			release()
		}
		return true
	}
	// Here after all: the port is no stub.
	x.mu.Lock()
	delete(x.links, link)
	x.mu.Unlock()
	c.Port.Ship()
	return false
}

// hosting reports sw's end to the browser process's registry.
func (x *rendererMsg) hosting(sw *html.SharedWorker) {
	if x == nil {
		return
	}
	c := &rendererpb.SharedWorkerClosed{Key: wireKey(sw.StorageKey()), Url: sw.ConstructorURL(), Name: sw.Name()}
	report := func() {
		x.r.send(&rendererpb.Report{Report: &rendererpb.Report_SharedWorkerClosed{SharedWorkerClosed: c}})
	}
	if sw.Env().Agent().AddTerminationSteps(report) == 0 {
		report()
	}
}

// connectRemote connects a client of another renderer to a shared worker
// of this one (ConnectSharedWorker): a new channel, one port the connect
// event's, the other the link's stub. A worker that is gone closes the
// port (the client's SharedWorker port gets close).
func (x *rendererMsg) connectRemote(m *rendererpb.ConnectSharedWorker) {
	port, stub := html.NewMessageChannel()
	x.link(m.GetLink(), stub)
	key, _ := wireKeyOf(m.GetKey())
	var sw *html.SharedWorker
	for _, w := range x.r.b.UserAgent().SharedWorkers() {
		if w.StorageKey() == key && w.ConstructorURL() == m.GetUrl() && w.Name() == m.GetName() {
			sw = w
			break
		}
	}
	if sw == nil {
		port.Close()
		return
	}
	h, ok := sharedWorkerHostSlot.Lookup(sw.Env())
	if !ok || !sw.AddExternalOwner(externalOwner(m.GetLink())) {
		port.Close()
		return
	}
	x.mu.Lock()
	if x.swOwners == nil {
		x.swOwners = map[uint64]*html.SharedWorker{}
	}
	x.swOwners[m.GetLink()] = sw
	x.mu.Unlock()
	// The worker's end closes the port (and so the link).
	if sw.Env().Agent().AddTerminationSteps(func() { port.Close() }) == 0 {
		port.Close()
		return
	}
	h.connect(&bindings.SharedWorkerConnection{URL: m.GetUrl(), Name: m.GetName(), Port: port})
}

// ownerGone removes another renderer's document (m.Link), or all its
// documents, from the owner sets of this renderer's shared workers (the
// last owner gone terminates one).
func (x *rendererMsg) ownerGone(m *rendererpb.SharedWorkerOwnerGone) {
	gone := map[uint64]*html.SharedWorker{}
	x.mu.Lock()
	for link, sw := range x.swOwners {
		if link == m.GetLink() || (m.GetLink() == 0 && link>>32 == m.GetOwner()) {
			gone[link] = sw
			delete(x.swOwners, link)
		}
	}
	x.mu.Unlock()
	for link, sw := range gone {
		sw.RemoveExternalOwner(externalOwner(link))
	}
}
