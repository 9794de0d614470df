// Package mediasource is the object model of Media Source Extensions
// (https://w3c.github.io/media-source/) in plain Go, as far as it holds
// in an engine that decodes no media: MediaSource, its SourceBufferList
// objects and the method steps that do not need a media element.
//
// # Deviations
//
//   - No MIME type is supported (IsTypeSupported is false for every
//     type): there are no decoders. AddSourceBuffer therefore always
//     fails (TypeError for the empty string, NotSupportedError otherwise),
//     so no SourceBuffer is ever made and the source buffer lists stay
//     empty.
//   - No media element attaches a MediaSource (there are no media element
//     load algorithms to run the attaching steps), so its ready state
//     stays "closed" and it fires no events; the steps that need the
//     "open" state (duration's setter, EndOfStream, the live seekable
//     range) throw InvalidStateError, as the standard says for a closed
//     MediaSource.
//   - Dedicated workers get no MediaSource (CanConstructInDedicatedWorker
//     is false) and there is no MediaSourceHandle.
//   - A MediaSource's blob URL (package fileapi's AddAnEntryForObject)
//     exists, and fetching it is a network error, as the File API says for
//     an entry whose object is not a Blob.
package mediasource

import (
	"math"

	"github.com/gowebengine/weblocks/dom"
)

// ReadyState is https://w3c.github.io/media-source/#dom-readystate.
type ReadyState string

// The ready states.
const (
	Closed ReadyState = "closed"
	Open   ReadyState = "open"
	Ended  ReadyState = "ended"
)

// TypeError is the error for which the bindings throw a TypeError.
type TypeError struct{ Message string }

func (e *TypeError) Error() string { return e.Message }

// MediaSource is https://w3c.github.io/media-source/#mediasource.
type MediaSource struct {
	dom.EventTarget
	readyState ReadyState
	// SourceBuffers and ActiveSourceBuffers are the sourceBuffers and
	// activeSourceBuffers lists.
	SourceBuffers, ActiveSourceBuffers *SourceBufferList
}

// SourceBufferList is https://w3c.github.io/media-source/#sourcebufferlist.
type SourceBufferList struct {
	dom.EventTarget
	list []*SourceBuffer
}

// SourceBuffer is https://w3c.github.io/media-source/#sourcebuffer. None
// is ever made (see the package documentation).
type SourceBuffer struct {
	dom.EventTarget
}

// New is https://w3c.github.io/media-source/#dom-mediasource-constructor:
// a MediaSource whose readyState is "closed" and whose source buffer
// lists are new, empty SourceBufferList objects.
func New() *MediaSource {
	return &MediaSource{readyState: Closed, SourceBuffers: &SourceBufferList{}, ActiveSourceBuffers: &SourceBufferList{}}
}

// ReadyState is https://w3c.github.io/media-source/#dom-mediasource-readystate.
func (m *MediaSource) ReadyState() ReadyState { return m.readyState }

// Duration is https://w3c.github.io/media-source/#dom-mediasource-duration's
// getter: NaN when the ready state is "closed" (always, here).
func (m *MediaSource) Duration() float64 {
	// 1. If the readyState attribute is "closed" then return NaN and
	//    abort these steps.
	// 2. Return the current value of the attribute (none: the state is
	//    never "open").
	return math.NaN()
}

// SetDuration is https://w3c.github.io/media-source/#dom-mediasource-duration's
// setter.
func (m *MediaSource) SetDuration(v float64) error {
	// 1. If the value being set is negative or NaN then throw a TypeError
	//    exception and abort these steps.
	if v < 0 || math.IsNaN(v) {
		return &TypeError{Message: "The provided duration is negative or NaN."}
	}
	// 2. If the readyState attribute is not "open" then throw an
	//    InvalidStateError exception and abort these steps.
	return m.notOpen()
}

// notOpen is the InvalidStateError of the steps that need the "open"
// ready state.
func (m *MediaSource) notOpen() error {
	return dom.NewDOMException("The MediaSource's readyState is not 'open'.", dom.InvalidStateError)
}

// IsTypeSupported is https://w3c.github.io/media-source/#dom-mediasource-istypesupported.
func IsTypeSupported(typ string) bool {
	// 1. If type is an empty string, then return false.
	// 2-5. If type does not contain a valid MIME type string, or contains
	//    a media type, subtype or codec the MediaSource does not support,
	//    return false. (No type is supported: there are no decoders.)
	return false
}

// AddSourceBuffer is https://w3c.github.io/media-source/#dom-mediasource-addsourcebuffer.
func (m *MediaSource) AddSourceBuffer(typ string) (*SourceBuffer, error) {
	// 1. If type is an empty string then throw a TypeError exception and
	//    abort these steps.
	if typ == "" {
		return nil, &TypeError{Message: "The type provided is empty."}
	}
	// 2. If type contains a MIME type that is not supported or contains a
	//    MIME type that is not supported with the types specified for the
	//    other SourceBuffer objects in sourceBuffers, then throw a
	//    NotSupportedError exception and abort these steps.
	if !IsTypeSupported(typ) {
		return nil, dom.NewDOMException("The type provided ('"+typ+"') is unsupported.", dom.NotSupportedError)
	}
	// 3-9. (Unreachable: no type is supported.)
	return nil, m.notOpen()
}

// RemoveSourceBuffer is https://w3c.github.io/media-source/#dom-mediasource-removesourcebuffer.
func (m *MediaSource) RemoveSourceBuffer(sb *SourceBuffer) error {
	// 1. If sourceBuffer specifies an object that is not in sourceBuffers
	//    then throw a NotFoundError exception and abort these steps.
	for _, x := range m.SourceBuffers.list {
		if x == sb {
			// 2-12. (Unreachable: the list stays empty.)
			return nil
		}
	}
	return dom.NewDOMException("The SourceBuffer provided is not contained in this MediaSource.", dom.NotFoundError)
}

// EndOfStream is https://w3c.github.io/media-source/#dom-mediasource-endofstream.
func (m *MediaSource) EndOfStream() error {
	// 1. If the readyState attribute is not in the "open" state then throw
	//    an InvalidStateError exception and abort these steps.
	return m.notOpen()
}

// SetLiveSeekableRange is https://w3c.github.io/media-source/#dom-mediasource-setliveseekablerange.
func (m *MediaSource) SetLiveSeekableRange(start, end float64) error {
	// 1. If the readyState attribute is not "open" then throw an
	//    InvalidStateError exception and abort these steps.
	return m.notOpen()
}

// ClearLiveSeekableRange is https://w3c.github.io/media-source/#dom-mediasource-clearliveseekablerange.
func (m *MediaSource) ClearLiveSeekableRange() error {
	// 1. If the readyState attribute is not "open" then throw an
	//    InvalidStateError exception and abort these steps.
	return m.notOpen()
}

// Length is https://w3c.github.io/media-source/#dom-sourcebufferlist-length.
func (l *SourceBufferList) Length() int { return len(l.list) }

// Item is https://w3c.github.io/media-source/#dfn-sourcebufferlist-getter:
// the SourceBuffer at index, or nil.
func (l *SourceBufferList) Item(index int) *SourceBuffer {
	if index < 0 || index >= len(l.list) {
		return nil
	}
	return l.list[index]
}
