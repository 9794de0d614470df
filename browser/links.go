package browser

import (
	"strings"

	"github.com/gowebengine/weblocks/fetch"
	xhtml "golang.org/x/net/html"
)

// This file is the link element's fetches: HTML's "fetch and process the
// linked resource" for the link types stylesheet, preload and prefetch.
// A style sheet is not parsed for rendering; its @import rules and the
// url()s of its fonts and background images are fetched (styles.go).
// Deviations (doc.go): alternate style sheets, the media attribute,
// modulepreload and the other link types are not processed, and link
// elements do not delay the load event.

// linkTypes are the link types of el's rel attribute that fetch, in
// ASCII lower case.
func linkTypes(el *xhtml.Node) map[string]bool {
	rel, _ := getAttr(el, "rel")
	m := map[string]bool{}
	for _, t := range strings.Fields(strings.ToLower(rel)) {
		m[t] = true
	}
	return m
}

// linkConnected runs the link element's steps when el becomes
// browsing-context connected: fetch and process the linked resource of
// each of its link types.
func (w *Window) linkConnected(el *xhtml.Node) {
	w.fetchAndProcessTheLinkedResource(el)
}

// linkAttributeChanged runs the steps for a change of attribute name of
// a connected link element: its href, rel, as, crossorigin, type or
// referrerpolicy fetches the linked resource again.
func (w *Window) linkAttributeChanged(el *xhtml.Node, name string) {
	switch name {
	case "href", "rel", "as", "crossorigin", "type", "referrerpolicy":
		w.fetchAndProcessTheLinkedResource(el)
	}
}

// linkOptions is https://html.spec.whatwg.org/multipage/semantics.html#link-processing-options,
// the members used here.
type linkOptions struct {
	href           string
	destination    string
	crossorigin    string // "" for No CORS
	referrerPolicy string
	initiator      string
}

// createLinkOptions is https://html.spec.whatwg.org/multipage/semantics.html#create-link-options-from-element
// for el (destination is the link type's).
func createLinkOptions(el *xhtml.Node) linkOptions {
	href, _ := getAttr(el, "href")
	return linkOptions{href: href, crossorigin: corsSettingOf(el), referrerPolicy: referrerPolicyOf(el), initiator: "link"}
}

// createLinkRequest is https://html.spec.whatwg.org/multipage/semantics.html#create-a-link-request:
// nil when href is empty or does not parse.
func (w *Window) createLinkRequest(o linkOptions) *fetch.Request {
	// 1. Assert: options's href is not the empty string.
	if o.href == "" {
		return nil
	}
	// 2. If options's destination is null, then return null.
	// 3. Let url be the result of encoding-parsing a URL given options's
	//    href, relative to options's base URL.
	u, err := parseURL(o.href, w.baseURL())
	// 4. If url is failure, then return null.
	if err != nil {
		return nil
	}
	// 5. Let request be the result of creating a potential-CORS request
	//    given url, options's destination, and options's crossorigin.
	req := createPotentialCORSRequest(u, o.destination, o.crossorigin, w.client())
	// 6. Set request's policy container, integrity metadata,
	//    cryptographic nonce metadata, referrer policy (the element's),
	//    and client (options's environment).
	req.ReferrerPolicy = o.referrerPolicy
	// 7. (Not used: fetch priority.)
	// 8-9. Set request's initiator to "link" (the link types' own for
	//    prefetch).
	req.Initiator = o.initiator
	// 10. Return request.
	return req
}

// fetchAndProcessTheLinkedResource is https://html.spec.whatwg.org/multipage/semantics.html#fetch-and-process-the-linked-resource
// for the link types of el this engine fetches: stylesheet (the default
// fetch and process the linked resource), preload and prefetch. Each
// fires load or error at el once its response has come in.
func (w *Window) fetchAndProcessTheLinkedResource(el *xhtml.Node) {
	types := linkTypes(el)
	st := &w.subresources
	if st.links == nil {
		st.links = map[*xhtml.Node]int{}
	}
	st.links[el]++
	gen := st.links[el]
	current := func() bool { return st.links[el] == gen }
	switch {
	case types["stylesheet"] && !types["alternate"]:
		// The stylesheet link type: destination "style".
		o := createLinkOptions(el)
		o.destination = "style"
		if req := w.createLinkRequest(o); req != nil {
			w.fetchLinked(el, req, current, func(resp *fetch.Response) bool { return w.processStylesheet(req, resp) })
		}
	case types["preload"]:
		w.preload(el, current)
	case types["prefetch"]:
		// https://html.spec.whatwg.org/multipage/links.html#link-type-prefetch:
		// destination "", initiator "prefetch".
		o := createLinkOptions(el)
		o.initiator = "prefetch"
		if req := w.createLinkRequest(o); req != nil {
			w.fetchLinked(el, req, current, linkFetchSucceeded)
		}
	}
}

// fetchLinked fetches req in parallel and, in an element task, fires load
// at el when process says the response succeeded, else error (a fetch
// no longer current fires nothing).
func (w *Window) fetchLinked(el *xhtml.Node, req *fetch.Request, current func() bool, process func(*fetch.Response) bool) {
	ctx := w.s.ctx
	w.inParallel(func() {
		resp := w.fetchSubresource(ctx, req)
		w.queueElementTask(func() {
			if !current() {
				return
			}
			if process(resp) {
				w.fireSimpleEvent(el, "load")
			} else {
				w.fireSimpleEvent(el, "error")
			}
		})
	})
}

// linkFetchSucceeded is the success of a link's fetch: a response that is
// not a network error and whose (unsafe) status is ok.
func linkFetchSucceeded(resp *fetch.Response) bool {
	return !resp.IsNetworkError() && isOKStatus(unsafeResponse(resp).Status)
}

// preload is https://html.spec.whatwg.org/multipage/links.html#link-type-preload
// for el: a request whose destination is its as attribute's
// ("" for "fetch", a CORS request); an unknown as fetches nothing.
func (w *Window) preload(el *xhtml.Node, current func() bool) {
	// 1-2. Let options be the result of creating link options from el;
	//      its destination is the result of translating el's as
	//      attribute.
	o := createLinkOptions(el)
	as, _ := getAttr(el, "as")
	dest, ok := translatePreloadDestination(as)
	// 3. If options's destination is null, then return.
	if !ok {
		return
	}
	o.destination = dest
	// 4. Let request be the result of creating a link request given
	//    options; if request is null, then return.
	req := w.createLinkRequest(o)
	if req == nil {
		return
	}
	// (As browsers do, as=fetch is a CORS request: fetch() is.)
	if dest == "" && req.Mode == "no-cors" {
		req.Mode = "cors"
	}
	// 5-13. Fetch request; process the response: fire load at el when
	//       it succeeded, else error.
	w.fetchLinked(el, req, current, linkFetchSucceeded)
}

// translatePreloadDestination is https://fetch.spec.whatwg.org/#concept-potential-destination-translate:
// "fetch" is the empty string; a destination stays; anything else (or
// "") has no destination.
func translatePreloadDestination(as string) (string, bool) {
	as = strings.ToLower(as)
	switch as {
	case "fetch":
		return "", true
	case "audio", "audioworklet", "document", "embed", "font", "image", "json", "manifest", "object",
		"paintworklet", "report", "script", "serviceworker", "sharedworker", "style", "track", "video",
		"webidentity", "worker", "xslt":
		return as, true
	}
	return "", false
}
