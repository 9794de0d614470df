package fetch

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/origin"
)

// headerNetwork answers 200 to every request and keeps the headers of
// the last one.
type headerNetwork struct{ last http.Header }

func (n *headerNetwork) Send(_ context.Context, req *NetworkRequest) (*NetworkResponse, error) {
	n.last = req.Header
	return &NetworkResponse{Status: 200, Header: http.Header{"Access-Control-Allow-Origin": {"*"}}}, nil
}

// The fetch metadata headers: Sec-Fetch-Dest (empty for ""), -Mode and
// -Site (same-origin, same-site, cross-site; none for a navigation
// without a client), only to potentially trustworthy URLs.
func TestFetchMetadataHeaders(t *testing.T) {
	page := &Client{Origin: origin.Parse("https://a.example"), URL: &url.URL{Scheme: "https", Host: "a.example", Path: "/"}}
	for _, c := range []struct {
		url, dest, mode string
		client          *Client
		want            [3]string // dest, mode, site
	}{
		{"https://a.example/x", "script", "no-cors", page, [3]string{"script", "no-cors", "same-origin"}},
		{"https://b.a.example/x", "", "cors", page, [3]string{"empty", "cors", "same-site"}},
		{"https://b.example/x", "worker", "cors", page, [3]string{"worker", "cors", "cross-site"}},
		{"https://b.example/", "iframe", "navigate", page, [3]string{"iframe", "navigate", "cross-site"}},
		{"https://b.example/", "document", "navigate", nil, [3]string{"document", "navigate", "none"}},
		{"http://b.example/", "document", "navigate", nil, [3]string{}},
	} {
		n := &headerNetwork{}
		req := NewRequest(&url.URL{}, c.client)
		u, _ := url.Parse(c.url)
		req.URLList = []*url.URL{u}
		if c.client == nil {
			req.Origin = origin.FromURL(u)
		}
		req.Destination, req.Mode, req.TopLevel = c.dest, c.mode, true
		resp := FetchWhole(context.Background(), &Params{Request: req, Network: n})
		if resp.IsNetworkError() {
			t.Fatalf("%s: %v", c.url, resp.Err)
		}
		got := [3]string{n.last.Get("Sec-Fetch-Dest"), n.last.Get("Sec-Fetch-Mode"), n.last.Get("Sec-Fetch-Site")}
		if got != c.want || n.last.Get("Sec-Fetch-User") != "" {
			t.Errorf("%s %s %s: got %q (Sec-Fetch-User %q), want %q", c.url, c.dest, c.mode, got, n.last.Get("Sec-Fetch-User"), c.want)
		}
	}
}

// One CORS check in the code base: no Go source outside package fetch
// (and the runner's test server, which answers CORS requests) reads
// Access-Control-Allow-Origin; every load runs fetch.CORSCheck.
func TestOneCORSCheck(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "fetch" || rel == "wpt-runner/server" || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if strings.Contains(strings.ToLower(code), "access-control-allow-origin") {
				t.Errorf("%s:%d reads Access-Control-Allow-Origin outside package fetch: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
