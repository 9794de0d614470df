package mediasource

import (
	"errors"
	"math"
	"testing"

	"github.com/gowebengine/weblocks/dom"
)

// TestClosedMediaSource: a new MediaSource is closed with empty lists; no
// type is supported; the steps that need the "open" state throw
// InvalidStateError after their argument checks.
func TestClosedMediaSource(t *testing.T) {
	m := New()
	if m.ReadyState() != Closed || !math.IsNaN(m.Duration()) {
		t.Fatalf("readyState %q, duration %v", m.ReadyState(), m.Duration())
	}
	if m.SourceBuffers.Length() != 0 || m.ActiveSourceBuffers.Length() != 0 || m.SourceBuffers.Item(0) != nil {
		t.Fatal("the source buffer lists are not empty")
	}
	if IsTypeSupported("video/webm; codecs=vp9") {
		t.Error("a type is supported without decoders")
	}
	name := func(err error) string {
		var te *TypeError
		if errors.As(err, &te) {
			return "TypeError"
		}
		var de *dom.DOMException
		if errors.As(err, &de) {
			return de.Name
		}
		return "nil"
	}
	_, addEmpty := m.AddSourceBuffer("")
	_, addVideo := m.AddSourceBuffer("video/webm")
	for _, c := range []struct {
		err  error
		want string
	}{
		{addEmpty, "TypeError"},
		{addVideo, dom.NotSupportedError},
		{m.RemoveSourceBuffer(&SourceBuffer{}), dom.NotFoundError},
		{m.SetDuration(-1), "TypeError"},
		{m.SetDuration(math.NaN()), "TypeError"},
		{m.SetDuration(5), dom.InvalidStateError},
		{m.EndOfStream(), dom.InvalidStateError},
		{m.SetLiveSeekableRange(0, 1), dom.InvalidStateError},
		{m.ClearLiveSeekableRange(), dom.InvalidStateError},
	} {
		if got := name(c.err); got != c.want {
			t.Errorf("got %s (%v), want %s", got, c.err, c.want)
		}
	}
}
