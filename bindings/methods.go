package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/grafana/sobek"
)

// This file adapts the implementation types to the Methods interfaces the
// generated bindings call (one method per IDL member).

func realmOf(r *webidl.Realm) *Realm { return r.Data.(*Realm) }

// Statics (constructors and static operations).

type statics struct{}

func init() {
	if err := Register(Interfaces, Statics{
		AbortController:        statics{},
		AbortSignal:            abortSignalStatics{},
		Event:                  eventStatics{},
		EventTarget:            eventTargetStatics{},
		DOMException:           domExceptionStatics{},
		QuotaExceededError:     quotaExceededErrorStatics{},
		Document:               nodeStatics{},
		DocumentFragment:       fragmentStatics{},
		Text:                   textStatics{},
		Comment:                commentStatics{},
		Blob:                   blobStatics{},
		Headers:                headersStatics{},
		Request:                requestStatics{},
		Response:               responseStatics{},
		MessageChannel:         messageChannelStatics{},
		BroadcastChannel:       broadcastChannelStatics{},
		MessageEvent:           messageEventStatics{},
		Worker:                 workerStatics{},
		SharedWorker:           sharedWorkerStatics{},
		URL:                    urlStatics{},
		URLSearchParams:        urlSearchParamsStatics{},
		TextEncoder:            textEncoderStatics{},
		TextDecoder:            textDecoderStatics{},
		ExtendableEvent:        extendableEventStatics{},
		ExtendableMessageEvent: extendableMessageEventStatics{},
		PageTransitionEvent:    pageTransitionEventStatics{},
	}); err != nil {
		panic(err)
	}
}

// new AbortController()
func (statics) Constructor(r *webidl.Realm) (AbortControllerMethods, error) {
	return realmOf(r).newAbortController(), nil
}

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
		list[i] = s.(*abortSignalImpl)
	}
	return realmOf(r).abortSignalAny(list), nil
}

type eventStatics struct{}

// new Event(type, eventInitDict)
func (eventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init EventInit) (EventMethods, error) {
	return realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed), nil
}

type eventTargetStatics struct{}

// new EventTarget()
func (eventTargetStatics) Constructor(r *webidl.Realm) (EventTargetMethods, error) {
	return realmOf(r).newEventTargetImpl(&dom.EventTarget{}), nil
}

type domExceptionStatics struct{}

// new DOMException(message, name)
func (domExceptionStatics) Constructor(r *webidl.Realm, message, name webidl.DOMString) (DOMExceptionMethods, error) {
	return &domExceptionImpl{ex: dom.NewDOMException(string(message), string(name))}, nil
}

// AbortController

func (c *abortControllerImpl) Signal() (AbortSignalMethods, error) { return c.signal, nil }

func (c *abortControllerImpl) Abort(reason sobek.Value) error {
	c.c.Abort(toReason(reason))
	return nil
}

// AbortSignal

func (s *abortSignalImpl) Aborted() (bool, error)       { return s.sig.Aborted(), nil }
func (s *abortSignalImpl) Reason() (sobek.Value, error) { return s.abortReason(), nil }
func (s *abortSignalImpl) ThrowIfAborted() error        { return s.throwIfAborted() }
func (s *abortSignalImpl) Onabort() (*EventHandlerNonNull, error) {
	return s.handlerGet("abort"), nil
}
func (s *abortSignalImpl) SetOnabort(v *EventHandlerNonNull) error {
	s.handlerSet("abort", v)
	return nil
}

// Event handler attributes over eventHandlerGet/Set.

func (t *eventTargetImpl) handlerGet(typ string) *EventHandlerNonNull {
	v := t.realm.eventHandlerGet(t, typ)
	if webidl.IsNullish(v) {
		return nil
	}
	return &EventHandlerNonNull{CallbackFunction: t.realm.idl.ToCallbackFunction(v, true)}
}

func (t *eventTargetImpl) handlerSet(typ string, v *EventHandlerNonNull) {
	var val sobek.Value = sobek.Null()
	if v != nil && v.CallbackFunction != nil {
		val = v.Value()
	}
	t.realm.eventHandlerSet(t, t.thisValue(), typ, val, typ == "error" && t == t.realm.globalTarget)
}

func (t *eventTargetImpl) errorHandlerGet() *OnErrorEventHandlerNonNull {
	v := t.realm.eventHandlerGet(t, "error")
	if webidl.IsNullish(v) {
		return nil
	}
	return &OnErrorEventHandlerNonNull{CallbackFunction: t.realm.idl.ToCallbackFunction(v, true)}
}

func (t *eventTargetImpl) errorHandlerSet(v *OnErrorEventHandlerNonNull) {
	var val sobek.Value = sobek.Null()
	if v != nil && v.CallbackFunction != nil {
		val = v.Value()
	}
	t.realm.eventHandlerSet(t, t.thisValue(), "error", val, t == t.realm.globalTarget)
}

// thisValue is the JavaScript object of the target (the callback this
// value of its listeners).
func (t *eventTargetImpl) thisValue() sobek.Value {
	if t == t.realm.globalTarget {
		return t.realm.global
	}
	if obj := t.Object(); obj != nil {
		return obj
	}
	return sobek.Undefined()
}

// EventTarget

func (t *eventTargetImpl) eventTarget() *eventTargetImpl { return t }

func (t *eventTargetImpl) AddEventListener(typ webidl.DOMString, callback *EventListener, options AddEventListenerOptionsOrBoolean) error {
	var o listenerOptions
	switch options.Type {
	case AddEventListenerOptionsOrBooleanIsBoolean:
		o.capture = options.Boolean
	case AddEventListenerOptionsOrBooleanIsAddEventListenerOptions:
		d := options.AddEventListenerOptions
		o.capture, o.once = d.Capture, d.Once
		if d.Passive.Present {
			p := d.Passive.Value
			o.passive = &p
		}
		if d.Signal != nil {
			o.signal = d.Signal.(*abortSignalImpl).sig
		}
	}
	var cb sobek.Value = sobek.Null()
	if callback != nil && callback.CallbackInterface != nil {
		cb = callback.Object
	}
	t.realm.addEventListenerSteps(t, t.thisValue(), string(typ), cb, o)
	return nil
}

func (t *eventTargetImpl) RemoveEventListener(typ webidl.DOMString, callback *EventListener, options EventListenerOptionsOrBoolean) error {
	capture := false
	switch options.Type {
	case EventListenerOptionsOrBooleanIsBoolean:
		capture = options.Boolean
	case EventListenerOptionsOrBooleanIsEventListenerOptions:
		capture = options.EventListenerOptions.Capture
	}
	var cb sobek.Value = sobek.Null()
	if callback != nil && callback.CallbackInterface != nil {
		cb = callback.Object
	}
	t.realm.removeEventListenerSteps(t, string(typ), cb, capture)
	return nil
}

func (t *eventTargetImpl) DispatchEvent(event EventMethods) (bool, error) {
	return t.realm.dispatchEventSteps(t.target, baseEventOf(event).ev)
}

// Event

func (e *eventImpl) Type() (webidl.DOMString, error) { return webidl.DOMString(e.ev.Type), nil }

func (e *eventImpl) targetImpl(t *dom.EventTarget) EventTargetMethods {
	if t == nil {
		return nil
	}
	if m, ok := t.Owner.(EventTargetMethods); ok {
		return m
	}
	return nil
}

func (e *eventImpl) Target() (EventTargetMethods, error)     { return e.targetImpl(e.ev.Target()), nil }
func (e *eventImpl) SrcElement() (EventTargetMethods, error) { return e.targetImpl(e.ev.Target()), nil }
func (e *eventImpl) CurrentTarget() (EventTargetMethods, error) {
	return e.targetImpl(e.ev.CurrentTarget()), nil
}
func (e *eventImpl) EventPhase() (uint16, error) { return uint16(e.ev.EventPhase()), nil }
func (e *eventImpl) CancelBubble() (bool, error) { return e.stopped, nil }
func (e *eventImpl) SetCancelBubble(v bool) error {
	if v {
		e.stopped = true
		e.ev.StopPropagation()
	}
	return nil
}
func (e *eventImpl) Bubbles() (bool, error)     { return e.ev.Bubbles, nil }
func (e *eventImpl) Cancelable() (bool, error)  { return e.ev.Cancelable, nil }
func (e *eventImpl) ReturnValue() (bool, error) { return !e.ev.DefaultPrevented(), nil }
func (e *eventImpl) SetReturnValue(v bool) error {
	if !v {
		e.ev.PreventDefault()
	}
	return nil
}
func (e *eventImpl) DefaultPrevented() (bool, error) { return e.ev.DefaultPrevented(), nil }
func (e *eventImpl) Composed() (bool, error)         { return e.ev.Composed, nil }
func (e *eventImpl) IsTrusted() (bool, error)        { return e.ev.IsTrusted, nil }
func (e *eventImpl) TimeStamp() (float64, error)     { return e.stamp, nil }
func (e *eventImpl) ComposedPath() ([]EventTargetMethods, error) {
	if t := e.targetImpl(e.ev.CurrentTarget()); t != nil {
		return []EventTargetMethods{t}, nil
	}
	return []EventTargetMethods{}, nil
}
func (e *eventImpl) StopPropagation() error {
	e.stopped = true
	e.ev.StopPropagation()
	return nil
}
func (e *eventImpl) StopImmediatePropagation() error {
	e.stopped = true
	e.ev.StopImmediatePropagation()
	return nil
}
func (e *eventImpl) PreventDefault() error {
	e.ev.PreventDefault()
	return nil
}
func (e *eventImpl) InitEvent(typ webidl.DOMString, bubbles, cancelable bool) error {
	// 1. If this's dispatch flag is set, then return.
	if e.ev.EventPhase() != dom.None {
		return nil
	}
	// 2. Initialize this with type, bubbles, and cancelable.
	e.ev.Type, e.ev.Bubbles, e.ev.Cancelable = string(typ), bubbles, cancelable
	e.stopped = false
	return nil
}

// DOMException

func (d *domExceptionImpl) Name() (webidl.DOMString, error) { return webidl.DOMString(d.ex.Name), nil }
func (d *domExceptionImpl) Message() (webidl.DOMString, error) {
	return webidl.DOMString(d.ex.Message), nil
}
func (d *domExceptionImpl) Code() (uint16, error) { return uint16(d.ex.Code()), nil }

// LockManager

func (m *lockManagerImpl) RequestWithCallback(name webidl.DOMString, callback *LockGrantedCallback) (*webidl.Promise, error) {
	// 1. If options was not passed, then let options be a new LockOptions
	// dictionary with default members.
	return m.request(name, lockRequestOptions{}, callback.CallbackFunction), nil
}

func (m *lockManagerImpl) RequestWithOptions(name webidl.DOMString, options LockOptions, callback *LockGrantedCallback) (*webidl.Promise, error) {
	o := lockRequestOptions{ifAvailable: options.IfAvailable, steal: options.Steal}
	if options.Mode != "" {
		o.mode, _ = weblocks.ParseMode(string(options.Mode))
	}
	if options.Signal != nil {
		o.signal = options.Signal.(*abortSignalImpl).sig
	}
	return m.request(name, o, callback.CallbackFunction), nil
}

func (m *lockManagerImpl) Query() (*webidl.Promise, error) { return m.query(), nil }

// Lock

func (l *lockImpl) Name() (webidl.DOMString, error) { return webidl.DOMString(l.lock.Name()), nil }
func (l *lockImpl) Mode() (LockMode, error)         { return LockMode(l.lock.Mode().String()), nil }

// Navigator and WorkerNavigator

func ds(s string) (webidl.DOMString, error) { return webidl.DOMString(s), nil }

func (n *navigatorImpl) AppCodeName() (webidl.DOMString, error) { return ds(n.appCodeName()) }
func (n *navigatorImpl) AppName() (webidl.DOMString, error)     { return ds(n.appName()) }
func (n *navigatorImpl) AppVersion() (webidl.DOMString, error)  { return ds(n.appVersion()) }
func (n *navigatorImpl) Platform() (webidl.DOMString, error)    { return ds(n.platform()) }
func (n *navigatorImpl) Product() (webidl.DOMString, error)     { return ds(n.product()) }
func (n *navigatorImpl) ProductSub() (webidl.DOMString, error)  { return ds(n.productSub()) }
func (n *navigatorImpl) UserAgent() (webidl.DOMString, error)   { return ds(n.userAgent()) }
func (n *navigatorImpl) Vendor() (webidl.DOMString, error)      { return ds(n.vendor()) }
func (n *navigatorImpl) VendorSub() (webidl.DOMString, error)   { return ds(n.vendorSub()) }
func (n *navigatorImpl) Language() (webidl.DOMString, error)    { return ds(n.language()) }
func (n *navigatorImpl) Languages() ([]webidl.DOMString, error) {
	return []webidl.DOMString{webidl.DOMString(n.language())}, nil
}
func (n *navigatorImpl) OnLine() (bool, error)                { return n.onLine(), nil }
func (n *navigatorImpl) CookieEnabled() (bool, error)         { return n.cookieEnabled(), nil }
func (n *navigatorImpl) HardwareConcurrency() (uint64, error) { return n.hardwareConcurrency(), nil }
func (n *navigatorImpl) Locks() (LockManagerMethods, error)   { return n.lockManager(), nil }
func (n *navigatorImpl) StorageBuckets() (StorageBucketManagerMethods, error) {
	return n.storageBucketManager(), nil
}

// StorageBucketManager and StorageBucket

func (m *storageBucketManagerImpl) Open(name webidl.DOMString, _ StorageBucketOptions) (*webidl.Promise, error) {
	b, err := m.open(string(name))
	if err != nil {
		return nil, err
	}
	return m.realm.idl.PromiseResolvedWith(m.realm.idl.Wrap(b, "StorageBucket")), nil
}

func (m *storageBucketManagerImpl) Keys() (*webidl.Promise, error) {
	keys, err := m.keys()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(keys))
	for i, k := range keys {
		vals[i] = k
	}
	return m.realm.idl.PromiseResolvedWith(m.realm.vm.NewArray(vals...)), nil
}

func (m *storageBucketManagerImpl) Delete(name webidl.DOMString) (*webidl.Promise, error) {
	if err := m.delete(string(name)); err != nil {
		return nil, err
	}
	return m.realm.idl.PromiseResolvedWith(sobek.Undefined()), nil
}

func (b *storageBucketImpl) Name() (webidl.DOMString, error) {
	return webidl.DOMString(b.bucket.Name()), nil
}
func (b *storageBucketImpl) Locks() (LockManagerMethods, error) { return b.lockManager(), nil }

// persist() and persisted(): buckets of this engine are never persistent.
func (b *storageBucketImpl) Persist() (*webidl.Promise, error) {
	return b.realm.idl.PromiseResolvedWith(b.realm.vm.ToValue(false)), nil
}
func (b *storageBucketImpl) Persisted() (*webidl.Promise, error) {
	return b.realm.idl.PromiseResolvedWith(b.realm.vm.ToValue(false)), nil
}

// setExpires(expires) records the expiration time; expires() returns it.
func (b *storageBucketImpl) SetExpires(expires float64) (*webidl.Promise, error) {
	b.expires = &expires
	return b.realm.idl.PromiseResolvedWith(sobek.Undefined()), nil
}
func (b *storageBucketImpl) Expires() (*webidl.Promise, error) {
	if b.expires == nil {
		return b.realm.idl.PromiseResolvedWith(sobek.Null()), nil
	}
	return b.realm.idl.PromiseResolvedWith(b.realm.vm.ToValue(*b.expires)), nil
}

// Compile-time checks that the implementations satisfy the generated
// Methods interfaces.
var (
	_ AbortControllerMethods            = (*abortControllerImpl)(nil)
	_ AbortSignalMethods                = (*abortSignalImpl)(nil)
	_ EventTargetMethods                = (*abortSignalImpl)(nil)
	_ EventMethods                      = (*eventImpl)(nil)
	_ EventTargetMethods                = (*eventTargetImpl)(nil)
	_ DOMExceptionMethods               = (*domExceptionImpl)(nil)
	_ LockManagerMethods                = (*lockManagerImpl)(nil)
	_ LockMethods                       = (*lockImpl)(nil)
	_ NavigatorMethods                  = (*navigatorImpl)(nil)
	_ WorkerNavigatorMethods            = (*navigatorImpl)(nil)
	_ StorageBucketManagerMethods       = (*storageBucketManagerImpl)(nil)
	_ StorageBucketMethods              = (*storageBucketImpl)(nil)
	_ WindowMethods                     = (*windowImpl)(nil)
	_ EventTargetMethods                = (*windowImpl)(nil)
	_ WorkerGlobalScopeMethods          = (*workerGlobalImpl)(nil)
	_ DedicatedWorkerGlobalScopeMethods = (*workerGlobalImpl)(nil)
	_ PerformanceMethods                = (*performanceImpl)(nil)
	_ LocationMethods                   = (*locationImpl)(nil)
	_ WorkerLocationMethods             = (*workerLocationImpl)(nil)
	_ DocumentMethods                   = (*documentImpl)(nil)
	_ ElementMethods                    = (*nodeImpl)(nil)
	_ DocumentTypeMethods               = (*doctypeImpl)(nil)
	_ TextMethods                       = (*nodeImpl)(nil)
	_ CommentMethods                    = (*nodeImpl)(nil)
	_ HTMLElementMethods                = (*htmlElementImpl)(nil)
	_ HTMLHeadElementMethods            = (*htmlElementImpl)(nil)
	_ DocumentFragmentMethods           = (*nodeImpl)(nil)
)
