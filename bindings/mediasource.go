package bindings

import (
	"errors"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/mediasource"
)

// This file is Media Source Extensions' MediaSource over package
// mediasource, which has the method steps (and says what an engine
// without media leaves out).

// mediaSourceImpl is the Go implementation behind a MediaSource object.
type mediaSourceImpl struct {
	*eventTargetImpl
	ms                                 *mediasource.MediaSource
	sourceBuffers, activeSourceBuffers *sourceBufferListImpl
}

func (m *mediaSourceImpl) WebIDLInterface() string { return "MediaSource" }

type mediaSourceStatics struct{}

// Constructor is new MediaSource() (mediasource.New).
func (mediaSourceStatics) Constructor(ir *webidl.Realm) (MediaSourceMethods, error) {
	r := realmOf(ir)
	ms := mediasource.New()
	list := func(l *mediasource.SourceBufferList) *sourceBufferListImpl {
		impl := &sourceBufferListImpl{eventTargetImpl: r.newEventTargetImpl(&l.EventTarget), l: l}
		l.Owner = impl
		return impl
	}
	impl := &mediaSourceImpl{eventTargetImpl: r.newEventTargetImpl(&ms.EventTarget), ms: ms,
		sourceBuffers: list(ms.SourceBuffers), activeSourceBuffers: list(ms.ActiveSourceBuffers)}
	ms.Owner = impl
	return impl, nil
}

// CanConstructInDedicatedWorker is false: dedicated workers get no
// MediaSource.
func (mediaSourceStatics) CanConstructInDedicatedWorker(*webidl.Realm) (bool, error) {
	return false, nil
}

// IsTypeSupported is mediasource.IsTypeSupported.
func (mediaSourceStatics) IsTypeSupported(_ *webidl.Realm, typ webidl.DOMString) (bool, error) {
	return mediasource.IsTypeSupported(string(typ)), nil
}

// mediaSourceError converts an error of package mediasource.
func mediaSourceError(err error) error {
	var te *mediasource.TypeError
	if errors.As(err, &te) {
		return webidl.NewTypeError("%s", te.Message)
	}
	return err
}

func (m *mediaSourceImpl) SourceBuffers() (SourceBufferListMethods, error) {
	return m.sourceBuffers, nil
}

func (m *mediaSourceImpl) ActiveSourceBuffers() (SourceBufferListMethods, error) {
	return m.activeSourceBuffers, nil
}

func (m *mediaSourceImpl) ReadyState() (ReadyState, error) { return ReadyState(m.ms.ReadyState()), nil }

func (m *mediaSourceImpl) Duration() (float64, error) { return m.ms.Duration(), nil }

func (m *mediaSourceImpl) SetDuration(v float64) error { return mediaSourceError(m.ms.SetDuration(v)) }

func (m *mediaSourceImpl) Onsourceopen() (*EventHandlerNonNull, error) {
	return m.handlerGet("sourceopen"), nil
}

func (m *mediaSourceImpl) SetOnsourceopen(v *EventHandlerNonNull) error {
	m.handlerSet("sourceopen", v)
	return nil
}

func (m *mediaSourceImpl) Onsourceended() (*EventHandlerNonNull, error) {
	return m.handlerGet("sourceended"), nil
}

func (m *mediaSourceImpl) SetOnsourceended(v *EventHandlerNonNull) error {
	m.handlerSet("sourceended", v)
	return nil
}

func (m *mediaSourceImpl) Onsourceclose() (*EventHandlerNonNull, error) {
	return m.handlerGet("sourceclose"), nil
}

func (m *mediaSourceImpl) SetOnsourceclose(v *EventHandlerNonNull) error {
	m.handlerSet("sourceclose", v)
	return nil
}

func (m *mediaSourceImpl) AddSourceBuffer(typ webidl.DOMString) (SourceBufferMethods, error) {
	sb, err := m.ms.AddSourceBuffer(string(typ))
	if err != nil {
		return nil, mediaSourceError(err)
	}
	impl := &sourceBufferImpl{eventTargetImpl: m.realm.newEventTargetImpl(&sb.EventTarget), sb: sb}
	sb.Owner = impl
	return impl, nil
}

func (m *mediaSourceImpl) RemoveSourceBuffer(sb SourceBufferMethods) error {
	return m.ms.RemoveSourceBuffer(sb.idlImpl().sb)
}

// EndOfStream's error argument matters only once the ready state is
// "open", which it never is.
func (m *mediaSourceImpl) EndOfStream(webidl.Optional[EndOfStreamError]) error {
	return m.ms.EndOfStream()
}

func (m *mediaSourceImpl) SetLiveSeekableRange(start, end float64) error {
	return mediaSourceError(m.ms.SetLiveSeekableRange(start, end))
}

func (m *mediaSourceImpl) ClearLiveSeekableRange() error { return m.ms.ClearLiveSeekableRange() }
