package server

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
)

// fetchHandlersServer serves a tree holding every fetch/api/resources
// handler file (the Go equivalents run only for files the tree has).
func fetchHandlersServer(t *testing.T) *Server {
	t.Helper()
	fsys := fstest.MapFS{}
	for p := range pyHandlers {
		if strings.HasPrefix(p, "/fetch/api/resources/") {
			fsys[strings.TrimPrefix(p, "/")] = &fstest.MapFile{Data: []byte("def main(request, response): pass\n")}
		}
	}
	s, err := Start(Config{Root: fsys})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// do sends method to path on the main host with headers (name, value
// pairs) and returns the response (its redirects not followed) and body.
func do(t *testing.T, s *Server, method, path string, body string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.testURL(false, MainHost, path), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	c := *s.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const res = "/fetch/api/resources/"

func TestRedirectPy(t *testing.T) {
	s := fetchHandlersServer(t)
	resp, _ := do(t, s, "GET", res+"redirect.py?location="+url.QueryEscape("/x?a=1")+"&redirect_status=307&token=t1", "", "Origin", "http://o.test")
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != 307 || loc.Path != "/x" || loc.Query().Get("a") != "1" || loc.Query().Get("count") != "1" ||
		loc.Query().Get("location") != "/x?a=1" || loc.Query().Get("redirect_status") != "307" ||
		resp.Header.Get("Access-Control-Allow-Origin") != "http://o.test" || resp.Header.Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	// The token counts requests; past max_count the count of redirects.
	resp, _ = do(t, s, "GET", res+"redirect.py?location=/y&token=t1&max_count=5", "")
	if resp.StatusCode != 302 || !strings.Contains(resp.Header.Get("Location"), "count=2") || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("second: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, body := do(t, s, "GET", res+"redirect.py?location=/y&token=t1&max_count=2", ""); resp.StatusCode != 200 || body != "2" {
		t.Errorf("past max_count: %d %q", resp.StatusCode, body)
	}
	// Preflights get 200 unless redirect_preflight; simple keeps the location.
	if resp, _ := do(t, s, "OPTIONS", res+"redirect.py?location=/z&allow_headers=x-a", ""); resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Headers") != "x-a" {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, _ := do(t, s, "OPTIONS", res+"redirect.py?location=/z&redirect_preflight&simple", ""); resp.StatusCode != 302 || resp.Header.Get("Location") != "/z" {
		t.Errorf("redirected preflight: %d %v", resp.StatusCode, resp.Header)
	}
	// The status may come in a form body.
	if resp, _ := do(t, s, "POST", res+"redirect.py?location=/z&simple", "redirect_status=303", "Content-Type", "application/x-www-form-urlencoded"); resp.StatusCode != 303 {
		t.Errorf("form status: %d", resp.StatusCode)
	}
	if resp, body := do(t, s, "GET", res+"clean-stash.py?token=t1", ""); resp.StatusCode != 200 || body != "0" {
		t.Errorf("clean-stash (another handler's path): %q", body)
	}
}

func TestPreflightPy(t *testing.T) {
	s := fetchHandlersServer(t)
	q := "?token=p1&max_age=60&allow_methods=PUT&allow_headers=x-a&control_request_headers&origin=" + url.QueryEscape("http://o.test, http://p.test")
	if resp, _ := do(t, s, "OPTIONS", res+"preflight.py"+q, ""); resp.StatusCode != 400 {
		t.Errorf("preflight without Access-Control-Request-Method: %d", resp.StatusCode)
	}
	resp, _ := do(t, s, "OPTIONS", res+"preflight.py"+q, "", "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "x-a", "Accept", "*/*", "Referer", "http://o.test/page")
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Max-Age") != "60" || resp.Header.Get("Access-Control-Allow-Methods") != "PUT" ||
		len(resp.Header.Values("Access-Control-Allow-Origin")) != 2 {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = do(t, s, "PUT", res+"preflight.py"+q, "", "Origin", "http://o.test", "Referer", "http://o.test/other")
	for k, want := range map[string]string{"X-Did-Preflight": "1", "X-Control-Request-Headers": "x-a", "X-Preflight-Referrer": "http://o.test/page",
		"X-Referrer": "http://o.test/other", "X-Origin": "http://o.test"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if _, body := do(t, s, "GET", res+"preflight.py?token=p1&clear-stash", ""); body != "1" {
		t.Errorf("clear-stash: %q", body)
	}
	if resp, _ := do(t, s, "GET", res+"preflight.py?token=p1", ""); resp.Header.Get("X-Did-Preflight") != "0" {
		t.Errorf("after clear-stash: %v", resp.Header)
	}
}

func TestInspectAndEchoPy(t *testing.T) {
	s := fetchHandlersServer(t)
	resp, _ := do(t, s, "GET", res+"inspect-headers.py?headers=x-a|referer|x-missing&cors", "", "X-A", "1", "Referer", "http://o.test/", "Origin", "http://o.test")
	if resp.Header.Get("X-Request-X-A") != "1" || resp.Header.Get("X-Request-Referer") != "http://o.test/" || resp.Header.Get("X-Request-X-Missing") != "" ||
		resp.Header.Get("Access-Control-Allow-Origin") != "http://o.test" || !strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "x-request-x-a") ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "x-a") {
		t.Errorf("inspect-headers: %v", resp.Header)
	}
	resp, body := do(t, s, "POST", res+"method.py?cors", "hello", "Content-Type", "text/x")
	if body != "hello" || resp.Header.Get("X-Request-Method") != "POST" || resp.Header.Get("X-Request-Content-Type") != "text/x" ||
		resp.Header.Get("X-Request-Content-Length") != "5" || resp.Header.Get("X-Request-Content-Language") != "NO" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("method.py: %q %v", body, resp.Header)
	}
	if resp, body := do(t, s, "PUT", res+"echo-content.py", "abc"); body != "abc" || resp.Header.Get("X-Request-Method") != "PUT" || resp.Header.Get("Content-Type") != "text/plain" {
		t.Errorf("echo-content.py: %q %v", body, resp.Header)
	}
	if resp, body := do(t, s, "GET", res+"status.py?code=404&content=gone&type=text/y", ""); resp.StatusCode != 404 || body != "gone" || resp.Header.Get("Content-Type") != "text/y" {
		t.Errorf("status.py: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	if resp, _ := do(t, s, "GET", res+"cache.py", "", "If-None-Match", `"123abc"`); resp.StatusCode != 304 {
		t.Errorf("cache.py conditional: %d", resp.StatusCode)
	}
	if resp, body := do(t, s, "GET", res+"authentication.py?realm=r", ""); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != `Basic realm="r"` {
		t.Errorf("authentication.py: %d %q", resp.StatusCode, body)
	}
	if _, body := do(t, s, "GET", res+"dump-authorization-header.py", "", "Authorization", "Bearer x"); body != "Bearer x" {
		t.Errorf("dump-authorization-header.py: %q", body)
	}
}

func TestStashPutTakePy(t *testing.T) {
	s := fetchHandlersServer(t)
	if _, body := do(t, s, "GET", res+"stash-take.py?key=k", ""); body != "null" {
		t.Errorf("empty take: %q", body)
	}
	do(t, s, "GET", res+"stash-put.py?key=k&value=v1", "")
	do(t, s, "GET", res+"stash-put.py?key=k&value=v2", "")
	if resp, body := do(t, s, "GET", res+"stash-take.py?key=k", ""); body != `"v2"` || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("take: %q", body)
	}
	if _, body := do(t, s, "GET", res+"stash-take.py?key=k", ""); body != "null" {
		t.Errorf("second take: %q", body)
	}
	if _, body := do(t, s, "GET", res+"stash-put.py?key=c&value=v&disallow_cross_origin&frame_origin=http://other.test", ""); body != "not stashing for cors request" {
		t.Errorf("cross-origin put: %q", body)
	}
}

func TestTrickleAndBadChunksPy(t *testing.T) {
	s := fetchHandlersServer(t)
	if resp, body := do(t, s, "GET", res+"trickle.py?ms=1&count=3", ""); resp.StatusCode != 200 || body != strings.Repeat("TEST_TRICKLE\n", 3) {
		t.Errorf("trickle.py: %d %q", resp.StatusCode, body)
	}
	resp, err := s.Client().Get(s.testURL(false, MainHost, res+"bad-chunk-encoding.py?ms=1&count=2"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if string(b) != "TEST_CHUNKTEST_CHUNK" || err == nil {
		t.Errorf("bad-chunk-encoding.py: %q, %v (want the two chunks, then an error)", b, err)
	}
}
