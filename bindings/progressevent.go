package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

// progressEventImpl is https://xhr.spec.whatwg.org/#interface-progressevent.
type progressEventImpl struct {
	*eventImpl
	lengthComputable bool
	loaded, total    float64
}

func (e *progressEventImpl) baseEvent() *eventImpl { return e.eventImpl }

func (e *progressEventImpl) WebIDLInterface() string { return "ProgressEvent" }

func (e *progressEventImpl) LengthComputable() (bool, error) { return e.lengthComputable, nil }
func (e *progressEventImpl) Loaded() (float64, error)        { return e.loaded, nil }
func (e *progressEventImpl) Total() (float64, error)         { return e.total, nil }

type progressEventStatics struct{}

// Constructor is new ProgressEvent(type, eventInitDict).
func (progressEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init ProgressEventInit) (ProgressEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &progressEventImpl{eventImpl: base, lengthComputable: init.LengthComputable, loaded: init.Loaded, total: init.Total}
	base.ev.Detail = e
	return e, nil
}
