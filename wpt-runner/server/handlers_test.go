package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRemoteContextWindowExecutor: the Go equivalent of
// remote-context-helper's executor-window.py serves the executor page
// (scripts, request headers as a Headers object, JSON-escaped so that a
// value cannot close the script), honours ?pipe=header(), and is only
// used when the tree has the .py file (otherwise: 501, as for any .py).
func TestRemoteContextWindowExecutor(t *testing.T) {
	const py = "/html/browsers/browsing-the-web/remote-context-helper/resources/executor-window.py"
	s, err := Start(Config{Root: fstest.MapFS{strings.TrimPrefix(py, "/"): {Data: []byte("def main(request, response): pass\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp, body := get(t, s, s.testURL(true, MainHost, py+"?uuid=u1&pipe=header(X-Extra,yes)"), "X-Test", `a"</script><b>`)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || resp.Header.Get("X-Extra") != "yes" {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	for _, want := range []string{
		`<script src="/common/dispatcher/dispatcher.js"></script>`,
		`<script src="./executor-common.js"></script>`,
		`<script src="./executor-window.js"></script>`,
		"window.requestHeaders = new Headers();\n",
		`window.requestHeaders.append("x-test", "a\"\u003c/script\u003e\u003cb\u003e");`,
		`window.requestHeaders.append("host", "web-platform.test:`,
		"requestExecutor();\n</script>\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	if strings.Count(body, "</script>") != 4 {
		t.Errorf("a header value closed the script:\n%s", body)
	}
	// Another tree, without the handler file.
	if resp, _ := get(t, testServer(t), testServer(t).testURL(false, MainHost, py)); resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("without the file: status %d", resp.StatusCode)
	}
}

// TestRecordRequest: record-request.py's Go equivalent appends a JSON
// record of the request to the dispatcher queue of its uuid and answers
// with the asked-for CORS headers.
func TestRecordRequest(t *testing.T) {
	const py = "/fetch/resources/record-request.py"
	s, err := Start(Config{Root: fstest.MapFS{strings.TrimPrefix(py, "/"): {Data: []byte("def main(request, response): pass\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp, body := get(t, s, s.testURL(true, MainHost, py+"?uuid=r1&acao=origin&allow-headers=x-custom"), "Origin", "https://a.test", "Authorization", "Bearer t")
	if resp.StatusCode != http.StatusOK || body != "recorded" || resp.Header.Get("Access-Control-Allow-Origin") != "https://a.test" ||
		resp.Header.Get("Access-Control-Allow-Headers") != "x-custom" {
		t.Fatalf("status %d, body %q, headers %v", resp.StatusCode, body, resp.Header)
	}
	if resp, _ := get(t, s, s.testURL(true, MainHost, py+"?uuid=r1&acao=star")); resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("acao=star: %v", resp.Header)
	}
	if resp, body := get(t, s, s.testURL(true, MainHost, py+"?uuid=r2&type=text/javascript&body=postMessage(1)"), "Sec-Fetch-Dest", "worker"); resp.Header.Get("Content-Type") != "text/javascript" || body != "postMessage(1)" {
		t.Errorf("type and body: %v %q", resp.Header, body)
	}
	if _, rec := get(t, s, s.testURL(true, MainHost, "/common/dispatcher/dispatcher.py?uuid=r2")); !strings.Contains(rec, `"sec-fetch-dest":"worker"`) || !strings.Contains(rec, `"sec-fetch-mode":null`) {
		t.Errorf("record %s", rec)
	}
	_, rec := get(t, s, s.testURL(true, MainHost, "/common/dispatcher/dispatcher.py?uuid=r1"))
	for _, want := range []string{`"method":"GET"`, `"origin":"https://a.test"`, `"authorization":"Bearer t"`, `"x-custom":null`} {
		if !strings.Contains(rec, want) {
			t.Errorf("record %s lacks %s", rec, want)
		}
	}
	if _, rec := get(t, s, s.testURL(true, MainHost, "/common/dispatcher/dispatcher.py?uuid=r1")); !strings.Contains(rec, `"origin":null`) {
		t.Errorf("second record %s", rec)
	}
	// ?script=1: a JavaScript answer; the Service-Worker header is recorded.
	resp, body = get(t, s, s.testURL(true, MainHost, py+"?uuid=r2&script=1"), "Service-Worker", "script")
	if body != "// recorded" || resp.Header.Get("Content-Type") != "text/javascript" {
		t.Errorf("script=1: body %q, headers %v", body, resp.Header)
	}
	if _, rec := get(t, s, s.testURL(true, MainHost, "/common/dispatcher/dispatcher.py?uuid=r2")); !strings.Contains(rec, `"service-worker":"script"`) {
		t.Errorf("script record %s", rec)
	}
	if resp, _ := get(t, s, s.testURL(true, MainHost, py)); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("without uuid: status %d", resp.StatusCode)
	}
	// ?etag=: a cacheable response with the ETag, 304 to a request with
	// it (recorded with its If-None-Match); without, no-store.
	if resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("without etag: %v", resp.Header)
	}
	resp, body = get(t, s, s.testURL(true, MainHost, py+`?uuid=r3&etag="e"`))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Etag") != `"e"` || resp.Header.Get("Cache-Control") != "" || body != "recorded" {
		t.Errorf("etag: status %d, headers %v, body %q", resp.StatusCode, resp.Header, body)
	}
	resp, _ = get(t, s, s.testURL(true, MainHost, py+`?uuid=r3&etag="e"`), "If-None-Match", `"e"`)
	if resp.StatusCode != http.StatusNotModified || resp.Header.Get("X-Revalidated") != "yes" {
		t.Errorf("etag revalidated: status %d, headers %v", resp.StatusCode, resp.Header)
	}
	get(t, s, s.testURL(true, MainHost, "/common/dispatcher/dispatcher.py?uuid=r3"))
	if _, rec := get(t, s, s.testURL(true, MainHost, "/common/dispatcher/dispatcher.py?uuid=r3")); !strings.Contains(rec, `"if-none-match":"\"e\""`) {
		t.Errorf("revalidation record %s", rec)
	}
}

// TestHoldBody: hold-body.py's Go equivalent sends "start " at once and
// "end" after the release.
func TestHoldBody(t *testing.T) {
	const py = "/fetch/resources/hold-body.py"
	s, err := Start(Config{Root: fstest.MapFS{strings.TrimPrefix(py, "/"): {Data: []byte("def main(request, response): pass\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	resp, err := s.Client().Get(s.testURL(true, MainHost, py+"?uuid=h1"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, len("start "))
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "start " {
		t.Fatalf("first part %q, %v", buf, err)
	}
	if _, body := get(t, s, s.testURL(true, MainHost, py+"?uuid=h1&release=1")); body != "released" {
		t.Errorf("release: %q", body)
	}
	if rest, err := io.ReadAll(resp.Body); err != nil || string(rest) != "end" {
		t.Errorf("rest %q, %v", rest, err)
	}
}
