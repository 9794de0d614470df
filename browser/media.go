package browser

import (
	"net/http"
	"strings"

	"github.com/gowebengine/weblocks/fetch"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file is the audio and video elements' fetch: HTML's media element
// load algorithm and resource selection algorithm for the src attribute
// (source children are not used), and the resource fetch algorithm's
// request (destination "audio" or "video", a Range header from byte 0).
// Media are not decoded: a resource whose first bytes sniff as a media
// container (MP3, Ogg, WAVE, MP4, WebM) fires loadedmetadata and
// loadeddata, anything else (a network error, a status that is neither
// 200 nor 206) fires error. Deviations (doc.go): no MediaError,
// networkState and readyState attributes, no playback, no source
// children, and the whole resource is fetched at once.

// isMediaElement says whether el is an audio or video element.
func isMediaElement(el *xhtml.Node) bool {
	return el.Type == xhtml.ElementNode && el.Namespace == "" && (el.DataAtom == atom.Audio || el.DataAtom == atom.Video)
}

// mediaElementLoad is https://html.spec.whatwg.org/multipage/media.html#media-element-load-algorithm
// for media element el of w's document, on w's event loop (its src
// attribute was set or changed, or load() was called).
func (w *Window) mediaElementLoad(el *xhtml.Node) {
	if w.realmGone {
		return
	}
	// 1. Set this element's is currently stalled to false.
	// 2-3. Abort any already-running instance of the resource selection
	//      algorithm for this element (the load's generation).
	st := &w.subresources
	if st.media == nil {
		st.media = map[*xhtml.Node]int{}
	}
	st.media[el]++
	gen := st.media[el]
	// 4-8. (Pending play promises, networkState, readyState: not kept.)
	// 9. Invoke the media element's resource selection algorithm.
	w.resourceSelection(el, func() bool { return st.media[el] == gen })
}

// resourceSelection is https://html.spec.whatwg.org/multipage/media.html#concept-media-load-algorithm
// (the resource selection algorithm) for el's src attribute.
func (w *Window) resourceSelection(el *xhtml.Node, current func() bool) {
	// 1-5. Set networkState to NETWORK_NO_SOURCE; await a stable state
	//      (a task queued after the current one).
	w.queueElementTask(func() {
		if !current() {
			return
		}
		// 6. If the media element has a src attribute, then let mode be
		//    attribute; otherwise (no source children are used) the
		//    networkState is NETWORK_EMPTY: return.
		src, ok := getAttr(el, "src")
		if !ok {
			return
		}
		// 9-11 (mode attribute). If the src attribute's value is the
		//    empty string, or parsing it fails, then end the synchronous
		//    section and jump down to the failed with attribute step.
		u, err := parseURL(src, w.baseURL())
		if src == "" || err != nil {
			w.mediaFailed(el, current)
			return
		}
		// Run the resource fetch algorithm with urlRecord.
		w.resourceFetch(el, u.String(), current)
	})
}

// mediaFailed is the "failed with attribute" step: queue a media element
// task to fire error at el (the dedicated media source failure steps).
func (w *Window) mediaFailed(el *xhtml.Node, current func() bool) {
	w.queueElementTask(func() {
		if current() {
			w.fireSimpleEvent(el, "error")
		}
	})
}

// resourceFetch is https://html.spec.whatwg.org/multipage/media.html#concept-media-load-resource
// for url: a potential-CORS request with destination "audio" or "video"
// and a Range header from byte 0.
func (w *Window) resourceFetch(el *xhtml.Node, rawURL string, current func() bool) {
	u, err := parseURL(rawURL, nil)
	if err != nil {
		w.mediaFailed(el, current)
		return
	}
	// 4.1. Let destination be "audio" if the media element is an audio
	//      element, or "video" otherwise.
	destination := "video"
	if el.DataAtom == atom.Audio {
		destination = "audio"
	}
	// 4.2. Let request be the result of creating a potential-CORS
	//      request given urlRecord, destination, and the current state of
	//      media element's crossorigin content attribute.
	// 4.3. Set request's client to the media element's node document's
	//      relevant settings object.
	req := createPotentialCORSRequest(u, destination, corsSettingOf(el), w.client())
	// 4.4. (Initiator type "audio" or "video": resource timing only.)
	// 4.6.3. Add range header to request with rangeStart 0: a Range
	//        header "bytes=0-".
	req.Header.Set("Range", "bytes=0-")
	ctx := w.s.ctx
	w.inParallel(func() {
		resp := w.fetchSubresource(ctx, req)
		ok := mediaDecodes(resp)
		w.queueElementTask(func() {
			if !current() {
				return
			}
			if !ok {
				// The media data cannot be fetched or is of an
				// unsupported type: the dedicated media source failure
				// steps fire error.
				w.fireSimpleEvent(el, "error")
				return
			}
			// Once enough of the media data has been fetched to determine
			// the duration: readyState HAVE_METADATA fires
			// loadedmetadata; the first frame is available:
			// HAVE_CURRENT_DATA fires loadeddata.
			w.fireSimpleEvent(el, "loadedmetadata")
			w.fireSimpleEvent(el, "loadeddata")
		})
	})
}

// mediaDecodes says whether resp holds media this engine recognizes: not
// a network error, status 200 or 206 (an opaque response's is its
// internal one's), bytes that sniff as an audio or video container.
func mediaDecodes(resp *fetch.Response) bool {
	if resp.IsNetworkError() {
		return false
	}
	r := unsafeResponse(resp)
	if r.Status != 200 && r.Status != 206 {
		return false
	}
	l := loadedOf(r, nil)
	if len(l.body) == 0 {
		return false
	}
	t := http.DetectContentType(l.body)
	return strings.HasPrefix(t, "audio/") || strings.HasPrefix(t, "video/") || t == "application/ogg" || isMP3Frame(l.body)
}

// isMP3Frame says whether b starts with an MPEG audio frame header
// (MIME Sniffing's mp3 without ID3 signature: 11 sync bits).
func isMP3Frame(b []byte) bool {
	return len(b) >= 4 && b[0] == 0xff && b[1]&0xe0 == 0xe0
}
