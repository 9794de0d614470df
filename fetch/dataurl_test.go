package fetch

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

// The data: URL processor and scheme fetch of data: URLs.
func TestDataURLs(t *testing.T) {
	for _, tc := range []struct {
		url, mime, body string
		fail            bool
	}{
		{"data:,hello", "text/plain;charset=US-ASCII", "hello", false},
		{"data:,hello%20world#frag", "text/plain;charset=US-ASCII", "hello world", false},
		{"data:text/html,<b>x</b>", "text/html", "<b>x</b>", false},
		{"data:text/plain;base64,SGVsbG8=", "text/plain", "Hello", false},
		{"data:text/plain;base64,SGVs bG8", "text/plain", "Hello", false},
		{"data:;base64,SGVsbG8=", "text/plain;charset=US-ASCII", "Hello", false},
		{"data:text/plain ; BASE64,SGVsbG8=", "text/plain", "Hello", false},
		{"data:text/plain;base64,SGVsbG8===", "", "", true},
		{"data:text/plain;base64,S", "", "", true},
		{"data:TEXT/JavaScript;charset=UTF-8;charset=x,1", "text/javascript;charset=UTF-8", "1", false},
		{`data:text/plain;a="b;c",x`, `text/plain;a="b;c"`, "x", false},
		{"data:text/plain;a=\"b\\\"c\",x", `text/plain;a="b\"c"`, "x", false},
		{"data:x,y", "text/plain;charset=US-ASCII", "y", false},
		{"data:;charset=utf-8,z", "text/plain;charset=utf-8", "z", false},
		{"data:text/plain", "", "", true},
	} {
		req := scriptRequest(t, "https://a.test/", tc.url)
		resp := FetchWhole(context.Background(), &Params{Request: req})
		if tc.fail {
			if !resp.IsNetworkError() {
				t.Errorf("%s: got %s, want a network error", tc.url, resp.Type)
			}
			continue
		}
		if resp.IsNetworkError() {
			t.Errorf("%s: network error %v", tc.url, resp.Err)
			continue
		}
		ct, _ := resp.Header.Get("Content-Type")
		if resp.Type != "basic" || ct != tc.mime || string(resp.Body.Source) != tc.body || resp.StatusText != "OK" {
			t.Errorf("%s: %s %q %q", tc.url, resp.Type, ct, resp.Body.Source)
		}
	}
}

// fakeBlobs is a blob URL store with one entry.
type fakeBlobs map[string]string

func (f fakeBlobs) ResolveBlobURL(u string) (string, []byte, bool) {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	v, ok := f[u]
	return "text/plain", []byte(v), ok
}

// Scheme fetch of blob: URLs reads the store: a GET gets the blob's
// bytes, type and length; another method, an unknown URL or no store is a
// network error.
func TestSchemeFetchBlob(t *testing.T) {
	const u = "blob:https://a.test/3f0c7d9e-6c2b-4f7a-9d53-2a8f0c1e5b77"
	store := fakeBlobs{u: "hello"}
	get := func(raw, method string, blobs BlobURLResolver) *Response {
		t.Helper()
		pu, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		req := NewRequest(pu, nil)
		req.Method = method
		return FetchWhole(context.Background(), &Params{Request: req, BlobURLs: blobs})
	}
	r := get(u+"#f", "GET", store)
	if r.IsNetworkError() || r.Status != 200 || string(r.Body.Source) != "hello" {
		t.Fatalf("GET: %+v", r)
	}
	if ct, _ := r.Header.Get("Content-Type"); ct != "text/plain" {
		t.Fatalf("Content-Type %q", ct)
	}
	if cl, _ := r.Header.Get("Content-Length"); cl != "5" {
		t.Fatalf("Content-Length %q", cl)
	}
	for _, tc := range []struct {
		raw, method string
		blobs       BlobURLResolver
	}{{u, "POST", store}, {"blob:https://a.test/nope", "GET", store}, {u, "GET", nil}} {
		if r := get(tc.raw, tc.method, tc.blobs); !r.IsNetworkError() {
			t.Errorf("%s %s (store %v): %+v, want a network error", tc.method, tc.raw, tc.blobs != nil, r)
		}
	}
}
