package browser

import (
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/css"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file is the style sheets' part of the subresource loads: the
// stylesheet link type's "process the linked resource", the style
// element's and the style attribute's style sheets, and what a style
// sheet fetches (package css finds it): its @import rules' style sheets
// (destination "style"), its @font-face rules' fonts ("font") and the
// background images of style attributes ("image"), each through CSSOM's
// "fetch a style resource". Deviations (doc.go): style sheets are not
// applied; every @font-face source is fetched when its sheet is (browsers
// fetch a font when an element uses it), background images of style
// sheets' rules are not fetched (only those of style attributes, when
// their element is connected), and media queries are not evaluated.

// styleSheetLocation is what a style sheet's fetches need of it: its
// location (nil for an inline sheet, whose URLs resolve against the
// document base URL and whose referrer is the document's).
type styleSheetLocation struct {
	url *url.URL
}

// base is the URL a sheet's relative URLs resolve against.
func (w *Window) styleBase(sheet styleSheetLocation) *url.URL {
	if sheet.url != nil {
		return sheet.url
	}
	return w.baseURL()
}

// processStylesheet is the process the linked resource steps of the
// stylesheet link type for the response to req: success when the
// response is not a network error, its status is ok and its Content-Type
// is text/css (any type, in a quirks-mode document, for a same-origin
// response); a successful sheet's subresources are fetched.
// https://html.spec.whatwg.org/multipage/links.html#link-type-stylesheet
func (w *Window) processStylesheet(req *fetch.Request, resp *fetch.Response) bool {
	// 1. If the resource's Content-Type metadata is not text/css, then
	//    set success to false (unless the document is in quirks mode and
	//    the response is same-origin).
	if !w.styleSheetResponseOK(resp) {
		return false
	}
	// 3. If success is true: create a CSS style sheet (its
	//    subresources are fetched).
	l := loadedOf(unsafeResponse(resp), req.CurrentURL())
	w.processStyleSheetText(decodeText(l.body, l.charset), styleSheetLocation{url: l.url})
	return true
}

// styleSheetResponseOK is the success of a style sheet's response (a
// link's or an @import's).
func (w *Window) styleSheetResponseOK(resp *fetch.Response) bool {
	if !linkFetchSucceeded(resp) {
		return false
	}
	l := loadedOf(unsafeResponse(resp), nil)
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

// processStyleSheetText fetches what a style sheet's text loads: its
// @import rules' sheets and its @font-face rules' fonts.
func (w *Window) processStyleSheetText(text string, sheet styleSheetLocation) {
	sh := css.ScanStyleSheet(text)
	for _, u := range sh.Imports {
		w.fetchAnImport(u, sheet, 0)
	}
	for _, u := range sh.Fonts {
		w.fetchAStyleResource(u, sheet, "font", "cors", nil)
	}
}

// maxImportDepth bounds chains of @import rules (a sheet importing
// itself).
const maxImportDepth = 16

// fetchAnImport is the fetch of an @import rule's style sheet: a style
// resource with destination "style" and mode "no-cors", whose sheet, once
// it is a CSS response, is processed in turn.
// https://drafts.csswg.org/css-cascade-5/#fetch-an-import
func (w *Window) fetchAnImport(raw string, parent styleSheetLocation, depth int) {
	if depth >= maxImportDepth {
		return
	}
	w.fetchAStyleResource(raw, parent, "style", "no-cors", func(resp *fetch.Response) {
		if !w.styleSheetResponseOK(resp) {
			return
		}
		l := loadedOf(unsafeResponse(resp), nil)
		if l.url == nil {
			return
		}
		sh := css.ScanStyleSheet(decodeText(l.body, l.charset))
		for _, u := range sh.Imports {
			w.fetchAnImport(u, styleSheetLocation{url: l.url}, depth+1)
		}
		for _, u := range sh.Fonts {
			w.fetchAStyleResource(u, styleSheetLocation{url: l.url}, "font", "cors", nil)
		}
	})
}

// fetchAStyleResource is https://drafts.csswg.org/css-values-4/#fetch-a-style-resource
// for the URL raw of a style sheet (sheet), on w's event loop: the
// request's destination and mode are the caller's, its credentials mode
// "same-origin" ("include" for no-cors), its client the document's, its
// referrer the sheet's location (the document's for an inline sheet).
// processResponse, if not nil, runs on w's event loop with the response
// (its body read).
func (w *Window) fetchAStyleResource(raw string, sheet styleSheetLocation, destination, corsMode string, processResponse func(*fetch.Response)) {
	// 1-3. Let environmentSettings be sheet's relevant settings object;
	//      let base be sheet's stylesheet base URL.
	// 4. Let parsedUrl be the result of the URL parser steps with url's
	//    value and base. If the algorithm returns an error, return.
	if strings.TrimSpace(raw) == "" {
		return
	}
	u, err := parseURL(raw, w.styleBase(sheet))
	if err != nil {
		return
	}
	// 5. Let req be a new request whose url is parsedUrl, whose
	//    destination is destination, mode is corsMode, origin is
	//    environmentSettings's origin, credentials mode is
	//    "same-origin", use-url-credentials flag is set, client is
	//    environmentSettings, and whose referrer is environmentSettings's
	//    API base URL.
	req := fetch.NewRequest(u, w.client())
	req.Destination, req.Mode, req.Credentials = destination, corsMode, "same-origin"
	// 6. If corsMode is "no-cors", set req's credentials mode to
	//    "include".
	if corsMode == "no-cors" {
		req.Credentials = "include"
	}
	// 7. Apply any URL request modifier steps (none here).
	// 8-9. If sheet's location is not null, set req's referrer to it;
	//      set req's referrer policy to sheet's (the document's).
	if sheet.url != nil {
		req.Referrer = sheet.url.String()
	}
	// 10. Fetch req, with processresponseconsumebody set to
	//     processResponse.
	ctx := w.s.ctx
	w.inParallel(func() {
		resp := w.fetchSubresource(ctx, req)
		if processResponse != nil {
			w.queueElementTask(func() { processResponse(resp) })
		}
	})
}

// isStyleElement says whether el is an HTML style element.
func isStyleElement(el *xhtml.Node) bool {
	return el != nil && el.Type == xhtml.ElementNode && el.Namespace == "" && el.DataAtom == atom.Style
}

// updateAStyleBlock is https://html.spec.whatwg.org/multipage/semantics.html#update-a-style-block
// for style element el (connected, or whose children changed): its child
// text content is a style sheet whose subresources are fetched.
func (w *Window) updateAStyleBlock(el *xhtml.Node) {
	// 1-4. (The element's style sheet: not kept.)
	// 5. If element is not connected, then return.
	// 6. If element's type attribute is present and its value is neither
	//    the empty string nor an ASCII case-insensitive match for
	//    "text/css", then return.
	if typ, ok := getAttr(el, "type"); ok && typ != "" && !strings.EqualFold(strings.TrimSpace(typ), "text/css") {
		return
	}
	// 7-8. (Content Security Policy's inline check: no policies here.)
	// 9. Create a CSS style sheet (its subresources are fetched), unless
	//    the element's text is the one its current sheet has (the
	//    insertion steps run for the element and each of its children).
	var b strings.Builder
	for c := el.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.TextNode {
			b.WriteString(c.Data)
		}
	}
	st := &w.subresources
	if st.styleText == nil {
		st.styleText = map[*xhtml.Node]string{}
	}
	if text, ok := st.styleText[el]; ok && text == b.String() {
		return
	}
	st.styleText[el] = b.String()
	w.processStyleSheetText(b.String(), styleSheetLocation{})
}

// styleAttributeImages fetches the background images of el's style
// attribute (el is connected): destination "image", mode "no-cors".
func (w *Window) styleAttributeImages(el *xhtml.Node) {
	style, ok := getAttr(el, "style")
	if !ok {
		return
	}
	for _, u := range css.ScanDeclarations(style) {
		w.fetchAStyleResource(u, styleSheetLocation{}, "image", "no-cors", nil)
	}
}

// loadFontFace is the load of a FontFace's sources (its urls, relative
// to the document's base URL), on w's event loop: each is fetched as a
// style resource with destination "font" and mode "cors" until one's
// response succeeds (not a network error, an ok status, a body that
// sniffs as a font); done runs on
// w's event loop with whether one did.
// https://drafts.csswg.org/css-fonts-4/#font-fetching-requirements
func (w *Window) loadFontFace(urls []string, done func(ok bool)) {
	if len(urls) == 0 {
		w.queueElementTask(func() { done(false) })
		return
	}
	var try func(rest []string)
	try = func(rest []string) {
		if len(rest) == 0 {
			done(false)
			return
		}
		if strings.TrimSpace(rest[0]) == "" {
			try(rest[1:])
			return
		}
		w.fetchAStyleResource(rest[0], styleSheetLocation{}, "font", "cors", func(resp *fetch.Response) {
			if linkFetchSucceeded(resp) && css.IsFontData(loadedOf(unsafeResponse(resp), nil).body) {
				done(true)
				return
			}
			try(rest[1:])
		})
	}
	try(urls)
}
