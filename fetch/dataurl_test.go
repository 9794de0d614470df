package fetch

import (
	"context"
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
