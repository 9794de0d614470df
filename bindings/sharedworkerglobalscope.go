package bindings

import (
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// NewSharedWorkerRealm creates the realm of a SharedWorkerGlobalScope for
// env, a shared worker environment (html.ObtainSharedWorker), on the
// worker's event loop.
func NewSharedWorkerRealm(env *html.EnvironmentSettingsObject, opts Options) (*Realm, error) {
	if env.Kind() != html.SharedWorkerEnvironment {
		return nil, ErrWrongEnvironment
	}
	return newEnvRealm(env, SharedWorkerGlobal, opts)
}

// FireConnect fires the connect event at this shared worker realm's global
// for a new connection whose inside port is p: a MessageEvent with data
// "", ports [p's MessagePort] and source that port. Call it on the
// worker's event loop (in a task); it queues its own task on the DOM
// manipulation task source.
func (r *Realm) FireConnect(p *html.MessagePort) bool {
	return r.queueTask(html.DOMManipulationTaskSource, func() {
		// Let inside port be a new MessagePort in settings object's realm,
		// entangled with outside port.
		port := r.newMessagePort(p)
		obj, _ := idlWrapMessagePort(r.idl, port).(*sobek.Object)
		// Fire an event named connect at worker global scope, using
		// MessageEvent, with the data attribute initialized to the empty
		// string, the ports attribute initialized to a new frozen array
		// containing inside port, and the source attribute initialized to
		// inside port.
		r.fireMessageEvent(r.globalTarget.target, "connect", r.vm.ToValue(""), "", []*sobek.Object{obj}, obj)
	})
}

// workerGlobalImpl implements SharedWorkerGlobalScope too: its own members
// are onconnect (above); name and close() are shared with dedicated
// workers (dedicatedworkerglobalscope.go).
var _ SharedWorkerGlobalScopeMethods = (*workerGlobalImpl)(nil)

func (w *workerGlobalImpl) Onconnect() (*EventHandlerNonNull, error) {
	return w.handlerGet("connect"), nil
}

func (w *workerGlobalImpl) SetOnconnect(v *EventHandlerNonNull) error {
	w.handlerSet("connect", v)
	return nil
}
