package browser

import (
	"net/url"

	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
)

// This file is the style sheets' part of the subresource loads: the
// stylesheet link type's "process the linked resource".

// processStylesheet is the process the linked resource steps of the
// stylesheet link type for the response to req: success when the
// response is not a network error, its status is ok and its Content-Type
// is text/css (any type, in a quirks-mode document, for a same-origin
// response).
// https://html.spec.whatwg.org/multipage/links.html#link-type-stylesheet
func (w *Window) processStylesheet(req *fetch.Request, resp *fetch.Response) bool {
	// 1. If the resource's Content-Type metadata is not text/css, then
	//    set success to false (unless the document is in quirks mode and
	//    the response is same-origin).
	if !linkFetchSucceeded(resp) {
		return false
	}
	r := unsafeResponse(resp)
	l := loadedOf(r, req.CurrentURL())
	if l.essence != "text/css" {
		if w.doc.CompatMode() != "BackCompat" || resp.Type == "opaque" || !sameOriginURL(l.url, w.env.Origin()) {
			return false
		}
	}
	return true
}

// sameOriginURL says whether u's origin is o.
func sameOriginURL(u *url.URL, o origin.Origin) bool {
	return u != nil && origin.SameOrigin(origin.FromURL(u), o)
}
