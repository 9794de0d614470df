package bindings

import (
	"bytes"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/encoding"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/xhr"
	"github.com/grafana/sobek"
)

// This file is the Fetch Standard's bodies
// (https://fetch.spec.whatwg.org/#concept-body) and the Body mixin. A body
// is a byte sequence held in memory, or a response body still arriving
// from the network (package fetch reads it; consumers wait for all of
// it): there is no ReadableStream, so its stream is "disturbed" once it
// has been consumed.

// body is https://fetch.spec.whatwg.org/#concept-body (its source and
// length; the stream is the bytes themselves).
type body struct {
	source []byte
	used   bool // the stream is disturbed (read)
	// net is a response body from the network, read as it arrives:
	// source is unused then.
	net *fetch.Body
}

// extractBody is https://fetch.spec.whatwg.org/#concept-bodyinit-extract
// for the BodyInit members this engine has: it returns the body and its
// type ("" for null).
func extractBody(object BodyInit) (*body, string) {
	// 1-4. (Streams are not supported.)
	// 5-6. Switch on object:
	if object.Type == BodyInitIsBlob {
		// Blob: source is object; type is object's type attribute value
		// when it is not the empty byte sequence.
		b := object.Blob.idlImpl()
		return &body{source: b.data}, b.typ
	}
	if object.Type == BodyInitIsFormData {
		// FormData: source is the result of running the
		// multipart/form-data encoding algorithm with object's entry list
		// and UTF-8; type is `multipart/form-data; boundary=` followed by
		// the boundary string it generated.
		boundary := xhr.NewBoundary()
		return &body{source: xhr.MultipartFormDataEncode(object.FormData.idlImpl().list, boundary)},
			"multipart/form-data; boundary=" + boundary
	}
	if object.Type == BodyInitIsURLSearchParams {
		// URLSearchParams: source is the result of running the
		// application/x-www-form-urlencoded serializer with object's list;
		// type is `application/x-www-form-urlencoded;charset=UTF-8`.
		s, _ := object.URLSearchParams.Stringifier()
		return &body{source: []byte(s)}, "application/x-www-form-urlencoded;charset=UTF-8"
	}
	if object.Type == BodyInitIsUSVString {
		// USVString: source is the UTF-8 encoding of object; type is
		// `text/plain;charset=UTF-8`.
		return &body{source: []byte(object.USVString)}, "text/plain;charset=UTF-8"
	}
	// BufferSource: source is a copy of the bytes held by object.
	for _, b := range bodyBuffers(object) {
		if b.Object != nil {
			return &body{source: bytes.Clone(b.Bytes())}, ""
		}
	}
	return &body{}, ""
}

// bodyBuffers lists the BufferSource members of a BodyInit value in
// member order.
func bodyBuffers(o BodyInit) []webidl.BufferSource {
	return []webidl.BufferSource{o.Int8Array, o.Int16Array, o.Int32Array, o.Uint8Array, o.Uint16Array,
		o.Uint32Array, o.Uint8ClampedArray, o.BigInt64Array, o.BigUint64Array, o.Float32Array,
		o.Float64Array, o.DataView, o.ArrayBuffer}
}

func (b *body) clone() *body {
	if b == nil {
		return nil
	}
	return &body{source: b.source, net: b.net}
}

// bodyOwner is a Request or Response: the holder of a body for the Body
// mixin (https://fetch.spec.whatwg.org/#body-mixin).
type bodyOwner struct {
	realm *Realm
	body  *body // nil for a null body
	// headers is the header list "get the MIME type" reads (the
	// Content-Type of the request or response).
	headers *headerList
	// abortReason is the error a fetch() abort gave the body's stream
	// while the body was still arriving.
	abortReason sobek.Value
}

// bodyUsed is https://fetch.spec.whatwg.org/#dom-body-bodyused.
func (o *bodyOwner) bodyUsed() bool { return o.body != nil && o.body.used }

// isUnusable is https://fetch.spec.whatwg.org/#body-unusable.
func (o *bodyOwner) isUnusable() bool { return o.bodyUsed() }

// consumeBody is https://fetch.spec.whatwg.org/#concept-body-consume-body:
// convert turns the bytes into the promise's value (an exception rejects
// it).
func (o *bodyOwner) consumeBody(convert func(b []byte) (sobek.Value, error)) *webidl.Promise {
	idl := o.realm.idl
	// 1. If object is unusable, then return a promise rejected with a
	// TypeError.
	if o.isUnusable() {
		return idl.PromiseRejectedWithError(webidl.NewTypeError("Body is unusable: Body has already been read"))
	}
	// 2. Let promise be a new promise.
	p := idl.NewPromise()
	// 5. If object's body is null, then run successSteps with an empty
	// byte sequence. 6. Otherwise, fully read object's body: a body from
	// the network settles the promise in a task once all of it is in.
	if o.body != nil && o.body.net != nil {
		o.body.used = true
		net, r := o.body.net, o.realm
		net.OnLoad(func() {
			r.fetchTask(func() {
				data, err := net.Result()
				switch {
				case o.abortReason != nil:
					// The abort errored the stream before all of it was
					// in (whatever the read then returned).
					p.Reject(o.abortReason)
				case err != nil:
					p.RejectError(webidl.NewTypeError("Failed to read the response body"))
				default:
					if v, err := convert(data); err != nil {
						p.RejectError(err)
					} else {
						p.Resolve(v)
					}
				}
			})
		})
		return p
	}
	var data []byte
	if o.body != nil {
		data = o.body.source
		o.body.used = true
	}
	// 3-4. Success steps resolve with the converted value; error steps
	// reject.
	v, err := convert(data)
	if err != nil {
		p.RejectError(err)
	} else {
		p.Resolve(v)
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
