package fileapi

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gowebengine/weblocks/dom"
)

// readerHost queues tasks in a list and records events.
type readerHost struct {
	tasks  []func()
	events []string
	// onEvent runs after an event is recorded.
	onEvent func(e string)
}

func (h *readerHost) QueueTask(steps func()) { h.tasks = append(h.tasks, steps) }
func (h *readerHost) FireProgressEvent(e string) {
	h.events = append(h.events, e)
	if h.onEvent != nil {
		h.onEvent(e)
	}
}

func (h *readerHost) runTasks() {
	for len(h.tasks) > 0 {
		t := h.tasks[0]
		h.tasks = h.tasks[1:]
		t()
	}
}

func TestPackageData(t *testing.T) {
	data := []byte("h\xc3\xa9\xff")
	for _, tc := range []struct {
		typ      ReadType
		mime     string
		encoding string
		want     any
	}{
		{ReadText, "", "", "hé\uFFFD"},
		{ReadText, "text/plain;charset=utf-8", "utf-8", "hé\uFFFD"},
		{ReadBinaryString, "", "", "h\u00c3\u00a9\u00ff"},
		{ReadDataURL, "text/plain", "", "data:text/plain;base64,aMOp/w=="},
		{ReadDataURL, "", "", "data:application/octet-stream;base64,aMOp/w=="},
		{ReadArrayBuffer, "", "", &ArrayBufferResult{Data: data}},
	} {
		got := PackageData(data, tc.typ, tc.mime, tc.encoding)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("PackageData(%d, %q) = %#v, want %#v", tc.typ, tc.mime, got, tc.want)
		}
	}
	// A UTF-8 BOM is not part of the text.
	if got := PackageData([]byte("\xef\xbb\xbfx"), ReadText, "", ""); got != "x" {
		t.Errorf("text with a BOM: %q", got)
	}
}

func TestReadOperation(t *testing.T) {
	h := &readerHost{}
	fr := NewFileReader(h)
	if err := fr.ReadOperation(Blob{Data: []byte("abc"), Type: "text/plain"}, ReadText, ""); err != nil {
		t.Fatal(err)
	}
	if fr.State() != Loading || fr.Result() != nil || len(h.events) != 0 {
		t.Fatalf("synchronously: state %d result %v events %v", fr.State(), fr.Result(), h.events)
	}
	// A second read while loading is an InvalidStateError.
	err := fr.ReadOperation(Blob{}, ReadText, "")
	var de *dom.DOMException
	if !errors.As(err, &de) || de.Name != dom.InvalidStateError {
		t.Fatalf("read while loading: %v", err)
	}
	h.runTasks()
	if !reflect.DeepEqual(h.events, []string{"loadstart", "load", "loadend"}) || fr.State() != Done || fr.Result() != "abc" {
		t.Fatalf("events %v, state %d, result %v", h.events, fr.State(), fr.Result())
	}

	// abort while loading: abort, loadend, and the read's tasks never run.
	h.events = nil
	_ = fr.ReadOperation(Blob{Data: []byte("x")}, ReadArrayBuffer, "")
	fr.Abort()
	h.runTasks()
	if !reflect.DeepEqual(h.events, []string{"abort", "loadend"}) || fr.State() != Done || fr.Result() != nil {
		t.Fatalf("abort: events %v, state %d, result %v", h.events, fr.State(), fr.Result())
	}
	// abort when done or empty: the result is null, no events.
	h.events = nil
	fr.Abort()
	if len(h.events) != 0 || NewFileReader(h).State() != Empty {
		t.Errorf("abort when done: %v", h.events)
	}

	// A new read from the load handler: no loadend for the first read.
	h2 := &readerHost{}
	fr2 := NewFileReader(h2)
	h2.onEvent = func(e string) {
		if e == "load" && fr2.Result() == "first" {
			_ = fr2.ReadOperation(Blob{Data: []byte("second")}, ReadText, "")
		}
	}
	_ = fr2.ReadOperation(Blob{Data: []byte("first")}, ReadText, "")
	h2.runTasks()
	if !reflect.DeepEqual(h2.events, []string{"loadstart", "load", "loadstart", "load", "loadend"}) || fr2.Result() != "second" {
		t.Errorf("read from load: events %v, result %v", h2.events, fr2.Result())
	}
}
