package bindings

import "github.com/gowebengine/weblocks/mediasource"

// sourceBufferImpl is the Go implementation behind a SourceBuffer. None
// is made: addSourceBuffer supports no type (package mediasource), so
// SourceBuffer has no members here.
type sourceBufferImpl struct {
	*eventTargetImpl
	sb *mediasource.SourceBuffer
}
