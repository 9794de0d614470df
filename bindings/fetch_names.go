package bindings

// This file holds the names of generated union types and their member
// constants that the fetch and Blob implementations use, so that a change
// of the generator's union naming is one file's edit.

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
