package bindings

import (
	"time"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/xhr"
)

// This file is the XMLHttpRequest Standard's FormData
// (https://xhr.spec.whatwg.org/#interface-formdata) over package xhr's
// entry list; its File values are blobImpl with isFile (file.go).

// formDataImpl is a FormData object.
type formDataImpl struct {
	webidl.Reflector
	realm *Realm
	list  xhr.EntryList
	// files maps the file values of the entries to their File objects,
	// so that get() returns the same object each time.
	files map[*xhr.File]*blobImpl
}

type formDataStatics struct{}

// Constructor is https://xhr.spec.whatwg.org/#dom-formdata (without a
// form: see package xhr).
func (formDataStatics) Constructor(ir *webidl.Realm) (FormDataMethods, error) {
	return &formDataImpl{realm: realmOf(ir)}, nil
}

// newFormData returns a FormData object whose entry list is entries.
func (r *Realm) newFormData(entries []xhr.Entry) *formDataImpl {
	return &formDataImpl{realm: r, list: entries}
}

// blobEntry is https://xhr.spec.whatwg.org/#create-an-entry for a Blob
// value.
func (f *formDataImpl) blobEntry(name string, v BlobMethods, filename webidl.Optional[string]) xhr.Entry {
	b := v.idlImpl()
	var fn *string
	if filename.Present {
		fn = &filename.Value
	}
	e := xhr.CreateAnEntry(name, "", &xhr.File{Name: b.name, Type: b.typ, Data: b.data, LastModified: b.lastModified},
		b.isFile, fn, time.Now().UnixMilli())
	if b.isFile && fn == nil {
		// The entry's value is the File object itself.
		f.fileObject(e.File, b)
	}
	return e
}

// fileObject records (b non-nil) or returns the File object of an entry's
// file value, made the first time it is asked for.
func (f *formDataImpl) fileObject(v *xhr.File, b *blobImpl) *blobImpl {
	if f.files == nil {
		f.files = map[*xhr.File]*blobImpl{}
	}
	if b != nil {
		f.files[v] = b
		return b
	}
	if o, ok := f.files[v]; ok {
		return o
	}
	o := &blobImpl{realm: f.realm, data: v.Data, typ: v.Type, isFile: true, name: v.Name, lastModified: v.LastModified}
	f.files[v] = o
	return o
}

// pruneFiles forgets the File objects of removed entries.
func (f *formDataImpl) pruneFiles() {
	if len(f.files) == 0 {
		return
	}
	live := make(map[*xhr.File]bool, len(f.list))
	for _, e := range f.list {
		if e.File != nil {
			live[e.File] = true
		}
	}
	for k := range f.files {
		if !live[k] {
			delete(f.files, k)
		}
	}
}

func (f *formDataImpl) value(e xhr.Entry) FormDataEntryValue {
	if e.File != nil {
		return FormDataEntryValue{Type: FormDataEntryValueIsFile, File: f.fileObject(e.File, nil)}
	}
	return FormDataEntryValue{Type: FormDataEntryValueIsUSVString, USVString: e.Value}
}

// AppendWithValue is https://xhr.spec.whatwg.org/#dom-formdata-append.
func (f *formDataImpl) AppendWithValue(name, value string) error {
	f.list.Append(xhr.CreateAnEntry(name, value, nil, false, nil, 0))
	return nil
}

// AppendWithBlobValue is https://xhr.spec.whatwg.org/#dom-formdata-append-blob.
func (f *formDataImpl) AppendWithBlobValue(name string, v BlobMethods, filename webidl.Optional[string]) error {
	f.list.Append(f.blobEntry(name, v, filename))
	return nil
}

// Delete is https://xhr.spec.whatwg.org/#dom-formdata-delete.
func (f *formDataImpl) Delete(name string) error {
	f.list.Delete(name)
	f.pruneFiles()
	return nil
}

// Get is https://xhr.spec.whatwg.org/#dom-formdata-get.
func (f *formDataImpl) Get(name string) (webidl.Nullable[FormDataEntryValue], error) {
	e, ok := f.list.Get(name)
	if !ok {
		return webidl.Nullable[FormDataEntryValue]{Null: true}, nil
	}
	return webidl.NonNull(f.value(e)), nil
}

// GetAll is https://xhr.spec.whatwg.org/#dom-formdata-getall.
func (f *formDataImpl) GetAll(name string) ([]FormDataEntryValue, error) {
	out := []FormDataEntryValue{}
	for _, e := range f.list.GetAll(name) {
		out = append(out, f.value(e))
	}
	return out, nil
}

// Has is https://xhr.spec.whatwg.org/#dom-formdata-has.
func (f *formDataImpl) Has(name string) (bool, error) { return f.list.Has(name), nil }

// SetWithValue is https://xhr.spec.whatwg.org/#dom-formdata-set.
func (f *formDataImpl) SetWithValue(name, value string) error {
	f.list.Set(xhr.CreateAnEntry(name, value, nil, false, nil, 0))
	f.pruneFiles()
	return nil
}

// SetWithBlobValue is https://xhr.spec.whatwg.org/#dom-formdata-set-blob.
func (f *formDataImpl) SetWithBlobValue(name string, v BlobMethods, filename webidl.Optional[string]) error {
	f.list.Set(f.blobEntry(name, v, filename))
	f.pruneFiles()
	return nil
}

// IterablePairs is the value pairs to iterate over: the entries' names
// and values (https://xhr.spec.whatwg.org/#interface-formdata).
func (f *formDataImpl) IterablePairs() ([]webidl.KV[string, FormDataEntryValue], error) {
	out := make([]webidl.KV[string, FormDataEntryValue], len(f.list))
	for i, e := range f.list {
		out[i] = webidl.KV[string, FormDataEntryValue]{Key: e.Name, Value: f.value(e)}
	}
	return out, nil
}
