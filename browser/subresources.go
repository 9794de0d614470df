package browser

import (
	"context"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/fileapi"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file is where the subresource loads of elements (img, picture and
// source, link, audio and video, style and the style attribute, SVG image
// and use) meet the document's tree changes and package fetch: the
// window's insertion and attribute-change hooks start HTML's algorithms
// (images.go, links.go, media.go, styles.go), whose requests go through
// fetchSubresource, that is fetch with the client's active service
// worker (Handle Fetch) in front of the network.

// subresourceState is a window's element loads, on its event loop only.
type subresourceState struct {
	// images are the img (and SVG image) elements' image requests
	// (images.go).
	images map[*xhtml.Node]*imageRequest
	// media are the media elements' current loads (media.go).
	media map[*xhtml.Node]int
	// links are the link elements' current fetches (links.go).
	links map[*xhtml.Node]int
	// styleText is the text of each style element's current style sheet
	// (styles.go).
	styleText map[*xhtml.Node]string
}

// fetchSubresource runs fetch for req, a request whose client is w's
// environment, over the browser's network: when w has an active service
// worker, HTTP fetch hands the request to it first (Service Workers'
// Handle Fetch), as for its scripts' fetch() calls. It blocks: call it
// off the event loop.
func (w *Window) fetchSubresource(ctx context.Context, req *fetch.Request) *fetch.Response {
	return w.s.fetchSubresource(ctx, req, w.env)
}

// fetchSubresource runs fetch for req, a subresource request whose
// client is env (a window's or a worker's), with env's active service
// worker, if any, in front of the network. It blocks.
func (s *Browser) fetchSubresource(ctx context.Context, req *fetch.Request, env envHandle) *fetch.Response {
	p := &fetch.Params{Request: req, Network: s.network(), BlobURLs: fileapi.StoreOf(s.eng.ua),
		PreflightCache: preflightCacheOf(s.eng.ua), Cookies: cookieStoreOf(s.eng.ua)}
	if env != nil && serviceworker.ActiveServiceWorker(env) != nil {
		p.HandleFetch = func(ctx context.Context, fr *fetch.Request) *fetch.Response {
			// (Only the first request of the fetch: the response of a
			// redirect goes to the network.)
			if fr.RedirectCount > 0 {
				return nil
			}
			return serviceworker.HandleFetch(ctx, env, fr)
		}
	}
	return fetch.FetchWhole(ctx, p)
}

// fetchNonSubresource runs fetch for req, a navigation request or a
// worker's script request whose reserved client is reserved, over the
// browser's network: the service worker whose scope matches its URL
// handles it first (Service Workers' Handle Fetch for a non-subresource
// request; nil reserved: none does). It blocks.
func (s *Browser) fetchNonSubresource(ctx context.Context, req *fetch.Request, reserved envHandle) *fetch.Response {
	p := &fetch.Params{Request: req, Network: s.network(), BlobURLs: fileapi.StoreOf(s.eng.ua),
		PreflightCache: preflightCacheOf(s.eng.ua), Cookies: cookieStoreOf(s.eng.ua)}
	if reserved != nil {
		p.HandleFetch = func(ctx context.Context, fr *fetch.Request) *fetch.Response {
			if fr.RedirectCount > 0 {
				return nil
			}
			return serviceworker.HandleFetchNonSubresource(ctx, reserved, fr)
		}
	}
	return fetch.FetchWhole(ctx, p)
}

// inParallel runs f off w's event loop, counted as the browser's work.
func (w *Window) inParallel(f func()) {
	s := w.s
	s.busy.Add(1)
	go func() {
		defer s.busy.Add(-1)
		s.guard(f)
	}()
}

// queueElementTask queues a task on w's event loop that runs f unless
// the window is gone (HTML's "queue an element task on the DOM
// manipulation task source").
func (w *Window) queueElementTask(f func()) {
	w.realm.QueueTask(func(*sobek.Runtime) {
		if w.realmGone {
			return
		}
		w.s.guard(f)
	})
}

// fireSimpleEvent fires an event named typ at el (not bubbling, not
// cancelable), on w's event loop.
func (w *Window) fireSimpleEvent(el *xhtml.Node, typ string) {
	w.realm.FireEventAt(w.nodeObject(el), typ, false, nil)
}

// subresourceInserted runs the insertion steps of the elements that load
// subresources, for el (connected by the DOM) on w's event loop.
func (w *Window) subresourceInserted(el *xhtml.Node) {
	if el.Type == xhtml.TextNode && isStyleElement(el.Parent) {
		// A style element's children changed.
		w.updateAStyleBlock(el.Parent)
		return
	}
	if el.Type != xhtml.ElementNode {
		return
	}
	w.styleAttributeImages(el)
	switch {
	case isStyleElement(el):
		w.updateAStyleBlock(el)
	case el.Namespace == "" && el.DataAtom == atom.Img:
		// The img element's relevant mutations: it is inserted into a
		// picture parent.
		if isPicture(el.Parent) {
			w.updateTheImageData(el)
		}
	case el.Namespace == "" && el.DataAtom == atom.Source:
		// A source element inserted into a picture element: its img
		// following siblings' relevant mutations.
		w.sourceChanged(el)
	case el.Namespace == "" && el.DataAtom == atom.Link:
		w.linkConnected(el)
	case isSVGElement(el, "image"):
		w.svgImageFetch(el)
	case isSVGElement(el, "use"):
		w.svgUseFetch(el)
	}
}

// subresourceAttributeChanged runs the attribute change steps of the
// elements that load subresources, for attribute name of el (connected
// or not) on w's event loop.
func (w *Window) subresourceAttributeChanged(n *dom.Node, name string) {
	el := n.HTML()
	if el.Type != xhtml.ElementNode {
		return
	}
	if name == "style" && n.IsConnected() {
		w.styleAttributeImages(el)
	}
	switch {
	case el.Namespace == "" && el.DataAtom == atom.Img:
		// The img element's relevant mutations: its src, srcset, width,
		// sizes, crossorigin or referrerpolicy attribute is set, changed
		// or removed.
		switch name {
		case "src", "srcset", "width", "sizes", "crossorigin", "referrerpolicy":
			w.updateTheImageData(el)
		}
	case el.Namespace == "" && el.DataAtom == atom.Source:
		switch name {
		case "srcset", "sizes", "media", "type":
			w.sourceChanged(el)
		}
	case el.Namespace == "" && el.DataAtom == atom.Link:
		if n.IsConnected() {
			w.linkAttributeChanged(el, name)
		}
	case isSVGElement(el, "image") && name == "href" && n.IsConnected():
		w.svgImageFetch(el)
	case isSVGElement(el, "use") && name == "href" && n.IsConnected():
		w.svgUseFetch(el)
	case isMediaElement(el):
		// If a src attribute of a media element is set or changed, the
		// user agent must invoke the media element's media element load
		// algorithm (removing it does not).
		if _, ok := n.Attribute("src"); name == "src" && ok {
			w.mediaElementLoad(el)
		}
	}
}

// startSubresources gives w's realm the media elements' load() and
// FontFace's load(), and
// starts the loads of the elements of w's parsed document (links, images,
// media elements with a src, style elements and attributes, SVG image and
// use), in tree order, on w's event loop before its scripts run.
func (w *Window) startSubresources() {
	w.realm.SetMediaHooks(bindings.MediaHooks{Load: func(el *dom.Node) { w.mediaElementLoad(el.HTML()) }})
	w.realm.SetFontHooks(bindings.FontHooks{Load: w.loadFontFace})
	for _, el := range descendants(w.doc.HTML(), func(n *xhtml.Node) bool {
		return n.Type == xhtml.ElementNode
	}, 0) {
		w.styleAttributeImages(el)
		switch {
		case isStyleElement(el):
			w.updateAStyleBlock(el)
		case el.Namespace == "" && el.DataAtom == atom.Img:
			w.updateTheImageData(el)
		case el.Namespace == "" && el.DataAtom == atom.Link:
			w.linkConnected(el)
		case isMediaElement(el):
			if _, ok := getAttr(el, "src"); ok {
				w.mediaElementLoad(el)
			}
		case isSVGElement(el, "image"):
			w.svgImageFetch(el)
		case isSVGElement(el, "use"):
			w.svgUseFetch(el)
		}
	}
}

func isPicture(n *xhtml.Node) bool {
	return n != nil && n.Type == xhtml.ElementNode && n.Namespace == "" && n.DataAtom == atom.Picture
}
