package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fileapi"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// fileReadingTaskSource is https://w3c.github.io/FileAPI/#fileReadingTaskSource.
var fileReadingTaskSource = html.NewTaskSource("file reading")

// fileReaderImpl is a FileReader object
// (https://w3c.github.io/FileAPI/#dfn-filereader) over package fileapi's
// FileReader.
type fileReaderImpl struct {
	*eventTargetImpl
	fr *fileapi.FileReader
	// buf is the ArrayBuffer of the result buf is for (result returns the
	// same object each time).
	buf    *sobek.Object
	bufFor *fileapi.ArrayBufferResult
}

// WebIDLInterface is the reader's interface for its event target.
func (o *fileReaderImpl) WebIDLInterface() string { return "FileReader" }

type fileReaderStatics struct{}

// Constructor is https://w3c.github.io/FileAPI/#filereaderConstrctr.
func (fileReaderStatics) Constructor(wr *webidl.Realm) (FileReaderMethods, error) {
	r := realmOf(wr)
	t := &dom.EventTarget{}
	impl := &fileReaderImpl{eventTargetImpl: r.newEventTargetImpl(t)}
	t.Owner = impl
	impl.fr = fileapi.NewFileReader(fileReaderHost{impl})
	return impl, nil
}

// fileReaderHost is a reader's environment for package fileapi.
type fileReaderHost struct{ o *fileReaderImpl }

func (h fileReaderHost) QueueTask(steps func()) { h.o.realm.queueTask(fileReadingTaskSource, steps) }

// FireProgressEvent is https://w3c.github.io/FileAPI/#fire-a-progress-event:
// fire an event named e at the reader, using ProgressEvent.
func (h fileReaderHost) FireProgressEvent(e string) {
	r, t := h.o.realm, h.o.target
	if !t.Receives(e) {
		return
	}
	base := r.newEvent(e, false, false, false)
	base.ev.IsTrusted = true
	base.ev.Detail = &progressEventImpl{eventImpl: base}
	t.DispatchEvent(base.ev)
}

// ReadAsArrayBuffer is https://w3c.github.io/FileAPI/#dfn-readAsArrayBuffer.
func (o *fileReaderImpl) ReadAsArrayBuffer(blob BlobMethods) error {
	// The readAsArrayBuffer(blob) method, when invoked, must initiate a
	// read operation for blob with ArrayBuffer.
	return o.read(blob, fileapi.ReadArrayBuffer, "")
}

// ReadAsBinaryString is https://w3c.github.io/FileAPI/#readAsBinaryString.
func (o *fileReaderImpl) ReadAsBinaryString(blob BlobMethods) error {
	return o.read(blob, fileapi.ReadBinaryString, "")
}

// ReadAsText is https://w3c.github.io/FileAPI/#readAsDataText.
func (o *fileReaderImpl) ReadAsText(blob BlobMethods, enc webidl.Optional[webidl.DOMString]) error {
	return o.read(blob, fileapi.ReadText, string(enc.Value))
}

// ReadAsDataURL is https://w3c.github.io/FileAPI/#dfn-readAsDataURL.
func (o *fileReaderImpl) ReadAsDataURL(blob BlobMethods) error {
	return o.read(blob, fileapi.ReadDataURL, "")
}

// read initiates a read operation for blob.
func (o *fileReaderImpl) read(blob BlobMethods, typ fileapi.ReadType, encodingName string) error {
	b := blob.idlImpl()
	return o.fr.ReadOperation(fileapi.Blob{Data: b.data, Type: b.typ}, typ, encodingName)
}

// Abort is https://w3c.github.io/FileAPI/#dfn-abort.
func (o *fileReaderImpl) Abort() error {
	o.fr.Abort()
	return nil
}

// ReadyState is https://w3c.github.io/FileAPI/#dom-filereader-readystate.
func (o *fileReaderImpl) ReadyState() (uint16, error) { return uint16(o.fr.State()), nil }

// Result is https://w3c.github.io/FileAPI/#dom-filereader-result.
func (o *fileReaderImpl) Result() (webidl.Nullable[DOMStringOrArrayBuffer], error) {
	switch res := o.fr.Result().(type) {
	case string:
		return webidl.Nullable[DOMStringOrArrayBuffer]{Value: DOMStringOrArrayBuffer{Type: DOMStringOrArrayBufferIsDOMString,
			DOMString: webidl.DOMString(res)}}, nil
	case *fileapi.ArrayBufferResult:
		if o.bufFor != res {
			o.buf = o.realm.vm.ToValue(o.realm.vm.NewArrayBuffer(res.Data)).(*sobek.Object)
			o.bufFor = res
		}
		return webidl.Nullable[DOMStringOrArrayBuffer]{Value: DOMStringOrArrayBuffer{Type: DOMStringOrArrayBufferIsArrayBuffer,
			ArrayBuffer: webidl.BufferSource{Object: o.buf, Kind: webidl.KindArrayBuffer}}}, nil
	}
	return webidl.Nullable[DOMStringOrArrayBuffer]{Null: true}, nil
}

// Error is https://w3c.github.io/FileAPI/#dom-filereader-error: always
// null (reading a blob in memory does not fail).
func (o *fileReaderImpl) Error() (DOMExceptionMethods, error) { return nil, nil }

func (o *fileReaderImpl) Onloadstart() (*EventHandlerNonNull, error) {
	return o.handlerGet("loadstart"), nil
}
func (o *fileReaderImpl) SetOnloadstart(v *EventHandlerNonNull) error {
	o.handlerSet("loadstart", v)
	return nil
}
func (o *fileReaderImpl) Onprogress() (*EventHandlerNonNull, error) {
	return o.handlerGet("progress"), nil
}
func (o *fileReaderImpl) SetOnprogress(v *EventHandlerNonNull) error {
	o.handlerSet("progress", v)
	return nil
}
func (o *fileReaderImpl) Onload() (*EventHandlerNonNull, error) { return o.handlerGet("load"), nil }
func (o *fileReaderImpl) SetOnload(v *EventHandlerNonNull) error {
	o.handlerSet("load", v)
	return nil
}
func (o *fileReaderImpl) Onabort() (*EventHandlerNonNull, error) { return o.handlerGet("abort"), nil }
func (o *fileReaderImpl) SetOnabort(v *EventHandlerNonNull) error {
	o.handlerSet("abort", v)
	return nil
}
func (o *fileReaderImpl) Onerror() (*EventHandlerNonNull, error) { return o.handlerGet("error"), nil }
func (o *fileReaderImpl) SetOnerror(v *EventHandlerNonNull) error {
	o.handlerSet("error", v)
	return nil
}
func (o *fileReaderImpl) Onloadend() (*EventHandlerNonNull, error) {
	return o.handlerGet("loadend"), nil
}
func (o *fileReaderImpl) SetOnloadend(v *EventHandlerNonNull) error {
	o.handlerSet("loadend", v)
	return nil
}
