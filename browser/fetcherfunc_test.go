package browser

import (
	"context"
	"net/url"
	"testing"
)

// FetcherFunc adapts a function: Fetch calls it with the context and URL.
func TestFetcherFunc(t *testing.T) {
	var got *url.URL
	f := FetcherFunc(func(ctx context.Context, u *url.URL) (*Response, error) {
		got = u
		return &Response{URL: u, Status: 204}, nil
	})
	u, _ := url.Parse("https://example.com/a")
	res, err := f.Fetch(context.Background(), u)
	if err != nil || res.Status != 204 || got != u || !res.OK() {
		t.Fatalf("Fetch: %+v, %v (function saw %v)", res, err, got)
	}
}
