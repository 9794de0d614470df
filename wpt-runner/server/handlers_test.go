package server

import (
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
