package cachestorage

import (
	"errors"
	"net/url"
	"testing"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
)

func req(t *testing.T, method, raw string, headers ...string) *fetch.Request {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	r := fetch.NewRequest(u, nil)
	r.Method = method
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Append(headers[i], headers[i+1])
	}
	return r
}

func resp(body string, headers ...string) *fetch.Response {
	r := &fetch.Response{Type: "basic", Status: 200, Body: &fetch.Body{Source: []byte(body)}}
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Append(headers[i], headers[i+1])
	}
	return r
}

func body(r *fetch.Response) string { return string(r.Body.Source) }

func TestPutMatchDelete(t *testing.T) {
	c := &Cache{}
	put := func(r *fetch.Request, s *fetch.Response) error {
		_, err := c.BatchCacheOperations([]Operation{{Type: "put", Request: r, Response: s}})
		return err
	}
	if err := put(req(t, "GET", "https://a.test/x?q=1#f"), resp("one")); err != nil {
		t.Fatal(err)
	}
	if err := put(req(t, "GET", "https://a.test/v"), resp("lang", "Vary", "Accept-Language")); err != nil {
		t.Fatal(err)
	}
	// A put of the same URL replaces the entry.
	if err := put(req(t, "GET", "https://a.test/x?q=1"), resp("two")); err != nil {
		t.Fatal(err)
	}
	if got := c.MatchAll(nil, QueryOptions{}); len(got) != 2 || body(got[1]) != "two" {
		t.Fatalf("entries after the replacing put: %d", len(got))
	}
	for _, tc := range []struct {
		q    *fetch.Request
		o    QueryOptions
		want string
	}{
		{req(t, "GET", "https://a.test/x?q=1#other"), QueryOptions{}, "two"},
		{req(t, "GET", "https://a.test/x"), QueryOptions{}, ""},
		{req(t, "GET", "https://a.test/x?z"), QueryOptions{IgnoreSearch: true}, "two"},
		{req(t, "POST", "https://a.test/x?q=1"), QueryOptions{}, ""},
		{req(t, "POST", "https://a.test/x?q=1"), QueryOptions{IgnoreMethod: true}, "two"},
		{req(t, "GET", "https://a.test/v", "Accept-Language", "fr"), QueryOptions{}, ""},
		{req(t, "GET", "https://a.test/v", "Accept-Language", "fr"), QueryOptions{IgnoreVary: true}, "lang"},
		{req(t, "GET", "https://a.test/v"), QueryOptions{}, "lang"},
	} {
		got := c.MatchAll(tc.q, tc.o)
		if tc.want == "" && len(got) != 0 || tc.want != "" && (len(got) != 1 || body(got[0]) != tc.want) {
			t.Errorf("match %s %s %+v: %d results", tc.q.Method, tc.q.URLList[0], tc.o, len(got))
		}
	}
	// Matches are copies: changing one changes nothing stored.
	got := c.MatchAll(req(t, "GET", "https://a.test/v"), QueryOptions{})
	got[0].Header.Set("Vary", "x")
	if keys := c.Keys(nil, QueryOptions{}); len(keys) != 2 || keys[0].URLList[0].String() != "https://a.test/v" {
		t.Fatalf("keys %v", keys)
	}
	// Bad puts: scheme, method, no response; a batch with the same
	// request twice is an InvalidStateError and changes nothing.
	var te *TypeError
	if err := put(req(t, "GET", "data:,x"), resp("")); !errors.As(err, &te) {
		t.Errorf("put of a data: URL: %v", err)
	}
	if err := put(req(t, "POST", "https://a.test/p"), resp("")); !errors.As(err, &te) {
		t.Errorf("put of a POST: %v", err)
	}
	if err := put(req(t, "GET", "https://a.test/p"), nil); !errors.As(err, &te) {
		t.Errorf("put without a response: %v", err)
	}
	_, err := c.BatchCacheOperations([]Operation{{Type: "put", Request: req(t, "GET", "https://a.test/d"), Response: resp("1")},
		{Type: "put", Request: req(t, "GET", "https://a.test/d"), Response: resp("2")}})
	var de *dom.DOMException
	if !errors.As(err, &de) || de.Name != dom.InvalidStateError {
		t.Errorf("duplicate puts in a batch: %v", err)
	}
	if len(c.Keys(nil, QueryOptions{})) != 2 {
		t.Errorf("a failed batch changed the cache")
	}
	removed, err := c.BatchCacheOperations([]Operation{{Type: "delete", Request: req(t, "GET", "https://a.test/x"), Options: QueryOptions{IgnoreSearch: true}}})
	if err != nil || len(removed) != 1 {
		t.Errorf("delete with ignoreSearch: %v, removed %d, want 1", err, len(removed))
	}
	if got := c.MatchAll(req(t, "GET", "https://a.test/x?q=1"), QueryOptions{}); len(got) != 0 {
		t.Errorf("delete with ignoreSearch left %d entries", len(got))
	}
}

func TestStorageNames(t *testing.T) {
	s := &Storage{caches: map[string]*Cache{}}
	a := s.Open("a")
	s.Open("b")
	if s.Open("a") != a || !s.Has("b") || s.Has("c") {
		t.Fatal("open/has")
	}
	a.BatchCacheOperations([]Operation{{Type: "put", Request: req(t, "GET", "https://a.test/1"), Response: resp("in a")}})
	name := "b"
	if _, ok := s.Match(req(t, "GET", "https://a.test/1"), QueryOptions{}, &name); ok {
		t.Errorf("match in cache b found a's entry")
	}
	if r, ok := s.Match(req(t, "GET", "https://a.test/1"), QueryOptions{}, nil); !ok || body(r) != "in a" {
		t.Errorf("match in every cache: %v", ok)
	}
	if !s.Delete("a") || s.Delete("a") {
		t.Errorf("delete")
	}
	s.Open("a")
	if k := s.Keys(); len(k) != 2 || k[0] != "b" || k[1] != "a" {
		t.Errorf("keys %v, want [b a]", k)
	}
}
