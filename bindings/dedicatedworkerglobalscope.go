package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// workerGlobalImpl implements DedicatedWorkerGlobalScope.
var _ DedicatedWorkerGlobalScopeMethods = (*workerGlobalImpl)(nil)

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
