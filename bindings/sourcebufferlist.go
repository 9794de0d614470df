package bindings

import "github.com/gowebengine/weblocks/mediasource"

// sourceBufferListImpl is the Go implementation behind a SourceBufferList.
type sourceBufferListImpl struct {
	*eventTargetImpl
	l *mediasource.SourceBufferList
}

func (l *sourceBufferListImpl) WebIDLInterface() string { return "SourceBufferList" }

func (l *sourceBufferListImpl) Length() (uint32, error) { return uint32(l.l.Length()), nil }

func (l *sourceBufferListImpl) IndexedLength() (uint32, error) { return l.Length() }

// IndexedGetter is the SourceBufferList getter (mediasource's Item).
func (l *sourceBufferListImpl) IndexedGetter(index uint32) (SourceBufferMethods, error) {
	sb := l.l.Item(int(index))
	if sb == nil {
		return nil, nil
	}
	if impl, ok := sb.Owner.(*sourceBufferImpl); ok {
		return impl, nil
	}
	return nil, nil
}

func (l *sourceBufferListImpl) Onaddsourcebuffer() (*EventHandlerNonNull, error) {
	return l.handlerGet("addsourcebuffer"), nil
}

func (l *sourceBufferListImpl) SetOnaddsourcebuffer(v *EventHandlerNonNull) error {
	l.handlerSet("addsourcebuffer", v)
	return nil
}

func (l *sourceBufferListImpl) Onremovesourcebuffer() (*EventHandlerNonNull, error) {
	return l.handlerGet("removesourcebuffer"), nil
}

func (l *sourceBufferListImpl) SetOnremovesourcebuffer(v *EventHandlerNonNull) error {
	l.handlerSet("removesourcebuffer", v)
	return nil
}
