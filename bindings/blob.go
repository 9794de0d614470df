package bindings

import (
	"bytes"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

// This file is the File API's Blob (https://w3c.github.io/FileAPI/#blob-section),
// as far as fetch() bodies need it: bytes in memory and a type.

// blobImpl is a Blob object.
type blobImpl struct {
	webidl.Reflector
	realm *Realm
	data  []byte // never modified once the blob exists
	typ   string
	// A File (https://w3c.github.io/FileAPI/#file-section) is a Blob
	// with a name and a last modification time (milliseconds since the
	// epoch): formdata.go.
	isFile       bool
	name         string
	lastModified int64
}

// normalizeBlobType is step 3 of the Blob constructor for a type: the
// empty string when it has a code point outside U+0020 to U+007E, else its
// ASCII lowercase.
func normalizeBlobType(t string) string {
	for i := 0; i < len(t); i++ {
		if t[i] < 0x20 || t[i] > 0x7E {
			return ""
		}
	}
	return strings.ToLower(t)
}

// convertLineEndingsToNative is
// https://w3c.github.io/FileAPI/#convert-line-endings-to-native (the native
// line ending of this engine is "\n").
func convertLineEndingsToNative(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// processBlobParts is https://w3c.github.io/FileAPI/#process-blob-parts.
func processBlobParts(parts []BlobPart, endings EndingType) []byte {
	// 1. Let bytes be an empty sequence of bytes.
	var out []byte
	// 2. For each element in parts:
	for _, p := range parts {
		switch p.Type {
		case BlobPartIsUSVString:
			// 2.1. If element is a USVString: convert line endings to
			// native when endings is "native", then append its UTF-8
			// encoding.
			s := p.USVString
			if endings == EndingTypeNative {
				s = convertLineEndingsToNative(s)
			}
			out = append(out, s...)
		case BlobPartIsBlob:
			// 2.3. If element is a Blob, append the bytes it represents.
			out = append(out, p.Blob.idlImpl().data...)
		default:
			// 2.2. If element is a BufferSource, get a copy of the bytes
			// held by the buffer source, and append those bytes.
			for _, b := range []webidl.BufferSource{p.Int8Array, p.Int16Array, p.Int32Array, p.Uint8Array,
				p.Uint16Array, p.Uint32Array, p.Uint8ClampedArray, p.BigInt64Array, p.BigUint64Array,
				p.Float32Array, p.Float64Array, p.DataView, p.ArrayBuffer} {
				if b.Object != nil {
					out = append(out, b.Bytes()...)
					break
				}
			}
		}
	}
	// 3. Return bytes.
	return out
}

type blobStatics struct{}

// Constructor is https://w3c.github.io/FileAPI/#constructorBlob.
func (blobStatics) Constructor(ir *webidl.Realm, parts webidl.Optional[[]BlobPart], options BlobPropertyBag) (BlobMethods, error) {
	r := realmOf(ir)
	// 1. If invoked with zero parameters, return a new Blob object with 0
	// bytes and size 0.
	// 2. Let bytes be the result of processing blob parts.
	var data []byte
	if parts.Present {
		data = processBlobParts(parts.Value, options.Endings)
	}
	// 3. If the type member of options is not the empty string, normalize
	// it.
	// 4. Return a Blob object referring to bytes as its associated byte
	// sequence, with its size set to the length of bytes, and its type
	// set to the value of t from the substeps above.
	return &blobImpl{realm: r, data: data, typ: normalizeBlobType(string(options.Type))}, nil
}

func (b *blobImpl) Size() (uint64, error)           { return uint64(len(b.data)), nil }
func (b *blobImpl) Type() (webidl.DOMString, error) { return webidl.DOMString(b.typ), nil }

// Slice is https://w3c.github.io/FileAPI/#dfn-slice.
func (b *blobImpl) Slice(start, end webidl.Optional[int64], contentType webidl.Optional[webidl.DOMString]) (BlobMethods, error) {
	size := int64(len(b.data))
	// 1-2. relativeStart: 0 when start is absent; from the end when
	// negative (at least 0); else at most size.
	clampRel := func(v webidl.Optional[int64], def int64) int64 {
		if !v.Present {
			return def
		}
		if v.Value < 0 {
			return max(size+v.Value, 0)
		}
		return min(v.Value, size)
	}
	relStart := clampRel(start, 0)
	// 3. relativeEnd likewise, size when end is absent.
	relEnd := clampRel(end, size)
	// 4. relativeContentType: "" when absent or out of range, else lower
	// case.
	typ := ""
	if contentType.Present {
		typ = normalizeBlobType(string(contentType.Value))
	}
	// 5. Let span be max((relativeEnd - relativeStart), 0).
	span := max(relEnd-relStart, 0)
	// 6. Return a new Blob of the span bytes from relativeStart.
	return &blobImpl{realm: b.realm, data: b.data[relStart : relStart+span], typ: typ}, nil
}

// Text is https://w3c.github.io/FileAPI/#dom-blob-text.
func (b *blobImpl) Text() (*webidl.Promise, error) {
	return b.realm.idl.PromiseResolvedWith(b.realm.vm.ToValue(utf8Decode(b.data))), nil
}

// ArrayBuffer is https://w3c.github.io/FileAPI/#dom-blob-arraybuffer.
func (b *blobImpl) ArrayBuffer() (*webidl.Promise, error) {
	vm := b.realm.vm
	return b.realm.idl.PromiseResolvedWith(vm.ToValue(vm.NewArrayBuffer(bytes.Clone(b.data)))), nil
}

// Bytes is https://w3c.github.io/FileAPI/#dom-blob-bytes.
func (b *blobImpl) Bytes() (*webidl.Promise, error) {
	vm := b.realm.vm
	ctor, _ := vm.Get("Uint8Array").(*sobek.Object)
	if ctor == nil {
		return nil, webidl.NewTypeError("Uint8Array is not available")
	}
	u8, err := vm.New(ctor, vm.ToValue(vm.NewArrayBuffer(bytes.Clone(b.data))))
	if err != nil {
		return nil, err
	}
	return b.realm.idl.PromiseResolvedWith(u8), nil
}
