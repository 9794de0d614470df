package browser

import (
	"net/http"
	"strings"

	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file is the img element's image loading: HTML's "update the image
// data" with "select an image source" over the element's srcset, sizes
// and src and its picture parent's source children. Images are fetched
// but not decoded: an image "decodes" when its bytes sniff as an image
// type (MIME Sniffing's image type pattern matching, or an SVG response),
// which decides between the load and error events. Deviations (doc.go):
// no list of available images, no lazy loading, the device pixel ratio
// is 1 and media conditions are not evaluated (html.ParseSizes).

// imageRequest is an img element's current request, as far as this
// engine keeps it.
type imageRequest struct {
	// gen counts the instances of update the image data: an instance
	// stops when a later one started.
	gen int
	// state is "unavailable", "completely available" or "broken".
	state string
	// currentURL is the current request's current URL.
	currentURL string
}

// imageRequestOf is el's current request, made on first use.
func (w *Window) imageRequestOf(el *xhtml.Node) *imageRequest {
	st := &w.subresources
	if st.images == nil {
		st.images = map[*xhtml.Node]*imageRequest{}
	}
	ir := st.images[el]
	if ir == nil {
		ir = &imageRequest{state: "unavailable"}
		st.images[el] = ir
	}
	return ir
}

// usesSrcsetOrPicture is https://html.spec.whatwg.org/multipage/images.html#use-srcset-or-picture:
// el has a srcset attribute, or a picture parent.
func usesSrcsetOrPicture(el *xhtml.Node) bool {
	_, ok := getAttr(el, "srcset")
	return ok || isPicture(el.Parent)
}

// updateTheImageData is https://html.spec.whatwg.org/multipage/images.html#update-the-image-data
// for img element el of w's document, on w's event loop.
func (w *Window) updateTheImageData(el *xhtml.Node) {
	// 1. If the element's node document is not fully active, then ...
	//    return.
	if w.realmGone {
		return
	}
	ir := w.imageRequestOf(el)
	ir.gen++
	gen := ir.gen
	// 3-4. Let selected source be null and selected pixel density be
	//      undefined.
	// 5. If the element does not use srcset or picture and it has a src
	//    attribute specified whose value is not the empty string, then
	//    set selected source to the value of the element's src attribute
	//    and set selected pixel density to 1.0.
	// 6. Set the element's last selected source to selected source.
	// 7. If selected source is not null: (the list of available images
	//    is not kept: the image is always fetched).
	// 8. Await a stable state (here: a task queued after the current
	//    one; the synchronous section is the task).
	w.queueElementTask(func() {
		// 9. If another instance of this algorithm for this img element
		//    was started after this instance, then return.
		if ir.gen != gen {
			return
		}
		w.updateTheImageDataSync(el, ir, gen)
	})
}

// updateTheImageDataSync is the synchronous section of update the image
// data (steps 10 on).
func (w *Window) updateTheImageDataSync(el *xhtml.Node, ir *imageRequest, gen int) {
	// 10-11. Let selected source and selected pixel density be the URL
	//        and pixel density that results from selecting an image
	//        source, respectively (or src when the element does not use
	//        srcset or picture).
	var selected string
	found := false
	if usesSrcsetOrPicture(el) {
		if c, ok := selectAnImageSource(el); ok {
			selected, found = c.URL, true
		}
	} else if src, ok := getAttr(el, "src"); ok && src != "" {
		selected, found = src, true
	}
	_, hasSrc := getAttr(el, "src")
	fail := func() {
		// Set the current request's state to broken, its current URL
		// to the empty string; if the element has a src attribute or
		// it uses srcset or picture, fire an event named error at it.
		ir.state, ir.currentURL = "broken", ""
		if hasSrc || usesSrcsetOrPicture(el) {
			w.queueElementTask(func() { w.fireSimpleEvent(el, "error") })
		}
	}
	// 12. If selected source is null, then: set the state to broken,
	//     queue an element task to fire error, and return.
	if !found {
		fail()
		return
	}
	// 13. Let urlString be the result of encoding-parsing-and-serializing
	//     a URL given selected source, relative to the element's node
	//     document.
	u, err := parseURL(selected, w.baseURL())
	// 14. If urlString is failure, then: ... fire error, and return.
	if err != nil {
		fail()
		return
	}
	// 15-17. (The image request is new; its current URL is urlString.)
	ir.state, ir.currentURL = "unavailable", u.String()
	// 18. Let request be the result of creating a potential-CORS request
	//     given urlString, "image", and the current state of the
	//     element's crossorigin content attribute.
	// 19. Set request's client to the element's node document's
	//     relevant settings object.
	req := createPotentialCORSRequest(u, "image", corsSettingOf(el), w.client())
	// 20. If the element uses srcset or picture, set request's initiator
	//     to "imageset".
	req.Initiator = "imageset"
	if !usesSrcsetOrPicture(el) {
		req.Initiator = ""
	}
	// 21. Set request's referrer policy to the current state of the
	//     element's referrerpolicy attribute.
	req.ReferrerPolicy = referrerPolicyOf(el)
	// 22. (Priority: not used.)
	// 23. Fetch the image: fetch request; as the response's bytes come
	//     in, the image decodes, or does not.
	w.fetchTheImage(el, ir, gen, req)
}

// fetchTheImage fetches an image request's request in parallel, then
// (steps 24-26 of "update the image data") queues an element task: a
// request that is still the current one (gen) fires load (completely
// available) or error (broken). The image decodes, or does not, as its
// bytes come in.
func (w *Window) fetchTheImage(el *xhtml.Node, ir *imageRequest, gen int, req *fetch.Request) {
	ctx := w.s.ctx
	w.inParallel(func() {
		ok := imageDecodes(w.fetchSubresource(ctx, req))
		w.queueElementTask(func() {
			if ir.gen != gen {
				return
			}
			if ok {
				ir.state = "completely available"
				w.fireSimpleEvent(el, "load")
				return
			}
			ir.state = "broken"
			w.fireSimpleEvent(el, "error")
		})
	})
}

// imageDecodes says whether resp holds an image this engine would decode:
// not a network error, with bytes that sniff as an image type (PNG, GIF,
// JPEG, WebP, BMP, ICO) or an SVG MIME type. The status is not checked
// (browsers show an image served with an error status).
func imageDecodes(resp *fetch.Response) bool {
	if resp.IsNetworkError() {
		return false
	}
	r := unsafeResponse(resp)
	l := loadedOf(r, nil)
	if l.essence == "image/svg+xml" {
		return true
	}
	return len(l.body) > 0 && strings.HasPrefix(http.DetectContentType(l.body), "image/")
}

// selectAnImageSource is https://html.spec.whatwg.org/multipage/images.html#select-an-image-source
// for img element el: update the source set, then pick the candidate for
// a device pixel ratio of 1.
func selectAnImageSource(el *xhtml.Node) (html.ImageSource, bool) {
	// 1. Update the source set for el.
	set := updateTheSourceSet(el)
	// 2. If el's source set is empty, return null as the URL and
	//    undefined as the pixel density.
	// 3. Return the result of selecting an image from el's source set.
	return html.SelectImageSource(set, 1)
}

// updateTheSourceSet is https://html.spec.whatwg.org/multipage/images.html#update-the-source-set
// for el: the normalized source set of the first source sibling before
// el in a picture parent that applies, else el's own.
func updateTheSourceSet(el *xhtml.Node) []html.ImageSource {
	// 1-3. Set el's source set to an empty source set; let elements be «
	//      el », or el's picture parent's children when it has one.
	// 5. For each child in elements:
	elements := []*xhtml.Node{el}
	if p := el.Parent; isPicture(p) {
		elements = nil
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			elements = append(elements, c)
		}
	}
	for _, child := range elements {
		// 5.1. If child is el:
		if child == el {
			// Parse el's srcset; if it has a src attribute whose value
			// is not the empty string and the source set has no image
			// source with a pixel density descriptor of 1 (or none),
			// append el's src with no descriptors; parse el's sizes.
			srcset, _ := getAttr(el, "srcset")
			set := html.ParseSrcset(srcset)
			sizes, _ := getAttr(el, "sizes")
			size := html.ParseSizes(sizes)
			html.NormalizeSourceDensities(set, size)
			if src, ok := getAttr(el, "src"); ok && src != "" && !hasDensityOne(set) {
				set = append(set, html.ImageSource{URL: src, Density: 1})
			}
			return set
		}
		// 5.2. If child is not a source element, then continue.
		if child.Type != xhtml.ElementNode || child.Namespace != "" || child.DataAtom != atom.Source {
			continue
		}
		// 5.3. If child does not have a srcset attribute, continue.
		srcset, ok := getAttr(child, "srcset")
		if !ok {
			continue
		}
		// 5.4. Parse child's srcset attribute; if the source set is
		//      empty, continue.
		set := html.ParseSrcset(srcset)
		if len(set) == 0 {
			continue
		}
		// 5.6. If child has a media attribute whose value does not match
		//      the environment, continue.
		if media, ok := getAttr(child, "media"); ok && !mediaMatches(media) {
			continue
		}
		// 5.7. Parse child's sizes attribute.
		sizes, _ := getAttr(child, "sizes")
		html.NormalizeSourceDensities(set, html.ParseSizes(sizes))
		// 5.8. If child has a type attribute whose value is an unknown
		//      or unsupported MIME type, continue.
		if typ, ok := getAttr(child, "type"); ok && !supportedImageType(typ) {
			continue
		}
		// 5.10. Set el's source set to source set and break.
		return set
	}
	return nil
}

func hasDensityOne(set []html.ImageSource) bool {
	for _, c := range set {
		if c.Density == 1 {
			return true
		}
	}
	return false
}

// mediaMatches evaluates a media query list without layout: the empty
// list and every query match except those for other media types
// ("print", "speech") or "not all" (media conditions are not evaluated).
func mediaMatches(media string) bool {
	switch strings.ToLower(strings.TrimSpace(media)) {
	case "print", "speech", "not all":
		return false
	}
	return true
}

// supportedImageType says whether a type attribute names an image type
// this engine accepts (the types imageDecodes sniffs, and SVG).
func supportedImageType(typ string) bool {
	essence, _, _ := strings.Cut(typ, ";")
	switch strings.ToLower(strings.TrimSpace(essence)) {
	case "image/png", "image/apng", "image/gif", "image/jpeg", "image/pjpeg", "image/webp", "image/bmp",
		"image/x-icon", "image/vnd.microsoft.icon", "image/svg+xml":
		return true
	}
	return false
}

// sourceChanged runs the relevant mutations a source element's change
// (its insertion into a picture, or an attribute change) is for the img
// elements following it in its picture parent.
func (w *Window) sourceChanged(source *xhtml.Node) {
	if !isPicture(source.Parent) {
		return
	}
	for c := source.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == xhtml.ElementNode && c.Namespace == "" && c.DataAtom == atom.Img {
			w.updateTheImageData(c)
		}
	}
}
