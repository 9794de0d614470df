package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// abortSignalImpl is the Go implementation behind an AbortSignal object.
type abortSignalImpl struct {
	*eventTargetImpl
	sig *dom.AbortSignal
	// reason caches the JavaScript value of an abort reason that is not a
	// script's value (a DOMException: the default AbortError, made up
	// front by bindings or by dom, or a TimeoutError), so that
	// signal.reason returns the same object every time.
	reason sobek.Value
}

// signalImpl returns the implementation wrapping a dom signal, creating it
// the first time (signals made by dom, e.g. AbortSignal.any's result).
func (r *Realm) signalImpl(s *dom.AbortSignal) *abortSignalImpl {
	if impl, ok := s.Owner.(*abortSignalImpl); ok {
		return impl
	}
	r.bindToLoop(&s.EventTarget)
	et := &eventTargetImpl{realm: r, target: &s.EventTarget}
	impl := &abortSignalImpl{eventTargetImpl: et, sig: s}
	s.Owner = impl
	return impl
}

// abortReason is the signal's abort reason as a JavaScript value
// (undefined when not aborted).
func (s *abortSignalImpl) abortReason() sobek.Value {
	if !s.sig.Aborted() {
		return sobek.Undefined()
	}
	reason := s.sig.Reason()
	if jr, ok := reason.(*jsReason); ok {
		return jr.value(s.realm)
	}
	if s.reason == nil {
		s.reason = s.realm.reasonValue(reason)
	}
	return s.reason
}

// throwIfAborted is the throwIfAborted() method steps: throw this's abort
// reason, if this is aborted.
func (s *abortSignalImpl) throwIfAborted() error {
	if !s.sig.Aborted() {
		return nil
	}
	return &jsReason{v: s.abortReason(), realm: s.realm}
}

// abortSignalTimeout is the static AbortSignal.timeout(milliseconds).
func (r *Realm) abortSignalTimeout(ms uint64) *abortSignalImpl {
	return r.signalImpl(dom.AbortSignalTimeout(timersOf(r), ms))
}

// abortSignalAny is the static AbortSignal.any(signals).
func (r *Realm) abortSignalAny(signals []*abortSignalImpl) *abortSignalImpl {
	list := make([]*dom.AbortSignal, len(signals))
	for i, s := range signals {
		list[i] = s.sig
	}
	return r.signalImpl(dom.AbortSignalAny(list))
}

// abortSignalAbort is https://dom.spec.whatwg.org/#dom-abortsignal-abort,
// the static AbortSignal.abort(reason) (dom.AbortSignalAbort runs the
// steps).
func (r *Realm) abortSignalAbort(reason sobek.Value) *abortSignalImpl {
	// The default reason is made here, as abort() does (see
	// abortControllerImpl.Abort).
	x := r.toReason(reason)
	if x == nil {
		x = r.newDefaultAbortReason()
	}
	return r.signalImpl(dom.AbortSignalAbort(x))
}

// realmTimers runs AbortSignal.timeout's steps as timer tasks of the
// realm's global.
type realmTimers struct{ r *Realm }

func (t realmTimers) RunStepsAfterTimeout(ms uint64, steps func()) {
	t.r.host.startTimer(ms, func() {
		if !t.r.closedOnLoop {
			steps()
		}
	})
}

func timersOf(r *Realm) dom.Timers { return realmTimers{r} }

func (s *abortSignalImpl) WebIDLInterface() string { return "AbortSignal" }

type abortSignalStatics struct{}

func (abortSignalStatics) Abort(r *webidl.Realm, reason sobek.Value) (AbortSignalMethods, error) {
	return realmOf(r).abortSignalAbort(reason), nil
}

func (abortSignalStatics) Timeout(r *webidl.Realm, ms uint64) (AbortSignalMethods, error) {
	return realmOf(r).abortSignalTimeout(ms), nil
}

func (abortSignalStatics) Any(r *webidl.Realm, signals []AbortSignalMethods) (AbortSignalMethods, error) {
	list := make([]*abortSignalImpl, len(signals))
	for i, s := range signals {
		list[i] = s.idlImpl()
	}
	return realmOf(r).abortSignalAny(list), nil
}

func (s *abortSignalImpl) Aborted() (bool, error) { return s.sig.Aborted(), nil }

func (s *abortSignalImpl) Reason() (sobek.Value, error) { return s.abortReason(), nil }

func (s *abortSignalImpl) ThrowIfAborted() error { return s.throwIfAborted() }

func (s *abortSignalImpl) Onabort() (*EventHandlerNonNull, error) {
	return s.handlerGet("abort"), nil
}

func (s *abortSignalImpl) SetOnabort(v *EventHandlerNonNull) error {
	s.handlerSet("abort", v)
	return nil
}

// abortSignalImpl implements AbortSignal.
var _ AbortSignalMethods = (*abortSignalImpl)(nil)
