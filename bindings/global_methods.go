package bindings

import (
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// globalBase is what the Window and DedicatedWorkerGlobalScope
// implementations share: the EventTarget of the global object and the
// WindowOrWorkerGlobalScope members.
type globalBase struct {
	*eventTargetImpl
	info envInfo
	perf *performanceImpl
}

// windowImpl implements Window.
type windowImpl struct {
	globalBase
	location *locationImpl
	history  *historyImpl // created on first use (history.go)
	hidden   bool         // the document's visibility state is "hidden" (history.go)
	document *documentImpl
	opener   sobek.Value
}

// workerGlobalImpl implements WorkerGlobalScope and
// DedicatedWorkerGlobalScope.
type workerGlobalImpl struct {
	globalBase
	location *workerLocationImpl
}

func (r *Realm) newGlobal(info envInfo) any {
	t := &dom.EventTarget{}
	et := r.newEventTargetImpl(t)
	r.globalTarget = et
	base := globalBase{eventTargetImpl: et, info: info}
	perfTarget := &dom.EventTarget{}
	base.perf = &performanceImpl{eventTargetImpl: r.newEventTargetImpl(perfTarget)}
	perfTarget.Owner = base.perf
	if r.kind == WindowGlobal {
		w := &windowImpl{globalBase: base}
		t.Owner = w
		w.location = &locationImpl{realm: r, url: info.url}
		w.document = r.newWindowDocument(w, info.url)
		return w
	}
	wg := &workerGlobalImpl{globalBase: base, location: &workerLocationImpl{url: info.url}}
	t.Owner = wg
	if r.kind == ServiceWorkerGlobal {
		sg := &serviceWorkerGlobalImpl{workerGlobalImpl: wg}
		t.Owner = sg
		return sg
	}
	return wg
}

// WebIDLInterface names the most derived interface of implementations
// that are also returned as their base interfaces (EventTarget).
func (w *windowImpl) WebIDLInterface() string       { return "Window" }
func (w *workerGlobalImpl) WebIDLInterface() string { return w.realm.kind.String() }
func (p *performanceImpl) WebIDLInterface() string  { return "Performance" }

// WindowOrWorkerGlobalScope

func (g *globalBase) Origin() (string, error)                  { return g.info.origin, nil }
func (g *globalBase) IsSecureContext() (bool, error)           { return g.info.secure, nil }
func (g *globalBase) CrossOriginIsolated() (bool, error)       { return false, nil }
func (g *globalBase) Performance() (PerformanceMethods, error) { return g.perf, nil }

// reportError(e): report the exception e.
func (g *globalBase) ReportError(e sobek.Value) error {
	g.realm.reportError(g.realm.throwValue(webidl.AnyValue(e)))
	return nil
}

func (g *globalBase) Btoa(data webidl.DOMString) (webidl.DOMString, error) {
	s, err := btoa(data.UTF16())
	return webidl.DOMString(s), err
}

func (g *globalBase) Atob(data webidl.DOMString) (webidl.ByteString, error) {
	b, err := atob(data.UTF16())
	return webidl.ByteString(b), err
}

func (g *globalBase) handlerValue(h TimerHandler) sobek.Value {
	if h.Type == TimerHandlerIsFunction && h.Function != nil {
		return h.Function.Value()
	}
	return h.DOMString.Value()
}

func (g *globalBase) SetTimeout(handler TimerHandler, timeout int32, args []sobek.Value) (int32, error) {
	return g.realm.timerInitializationSteps(g.handlerValue(handler), timeout, args, false, 0), nil
}

func (g *globalBase) SetInterval(handler TimerHandler, timeout int32, args []sobek.Value) (int32, error) {
	return g.realm.timerInitializationSteps(g.handlerValue(handler), timeout, args, true, 0), nil
}

func (g *globalBase) ClearTimeout(id int32) error {
	g.realm.clearTimer(id)
	return nil
}

func (g *globalBase) ClearInterval(id int32) error {
	g.realm.clearTimer(id)
	return nil
}

func (g *globalBase) QueueMicrotask(callback *VoidFunction) error {
	g.realm.queueMicrotask(callback.Value())
	return nil
}

// Window

func (w *windowImpl) Window() (WindowMethods, error) { return w, nil }
func (w *windowImpl) Self() (WindowMethods, error)   { return w, nil }
func (w *windowImpl) Frames() (WindowMethods, error) { return w, nil }
func (w *windowImpl) Top() (WindowMethods, error) {
	if h := w.realm.hooks.Top; h != nil {
		if v := h(); v != nil && !webidl.IsNullish(v) {
			return hostWindow{Value: v}, nil
		}
	}
	return w, nil
}
func (w *windowImpl) Parent() (WindowMethods, error)     { return w, nil }
func (w *windowImpl) Document() (DocumentMethods, error) { return w.document, nil }
func (w *windowImpl) Name() (webidl.DOMString, error) {
	return webidl.DOMString(w.realm.windowName), nil
}
func (w *windowImpl) Location() (LocationMethods, error)     { return w.location, nil }
func (w *windowImpl) Closed() (bool, error)                  { return false, nil }
func (w *windowImpl) Length() (uint32, error)                { return 0, nil }
func (w *windowImpl) Navigator() (NavigatorMethods, error)   { return w.realm.navigator(), nil }
func (w *windowImpl) OriginAgentCluster() (bool, error)      { return false, nil }
func (w *windowImpl) Stop() error                            { return nil }
func (w *windowImpl) Focus() error                           { return nil }
func (w *windowImpl) Blur() error                            { return nil }
func (w *windowImpl) Onerror() (*EventHandlerNonNull, error) { return w.handlerGet("error"), nil }
func (w *windowImpl) Onload() (*EventHandlerNonNull, error)  { return w.handlerGet("load"), nil }
func (w *windowImpl) ClientInformation() (NavigatorMethods, error) {
	return w.realm.navigator(), nil
}
func (w *windowImpl) Onmessage() (*EventHandlerNonNull, error) { return w.handlerGet("message"), nil }
func (w *windowImpl) SetName(v webidl.DOMString) error {
	w.realm.windowName = string(v)
	return nil
}
func (w *windowImpl) Opener() (sobek.Value, error) {
	if w.opener == nil {
		return sobek.Null(), nil
	}
	return w.opener, nil
}
func (w *windowImpl) SetOpener(v sobek.Value) error {
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

func (w *windowImpl) PostMessage(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error {
	if w.realm.hooks.PostMessage == nil {
		return dom.NewDOMException("postMessage is not supported by this embedder.", dom.NotSupportedError)
	}
	return w.realm.hooks.PostMessage(message, targetOrigin, transfer)
}

// WorkerGlobalScope and DedicatedWorkerGlobalScope

func (w *workerGlobalImpl) Self() (WorkerGlobalScopeMethods, error)  { return w, nil }
func (w *workerGlobalImpl) Location() (WorkerLocationMethods, error) { return w.location, nil }
func (w *workerGlobalImpl) Navigator() (WorkerNavigatorMethods, error) {
	return w.realm.navigator(), nil
}
func (w *workerGlobalImpl) Onerror() (*OnErrorEventHandlerNonNull, error) {
	return w.errorHandlerGet(), nil
}
func (w *workerGlobalImpl) SetOnerror(v *OnErrorEventHandlerNonNull) error {
	w.errorHandlerSet(v)
	return nil
}
func (w *workerGlobalImpl) Onlanguagechange() (*EventHandlerNonNull, error) {
	return w.handlerGet("languagechange"), nil
}
func (w *workerGlobalImpl) SetOnlanguagechange(v *EventHandlerNonNull) error {
	w.handlerSet("languagechange", v)
	return nil
}
func (w *workerGlobalImpl) Onoffline() (*EventHandlerNonNull, error) {
	return w.handlerGet("offline"), nil
}
func (w *workerGlobalImpl) SetOnoffline(v *EventHandlerNonNull) error {
	w.handlerSet("offline", v)
	return nil
}
func (w *workerGlobalImpl) Ononline() (*EventHandlerNonNull, error) {
	return w.handlerGet("online"), nil
}
func (w *workerGlobalImpl) SetOnonline(v *EventHandlerNonNull) error {
	w.handlerSet("online", v)
	return nil
}
func (w *workerGlobalImpl) Onrejectionhandled() (*EventHandlerNonNull, error) {
	return w.handlerGet("rejectionhandled"), nil
}
func (w *workerGlobalImpl) SetOnrejectionhandled(v *EventHandlerNonNull) error {
	w.handlerSet("rejectionhandled", v)
	return nil
}
func (w *workerGlobalImpl) Onunhandledrejection() (*EventHandlerNonNull, error) {
	return w.handlerGet("unhandledrejection"), nil
}
func (w *workerGlobalImpl) SetOnunhandledrejection(v *EventHandlerNonNull) error {
	w.handlerSet("unhandledrejection", v)
	return nil
}
func (w *workerGlobalImpl) Onmessage() (*EventHandlerNonNull, error) {
	return w.handlerGet("message"), nil
}
func (w *workerGlobalImpl) SetOnmessage(v *EventHandlerNonNull) error {
	w.handlerSet("message", v)
	return nil
}
func (w *workerGlobalImpl) Onmessageerror() (*EventHandlerNonNull, error) {
	return w.handlerGet("messageerror"), nil
}
func (w *workerGlobalImpl) SetOnmessageerror(v *EventHandlerNonNull) error {
	w.handlerSet("messageerror", v)
	return nil
}
func (w *workerGlobalImpl) Name() (webidl.DOMString, error) {
	return webidl.DOMString(w.realm.hooks.Name), nil
}

func (w *workerGlobalImpl) ImportScripts(urls []webidl.DOMString) error {
	if w.realm.hooks.ImportScripts == nil {
		return dom.NewDOMException("importScripts is not supported by this embedder.", dom.NotSupportedError)
	}
	list := make([]string, len(urls))
	for i, u := range urls {
		list[i] = u.ToUSVString()
	}
	return w.realm.hooks.ImportScripts(list)
}

func (w *workerGlobalImpl) PostMessage(message sobek.Value, transfer []*sobek.Object) error {
	if w.realm.hooks.PostMessage == nil {
		return dom.NewDOMException("postMessage is not supported by this embedder.", dom.NotSupportedError)
	}
	return w.realm.hooks.PostMessage(message, "", transfer)
}

func (w *workerGlobalImpl) Close() error {
	if w.realm.hooks.Close != nil {
		w.realm.hooks.Close()
	}
	return nil
}

// Performance

type performanceImpl struct {
	*eventTargetImpl
}

func (p *performanceImpl) Now() (float64, error) { return p.realm.nowMillis(), nil }

func (p *performanceImpl) TimeOrigin() (float64, error) {
	return float64(p.realm.wallOrigin.UnixMicro()) / 1000, nil
}

// toJSON(): the [Default] toJSON steps (the attributes timeOrigin).
func (p *performanceImpl) ToJSON() (*sobek.Object, error) {
	o := p.realm.vm.NewObject()
	t, _ := p.TimeOrigin()
	_ = o.Set("timeOrigin", t)
	return o, nil
}

// Location (Window) and WorkerLocation

type locationImpl struct {
	webidl.Reflector
	realm *Realm
	url   *url.URL
}

func (l *locationImpl) part(k string) (string, error) {
	if l.url == nil {
		return "", nil
	}
	return urlParts(l.url)[k], nil
}

func (l *locationImpl) Href() (string, error)     { return l.part("href") }
func (l *locationImpl) Origin() (string, error)   { return l.part("origin") }
func (l *locationImpl) Protocol() (string, error) { return l.part("protocol") }
func (l *locationImpl) Host() (string, error)     { return l.part("host") }
func (l *locationImpl) Hostname() (string, error) { return l.part("hostname") }
func (l *locationImpl) Port() (string, error)     { return l.part("port") }
func (l *locationImpl) Pathname() (string, error) { return l.part("pathname") }
func (l *locationImpl) Search() (string, error)   { return l.part("search") }
func (l *locationImpl) Hash() (string, error)     { return l.part("hash") }

// errNoNavigation is what the navigating members of Location return: this
// engine's documents do not navigate from script.
func errNoNavigation() error {
	return dom.NewDOMException("Navigation is not supported.", dom.NotSupportedError)
}

// navigate is the Location-object navigate of the URL parsed from s
// (against the document's URL; failure is a SyntaxError), through the
// embedder's Navigate hook.
func (l *locationImpl) navigate(s string, replace bool) error {
	h := l.realm.hooks.Navigate
	if h == nil || l.url == nil {
		return errNoNavigation()
	}
	u, err := l.url.Parse(s)
	if err != nil {
		return dom.NewDOMException("'"+s+"' is not a valid URL.", dom.SyntaxError)
	}
	return h(u.String(), replace)
}

func (l *locationImpl) SetHref(s string) error   { return l.navigate(s, false) }
func (l *locationImpl) SetProtocol(string) error { return errNoNavigation() }
func (l *locationImpl) SetHost(string) error     { return errNoNavigation() }
func (l *locationImpl) SetHostname(string) error { return errNoNavigation() }
func (l *locationImpl) SetPort(string) error     { return errNoNavigation() }
func (l *locationImpl) SetPathname(string) error { return errNoNavigation() }
func (l *locationImpl) SetSearch(string) error   { return errNoNavigation() }
func (l *locationImpl) Assign(s string) error    { return l.navigate(s, false) }
func (l *locationImpl) Replace(s string) error   { return l.navigate(s, true) }
func (l *locationImpl) Reload() error {
	if l.url == nil {
		return errNoNavigation()
	}
	return l.navigate(l.url.String(), true)
}

// SetHash is a fragment navigation: it only changes the URL's fragment.
func (l *locationImpl) SetHash(v string) error {
	if l.url == nil {
		return nil
	}
	u := *l.url
	if len(v) > 0 && v[0] == '#' {
		v = v[1:]
	}
	u.Fragment, u.RawFragment = v, ""
	l.url = &u
	return nil
}

type workerLocationImpl struct {
	webidl.Reflector
	url *url.URL
}

func (l *workerLocationImpl) part(k string) (string, error) {
	if l.url == nil {
		return "", nil
	}
	return urlParts(l.url)[k], nil
}

func (l *workerLocationImpl) Href() (string, error)     { return l.part("href") }
func (l *workerLocationImpl) Origin() (string, error)   { return l.part("origin") }
func (l *workerLocationImpl) Protocol() (string, error) { return l.part("protocol") }
func (l *workerLocationImpl) Host() (string, error)     { return l.part("host") }
func (l *workerLocationImpl) Hostname() (string, error) { return l.part("hostname") }
func (l *workerLocationImpl) Port() (string, error)     { return l.part("port") }
func (l *workerLocationImpl) Pathname() (string, error) { return l.part("pathname") }
func (l *workerLocationImpl) Search() (string, error)   { return l.part("search") }
func (l *workerLocationImpl) Hash() (string, error)     { return l.part("hash") }

// Document: see nodes.go.

// clearTimer is clearTimeout/clearInterval(id): remove this's map of
// active timers[id].
func (r *Realm) clearTimer(id int32) {
	if h := r.timers.active[id]; h != nil && h.cancel != nil {
		h.cancel()
	}
	delete(r.timers.active, id)
}
