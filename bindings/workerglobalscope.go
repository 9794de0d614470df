package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

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

func (w *workerGlobalImpl) Onconnect() (*EventHandlerNonNull, error) {
	return w.handlerGet("connect"), nil
}

func (w *workerGlobalImpl) SetOnconnect(v *EventHandlerNonNull) error {
	w.handlerSet("connect", v)
	return nil
}

// workerGlobalImpl implements WorkerGlobalScope and
// DedicatedWorkerGlobalScope.
type workerGlobalImpl struct {
	globalBase
	location *workerLocationImpl
}

func (w *workerGlobalImpl) WebIDLInterface() string { return w.realm.kind.String() }

func (w *workerGlobalImpl) Self() (WorkerGlobalScopeMethods, error) { return w, nil }

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

// workerGlobalImpl implements WorkerGlobalScope.
var _ WorkerGlobalScopeMethods = (*workerGlobalImpl)(nil)
