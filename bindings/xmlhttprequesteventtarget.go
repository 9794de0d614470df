package bindings

// This file is XMLHttpRequestEventTarget and XMLHttpRequestUpload
// (https://xhr.spec.whatwg.org/#xmlhttprequesteventtarget).

// xhrEventTargetImpl is an XMLHttpRequestEventTarget: an
// XMLHttpRequestUpload, or the base of an XMLHttpRequest.
type xhrEventTargetImpl struct {
	*eventTargetImpl
}

func (t *xhrEventTargetImpl) WebIDLInterface() string { return "XMLHttpRequestUpload" }

func (t *xhrEventTargetImpl) Onloadstart() (*EventHandlerNonNull, error) {
	return t.handlerGet("loadstart"), nil
}
func (t *xhrEventTargetImpl) SetOnloadstart(v *EventHandlerNonNull) error {
	t.handlerSet("loadstart", v)
	return nil
}
func (t *xhrEventTargetImpl) Onprogress() (*EventHandlerNonNull, error) {
	return t.handlerGet("progress"), nil
}
func (t *xhrEventTargetImpl) SetOnprogress(v *EventHandlerNonNull) error {
	t.handlerSet("progress", v)
	return nil
}
func (t *xhrEventTargetImpl) Onabort() (*EventHandlerNonNull, error) {
	return t.handlerGet("abort"), nil
}
func (t *xhrEventTargetImpl) SetOnabort(v *EventHandlerNonNull) error {
	t.handlerSet("abort", v)
	return nil
}
func (t *xhrEventTargetImpl) Onerror() (*EventHandlerNonNull, error) {
	return t.handlerGet("error"), nil
}
func (t *xhrEventTargetImpl) SetOnerror(v *EventHandlerNonNull) error {
	t.handlerSet("error", v)
	return nil
}
func (t *xhrEventTargetImpl) Onload() (*EventHandlerNonNull, error) {
	return t.handlerGet("load"), nil
}
func (t *xhrEventTargetImpl) SetOnload(v *EventHandlerNonNull) error {
	t.handlerSet("load", v)
	return nil
}
func (t *xhrEventTargetImpl) Ontimeout() (*EventHandlerNonNull, error) {
	return t.handlerGet("timeout"), nil
}
func (t *xhrEventTargetImpl) SetOntimeout(v *EventHandlerNonNull) error {
	t.handlerSet("timeout", v)
	return nil
}
func (t *xhrEventTargetImpl) Onloadend() (*EventHandlerNonNull, error) {
	return t.handlerGet("loadend"), nil
}
func (t *xhrEventTargetImpl) SetOnloadend(v *EventHandlerNonNull) error {
	t.handlerSet("loadend", v)
	return nil
}
