package bindings

import (
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/xhr"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// URLSearchParams: a list of name-value pairs, standalone or the query of
// a URL object. The list is parsed with whatwg-url (a scratch URL's search
// params, so that reading never rewrites the URL object's query) and
// serialized with the application/x-www-form-urlencoded serializer.

type nameValue struct{ name, value string }

type urlSearchParamsImpl struct {
	webidl.Reflector
	list []nameValue
	// url, when set, is the URL object whose query this list is.
	url *urlImpl
}

// parseURLEncoded is the application/x-www-form-urlencoded parser (the
// library's search params over a scratch URL).
func parseURLEncoded(query string) []nameValue {
	holder, _ := urlParser.Parse("http://h/")
	holder.SetSearch(strings.TrimPrefix(query, "?"))
	var out []nameValue
	holder.SearchParams().Iterate(func(nv *whatwg.NameValuePair) { out = append(out, nameValue{nv.Name, nv.Value}) })
	return out
}

// serializeURLEncoded is https://url.spec.whatwg.org/#concept-urlencoded-serializer
// for UTF-8 (package xhr's, which FormData bodies use too).
func serializeURLEncoded(list []nameValue) string {
	entries := make([]xhr.Entry, len(list))
	for i, nv := range list {
		entries[i] = xhr.Entry{Name: nv.name, Value: nv.value}
	}
	return xhr.URLEncodedSerialize(entries)
}

// pairs returns the current list (a URL's is re-read from its query).
func (p *urlSearchParamsImpl) pairs() []nameValue {
	if p.url != nil {
		p.list = parseURLEncoded(p.url.u.Query())
	}
	return p.list
}

// update is https://url.spec.whatwg.org/#concept-urlsearchparams-update
func (p *urlSearchParamsImpl) update(list []nameValue) {
	p.list = list
	if p.url == nil {
		return
	}
	// 2. Let serializedQuery be the serialization of query's list. 3. If
	//    serializedQuery is the empty string, then set it to null. 4. Set
	//    query's URL object's URL's query to serializedQuery.
	p.url.u.SetSearch(serializeURLEncoded(list))
}

type urlSearchParamsStatics struct{}

// new URLSearchParams(init): https://url.spec.whatwg.org/#dom-urlsearchparams-urlsearchparams
func (urlSearchParamsStatics) Constructor(r *webidl.Realm, init SequenceOfSequenceOfUSVStringOrRecordOfUSVStringToUSVStringOrUSVString) (URLSearchParamsMethods, error) {
	p := &urlSearchParamsImpl{}
	switch init.Type {
	case SequenceOfSequenceOfUSVStringOrRecordOfUSVStringToUSVStringOrUSVStringIsSequenceOfSequenceOfUSVString:
		for _, pair := range init.SequenceOfSequenceOfUSVString {
			// If pair does not contain exactly two items, throw a TypeError.
			if len(pair) != 2 {
				return nil, webidl.NewTypeError("Failed to construct 'URLSearchParams': Sequence initializer must only contain pair elements")
			}
			p.list = append(p.list, nameValue{pair[0], pair[1]})
		}
	case SequenceOfSequenceOfUSVStringOrRecordOfUSVStringToUSVStringOrUSVStringIsRecordOfUSVStringToUSVString:
		for _, e := range init.RecordOfUSVStringToUSVString {
			p.list = append(p.list, nameValue{e.Key, e.Value})
		}
	default:
		p.list = parseURLEncoded(init.USVString)
	}
	return p, nil
}

func (p *urlSearchParamsImpl) Size() (uint32, error) { return uint32(len(p.pairs())), nil }

func (p *urlSearchParamsImpl) Append(name, value string) error {
	p.update(append(p.pairs(), nameValue{name, value}))
	return nil
}

// Delete removes the pairs named name (and, when given, with that value).
func (p *urlSearchParamsImpl) Delete(name string, value webidl.Optional[string]) error {
	var out []nameValue
	for _, nv := range p.pairs() {
		if nv.name == name && (!value.Present || nv.value == value.Value) {
			continue
		}
		out = append(out, nv)
	}
	p.update(out)
	return nil
}

func (p *urlSearchParamsImpl) Get(name string) (webidl.Nullable[string], error) {
	for _, nv := range p.pairs() {
		if nv.name == name {
			return webidl.NonNull(nv.value), nil
		}
	}
	return webidl.Null[string](), nil
}

func (p *urlSearchParamsImpl) GetAll(name string) ([]string, error) {
	out := []string{}
	for _, nv := range p.pairs() {
		if nv.name == name {
			out = append(out, nv.value)
		}
	}
	return out, nil
}

func (p *urlSearchParamsImpl) Has(name string, value webidl.Optional[string]) (bool, error) {
	for _, nv := range p.pairs() {
		if nv.name == name && (!value.Present || nv.value == value.Value) {
			return true, nil
		}
	}
	return false, nil
}

// Set replaces the first pair named name and removes the others, or
// appends one.
func (p *urlSearchParamsImpl) Set(name, value string) error {
	var out []nameValue
	found := false
	for _, nv := range p.pairs() {
		if nv.name == name {
			if !found {
				out = append(out, nameValue{name, value})
				found = true
			}
			continue
		}
		out = append(out, nv)
	}
	if !found {
		out = append(out, nameValue{name, value})
	}
	p.update(out)
	return nil
}

// Sort is a stable sort by name in UTF-16 code unit order.
func (p *urlSearchParamsImpl) Sort() error {
	list := append([]nameValue(nil), p.pairs()...)
	sort.SliceStable(list, func(i, j int) bool { return lessUTF16(list[i].name, list[j].name) })
	p.update(list)
	return nil
}

func lessUTF16(a, b string) bool {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}

func (p *urlSearchParamsImpl) Stringifier() (webidl.DOMString, error) {
	return webidl.DOMString(serializeURLEncoded(p.pairs())), nil
}

func (p *urlSearchParamsImpl) IterablePairs() ([]webidl.KV[string, string], error) {
	var out []webidl.KV[string, string]
	for _, nv := range p.pairs() {
		out = append(out, webidl.KV[string, string]{Key: nv.name, Value: nv.value})
	}
	return out, nil
}
