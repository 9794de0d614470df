package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

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
