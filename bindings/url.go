package bindings

import (
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/gowebengine/weblocks/bindings/webidl"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements URL and URLSearchParams over
// github.com/nlnwa/whatwg-url (the URL parser and its search params).

var urlParser = whatwg.NewParser()

type urlImpl struct {
	webidl.Reflector
	u      *whatwg.Url
	params *urlSearchParamsImpl
}

func invalidURL(what, s string) error {
	return webidl.NewTypeError("Failed to construct 'URL': Invalid %s '%s'.", what, s)
}

// parseURL is the API URL parser with an optional base.
func parseURL(s string, base webidl.Optional[string]) (*whatwg.Url, error) {
	if base.Present {
		b, err := urlParser.Parse(base.Value)
		if err != nil {
			return nil, invalidURL("base URL", base.Value)
		}
		u, err := b.Parse(s)
		if err != nil {
			return nil, invalidURL("URL", s)
		}
		return u, nil
	}
	u, err := urlParser.Parse(s)
	if err != nil {
		return nil, invalidURL("URL", s)
	}
	return u, nil
}

func newURLImpl(u *whatwg.Url) *urlImpl {
	impl := &urlImpl{u: u}
	impl.params = &urlSearchParamsImpl{url: impl}
	return impl
}

type urlStatics struct{}

// new URL(url, base): https://url.spec.whatwg.org/#dom-url-url
func (urlStatics) Constructor(r *webidl.Realm, s string, base webidl.Optional[string]) (URLMethods, error) {
	u, err := parseURL(s, base)
	if err != nil {
		return nil, err
	}
	return newURLImpl(u), nil
}

// URL.parse(url, base): null on failure.
func (urlStatics) Parse(r *webidl.Realm, s string, base webidl.Optional[string]) (URLMethods, error) {
	u, err := parseURL(s, base)
	if err != nil {
		return nil, nil
	}
	return newURLImpl(u), nil
}

// URL.canParse(url, base)
func (urlStatics) CanParse(r *webidl.Realm, s string, base webidl.Optional[string]) (bool, error) {
	_, err := parseURL(s, base)
	return err == nil, nil
}

func (u *urlImpl) Href() (string, error) { return u.u.Href(false), nil }

// SetHref parses the new value (TypeError on failure) and replaces the URL.
func (u *urlImpl) SetHref(v string) error {
	nu, err := urlParser.Parse(v)
	if err != nil {
		return webidl.NewTypeError("Failed to set the 'href' property on 'URL': Invalid URL '%s'.", v)
	}
	u.u = nu
	return nil
}

func (u *urlImpl) ToJSON() (string, error) { return u.u.Href(false), nil }

// Origin is https://url.spec.whatwg.org/#concept-url-origin serialized.
func (u *urlImpl) Origin() (string, error) { return urlOrigin(u.u), nil }

func urlOrigin(u *whatwg.Url) string {
	switch u.Scheme() {
	case "http", "https", "ws", "wss", "ftp":
		return u.Scheme() + "://" + u.Host()
	case "blob":
		inner, err := urlParser.Parse(u.Pathname())
		if err == nil && (inner.Scheme() == "http" || inner.Scheme() == "https") {
			return urlOrigin(inner)
		}
	}
	return "null"
}

func (u *urlImpl) Protocol() (string, error) { return u.u.Protocol(), nil }
func (u *urlImpl) SetProtocol(v string) error {
	u.u.SetProtocol(v)
	return nil
}
func (u *urlImpl) Username() (string, error) { return u.u.Username(), nil }
func (u *urlImpl) SetUsername(v string) error {
	u.u.SetUsername(v)
	return nil
}
func (u *urlImpl) Password() (string, error) { return u.u.Password(), nil }
func (u *urlImpl) SetPassword(v string) error {
	u.u.SetPassword(v)
	return nil
}
func (u *urlImpl) Host() (string, error) { return u.u.Host(), nil }
func (u *urlImpl) SetHost(v string) error {
	u.u.SetHost(v)
	return nil
}
func (u *urlImpl) Hostname() (string, error) { return u.u.Hostname(), nil }
func (u *urlImpl) SetHostname(v string) error {
	u.u.SetHostname(v)
	return nil
}
func (u *urlImpl) Port() (string, error) { return u.u.Port(), nil }
func (u *urlImpl) SetPort(v string) error {
	u.u.SetPort(v)
	return nil
}
func (u *urlImpl) Pathname() (string, error) { return u.u.Pathname(), nil }
func (u *urlImpl) SetPathname(v string) error {
	u.u.SetPathname(v)
	return nil
}
func (u *urlImpl) Search() (string, error) { return u.u.Search(), nil }
func (u *urlImpl) SetSearch(v string) error {
	u.u.SetSearch(v)
	return nil
}
func (u *urlImpl) Hash() (string, error) { return u.u.Hash(), nil }
func (u *urlImpl) SetHash(v string) error {
	u.u.SetHash(v)
	return nil
}
func (u *urlImpl) SearchParams() (URLSearchParamsMethods, error) { return u.params, nil }

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
// for UTF-8.
func serializeURLEncoded(list []nameValue) string {
	var b strings.Builder
	enc := func(s string) {
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == ' ':
				b.WriteByte('+')
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '*', c == '-', c == '.', c == '_':
				b.WriteByte(c)
			default:
				const hex = "0123456789ABCDEF"
				b.WriteByte('%')
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			}
		}
	}
	for i, nv := range list {
		if i > 0 {
			b.WriteByte('&')
		}
		enc(nv.name)
		b.WriteByte('=')
		enc(nv.value)
	}
	return b.String()
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
