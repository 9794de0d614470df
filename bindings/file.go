package bindings

import (
	"time"

	"github.com/gowebengine/weblocks/bindings/webidl"
)

// This file is the File API's File
// (https://w3c.github.io/FileAPI/#file-section): a Blob with a name and a
// last modification time, so a blobImpl with isFile set.

type fileStatics struct{}

// Constructor is https://w3c.github.io/FileAPI/#file-constructor.
func (fileStatics) Constructor(ir *webidl.Realm, bits []BlobPart, fileName string, options FilePropertyBag) (FileMethods, error) {
	r := realmOf(ir)
	// 1. Let bytes be the result of processing blob parts given fileBits
	//    and options.
	data := processBlobParts(bits, options.Endings)
	// 2. Let n be the fileName argument (its slashes are not
	//    converted).
	// 3.1. If the type member of options is not the empty string,
	//    normalize it (as Blob's constructor does).
	// 3.3. If the lastModified member of options is present, set d to it;
	//    otherwise to the current date and time (milliseconds since the
	//    epoch).
	d := time.Now().UnixMilli()
	if options.LastModified.Present {
		d = options.LastModified.Value
	}
	// 4. Return a new File object F with bytes, size, name n, type t and
	//    lastModified d.
	return &blobImpl{realm: r, data: data, typ: normalizeBlobType(string(options.Type)), isFile: true, name: fileName, lastModified: d}, nil
}

// Name is https://w3c.github.io/FileAPI/#dfn-name.
func (b *blobImpl) Name() (webidl.DOMString, error) { return webidl.DOMString(b.name), nil }

// LastModified is https://w3c.github.io/FileAPI/#dfn-lastModified.
func (b *blobImpl) LastModified() (int64, error) { return b.lastModified, nil }
