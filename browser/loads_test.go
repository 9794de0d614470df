package browser_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// recorded is what a request that reached the recording server said of
// itself: the fields a load's fetch.Request decides.
type recorded struct {
	URL                  string // scheme://host/path?query
	Origin, Referer      string
	Dest, Mode, Site     string
	hasOrigin, hasReferr bool
}

// recordingSite serves the files of its map at http:// and https://
// URLs of any host (the scheme picks the listener, the Host header the
// file), and records every request.
type recordingSite struct {
	mu    sync.Mutex
	reqs  []recorded
	files map[string]siteFile // by "host/path"
}

type siteFile struct {
	ctype, body string
	header      map[string]string
	status      int
}

func (s *recordingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	u := scheme + "://" + r.Host + r.URL.RequestURI()
	_, hasOrigin := r.Header["Origin"]
	_, hasReferer := r.Header["Referer"]
	s.mu.Lock()
	s.reqs = append(s.reqs, recorded{URL: u, Origin: r.Header.Get("Origin"), Referer: r.Header.Get("Referer"),
		Dest: r.Header.Get("Sec-Fetch-Dest"), Mode: r.Header.Get("Sec-Fetch-Mode"), Site: r.Header.Get("Sec-Fetch-Site"),
		hasOrigin: hasOrigin, hasReferr: hasReferer})
	f, ok := s.files[r.Host+r.URL.Path]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	for k, v := range f.header {
		w.Header().Set(k, v)
	}
	if f.ctype != "" {
		w.Header().Set("Content-Type", f.ctype)
	}
	if f.status != 0 {
		w.WriteHeader(f.status)
	}
	fmt.Fprint(w, f.body)
}

// request is the recorded request of u (ok false: none reached the
// server).
func (s *recordingSite) request(u string) (recorded, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.reqs {
		if r.URL == u {
			return r, true
		}
	}
	return recorded{}, false
}

// openRecording serves files over a TLS and a plain listener, opens
// page in a browser whose HTTPFetcher dials every host's port 443 to the
// TLS one and any other port to the plain one, and waits for its load
// event.
func openRecording(t *testing.T, files map[string]siteFile, page string) (*recordingSite, *browser.Window, context.Context) {
	t.Helper()
	site := &recordingSite{files: files}
	tlsSrv := httptest.NewTLSServer(site)
	t.Cleanup(tlsSrv.Close)
	plain := httptest.NewServer(site)
	t.Cleanup(plain.Close)
	dialer := &net.Dialer{}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			_, port, _ := net.SplitHostPort(addr)
			to := plain.Listener.Addr().String()
			if port == "443" {
				to = tlsSrv.Listener.Addr().String()
			}
			return dialer.DialContext(ctx, network, to)
		},
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}
	t.Cleanup(tr.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	b := browser.New(browser.Config{Fetcher: browser.HTTPFetcher{Client: &http.Client{Transport: tr}}})
	t.Cleanup(b.Close)
	w, err := b.Open(ctx, page)
	if err != nil {
		t.Fatal(err)
	}
	return site, w, ctx
}

func html(body string) siteFile { return siteFile{ctype: "text/html", body: body} }
func script(body string) siteFile {
	return siteFile{ctype: "text/javascript", body: body}
}

// expectJS evaluates expr (a promise) in w and compares its value with want.
func expectJS(t *testing.T, ctx context.Context, w *browser.Window, expr string, want any) {
	t.Helper()
	if got := eval(t, ctx, w, expr); !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", expr, got, want)
	}
}

// checkRequest compares the recorded request of u with want (URL set from
// u; an empty Origin or Referer in want means the header is absent).
func checkRequest(t *testing.T, site *recordingSite, u string, want recorded) {
	t.Helper()
	got, ok := site.request(u)
	if !ok {
		t.Errorf("%s: no request reached the server", u)
		return
	}
	want.URL = u
	want.hasOrigin, want.hasReferr = want.Origin != "", want.Referer != ""
	if got != want {
		t.Errorf("%s: the server got\n  %+v\nwant\n  %+v", u, got, want)
	}
}

// Every load goes through package fetch with the request HTML gives it:
// the destination, mode, Origin and Referer the server sees, for the
// top-level document, classic scripts (no-cors, and cors with
// crossorigin), module scripts, worker and shared worker scripts,
// importScripts, iframes and popups.
func TestLoadRequests(t *testing.T) {
	const a, b = "https://a.test", "https://b.test"
	files := map[string]siteFile{
		"a.test/": html(`<script>document.getElementById("cors").onerror = () => window.corsFailed = true;</script>
			<script src="/classic.js"></script>
			<script src="https://b.test/cross.js"></script>
			<script id=cors src="https://b.test/cors.js" crossorigin></script>
			<script src="https://b.test/cors-ok.js" crossorigin></script>
			<script type="module" src="https://b.test/module.js"></script>
			<script src="/policy.js" referrerpolicy="no-referrer"></script>`),
		"a.test/classic.js":            script(`window.classic = true;`),
		"b.test/cross.js":              script(`window.cross = true;`),
		"b.test/cors.js":               script(`window.cors = true;`),
		"b.test/cors-ok.js":            {ctype: "text/javascript", body: `window.corsOK = true;`, header: map[string]string{"Access-Control-Allow-Origin": a}},
		"b.test/module.js":             {ctype: "text/javascript", body: `import "./imported.js"; window.module = true;`, header: map[string]string{"Access-Control-Allow-Origin": "*"}},
		"b.test/imported.js":           {ctype: "text/javascript", body: ``, header: map[string]string{"Access-Control-Allow-Origin": "*"}},
		"a.test/policy.js":             script(``),
		"a.test/worker.js":             script(`importScripts("/imported-by-worker.js", "https://b.test/imported-cross.js"); postMessage(self.imported + " " + self.importedCross);`),
		"a.test/imported-by-worker.js": script(`self.imported = "same";`),
		"b.test/imported-cross.js":     script(`self.importedCross = "cross";`),
		"a.test/shared.js":             script(`onconnect = e => e.ports[0].postMessage("connected");`),
		"a.test/frame.html":            html(`<script>parent.postMessage("frame", "*")</script>`),
		"b.test/frame.html":            html(`<script>parent.postMessage("cross frame", "*")</script>`),
		"a.test/popup.html":            html(``),
		"a.test/popup-noreferrer.html": html(``),
	}
	site, w, ctx := openRecording(t, files, a+"/")
	expectJS(t, ctx, w, `[!!window.classic, !!window.cross, !!window.cors, !!window.corsFailed, !!window.corsOK, !!window.module]`,
		[]any{true, true, false, true, true, true})
	expectJS(t, ctx, w, `new Promise(r => { const w = new Worker("/worker.js"); w.onmessage = e => r(e.data); w.onerror = () => r("error"); })`, "same cross")
	expectJS(t, ctx, w, `new Promise(r => { const s = new SharedWorker("/shared.js"); s.port.onmessage = e => r(e.data); s.onerror = () => r("error"); })`, "connected")
	expectJS(t, ctx, w, `Promise.all(["/frame.html", "https://b.test/frame.html"].map(src => new Promise(r => {
		const f = document.createElement("iframe");
		f.src = src;
		f.onload = () => r(src);
		document.body.append(f);
	})))`, []any{"/frame.html", "https://b.test/frame.html"})
	expectJS(t, ctx, w, `new Promise(r => { const p = open("/popup.html"); p.addEventListener("load", () => r(p.location.pathname)); })`, "/popup.html")
	eval(t, ctx, w, `open("/popup-noreferrer.html", "", "noreferrer"), 0`)
	if err := w.Browser().RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}

	page := a + "/"
	for u, want := range map[string]recorded{
		// The embedder's navigation: no client, so no referrer, and the
		// user's own (Sec-Fetch-Site none).
		page: {Dest: "document", Mode: "navigate", Site: "none"},
		// Classic scripts: no-cors without crossorigin (no Origin), cors
		// with it; the referrer is the document's URL, its origin only
		// across origins (strict-origin-when-cross-origin).
		a + "/classic.js":  {Dest: "script", Mode: "no-cors", Site: "same-origin", Referer: page},
		b + "/cross.js":    {Dest: "script", Mode: "no-cors", Site: "cross-site", Referer: page},
		b + "/cors.js":     {Dest: "script", Mode: "cors", Site: "cross-site", Origin: a, Referer: page},
		b + "/cors-ok.js":  {Dest: "script", Mode: "cors", Site: "cross-site", Origin: a, Referer: page},
		a + "/policy.js":   {Dest: "script", Mode: "no-cors", Site: "same-origin"},
		b + "/module.js":   {Dest: "script", Mode: "cors", Site: "cross-site", Origin: a, Referer: page},
		b + "/imported.js": {Dest: "script", Mode: "cors", Site: "cross-site", Origin: a, Referer: b + "/module.js"},
		// Worker scripts: same-origin mode, the owner as the client;
		// importScripts: no-cors, the worker as the client.
		a + "/worker.js":             {Dest: "worker", Mode: "same-origin", Site: "same-origin", Referer: page},
		a + "/imported-by-worker.js": {Dest: "script", Mode: "no-cors", Site: "same-origin", Referer: a + "/worker.js"},
		b + "/imported-cross.js":     {Dest: "script", Mode: "no-cors", Site: "cross-site", Referer: page},
		a + "/shared.js":             {Dest: "sharedworker", Mode: "same-origin", Site: "same-origin", Referer: page},
		a + "/frame.html":            {Dest: "iframe", Mode: "navigate", Site: "same-origin", Referer: page},
		b + "/frame.html":            {Dest: "iframe", Mode: "navigate", Site: "cross-site", Referer: page},
		a + "/popup.html":            {Dest: "document", Mode: "navigate", Site: "same-origin", Referer: page},
		a + "/popup-noreferrer.html": {Dest: "document", Mode: "navigate", Site: "same-origin"},
	} {
		checkRequest(t, site, u, want)
	}
}

// A cross-origin classic script without Access-Control-Allow-Origin runs
// (a no-cors request), but a worker script is same-origin: a redirect of
// it to another origin is a network error (the worker fires error) and
// the other origin never gets a request; a cross-origin worker URL fires
// error without a request.
func TestWorkerScriptSameOrigin(t *testing.T) {
	const a, b = "https://a.test", "https://b.test"
	files := map[string]siteFile{
		"a.test/":          html(`<script src="https://b.test/cross.js"></script>`),
		"b.test/cross.js":  script(`window.cross = "ran";`),
		"a.test/redirect":  {status: http.StatusFound, header: map[string]string{"Location": b + "/worker.js"}},
		"b.test/worker.js": script(`postMessage("ran")`),
		"a.test/same":      {status: http.StatusFound, header: map[string]string{"Location": a + "/worker.js"}},
		"a.test/worker.js": script(`postMessage("ran " + location.pathname)`),
		"a.test/text.js":   {ctype: "text/plain", body: `postMessage("ran")`},
	}
	site, w, ctx := openRecording(t, files, a+"/")
	expectJS(t, ctx, w, `window.cross`, "ran")
	worker := func(src string) string {
		return `new Promise(r => { const w = new Worker(` + fmt.Sprintf("%q", src) + `); w.onmessage = e => r(e.data); w.onerror = e => r("error " + e.type); })`
	}
	expectJS(t, ctx, w, worker("/redirect"), "error error")
	if _, ok := site.request(b + "/worker.js"); ok {
		t.Errorf("the cross-origin redirect target of a worker script was requested")
	}
	expectJS(t, ctx, w, worker("/same"), "ran /worker.js") // the response's URL
	expectJS(t, ctx, w, worker("/text.js"), "error error")
	// A cross-origin worker URL: error at the Worker, no exception (as
	// in Chromium) and no request.
	expectJS(t, ctx, w, worker(b+"/worker.js"), "error error")
	expectJS(t, ctx, w, `new Promise(r => { const s = new SharedWorker("https://b.test/worker.js"); s.onerror = () => r("error"); s.port.onmessage = e => r(e.data); })`, "error")
	expectJS(t, ctx, w, `new Promise(r => { const s = new SharedWorker("/redirect"); s.onerror = () => r("error"); s.port.onmessage = e => r(e.data); })`, "error")
	if _, ok := site.request(b + "/worker.js"); ok {
		t.Errorf("the cross-origin redirect target of a worker script was requested")
	}
}

// importScripts goes through package fetch with the worker as the
// client: a failed fetch, an error status and a MIME type that is not
// JavaScript's are NetworkError DOMExceptions; a cross-origin script
// without Access-Control-Allow-Origin runs (no-cors).
func TestImportScriptsErrors(t *testing.T) {
	const a = "https://a.test"
	files := map[string]siteFile{
		"a.test/":         html(``),
		"a.test/ok.js":    script(`self.ok = (self.ok || 0) + 1;`),
		"a.test/text.txt": {ctype: "text/plain", body: `self.text = true;`},
		"b.test/cross.js": script(`self.cross = true;`),
		"a.test/worker.js": script(`onmessage = e => {
			try { importScripts(e.data); postMessage("ok " + self.ok + " " + !!self.cross); }
			catch (err) { postMessage(err.name + " " + (err instanceof DOMException)); }
		};`),
	}
	_, w, ctx := openRecording(t, files, a+"/")
	eval(t, ctx, w, `window.wk = new Worker("/worker.js"); window.imp = u => new Promise(r => { wk.onmessage = e => r(e.data); wk.postMessage(u); }); 0`)
	for _, c := range []struct{ url, want string }{
		{"/ok.js", "ok 1 false"},
		{"https://b.test/cross.js", "ok 1 true"},
		{"/missing.js", "NetworkError true"},
		{"/text.txt", "NetworkError true"},
		{"http://a.test:6666/ok.js", "NetworkError true"}, // a bad port
		{"http://a.test/ok.js", "NetworkError true"},      // mixed content
		{"data:text/javascript,self.ok=10", "ok 10 true"},
		{"data:,self.ok=20", "ok 20 true"}, // no MIME check for data: (Chromium)
		{"https://a.test:bad/", "SyntaxError true"},
	} {
		expectJS(t, ctx, w, `imp(`+fmt.Sprintf("%q", c.url)+`)`, c.want)
	}
}

// Mixed Content: an https page's http: script, iframe, module and worker
// loads are blocked before any request (the plain listener gets none);
// an http: popup (a top-level navigation) is not.
func TestMixedContentLoads(t *testing.T) {
	files := map[string]siteFile{
		"a.test/": html(`<script>
				document.getElementById("s").onerror = () => window.blocked = true;
				document.getElementById("m").onerror = () => window.moduleBlocked = true;
			</script>
			<script id=s src="http://a.test/s.js"></script>
			<script id=m type="module" src="http://a.test/m.js"></script>`),
		"a.test/s.js":       script(`window.ran = true`),
		"a.test/m.js":       {ctype: "text/javascript", header: map[string]string{"Access-Control-Allow-Origin": "*"}},
		"a.test/frame.html": html(``),
		"a.test/popup.html": html(``),
	}
	site, w, ctx := openRecording(t, files, "https://a.test/")
	expectJS(t, ctx, w, `[!!window.blocked, !!window.moduleBlocked, !!window.ran]`, []any{true, true, false})
	eval(t, ctx, w, `const f = document.createElement("iframe"); f.src = "http://a.test/frame.html"; document.body.append(f); open("http://a.test/popup.html"); 0`)
	if err := w.Browser().RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://a.test/s.js", "http://a.test/m.js", "http://a.test/frame.html"} {
		if _, ok := site.request(u); ok {
			t.Errorf("%s (mixed content) reached the server", u)
		}
	}
	checkRequest(t, site, "http://a.test/popup.html", recorded{Referer: "", Dest: "", Mode: "", Site: ""})
}

// A Fetcher that is not a RequestFetcher is the network too: a redirect
// it returns is followed by package fetch (the document's URL is the
// target's), and a cross-origin module script needs the
// Access-Control-Allow-Origin of its Header.
func TestPlainFetcherIsTheNetwork(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	f := browser.FetcherFunc(func(ctx context.Context, u *url.URL) (*browser.Response, error) {
		mu.Lock()
		seen = append(seen, u.String())
		mu.Unlock()
		switch u.String() {
		case "https://a.test/old":
			return &browser.Response{Status: 301, Header: http.Header{"Location": {"/new"}}}, nil
		case "https://a.test/new":
			return &browser.Response{Status: 200, ContentType: "text/html", Body: []byte(`
				<script>document.getElementById("no").onerror = () => window.refused = true;</script>
				<script type="module" src="https://b.test/ok.js"></script>
				<script id=no type="module" src="https://b.test/no-acao.js"></script>`)}, nil
		case "https://b.test/ok.js":
			return &browser.Response{Status: 200, ContentType: "text/javascript", Header: http.Header{"Access-Control-Allow-Origin": {"*"}}, Body: []byte(`window.ok = true`)}, nil
		case "https://b.test/no-acao.js":
			return &browser.Response{Status: 200, ContentType: "text/javascript", Body: []byte(`window.ran = true`)}, nil
		}
		return &browser.Response{Status: 404}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{Fetcher: f})
	defer b.Close()
	w, err := b.Open(ctx, "https://a.test/old")
	if err != nil {
		t.Fatal(err)
	}
	if got := w.URL().String(); got != "https://a.test/new" {
		t.Errorf("the document's URL is %s", got)
	}
	expectJS(t, ctx, w, `[!!window.ok, !!window.refused, !!window.ran]`, []any{true, true, false})
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"https://a.test/old", "https://a.test/new"}; !reflect.DeepEqual(seen[:2], want) {
		t.Errorf("requests %v", seen)
	}
	if strings.Join(seen, " ") == "" {
		t.Error("no requests")
	}
}

// blob: and data: documents: a blob: popup loads (the blob's origin); a
// page's navigation of a top-level window to a data: URL is refused, as
// Chromium and Firefox refuse it, while a data: iframe loads (opaque
// origin) and the embedder may open a data: URL.
func TestBlobAndDataDocuments(t *testing.T) {
	files := map[string]siteFile{"a.test/": html(`<script>
		window.got = [];
		addEventListener("message", e => got.push(e.data));
		window.report = '<script>(opener || parent).postMessage(location.protocol + " " + self.origin, "*")<\/script>';
	</script>`)}
	_, w, ctx := openRecording(t, files, "https://a.test/")
	eval(t, ctx, w, `
		open("data:text/html," + encodeURIComponent(report));
		open(URL.createObjectURL(new Blob([report], {type: "text/html"})));
		const f = document.createElement("iframe");
		f.src = "data:text/html," + encodeURIComponent(report);
		document.body.append(f);
		0`)
	if err := w.Browser().RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	expectJS(t, ctx, w, `got.sort()`, []any{"blob: https://a.test", "data: null"})
	d, err := w.Browser().Open(ctx, "data:text/html,<title>from the embedder</title>")
	if err != nil {
		t.Fatal(err)
	}
	expectJS(t, ctx, d, `document.title + " " + self.origin`, "from the embedder null")
}

// The errors of a classic script from a no-cors cross-origin response are
// muted: the page's error event says "Script error." with no location
// and a null error; fetched with CORS, the error is the script's own.
func TestMutedScriptErrors(t *testing.T) {
	files := map[string]siteFile{
		"a.test/": html(`<script>
			window.errors = [];
			addEventListener("error", e => { errors.push([e.message, e.filename, e.lineno, e.error === null]); e.preventDefault(); });
		</script>
		<script src="https://b.test/throws.js"></script>
		<script src="https://b.test/cors-throws.js" crossorigin></script>`),
		"b.test/throws.js":      script(`throw new Error("secret")`),
		"b.test/cors-throws.js": {ctype: "text/javascript", body: `throw new Error("shown")`, header: map[string]string{"Access-Control-Allow-Origin": "*"}},
	}
	_, w, ctx := openRecording(t, files, "https://a.test/")
	expectJS(t, ctx, w, `errors`, []any{
		[]any{"Script error.", "", int64(0), true},
		[]any{"Error: shown", "https://b.test/cors-throws.js", int64(1), false},
	})
}

// A document's referrer policy -- its response's Referrer-Policy header,
// overridden by a referrer meta element -- is the policy of its loads and
// fetch() calls that set none; a referrerpolicy attribute or fetch()'s
// own policy still wins.
func TestDocumentReferrerPolicy(t *testing.T) {
	const a = "https://a.test"
	files := map[string]siteFile{
		"a.test/header": {ctype: "text/html", header: map[string]string{"Referrer-Policy": "no-referrer"}, body: `
			<script src="/h.js"></script>
			<script src="/h-attr.js" referrerpolicy="unsafe-url"></script>
			<script>window.done = Promise.all([fetch("/h-fetch"), fetch("/h-fetch-own", {referrerPolicy: "unsafe-url"})]).then(() => "done");</script>`},
		"a.test/meta": {ctype: "text/html", header: map[string]string{"Referrer-Policy": "no-referrer"}, body: `
			<meta name="referrer" content="origin">
			<script src="/m.js"></script>
			<script>window.done = fetch("/m-fetch").then(() => "done");</script>`},
		"a.test/h.js": script(``), "a.test/h-attr.js": script(``), "a.test/h-fetch": script(``), "a.test/h-fetch-own": script(``),
		"a.test/m.js": script(``), "a.test/m-fetch": script(``),
	}
	site, w, ctx := openRecording(t, files, a+"/header")
	expectJS(t, ctx, w, `done`, "done")
	m, err := w.Browser().Open(ctx, a+"/meta")
	if err != nil {
		t.Fatal(err)
	}
	expectJS(t, ctx, m, `done`, "done")
	for u, want := range map[string]string{
		a + "/h.js":        "",
		a + "/h-attr.js":   a + "/header",
		a + "/h-fetch":     "",
		a + "/h-fetch-own": a + "/header",
		a + "/m.js":        a + "/",
		a + "/m-fetch":     a + "/",
	} {
		got, ok := site.request(u)
		if !ok || got.Referer != want || got.hasReferr != (want != "") {
			t.Errorf("%s: Referer %q (sent %v, request made %v), want %q", u, got.Referer, got.hasReferr, ok, want)
		}
	}
}

// A worker's referrer policy is its script response's Referrer-Policy
// header's: its importScripts and fetch() requests follow it.
func TestWorkerReferrerPolicy(t *testing.T) {
	const a = "https://a.test"
	body := `importScripts("/imp.js?" + location.pathname); fetch("/fetched?" + location.pathname).then(() => postMessage("done"));`
	files := map[string]siteFile{
		"a.test/":          html(``),
		"a.test/plain.js":  script(body),
		"a.test/policy.js": {ctype: "text/javascript", header: map[string]string{"Referrer-Policy": "no-referrer"}, body: body},
		"a.test/imp.js":    script(``),
		"a.test/fetched":   script(``),
	}
	site, w, ctx := openRecording(t, files, a+"/")
	for _, src := range []string{"/plain.js", "/policy.js"} {
		expectJS(t, ctx, w, `new Promise(r => { const w = new Worker("`+src+`"); w.onmessage = e => r(e.data); w.onerror = () => r("error"); })`, "done")
	}
	for u, want := range map[string]string{
		a + "/imp.js?/plain.js":   a + "/plain.js",
		a + "/fetched?/plain.js":  a + "/plain.js",
		a + "/imp.js?/policy.js":  "",
		a + "/fetched?/policy.js": "",
	} {
		got, ok := site.request(u)
		if !ok || got.Referer != want || got.hasReferr != (want != "") {
			t.Errorf("%s: Referer %q (sent %v, request made %v), want %q", u, got.Referer, got.hasReferr, ok, want)
		}
	}
}
