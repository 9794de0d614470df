package bindings

import (
	"bytes"
	"strings"
	"sync"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/encoding"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/streams"
	"github.com/gowebengine/weblocks/xhr"
	"github.com/grafana/sobek"
)

// This file is the Fetch Standard's bodies
// (https://fetch.spec.whatwg.org/#concept-body) and the Body mixin. A
// body's stream is a ReadableStream of package streams, made when first
// needed (the body attribute, reading, teeing, an abort) over its source:
// bytes in memory, or a response body arriving from the network (package
// fetch reads it; each read's bytes are a chunk). A body extracted from a
// ReadableStream has that stream and no source.

// body is https://fetch.spec.whatwg.org/#concept-body.
type body struct {
	source []byte
	// used marks a body disturbed before it had a stream (the input of
	// the Request constructor, whose body moved to the new request).
	used bool
	// net is a response body from the network, read as it arrives:
	// source is unused then.
	net *fetch.Body
	// stream is the body's stream once made; streamOnly says the body
	// was extracted from a ReadableStream (no source).
	stream     *readableStreamImpl
	streamOnly bool
	// terminate ends the fetch a network body comes from (its stream was
	// canceled); nil when there is none to end.
	terminate func()
}

// extractBody is https://fetch.spec.whatwg.org/#concept-bodyinit-extract:
// it returns the body and its type ("" for null).
func extractBody(object BodyInit) (*body, string, error) {
	// 1-2. If object is a ReadableStream object, then set stream to
	// object (a stream disturbed or locked is a TypeError).
	if object.Type == BodyInitIsReadableStream {
		s := object.ReadableStream.idlImpl()
		if s.s.Disturbed() || s.s.Locked() {
			return nil, "", webidl.NewTypeError("The ReadableStream body is disturbed or locked")
		}
		return &body{stream: s, streamOnly: true}, "", nil
	}
	// 5-6. Switch on object:
	if object.Type == BodyInitIsBlob {
		// Blob: source is object; type is object's type attribute value
		// when it is not the empty byte sequence.
		b := object.Blob.idlImpl()
		return &body{source: b.data}, b.typ, nil
	}
	if object.Type == BodyInitIsFormData {
		// FormData: source is the result of running the
		// multipart/form-data encoding algorithm with object's entry list
		// and UTF-8; type is `multipart/form-data; boundary=` followed by
		// the boundary string it generated.
		boundary := xhr.NewBoundary()
		return &body{source: xhr.MultipartFormDataEncode(object.FormData.idlImpl().list, boundary)},
			"multipart/form-data; boundary=" + boundary, nil
	}
	if object.Type == BodyInitIsURLSearchParams {
		// URLSearchParams: source is the result of running the
		// application/x-www-form-urlencoded serializer with object's list;
		// type is `application/x-www-form-urlencoded;charset=UTF-8`.
		s, _ := object.URLSearchParams.Stringifier()
		return &body{source: []byte(s)}, "application/x-www-form-urlencoded;charset=UTF-8", nil
	}
	if object.Type == BodyInitIsUSVString {
		// USVString: source is the UTF-8 encoding of object; type is
		// `text/plain;charset=UTF-8`.
		return &body{source: []byte(object.USVString)}, "text/plain;charset=UTF-8", nil
	}
	// BufferSource: source is a copy of the bytes held by object.
	for _, b := range bodyBuffers(object) {
		if b.Object != nil {
			return &body{source: bytes.Clone(b.Bytes())}, "", nil
		}
	}
	return &body{}, "", nil
}

// bodyBuffers lists the BufferSource members of a BodyInit value in
// member order.
func bodyBuffers(o BodyInit) []webidl.BufferSource {
	return []webidl.BufferSource{o.Int8Array, o.Int16Array, o.Int32Array, o.Uint8Array, o.Uint16Array,
		o.Uint32Array, o.Uint8ClampedArray, o.BigInt64Array, o.BigUint64Array, o.Float32Array,
		o.Float64Array, o.DataView, o.ArrayBuffer}
}

// proxyBody is https://fetch.spec.whatwg.org/#concept-body-proxy... as
// the Request constructor uses it ("creating a proxy" for the input's
// body): a body with a new stream that reads b's (locking it), or, when
// b has no stream yet, one sharing b's source. The caller marks b
// disturbed.
func (r *Realm) proxyBody(b *body) *body {
	if b.stream == nil {
		return &body{source: b.source, net: b.net, terminate: b.terminate}
	}
	reader, err := streams.AcquireReadableStreamDefaultReader(b.stream.s)
	if err != nil {
		// (The caller checked b is usable: unlocked.)
		return &body{source: b.source, net: b.net}
	}
	h := r.streamHost()
	src := streams.UnderlyingSource{
		Pull: func(c *streams.DefaultController) streams.Promise {
			p := h.NewPromise()
			streams.ReadableStreamDefaultReaderRead(reader, streams.ReadRequest{
				Chunk: func(chunk any) {
					_ = streams.ReadableStreamDefaultControllerEnqueue(c, chunk)
					p.Resolve(nil)
				},
				Close: func() {
					streams.ReadableStreamDefaultControllerClose(c)
					p.Resolve(nil)
				},
				Error: func(e any) {
					streams.ReadableStreamDefaultControllerError(c, e)
					p.Resolve(nil)
				},
			})
			return p
		},
		Cancel: func(reason any) streams.Promise { return reader.Cancel(reason) },
	}
	s := streams.CreateReadableStream(h, src, 0, nil)
	return &body{source: b.source, net: b.net, stream: r.newReadableStreamObject(s), streamOnly: b.streamOnly}
}

// cloneBody is https://fetch.spec.whatwg.org/#concept-body-clone: a body
// with a stream is teed (b keeps the first branch, the clone the
// second); a body of bytes without one yet shares its source.
func (r *Realm) cloneBody(b *body) *body {
	if b == nil {
		return nil
	}
	// (Neither copy may end the fetch the other still reads.)
	b.terminate = nil
	if b.stream == nil && b.net == nil {
		return &body{source: b.source}
	}
	// A network body is teed as the standard says, its stream made now:
	// what one branch reads reaches the other's queue (a clone read to
	// its end leaves the original closed).
	r.bodyStream(b)
	// 1. Let « out1, out2 » be the result of teeing body's stream
	// (https://streams.spec.whatwg.org/#readablestream-tee: the second
	// branch's chunks are structured clones).
	out1, out2, err := streams.ReadableStreamTee(b.stream.s, true)
	if err != nil {
		// (Callers check the body is usable first: unlocked.)
		return &body{source: b.source, net: b.net}
	}
	// 2. Set body's stream to out1.
	b.stream = r.newReadableStreamObject(out1)
	// 3. Return a body whose stream is out2 and other members are copied
	// from body.
	return &body{source: b.source, net: b.net, stream: r.newReadableStreamObject(out2), streamOnly: b.streamOnly}
}

// bodyStream is b's stream, made on first use: a ReadableStream set up
// with byte reading support (https://fetch.spec.whatwg.org/#concept-bodyinit-extract
// and the fetch's response body) whose chunks are Uint8Arrays of b's
// source (one chunk), or of a network body's bytes as they arrive (each
// in a task of the networking task source); canceling it ends the
// fetch.
func (r *Realm) bodyStream(b *body) *readableStreamImpl {
	if b.stream != nil {
		return b.stream
	}
	h := r.streamHost()
	var s *streams.ReadableStream
	enqueue := func(chunk []byte) {
		if s.State() != streams.Readable || len(chunk) == 0 {
			return
		}
		_ = streams.EnqueueBytes(s, streams.ArrayBufferView{Buffer: r.vm.NewArrayBuffer(chunk),
			ByteLength: len(chunk), Constructor: "Uint8Array", ElementSize: 1})
	}
	if net := b.net; net != nil {
		s = streams.SetUpWithByteReadingSupport(h, nil, func(any) streams.Promise {
			if b.terminate != nil {
				b.terminate()
			}
			return h.PromiseResolvedWith(nil)
		}, -1)
		// Every chunk is enqueued in a networking task, what arrived
		// before the stream was made as well: the standard's stream
		// (high water mark 0) gets bytes only in fetch tasks after a
		// pull, so a read() is pending when it returns and an abort
		// right after it rejects it.
		end := func(err error) {
			if s.State() != streams.Readable {
				return
			}
			if err != nil {
				streams.Error(s, r.idl.ErrorValue(webidl.NewTypeError("Failed to read the response body")))
				return
			}
			_ = streams.Close(s)
		}
		// The later chunks' tasks wait for the task of what arrived
		// before (mu), so the stream gets the bytes in order.
		var mu sync.Mutex
		mu.Lock()
		sofar, ended, err := net.Subscribe(func(chunk []byte) {
			chunk = bytes.Clone(chunk)
			mu.Lock()
			r.fetchTask(func() { enqueue(chunk) })
			mu.Unlock()
		}, func(err error) {
			mu.Lock()
			r.fetchTask(func() { end(err) })
			mu.Unlock()
		})
		if len(sofar) > 0 || ended {
			first := bytes.Clone(sofar)
			r.fetchTask(func() {
				if len(first) > 0 && (!ended || err == nil) {
					enqueue(first)
				}
				if ended {
					end(err)
				}
			})
		}
		mu.Unlock()
	} else {
		s = streams.SetUpWithByteReadingSupport(h, nil, nil, -1)
		enqueue(bytes.Clone(b.source))
		_ = streams.Close(s)
	}
	b.stream = r.newReadableStreamObject(s)
	return b.stream
}

// fullyReadBody is https://fetch.spec.whatwg.org/#body-fully-read: it
// reads all of b's stream (https://streams.spec.whatwg.org/#readablestreamdefaultreader-read-all-bytes)
// and calls success with its bytes, or failure with the error (a chunk
// that is not a Uint8Array is a TypeError). The stream stays locked.
func (r *Realm) fullyReadBody(b *body, success func([]byte), failure func(sobek.Value)) {
	// 1-3. (The task destination is this realm's event loop.)
	// 4. Let reader be the result of getting a reader for body's stream.
	// If that threw an exception, then run errorSteps with that exception
	// and return.
	reader, err := streams.AcquireReadableStreamDefaultReader(r.bodyStream(b).s)
	if err != nil {
		failure(r.idl.ErrorValue(streamsError(err)))
		return
	}
	// 5. Read all bytes from reader, given successSteps and errorSteps:
	// read-loop, repeated while a read's chunk comes at once (the rest
	// continue from the chunk steps).
	var data []byte
	var loop func()
	loop = func() {
		for {
			sync, again := true, false
			streams.ReadableStreamDefaultReaderRead(reader, streams.ReadRequest{
				Chunk: func(chunk any) {
					// 1. If chunk is not a Uint8Array object, call
					// failureSteps with a TypeError and abort these steps.
					v := jsStreamValue(chunk)
					if r.idl.BufferKindOf(v) != "Uint8Array" {
						failure(r.idl.ErrorValue(webidl.NewTypeError("The body's stream gave a chunk that is not a Uint8Array")))
						return
					}
					// 2. Append the bytes represented by chunk to bytes.
					data = append(data, webidl.BufferSource{Object: v.(*sobek.Object), Kind: "Uint8Array"}.Bytes()...)
					// 3. Read-loop given reader, bytes, successSteps, and
					// failureSteps.
					if sync {
						again = true
					} else {
						loop()
					}
				},
				// close steps: Call successSteps with bytes.
				Close: func() {
					if data == nil {
						data = []byte{}
					}
					success(data)
				},
				// error steps, given e: Call failureSteps with e.
				Error: func(e any) { failure(jsStreamValue(e)) },
			})
			sync = false
			if !again {
				return
			}
		}
	}
	loop()
}

// bodyOwner is a Request or Response: the holder of a body for the Body
// mixin (https://fetch.spec.whatwg.org/#body-mixin).
type bodyOwner struct {
	realm *Realm
	body  *body // nil for a null body
	// headers is the header list "get the MIME type" reads (the
	// Content-Type of the request or response).
	headers *headerList
}

// bodyAttr is https://fetch.spec.whatwg.org/#dom-body-body: null for a
// null body, else its stream.
func (o *bodyOwner) bodyAttr() (ReadableStreamMethods, error) {
	if o.body == nil {
		return nil, nil
	}
	return o.realm.bodyStream(o.body), nil
}

// bodyUsed is https://fetch.spec.whatwg.org/#dom-body-bodyused: the body
// is non-null and its stream is disturbed.
func (o *bodyOwner) bodyUsed() bool {
	b := o.body
	return b != nil && (b.used || b.stream != nil && b.stream.s.Disturbed())
}

// isUnusable is https://fetch.spec.whatwg.org/#body-unusable: the body
// is non-null and its stream disturbed or locked.
func (o *bodyOwner) isUnusable() bool {
	return o.bodyUsed() || o.body != nil && o.body.stream != nil && o.body.stream.s.Locked()
}

// consumeBody is https://fetch.spec.whatwg.org/#concept-body-consume-body:
// convert turns the bytes into the promise's value (an exception rejects
// it).
func (o *bodyOwner) consumeBody(convert func(b []byte) (sobek.Value, error)) *webidl.Promise {
	idl := o.realm.idl
	// (A body whose stream is errored rejects with its error, used or
	// not, as Chromium does: text() twice after an abort rejects with
	// AbortError twice.)
	if o.body != nil && o.body.stream != nil && o.body.stream.s.State() == streams.Errored {
		return idl.PromiseRejectedWith(jsStreamValue(o.body.stream.s.StoredError()))
	}
	// 1. If object is unusable, then return a promise rejected with a
	// TypeError.
	if o.isUnusable() {
		return idl.PromiseRejectedWithError(webidl.NewTypeError("Body is unusable: Body has already been read"))
	}
	// 2. Let promise be a new promise.
	p := idl.NewPromise()
	// 3. Let errorSteps given error be to reject promise with error.
	errorSteps := func(e sobek.Value) { p.Reject(e) }
	// 4. Let successSteps given a byte sequence data be to resolve
	// promise with the result of running convertBytesToJSValue with data.
	// If that threw an exception, then run errorSteps with that exception.
	successSteps := func(data []byte) {
		if v, err := convert(data); err != nil {
			p.RejectError(err)
		} else {
			p.Resolve(v)
		}
	}
	// 5. If object's body is null, then run successSteps with an empty
	// byte sequence.
	if o.body == nil {
		successSteps(nil)
	} else {
		// 6. Otherwise, fully read object's body given successSteps,
		// errorSteps, and object's relevant global object.
		o.realm.fullyReadBody(o.body, successSteps, errorSteps)
	}
	// 7. Return promise.
	return p
}

// utf8Decode is https://encoding.spec.whatwg.org/#utf-8-decode (package
// encoding).
func utf8Decode(b []byte) string { return encoding.UTF8Decode(b) }

func (o *bodyOwner) arrayBuffer() *webidl.Promise {
	return o.consumeBody(func(b []byte) (sobek.Value, error) {
		return o.realm.vm.ToValue(o.realm.vm.NewArrayBuffer(bytes.Clone(b))), nil
	})
}

func (o *bodyOwner) bytes() *webidl.Promise {
	return o.consumeBody(func(b []byte) (sobek.Value, error) {
		vm := o.realm.vm
		ab := vm.ToValue(vm.NewArrayBuffer(bytes.Clone(b)))
		ctor, _ := vm.Get("Uint8Array").(*sobek.Object)
		if ctor == nil {
			return nil, webidl.NewTypeError("Uint8Array is not available")
		}
		return vm.New(ctor, ab)
	})
}

// blob is https://fetch.spec.whatwg.org/#dom-body-blob: a Blob of the
// bytes whose type is the object's MIME type (its Content-Type, lower
// case, "" when it has none).
func (o *bodyOwner) blob() *webidl.Promise {
	return o.consumeBody(func(b []byte) (sobek.Value, error) {
		typ := ""
		if o.headers != nil {
			if ct, ok := o.headers.Get("Content-Type"); ok {
				typ = normalizeBlobType(ct)
			}
		}
		return idlWrapBlob(o.realm.idl, &blobImpl{realm: o.realm, data: b, typ: typ}), nil
	})
}

// formData is https://fetch.spec.whatwg.org/#dom-body-formdata: the
// bytes parsed per the object's MIME type's essence
// (multipart/form-data with its boundary, or
// application/x-www-form-urlencoded) into a new FormData object; any
// other type, or bytes that do not parse, reject with a TypeError.
func (o *bodyOwner) formData() *webidl.Promise {
	return o.consumeBody(func(b []byte) (sobek.Value, error) {
		// 1. Let mimeType be the result of get the MIME type with this.
		mimeType := ""
		if o.headers != nil {
			mimeType, _ = o.headers.Get("Content-Type")
		}
		// 2. If mimeType is non-null, switch on its essence:
		switch essence := mimeEssence(mimeType); essence {
		case "multipart/form-data":
			// 2.1. Parse bytes using the boundary parameter, per RFC 7578;
			//      a failure throws a TypeError.
			entries, err := xhr.ParseMultipartFormData(b, xhr.Boundary(mimeType))
			if err != nil {
				return nil, webidl.NewTypeError("Failed to parse the body as multipart/form-data")
			}
			// 2.2. Return a new FormData object of the entries.
			return o.realm.vm.ToValue(idlWrapFormData(o.realm.idl, o.realm.newFormData(entries))), nil
		case "application/x-www-form-urlencoded":
			// 2.1. Let entries be the result of parsing bytes. 2.2. Return
			//      a new FormData object whose entry list is entries.
			return o.realm.vm.ToValue(idlWrapFormData(o.realm.idl, o.realm.newFormData(xhr.URLEncodedParse(b)))), nil
		}
		// 3. Throw a TypeError.
		return nil, webidl.NewTypeError("The body's Content-Type is neither multipart/form-data nor application/x-www-form-urlencoded")
	})
}

// mimeEssence is the essence (type/subtype, lower case) of a MIME type
// string, "" when it does not parse as one.
func mimeEssence(s string) string {
	t, _, _ := strings.Cut(s, ";")
	t = strings.ToLower(strings.Trim(t, " \t\r\n"))
	typ, sub, ok := strings.Cut(t, "/")
	if !ok || typ == "" || sub == "" || strings.ContainsAny(t, " \t\"(),:<>?@[\\]{}") {
		return ""
	}
	return t
}

func (o *bodyOwner) text() *webidl.Promise {
	return o.consumeBody(func(b []byte) (sobek.Value, error) {
		return o.realm.vm.ToValue(utf8Decode(b)), nil
	})
}

// json parses the body: https://infra.spec.whatwg.org/#parse-json-bytes-to-a-javascript-value
// (a SyntaxError rejects the promise).
func (o *bodyOwner) json() *webidl.Promise {
	return o.consumeBody(func(b []byte) (sobek.Value, error) {
		vm := o.realm.vm
		jsonObj := vm.Get("JSON").ToObject(vm)
		parse, _ := sobek.AssertFunction(jsonObj.Get("parse"))
		v, err := parse(jsonObj, vm.ToValue(utf8Decode(b)))
		if err != nil {
			return nil, err
		}
		return v, nil
	})
}
