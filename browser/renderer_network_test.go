package browser_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gowebengine/weblocks/browser"
)

// echoFetcher serves rendererSite and echoes other requests.
type echoFetcher struct{ browser.FSFetcher }

func (f echoFetcher) FetchRequest(ctx context.Context, req *browser.FetchRequest) (*browser.FetchResponse, error) {
	if req.URL.Path != "/echo" {
		r, err := f.Fetch(ctx, req.URL)
		if err != nil {
			return nil, err
		}
		return &browser.FetchResponse{Status: r.Status, Header: http.Header{"Content-Type": {r.ContentType}}, Body: r.Body}, nil
	}
	return &browser.FetchResponse{Status: 200, Header: http.Header{"Content-Type": {"text/plain"}, "X-Echo": {req.Header.Get("X-Test")}},
		Body: append([]byte(req.Method+" "), req.Body...)}, nil
}

var _ browser.RequestFetcher = echoFetcher{}

// TestRendererFetch: scripts' fetch() in a renderer sends any request
// through the browser process's RequestFetcher.
func TestRendererFetch(t *testing.T) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{Fetcher: echoFetcher{browser.FSFetcher{FS: rendererSite}}})
	w, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	v := reval(t, ctx, w, `fetch('/echo', {method: 'POST', body: 'hi', headers: {'X-Test': 'h'}}).then(async r => r.status + ' ' + r.headers.get('X-Echo') + ' ' + await r.text())`)
	if v != "200 h POST hi" {
		t.Fatalf("got %v", v)
	}
}
