package server

import (
	"crypto/ecdsa"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/internal/testenv"
	"github.com/gowebengine/weblocks/wpt-runner/manifest"
)

var update = flag.Bool("update", false, "rewrite golden files")

var tree = fstest.MapFS{
	"web-locks/locks.https.any.js":     {Data: []byte("// META: title=Locks \"quoted\" & <b>\n// META: script=resources/helpers.js\n// META: script=/common/utils.js\n// META: timeout=long\n// META: global=window,worker\n// META: variant=?a=1\n\ntest(() => {});\n")},
	"web-locks/plain.any.js":           {Data: []byte("test(() => {});\n")},
	"web-locks/win.window.js":          {Data: []byte("// META: script=helper.js\ntest(() => {});\n")},
	"web-locks/wrk.worker.js":          {Data: []byte("importScripts('/resources/testharness.js');\ntest(() => {});\ndone();\n")},
	"web-locks/page.sub.html":          {Data: []byte("host={{host}} www={{domains[www]}} alt={{hosts[alt][www1]}} main={{hosts[][]}} http={{ports[http][0]}},{{ports[http][1]}} https={{ports[https][0]}} get={{GET[q]}} hdr={{headers[X-Test]}} scheme={{location[scheme]}} hostport={{location[host]}} hostname={{location[hostname]}} port={{location[port]}} path={{location[path]}} query={{location[query]}} server={{location[server]}} href={{location[href]}} base={{url_base}} v1={{$id:uuid()}} v2={{$id}} u={{uuid()}}\n")},
	"web-locks/bad.sub.html":           {Data: []byte("{{ports[ftp][0]}}")},
	"web-locks/ws.sub.js":              {Data: []byte("{{ports[ws][0]}} {{ports[wss][0]}} {{ports[h2][0]}}")},
	"web-locks/plain.html":             {Data: []byte("{{host}}")},
	"web-locks/plain.html.headers":     {Data: []byte("X-File: file\nX-Both: from-file\n")},
	"web-locks/__dir__.headers":        {Data: []byte("# comment\nX-Dir: dir\nX-Both: from-dir\n")},
	"web-locks/plain.any.js.headers":   {Data: []byte("Cross-Origin-Opener-Policy: same-origin\n")},
	"resources/webidl2/lib/webidl2.js": {Data: []byte("// webidl2\n")},
	"resources/testharnessreport.js":   {Data: []byte("// upstream stub, must be replaced\n")},
	"common/handler.py":                {Data: []byte("def main(request, response): pass\n")},
}

var (
	srvOnce sync.Once
	srv     *Server
)

func testServer(t *testing.T) *Server {
	t.Helper()
	srvOnce.Do(func() {
		var err error
		srv, err = Start(Config{Root: tree, TimeoutMultiplier: 2.5})
		if err != nil {
			t.Fatal(err)
		}
	})
	return srv
}

func get(t *testing.T, s *Server, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func (s *Server) testURL(https bool, host, path string) string {
	if https {
		return "https://" + host + ":" + strconv.Itoa(s.httpsPorts[0]) + path
	}
	return "http://" + host + ":" + strconv.Itoa(s.httpPorts[0]) + path
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	testenv.Golden(t, filepath.Join("testdata", "golden", name), got, *update)
}

func TestWrappers(t *testing.T) {
	s := testServer(t)
	for _, tc := range []struct{ path, golden, ctype string }{
		{"/web-locks/locks.https.any.html?a=1", "any.html", "text/html"},
		{"/web-locks/locks.https.any.worker.html?a=1", "any.worker.html", "text/html"},
		{"/web-locks/locks.https.any.worker.js?a=1", "any.worker.js", "text/javascript"},
		{"/web-locks/locks.https.any.sharedworker.html?a=1", "any.sharedworker.html", "text/html"},
		{"/web-locks/locks.https.any.serviceworker.html?a=1", "any.serviceworker.html", "text/html"},
		{"/web-locks/plain.any.html", "plain.any.html", "text/html"},
		{"/web-locks/plain.any.worker.js", "plain.any.worker.js", "text/javascript"},
		{"/web-locks/win.window.html", "window.html", "text/html"},
		{"/web-locks/wrk.worker.html", "worker.html", "text/html"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			resp, body := get(t, s, s.testURL(true, MainHost, tc.path))
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) {
				t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			golden(t, tc.golden, body)
		})
	}
	// Wrappers get the headers of their source file and directory.
	resp, _ := get(t, s, s.testURL(false, MainHost, "/web-locks/plain.any.html"))
	if resp.Header.Get("Cross-Origin-Opener-Policy") != "same-origin" || resp.Header.Get("X-Dir") != "dir" {
		t.Errorf("wrapper headers: %v", resp.Header)
	}
	// No wrapper for a missing source.
	if resp, _ := get(t, s, s.testURL(false, MainHost, "/web-locks/missing.any.html")); resp.StatusCode != 404 {
		t.Errorf("missing source: status %d", resp.StatusCode)
	}
}

func TestWrapperPageOrder(t *testing.T) {
	// The window wrapper loads testharness.js, testharnessreport.js, the
	// META scripts, then the test, in that order.
	body, _ := renderWrapper(anyWindow, manifest.Meta{Scripts: []string{"a.js", "b.js"}}, "/d/t.any.js", "")
	order := []string{"/resources/testharness.js", "/resources/testharnessreport.js", `"a.js"`, `"b.js"`, "<div id=log>", `"/d/t.any.js"`}
	last := -1
	for _, s := range order {
		i := strings.Index(body, s)
		if i <= last {
			t.Fatalf("%q out of order in\n%s", s, body)
		}
		last = i
	}
}

func TestJSString(t *testing.T) {
	for in, want := range map[string]string{
		`a"b\c`:       `"a\"b\\c"`,
		"</script>\n": `"\u003c/script\u003e\u000a"`,
		"é\u2028😀":    "\"é\\u2028😀\"",
	} {
		if got := jsString(in); got != want {
			t.Errorf("jsString(%q) = %s, want %s", in, got, want)
		}
	}
}

var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

func TestSubstitutions(t *testing.T) {
	s := testServer(t)
	url := s.testURL(true, "www1."+MainHost, "/web-locks/page.sub.html?q=<v>&r=2")
	resp, body := get(t, s, url, "X-Test", `"hi"`)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	uuids := uuidRe.FindAllString(body, -1)
	if len(uuids) != 3 || uuids[0] != uuids[1] || uuids[0] == uuids[2] {
		t.Fatalf("uuids %v in %s", uuids, body)
	}
	body = strings.ReplaceAll(body, uuids[0], "UUID1")
	body = strings.ReplaceAll(body, uuids[2], "UUID2")
	hp := "www1.web-platform.test:" + strconv.Itoa(s.httpsPorts[0])
	want := "host=web-platform.test www=www.web-platform.test alt=www1.not-web-platform.test main=web-platform.test " +
		"http=" + strconv.Itoa(s.httpPorts[0]) + "," + strconv.Itoa(s.httpPorts[1]) + " https=" + strconv.Itoa(s.httpsPorts[0]) +
		" get=&lt;v&gt; hdr=&quot;hi&quot; scheme=https hostport=" + hp + " hostname=www1.web-platform.test port=" + strconv.Itoa(s.httpsPorts[0]) +
		" path=/web-locks/page.sub.html query=?q=&lt;v&gt;&amp;r=2 server=https://" + hp +
		" href=https://" + hp + "/web-locks/page.sub.html?q=&lt;v&gt;&amp;r=2 base=/ v1=UUID1 v2=UUID1 u=UUID2\n"
	if body != want {
		t.Errorf("got  %s\nwant %s", body, want)
	}
	// An unknown expression is a server error, not a silent blank.
	if resp, body := get(t, s, s.testURL(false, MainHost, "/web-locks/bad.sub.html")); resp.StatusCode != 500 || !strings.Contains(body, "ftp") {
		t.Errorf("bad substitution: %d %s", resp.StatusCode, body)
	}
	// ws/wss/h2 ports exist in wptserve's config: helpers that mention them
	// load (the HTTP(S) ports stand in).
	wantWS := fmt.Sprintf("%d %d %d", s.HTTPPorts()[0], s.HTTPSPorts()[0], s.HTTPSPorts()[0])
	if resp, body := get(t, s, s.testURL(false, MainHost, "/web-locks/ws.sub.js")); resp.StatusCode != 200 || body != wantWS {
		t.Errorf("ws/wss/h2 ports: %d %q, want %q", resp.StatusCode, body, wantWS)
	}
	// Files without .sub. are served as they are, unless ?pipe=sub.
	if _, body := get(t, s, s.testURL(false, MainHost, "/web-locks/plain.html")); body != "{{host}}" {
		t.Errorf("plain file substituted: %s", body)
	}
	if _, body := get(t, s, s.testURL(false, MainHost, "/web-locks/plain.html?pipe=sub")); body != "web-platform.test" {
		t.Errorf("pipe=sub: %s", body)
	}
}

func TestEvalSubErrors(t *testing.T) {
	s := testServer(t)
	r, _ := http.NewRequest("GET", "http://web-platform.test/x", nil)
	for _, expr := range []string{"nope", "domains[zzz]", "hosts[other][]", "ports[http][9]", "ports[http]", "$undefined", "uuid(", "location[nope]", "GET[a"} {
		if v, err := s.evalSub(expr, r, map[string]string{}, 0); err == nil {
			t.Errorf("%s: got %q, want error", expr, v)
		}
	}
	if v, err := s.evalSub("domains[élève]", r, nil, 0); err != nil || v != "xn--lve-6lad.web-platform.test" {
		t.Errorf("IDN subdomain: %q %v", v, err)
	}
}

func TestHeadersAndPipes(t *testing.T) {
	s := testServer(t)
	resp, _ := get(t, s, s.testURL(false, MainHost, "/web-locks/plain.html"))
	h := resp.Header
	if h.Get("X-File") != "file" || h.Get("X-Dir") != "dir" || strings.Join(h.Values("X-Both"), ",") != "from-file" {
		t.Errorf("headers: %v", h)
	}
	resp, _ = get(t, s, s.testURL(false, MainHost, "/web-locks/plain.html?pipe=header(X-Pipe,yes)|status(418)"))
	if resp.StatusCode != 418 || resp.Header.Get("X-Pipe") != "yes" {
		t.Errorf("pipes: %d %v", resp.StatusCode, resp.Header)
	}
}

func TestSpecialResources(t *testing.T) {
	s := testServer(t)
	_, body := get(t, s, s.testURL(false, MainHost, "/resources/WebIDLParser.js"))
	if body != "// webidl2\n" {
		t.Errorf("WebIDLParser.js alias: %q", body)
	}
	resp, body := get(t, s, s.testURL(false, MainHost, "/resources/testharnessreport.js"))
	if !strings.Contains(body, "timeout_multiplier: 2.5") || !strings.Contains(body, "add_completion_callback") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("testharnessreport.js: %s", body)
	}
	if resp, _ := get(t, s, s.testURL(false, MainHost, "/common/handler.py")); resp.StatusCode != http.StatusNotImplemented {
		t.Errorf(".py handler: status %d", resp.StatusCode)
	}
	if resp, body := get(t, s, s.testURL(false, MainHost, "/web-locks/")); resp.StatusCode != 200 || !strings.Contains(body, "plain.any.js") {
		t.Errorf("directory listing: %d %s", resp.StatusCode, body)
	}
}

func TestDispatcher(t *testing.T) {
	s := testServer(t)
	base := s.testURL(false, MainHost, "/common/dispatcher/dispatcher.py?uuid=")
	post := func(id, body string) string {
		resp, err := s.Client().Post(base+id, "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if r := post("q1", "first"); r != "done" {
		t.Errorf("POST: %q", r)
	}
	post("q1", "second")
	post("q2", "other")
	for _, want := range []string{"first", "second", "not ready"} {
		resp, body := get(t, s, base+"q1", "Origin", "https://www.web-platform.test")
		if body != want {
			t.Errorf("GET: %q, want %q", body, want)
		}
		if resp.Header.Get("Access-Control-Allow-Origin") != "https://www.web-platform.test" || resp.Header.Get("Access-Control-Allow-Credentials") != "true" {
			t.Errorf("CORS headers: %v", resp.Header)
		}
	}
	if _, body := get(t, s, base+"q2"); body != "other" {
		t.Errorf("queues are per uuid: %q", body)
	}
	req, _ := http.NewRequest("OPTIONS", base+"q1", nil)
	resp, err := s.Client().Do(req)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Methods") == "" {
		t.Errorf("OPTIONS: %v %v", resp, err)
	}
}

func TestHostsAndCertificate(t *testing.T) {
	s := testServer(t)
	if len(s.Hosts()) != 12 {
		t.Errorf("hosts: %v", s.Hosts())
	}
	for _, h := range s.Hosts() {
		for _, https := range []bool{false, true} {
			resp, _ := get(t, s, s.testURL(https, h, "/web-locks/plain.html"))
			if resp.StatusCode != 200 {
				t.Errorf("%s https=%v: %d", h, https, resp.StatusCode)
			}
			if https {
				cert := resp.TLS.PeerCertificates[0]
				if _, ok := cert.PublicKey.(*ecdsa.PublicKey); !ok {
					t.Errorf("certificate key: %v", cert.PublicKeyAlgorithm)
				}
				if err := cert.VerifyHostname(h); err != nil {
					t.Error(err)
				}
			}
		}
	}
	// Without the generated CA the certificate is not trusted.
	c := &http.Client{Transport: &http.Transport{DialContext: s.dialLoopback, TLSClientConfig: &tls.Config{}}}
	if _, err := c.Get(s.testURL(true, MainHost, "/")); err == nil {
		t.Error("certificate trusted without the CA")
	}
	// Other names do not resolve through the client.
	if _, err := s.Client().Get("http://example.com:" + strconv.Itoa(s.httpPorts[0]) + "/"); err == nil {
		t.Error("non-WPT host reachable")
	}
	if s.SPKIHash() == "" || !strings.Contains(s.HostResolverRules(), "MAP *.test 127.0.0.1") {
		t.Error("chromium settings missing")
	}
	env := s.Env(3, nil)
	if env.Jobs != 3 || env.HTTPClient == nil || env.CertPool == nil || len(env.HTTPSPorts) != 2 {
		t.Errorf("env: %+v", env)
	}
}

func TestURL(t *testing.T) {
	s := testServer(t)
	for _, tc := range []struct {
		test manifest.Test
		want string
	}{
		{manifest.Test{ID: "/a/b.any.html?x"}, "http://web-platform.test:" + strconv.Itoa(s.httpPorts[0]) + "/a/b.any.html?x"},
		{manifest.Test{ID: "/a/b.https.any.html", HTTPS: true}, "https://web-platform.test:" + strconv.Itoa(s.httpsPorts[0]) + "/a/b.https.any.html"},
		{manifest.Test{ID: "/a/b.www.html", WWW: true}, "http://www.web-platform.test:" + strconv.Itoa(s.httpPorts[0]) + "/a/b.www.html"},
	} {
		if got := s.URL(tc.test); got != tc.want {
			t.Errorf("URL(%v) = %s, want %s", tc.test, got, tc.want)
		}
	}
}

func TestParsePipes(t *testing.T) {
	p, err := parsePipes("sub|header(A, b)|status(200)")
	if err != nil || len(p) != 3 || p[0].name != "sub" || p[1].name != "header" || p[1].args[1] != "b" || p[2].args[0] != "200" {
		t.Errorf("%+v %v", p, err)
	}
	if _, err := parsePipes("header(A"); err == nil {
		t.Error("unterminated pipe accepted")
	}
}
