package bindings

import (
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

// HTMLMediaElement: https://html.spec.whatwg.org/multipage/media.html#htmlmediaelement,
// the members this engine has: src (HTMLScriptElement's reflection) and
// crossOrigin (HTMLImageElement's) are reflections whose changes start the
// embedder's media element load algorithm (package browser); preload
// reflects its attribute; canPlayType answers for the containers the
// engine recognizes (it fetches media, it does not decode them).

// Preload reflects the preload content attribute, limited to only known
// values ("none", "metadata", "auto"; the empty string is "auto", an
// invalid or missing value "metadata", as Chromium).
func (e *htmlElementImpl) Preload() (webidl.DOMString, error) {
	v, ok := e.n.Attribute("preload")
	if !ok {
		return "metadata", nil
	}
	if v == "" {
		return "auto", nil
	}
	if l := limitedTo(webidl.DOMString(v), "none", "metadata", "auto"); l != "" {
		return l, nil
	}
	return "metadata", nil
}

func (e *htmlElementImpl) SetPreload(v webidl.DOMString) error { return e.setAttr("preload", v) }

// MediaHooks are what the embedder provides for media elements.
type MediaHooks struct {
	// Load runs the media element load algorithm for el (load()).
	Load func(el *dom.Node)
}

type mediaHooksKey struct{}

// SetMediaHooks sets the embedder's media element hooks of a window realm.
func (r *Realm) SetMediaHooks(h MediaHooks) { r.SetValue(mediaHooksKey{}, h) }

// Load is https://html.spec.whatwg.org/multipage/media.html#dom-media-load:
// the embedder's media element load algorithm.
func (e *htmlElementImpl) Load() error {
	if h, _ := e.realm.Value(mediaHooksKey{}).(MediaHooks); h.Load != nil {
		h.Load(e.n)
	}
	return nil
}

// CanPlayType is https://html.spec.whatwg.org/multipage/media.html#dom-navigator-canplaytype:
// "maybe" for the media containers the engine sniffs (MP3, Ogg, WAVE,
// MP4, WebM), whatever their codecs parameter says; "" otherwise.
func (e *htmlElementImpl) CanPlayType(typ webidl.DOMString) (CanPlayTypeResult, error) {
	essence, _, _ := strings.Cut(string(typ), ";")
	switch strings.ToLower(strings.TrimSpace(essence)) {
	case "audio/mpeg", "audio/mp3", "audio/ogg", "application/ogg", "video/ogg", "audio/wav", "audio/wave",
		"audio/x-wav", "video/mp4", "audio/mp4", "video/webm", "audio/webm":
		return "maybe", nil
	}
	return "", nil
}
