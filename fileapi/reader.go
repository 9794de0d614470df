package fileapi

import (
	"encoding/base64"
	"strings"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/encoding"
)

// ReadType is what a FileReader read method makes of the bytes (package
// data's type).
type ReadType uint8

// The read methods' types.
const (
	ReadArrayBuffer ReadType = iota
	ReadBinaryString
	ReadText
	ReadDataURL
)

// ReaderState is a FileReader's state
// (https://w3c.github.io/FileAPI/#dom-filereader-state).
type ReaderState uint8

// The states of a FileReader, in readyState's order.
const (
	Empty ReaderState = iota
	Loading
	Done
)

// ReaderHost is what a FileReader takes from its environment: tasks on
// the file reading task source of its event loop, and its events.
type ReaderHost interface {
	// QueueTask queues steps on the file reading task source.
	QueueTask(steps func())
	// FireProgressEvent fires a progress event named e at the reader
	// (https://w3c.github.io/FileAPI/#fire-a-progress-event).
	FireProgressEvent(e string)
}

// FileReader is https://w3c.github.io/FileAPI/#dfn-filereader: its state,
// result and error.
type FileReader struct {
	host  ReaderHost
	state ReaderState
	// result is the read's result: *ArrayBufferResult or a string; nil
	// is null. (Its error is always null: reading a blob in memory does
	// not fail.)
	result any
	// read counts read operations and aborts: a task of the read
	// operation runs only while it is current (abort removes them).
	read uint64
}

// NewFileReader is a new FileReader whose tasks and events host runs.
func NewFileReader(host ReaderHost) *FileReader { return &FileReader{host: host} }

// State is the reader's state (readyState).
func (fr *FileReader) State() ReaderState { return fr.state }

// Result is the reader's result: *ArrayBufferResult for
// readAsArrayBuffer, a string for the other read methods, nil for null.
func (fr *FileReader) Result() any { return fr.result }

// ArrayBufferResult is the bytes of a readAsArrayBuffer result (one
// pointer per read, so the host can keep one ArrayBuffer for it).
type ArrayBufferResult struct{ Data []byte }

// ReadOperation is https://w3c.github.io/FileAPI/#readOperation: it
// returns the InvalidStateError of step 1. encodingName is readAsText's
// encoding ("" when not given). The blob's bytes are in memory: its
// stream has them as one chunk.
func (fr *FileReader) ReadOperation(blob Blob, typ ReadType, encodingName string) error {
	// 1. If fr's state is "loading", throw an InvalidStateError
	// DOMException.
	if fr.state == Loading {
		return dom.NewDOMException("The object is already busy reading Blobs.", dom.InvalidStateError)
	}
	// 2. Set fr's state to "loading".
	fr.state = Loading
	// 3. Set fr's result to null.
	fr.result = nil
	// 4. Set fr's error to null. (It stays null.)
	fr.read++
	read := fr.read
	current := func() bool { return fr.read == read }
	// 5-6. Let stream be the result of calling get stream on blob; let
	// reader be the result of getting a reader from stream.
	// 7. Let bytes be an empty byte sequence.
	var bytes []byte
	// 8. Let chunkPromise be the result of reading a chunk from stream
	// with reader. 9. Let isFirstChunk be true.
	// 10. In parallel, while true: (the first chunk is the blob's bytes,
	// the next read is done.)
	// 10.1-10.2. Wait for chunkPromise; if it is fulfilled and
	// isFirstChunk is true, queue a task to fire a progress event called
	// loadstart at fr. 10.3. Set isFirstChunk to false.
	fr.host.QueueTask(func() {
		if current() {
			fr.host.FireProgressEvent("loadstart")
		}
	})
	// 10.4. If chunkPromise is fulfilled with an object whose done
	// property is false and whose value property is a Uint8Array
	// object: append its bytes to bytes (10.4.1-10.4.2); (10.4.3: no
	// progress event, less than 50ms have passed); 10.4.4. read the next
	// chunk.
	bytes = append(bytes, blob.Data...)
	// 10.5. Otherwise, if chunkPromise is fulfilled with an object whose
	// done property is true, queue a task to run the following steps and
	// abort this algorithm:
	fr.host.QueueTask(func() {
		if !current() {
			return
		}
		// 10.5.1. Set fr's state to "done".
		fr.state = Done
		// 10.5.2. Let result be the result of package data given bytes,
		// type, blob's type, and encodingName.
		result := PackageData(bytes, typ, blob.Type, encodingName)
		// 10.5.3. If package data threw an exception error: (it does
		// not for bytes in memory.)
		// 10.5.4. Else: 10.5.4.1. Set fr's result to result.
		// 10.5.4.2. Fire a progress event called load at the fr.
		fr.result = result
		fr.host.FireProgressEvent("load")
		// 10.5.5. If fr's state is not "loading", fire a progress event
		// called loadend at the fr. (A load handler may have started
		// another read.)
		if fr.state != Loading {
			fr.host.FireProgressEvent("loadend")
		}
	})
	return nil
}

// Abort is https://w3c.github.io/FileAPI/#dfn-abort.
func (fr *FileReader) Abort() {
	// 1. If this's state is "empty" or if this's state is "done" set
	// this's result to null and terminate this algorithm.
	if fr.state == Empty || fr.state == Done {
		fr.result = nil
		return
	}
	// 2. If this's state is "loading" set this's state to "done" and set
	// this's result to null.
	fr.state = Done
	fr.result = nil
	// 3. If there are any tasks from this on the file reading task source
	// in an affiliated task queue, then remove those tasks from that task
	// queue. 4. Terminate the algorithm for the read method being
	// processed.
	fr.read++
	// 5. Fire a progress event called abort at this.
	fr.host.FireProgressEvent("abort")
	// 6. If this's state is not "loading", fire a progress event called
	// loadend at this.
	if fr.state != Loading {
		fr.host.FireProgressEvent("loadend")
	}
}

// PackageData is https://w3c.github.io/FileAPI/#blob-package-data:
// *ArrayBufferResult for ReadArrayBuffer, a string otherwise. Text is decoded as
// UTF-8 (the only encoding of this engine) whatever encodingName or
// mimeType's charset say.
func PackageData(bytes []byte, typ ReadType, mimeType, encodingName string) any {
	switch typ {
	case ReadDataURL:
		// DataURL: Return bytes as a DataURL [RFC2397] subject to the
		// considerations below: use mimeType as part of the Data URL if
		// it is available in keeping with RFC2397; if mimeType is not
		// available, return a Data URL without a media-type.
		mt := mimeType
		if mt == "" {
			mt = "application/octet-stream"
		}
		return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(bytes)
	case ReadText:
		// Text: 1-4. Let encoding be the result of getting an encoding
		// from encodingName, else from mimeType's charset parameter, else
		// UTF-8. 5. Decode bytes using fallback encoding encoding, and
		// return the result.
		return encoding.UTF8Decode(bytes)
	case ReadArrayBuffer:
		// ArrayBuffer: Return a new ArrayBuffer whose contents are bytes.
		return &ArrayBufferResult{Data: append([]byte{}, bytes...)}
	}
	// BinaryString: Return bytes as a binary string, in which every byte
	// is represented by a code unit of equal value [0..255].
	var b strings.Builder
	for _, c := range bytes {
		b.WriteRune(rune(c))
	}
	return b.String()
}
