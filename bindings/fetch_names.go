package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

// This file holds every name of the fetch and Blob implementations that
// depends on how the generator names things (union types and their member
// constants, method names of attributes and operations), so that a change
// of the generator's naming is one file's edit.

// headersInit is the HeadersInit union.
type headersInit = HeadersInit

const (
	headersInitIsSequence = HeadersInitIsSequenceOfSequenceOfByteString
	headersInitIsRecord   = HeadersInitIsRecordOfByteStringToByteString
)

// requestInfo is the RequestInfo union.
type requestInfo = RequestInfo

const requestInfoIsUSVString = RequestInfoIsUSVString

// bodyInit is the BodyInit union of this engine.
type bodyInit = BodyInit

const (
	bodyInitIsUSVString = BodyInitIsUSVString
	bodyInitIsBlob      = BodyInitIsBlob
	bodyInitIsParams    = BodyInitIsURLSearchParams
)

// blobPart is the BlobPart union.
type blobPart = Int8ArrayOrInt16ArrayOrInt32ArrayOrUint8ArrayOrUint16ArrayOrUint32ArrayOrUint8ClampedArrayOrBigInt64ArrayOrBigUint64ArrayOrFloat32ArrayOrFloat64ArrayOrDataViewOrArrayBufferOrBlobOrUSVString

const (
	blobPartIsBlob      = Int8ArrayOrInt16ArrayOrInt32ArrayOrUint8ArrayOrUint16ArrayOrUint32ArrayOrUint8ClampedArrayOrBigInt64ArrayOrBigUint64ArrayOrFloat32ArrayOrFloat64ArrayOrDataViewOrArrayBufferOrBlobOrUSVStringIsBlob
	blobPartIsUSVString = Int8ArrayOrInt16ArrayOrInt32ArrayOrUint8ArrayOrUint16ArrayOrUint32ArrayOrUint8ClampedArrayOrBigInt64ArrayOrBigUint64ArrayOrFloat32ArrayOrFloat64ArrayOrDataViewOrArrayBufferOrBlobOrUSVStringIsUSVString
)

// URL is Request's url attribute (https://fetch.spec.whatwg.org/#dom-request-url).
func (q *requestImpl) URL() (string, error) { return urlString(q.req.url), nil }

// JSON is Body's json() for a Request.
func (q *requestImpl) JSON() (*webidl.Promise, error) { return q.json(), nil }

// URL is Response's url attribute.
func (o *responseImpl) URL() (string, error) { return o.url() }

// JSON is Body's json() for a Response.
func (o *responseImpl) JSON() (*webidl.Promise, error) { return o.json(), nil }

// JSON is the static Response.json(data, init).
func (s responseStatics) JSON(ir *webidl.Realm, data sobek.Value, init ResponseInit) (ResponseMethods, error) {
	return s.json(ir, data, init)
}
