package browser

import (
	"strings"

	"github.com/gowebengine/weblocks/fetch"
	xhtml "golang.org/x/net/html"
)

// This file is the SVG elements' subresource loads: the image element
// fetches its href (or xlink:href) as an image, as HTML's img does, and
// fires load or error; the use element fetches the document of an
// external href (destination "image", as browsers do; the standard's
// issue whatwg/fetch#1012). Neither is rendered.

// isSVGElement says whether el is the SVG element named local.
func isSVGElement(el *xhtml.Node, local string) bool {
	return el != nil && el.Type == xhtml.ElementNode && el.Namespace == "svg" && el.Data == local
}

// svgHref is the value of el's href attribute, else its xlink:href.
// https://svgwg.org/svg2-draft/linking.html#XLinkHrefAttribute
func svgHref(el *xhtml.Node) (string, bool) {
	if v, ok := getAttr(el, "href"); ok {
		return v, true
	}
	for _, a := range el.Attr {
		if a.Namespace == "xlink" && a.Key == "href" {
			return a.Val, true
		}
	}
	return "", false
}

// svgImageFetch fetches the image of SVG image element el (connected,
// with an href): a potential-CORS request with destination "image" of
// its crossorigin attribute's state; load fires at el when the image
// decodes, error otherwise.
// https://svgwg.org/svg2-draft/embedded.html#ImageElement
func (w *Window) svgImageFetch(el *xhtml.Node) {
	href, ok := svgHref(el)
	if !ok || w.realmGone {
		return
	}
	ir := w.imageRequestOf(el)
	ir.gen++
	gen := ir.gen
	u, err := parseURL(href, w.baseURL())
	if err != nil || strings.TrimSpace(href) == "" {
		ir.state = "broken"
		w.queueElementTask(func() { w.fireSimpleEvent(el, "error") })
		return
	}
	ir.state, ir.currentURL = "unavailable", u.String()
	req := createPotentialCORSRequest(u, "image", corsSettingOf(el), w.client())
	w.fetchTheImage(el, ir, gen, req)
}

// svgUseFetch fetches the external document an SVG use element el
// (connected) references: an href with a URL before its fragment. The
// request's destination is "image", its mode "same-origin" (a use
// element's external references must be same-origin).
// https://svgwg.org/svg2-draft/struct.html#UseElement
func (w *Window) svgUseFetch(el *xhtml.Node) {
	href, ok := svgHref(el)
	if !ok || strings.HasPrefix(strings.TrimSpace(href), "#") || w.realmGone {
		return
	}
	u, err := parseURL(href, w.baseURL())
	if err != nil {
		return
	}
	u.Fragment, u.RawFragment = "", ""
	req := fetch.NewRequest(u, w.client())
	req.Destination, req.Mode, req.Credentials = "image", "same-origin", "same-origin"
	ctx := w.s.ctx
	w.inParallel(func() { w.fetchSubresource(ctx, req) })
}
