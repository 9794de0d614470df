package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
	"strconv"
)

// History is the getter of window.history.
func (w *windowImpl) History() (HistoryMethods, error) {
	if w.history == nil {
		w.history = &historyImpl{realm: w.realm}
	}
	return w.history, nil
}

// windowImpl implements Window.
type windowImpl struct {
	globalBase
	location *locationImpl
	history  *historyImpl // created on first use (history.go)
	hidden   bool         // the document's visibility state is "hidden" (document.go)
	document *documentImpl
	opener   sobek.Value
	// localStorage is the document's local storage holder
	// (windowlocalstorage.go).
	localStorage *storageImpl
	// indexedChildren: the window has properties "0" to this minus one
	// (UpdateChildNavigables).
	indexedChildren int
}

// WebIDLInterface names the most derived interface of implementations
// that are also returned as their base interfaces (EventTarget).
func (w *windowImpl) WebIDLInterface() string { return "Window" }

func (w *windowImpl) Window() (WindowMethods, error) { return w, nil }

func (w *windowImpl) Self() (WindowMethods, error) { return w, nil }

func (w *windowImpl) Frames() (WindowMethods, error) { return w, nil }

func (w *windowImpl) Top() (WindowMethods, error) {
	if h := w.realm.hooks.Top; h != nil {
		if v := h(); v != nil && !webidl.IsNullish(v) {
			return hostWindow{Value: v}, nil
		}
	}
	return w, nil
}

func (w *windowImpl) Parent() (WindowMethods, error) {
	if h := w.realm.hooks.Parent; h != nil {
		if v := h(); v != nil && !webidl.IsNullish(v) {
			return hostWindow{Value: v}, nil
		}
	}
	return w, nil
}

// FrameElement is https://html.spec.whatwg.org/#dom-frameelement (the
// embedder's: it knows the container and its origin).
func (w *windowImpl) FrameElement() (ElementMethods, error) {
	if h := w.realm.hooks.FrameElement; h != nil {
		if v := h(); v != nil && !webidl.IsNullish(v) {
			return hostElement{Value: v}, nil
		}
	}
	return nil, nil
}

// Open is https://html.spec.whatwg.org/#dom-open (the embedder's).
func (w *windowImpl) Open(u string, target, features webidl.DOMString) (WindowMethods, error) {
	h := w.realm.hooks.Open
	if h == nil {
		return nil, dom.NewDOMException("Opening windows is not supported.", dom.NotSupportedError)
	}
	v, err := h(u, string(target), string(features))
	if err != nil || v == nil || webidl.IsNullish(v) {
		return nil, err
	}
	return hostWindow{Value: v}, nil
}

func (w *windowImpl) Document() (DocumentMethods, error) { return w.document, nil }

func (w *windowImpl) Name() (webidl.DOMString, error) {
	return webidl.DOMString(w.realm.windowName), nil
}

func (w *windowImpl) Location() (LocationMethods, error) { return w.location, nil }

func (w *windowImpl) Closed() (bool, error) {
	if h := w.realm.hooks.Closed; h != nil {
		return h(), nil
	}
	return false, nil
}

func (w *windowImpl) Length() (uint32, error) {
	if h := w.realm.hooks.Length; h != nil {
		return uint32(h()), nil
	}
	return 0, nil
}

func (w *windowImpl) Navigator() (NavigatorMethods, error) { return w.realm.navigator(), nil }

func (w *windowImpl) OriginAgentCluster() (bool, error) { return false, nil }

func (w *windowImpl) Stop() error { return nil }

func (w *windowImpl) Focus() error { return nil }

func (w *windowImpl) Blur() error { return nil }

func (w *windowImpl) Onerror() (*EventHandlerNonNull, error) { return w.handlerGet("error"), nil }

func (w *windowImpl) Onload() (*EventHandlerNonNull, error) { return w.handlerGet("load"), nil }

func (w *windowImpl) ClientInformation() (NavigatorMethods, error) {
	return w.realm.navigator(), nil
}

func (w *windowImpl) Onmessage() (*EventHandlerNonNull, error) { return w.handlerGet("message"), nil }

func (w *windowImpl) SetName(v webidl.DOMString) error {
	w.realm.windowName = string(v)
	return nil
}

// Opener is https://html.spec.whatwg.org/#dom-opener: the value script
// set, else the embedder's opener (null without one).
func (w *windowImpl) Opener() (sobek.Value, error) {
	if w.opener != nil {
		return w.opener, nil
	}
	if h := w.realm.hooks.Opener; h != nil {
		if v := h(); v != nil {
			return v, nil
		}
	}
	return sobek.Null(), nil
}

// SetOpener: "If the given value is null and this's browsing context is
// non-null, then set this's browsing context's opener browsing context to
// null. If the given value is non-null, then perform ? DefinePropertyOrThrow
// (this, "opener", { [[Value]]: the given value, [[Writable]]: true,
// [[Enumerable]]: true, [[Configurable]]: true })." Here the value is kept
// and returned by the getter.
func (w *windowImpl) SetOpener(v sobek.Value) error {
	if webidl.IsNullish(v) && !webidl.IsUndefined(v) {
		w.opener = sobek.Null()
		return nil
	}
	w.opener = v
	return nil
}

func (w *windowImpl) SetOnerror(v *EventHandlerNonNull) error {
	w.handlerSet("error", v)
	return nil
}

func (w *windowImpl) SetOnload(v *EventHandlerNonNull) error {
	w.handlerSet("load", v)
	return nil
}

func (w *windowImpl) SetOnmessage(v *EventHandlerNonNull) error {
	w.handlerSet("message", v)
	return nil
}

// close() is the embedder's (HostHooks.Close).
func (w *windowImpl) Close() error {
	if w.realm.hooks.Close != nil {
		w.realm.hooks.Close()
	}
	return nil
}

// The user prompts print to the console (there is no user) and answer as
// a user who dismisses them would.
func (w *windowImpl) Alert(message webidl.Optional[webidl.DOMString]) error {
	w.realm.printer(ConsoleInfo, "alert: "+string(message.Value))
	return nil
}

func (w *windowImpl) Confirm(message webidl.DOMString) (bool, error) {
	w.realm.printer(ConsoleInfo, "confirm: "+string(message))
	return false, nil
}

func (w *windowImpl) Prompt(message, def webidl.DOMString) (webidl.Nullable[webidl.DOMString], error) {
	w.realm.printer(ConsoleInfo, "prompt: "+string(message))
	return webidl.Null[webidl.DOMString](), nil
}

func (w *windowImpl) PostMessageWithTargetOrigin(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error {
	if w.realm.hooks.PostMessage == nil {
		return dom.NewDOMException("postMessage is not supported by this embedder.", dom.NotSupportedError)
	}
	return w.realm.hooks.PostMessage(message, targetOrigin, transfer)
}

// PostMessageWithOptions is postMessage(message, options): the same steps
// with options' targetOrigin and transfer.
func (w *windowImpl) PostMessageWithOptions(message sobek.Value, options WindowPostMessageOptions) error {
	return w.PostMessageWithTargetOrigin(message, options.TargetOrigin, options.Transfer)
}

// windowImpl implements Window.
var _ WindowMethods = (*windowImpl)(nil)

func (w *windowImpl) Onhashchange() (*EventHandlerNonNull, error) {
	return w.handlerGet("hashchange"), nil
}

func (w *windowImpl) SetOnhashchange(v *EventHandlerNonNull) error {
	w.handlerSet("hashchange", v)
	return nil
}

func (w *windowImpl) Onpopstate() (*EventHandlerNonNull, error) {
	return w.handlerGet("popstate"), nil
}

func (w *windowImpl) SetOnpopstate(v *EventHandlerNonNull) error {
	w.handlerSet("popstate", v)
	return nil
}

func (w *windowImpl) Onpageshow() (*EventHandlerNonNull, error) {
	return w.handlerGet("pageshow"), nil
}

func (w *windowImpl) SetOnpageshow(v *EventHandlerNonNull) error {
	w.handlerSet("pageshow", v)
	return nil
}

func (w *windowImpl) Onpagehide() (*EventHandlerNonNull, error) {
	return w.handlerGet("pagehide"), nil
}

func (w *windowImpl) SetOnpagehide(v *EventHandlerNonNull) error {
	w.handlerSet("pagehide", v)
	return nil
}

// UpdateChildNavigables gives the window its indexed properties
// (https://html.spec.whatwg.org/#windowproxy-getownproperty, "If P is an
// array index property name"): window[i] for i < n is the i-th
// document-tree child navigable's WindowProxy, from HostHooks
// .ChildNavigable (this engine's are accessor properties, not data
// properties, since a navigable's window changes when it navigates). The
// embedder calls it on the window's event loop whenever the number of
// child navigables changed.
func (r *Realm) UpdateChildNavigables(n int) {
	w, ok := r.globalImpl.(*windowImpl)
	if !ok {
		return
	}
	for i := n; i < w.indexedChildren; i++ {
		_ = r.global.Delete(strconv.Itoa(i))
	}
	for i := w.indexedChildren; i < n; i++ {
		get := r.vm.ToValue(func(sobek.FunctionCall) sobek.Value {
			if h := r.hooks.ChildNavigable; h != nil {
				if v := h(i); v != nil {
					return v
				}
			}
			return sobek.Undefined()
		})
		_ = r.global.DefineAccessorProperty(strconv.Itoa(i), get, nil, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	}
	w.indexedChildren = n
}

func (w *windowImpl) Onloadeddata() (*EventHandlerNonNull, error) {
	return w.handlerGet("loadeddata"), nil
}

func (w *windowImpl) SetOnloadeddata(v *EventHandlerNonNull) error {
	w.handlerSet("loadeddata", v)
	return nil
}

func (w *windowImpl) Onloadedmetadata() (*EventHandlerNonNull, error) {
	return w.handlerGet("loadedmetadata"), nil
}

func (w *windowImpl) SetOnloadedmetadata(v *EventHandlerNonNull) error {
	w.handlerSet("loadedmetadata", v)
	return nil
}
