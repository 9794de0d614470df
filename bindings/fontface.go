package bindings

import (
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/css"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
)

// FontFace: https://drafts.csswg.org/css-font-loading/#fontface-interface.
// A FontFace built from a src string fetches its url()s when load() is
// called, through the embedder's FontHooks (package browser: requests
// with destination "font" and mode "cors"); one built from binary data is
// loaded at once when its bytes sniff as a font. Fonts are not parsed or
// used (no FontFaceSet, no layout): the descriptors are kept as given.

// FontHooks are what the embedder provides for FontFace objects.
type FontHooks struct {
	// Load fetches the font URLs (unparsed, relative to the document's
	// base URL), in order until one gives a font, and calls done on the
	// realm's event loop with whether one did.
	Load func(urls []string, done func(ok bool))
}

type fontHooksKey struct{}

// SetFontHooks sets the embedder's font hooks of a window realm.
func (r *Realm) SetFontHooks(h FontHooks) { r.SetValue(fontHooksKey{}, h) }

// fontFaceImpl is a FontFace object.
type fontFaceImpl struct {
	webidl.Reflector
	realm                          *Realm
	family, style, weight, display webidl.DOMString
	// urls are the [[Urls]] of a FontFace whose source is a string (nil
	// for binary data).
	urls   []string
	status FontFaceLoadStatus
	loaded *webidl.Promise // [[FontStatusPromise]]
}

type fontFaceStatics struct{}

// Constructor is https://drafts.csswg.org/css-font-loading/#dom-fontface-fontface.
func (fontFaceStatics) Constructor(r *webidl.Realm, family webidl.DOMString, source DOMStringOrInt8ArrayOrInt16ArrayOrInt32ArrayOrUint8ArrayOrUint16ArrayOrUint32ArrayOrUint8ClampedArrayOrBigInt64ArrayOrBigUint64ArrayOrFloat32ArrayOrFloat64ArrayOrDataViewOrArrayBuffer, descriptors FontFaceDescriptors) (FontFaceMethods, error) {
	rr := realmOf(r)
	// 1. Let font face be a fresh FontFace object. Set font face's
	//    status attribute to "unloaded", Set its internal
	//    [[FontStatusPromise]] slot to a fresh pending Promise object.
	f := &fontFaceImpl{realm: rr, status: FontFaceLoadStatusUnloaded, loaded: rr.idl.NewPromise(),
		family: family, style: descriptors.Style, weight: descriptors.Weight, display: descriptors.Display}
	// The promise's rejection is handled (a FontFace nobody loads or
	// waits for is no unhandled rejection).
	f.loaded.MarkHandled()
	// 2-3. (Parse the descriptors: kept as given.)
	// 4. If the source argument was a CSSOMString: parse it as a src
	//    descriptor value; if it fails, set the status to "error" and
	//    reject [[FontStatusPromise]] with a DOMException named
	//    "SyntaxError". Otherwise set [[Urls]] to the parsed value.
	if source.Type == DOMStringOrInt8ArrayOrInt16ArrayOrInt32ArrayOrUint8ArrayOrUint16ArrayOrUint32ArrayOrUint8ClampedArrayOrBigInt64ArrayOrBigUint64ArrayOrFloat32ArrayOrFloat64ArrayOrDataViewOrArrayBufferIsDOMString {
		src := string(source.DOMString)
		f.urls = css.FontFaceSources(src)
		if len(f.urls) == 0 && !strings.Contains(strings.ToLower(src), "local(") {
			f.status = FontFaceLoadStatusError
			f.loaded.Reject(rr.domExceptionValue(dom.NewDOMException("The source provided ('"+src+"') could not be parsed as a value list.", dom.SyntaxError)))
		}
		return f, nil
	}
	// 5. If the source argument was a BinaryData: set the status to
	//    "loading" and, in parallel, load the font from the bytes: a
	//    font's bytes make it "loaded", anything else "error" (a
	//    SyntaxError).
	data := fontBytesOfUnion(source).Bytes()
	f.status = FontFaceLoadStatusLoading
	rr.queueTask(html.DOMManipulationTaskSource, func() { f.settle(css.IsFontData(data), "SyntaxError") })
	// 6. Return font face.
	return f, nil
}

// fontBytesOfUnion is the buffer of a FontFace source that is not a
// string.
func fontBytesOfUnion(u DOMStringOrInt8ArrayOrInt16ArrayOrInt32ArrayOrUint8ArrayOrUint16ArrayOrUint32ArrayOrUint8ClampedArrayOrBigInt64ArrayOrBigUint64ArrayOrFloat32ArrayOrFloat64ArrayOrDataViewOrArrayBuffer) webidl.BufferSource {
	for _, b := range []webidl.BufferSource{u.ArrayBuffer, u.Int8Array, u.Int16Array, u.Int32Array,
		u.Uint8Array, u.Uint16Array, u.Uint32Array, u.Uint8ClampedArray, u.BigInt64Array, u.BigUint64Array,
		u.Float32Array, u.Float64Array, u.DataView} {
		if b.Object != nil {
			return b
		}
	}
	return webidl.BufferSource{}
}

// settle ends a load: status "loaded" and [[FontStatusPromise]] resolved
// with the FontFace, or status "error" and the promise rejected with a
// DOMException named errName.
func (f *fontFaceImpl) settle(ok bool, errName string) {
	r := f.realm
	if ok {
		f.status = FontFaceLoadStatusLoaded
		f.loaded.Resolve(idlWrapFontFace(r.idl, f))
		return
	}
	f.status = FontFaceLoadStatusError
	f.loaded.Reject(r.domExceptionValue(dom.NewDOMException("A network error occurred loading the font.", errName)))
}

// Load is https://drafts.csswg.org/css-font-loading/#dom-fontface-load.
func (f *fontFaceImpl) Load() (*webidl.Promise, error) {
	// 1. Let font face be the FontFace object on which this method was
	//    called.
	// 2. If font face's [[Urls]] slot is null, or its status attribute
	//    is anything other than "unloaded", return font face's
	//    [[FontStatusPromise]] and abort these steps.
	if f.urls == nil || f.status != FontFaceLoadStatusUnloaded {
		return f.loaded, nil
	}
	// 3. Otherwise, set font face's status attribute to "loading",
	//    return font face's [[FontStatusPromise]], and continue
	//    executing the rest of this algorithm asynchronously.
	f.status = FontFaceLoadStatusLoading
	h, _ := f.realm.Value(fontHooksKey{}).(FontHooks)
	if h.Load == nil {
		f.realm.queueTask(html.DOMManipulationTaskSource, func() { f.settle(false, "NetworkError") })
		return f.loaded, nil
	}
	// 4. Using the value of font face's [[Urls]] slot, attempt to load
	//    a font as defined in [CSS-FONTS-3], as if it was the value of a
	//    @font-face rule's src descriptor.
	// 5-6. When the load operation completes, successfully or not, queue
	//    a task: set the status to "loaded" and resolve, or to "error"
	//    and reject with a NetworkError.
	h.Load(f.urls, func(ok bool) { f.settle(ok, "NetworkError") })
	return f.loaded, nil
}

func (f *fontFaceImpl) Loaded() (*webidl.Promise, error) { return f.loaded, nil }

func (f *fontFaceImpl) Status() (FontFaceLoadStatus, error) { return f.status, nil }

func (f *fontFaceImpl) Family() (webidl.DOMString, error) { return f.family, nil }

func (f *fontFaceImpl) SetFamily(v webidl.DOMString) error {
	f.family = v
	return nil
}

func (f *fontFaceImpl) Style() (webidl.DOMString, error) { return f.style, nil }

func (f *fontFaceImpl) SetStyle(v webidl.DOMString) error {
	f.style = v
	return nil
}

func (f *fontFaceImpl) Weight() (webidl.DOMString, error) { return f.weight, nil }

func (f *fontFaceImpl) SetWeight(v webidl.DOMString) error {
	f.weight = v
	return nil
}

func (f *fontFaceImpl) Display() (webidl.DOMString, error) { return f.display, nil }

func (f *fontFaceImpl) SetDisplay(v webidl.DOMString) error {
	f.display = v
	return nil
}
