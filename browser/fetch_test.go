package browser_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/internal/testenv"
)

// TestFetchIdlharness: upstream idlharness.js's idl_test fetches the IDL
// files (/interfaces/*.idl) with fetch() through the browser's Fetcher, in
// a window and in a dedicated worker, and every subtest passes.
func TestFetchIdlharness(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(testenv.UpstreamHarness(t, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	webref := testenv.NPMPackage(t, "@webref/idl")
	locksIDL, err := os.ReadFile(webref + "/web-locks.idl")
	if err != nil {
		t.Fatal(err)
	}
	const test = `
		setup({explicit_timeout: true});
		add_completion_callback((tests, status) => {
			const res = {status: status.status, tests: tests.map(t => t.name + ": " + t.status + " " + (t.message || ""))};
			if (self.document) window.windowResults = res; else postMessage({idlResults: res});
		});
		idl_test(['web-locks'], ['html', 'dom'], async idl_array => {
			self.lock = await new Promise(resolve => navigator.locks.request('idl-test-' + (self.document ? 'window' : 'worker'), l => { resolve(l); return new Promise(() => {}); }));
			idl_array.add_objects({LockManager: ['navigator.locks'], Lock: ['lock']});
		});`
	fsys := fstest.MapFS{
		"resources/testharness.js":  {Data: read("testharness.js")},
		"resources/idlharness.js":   {Data: read("idlharness.js")},
		"resources/WebIDLParser.js": {Data: read("webidl2/lib/webidl2.js")},
		"interfaces/web-locks.idl":  {Data: locksIDL},
		// Small dependency IDLs: the definitions Web Locks refers to.
		"interfaces/html.idl": {Data: []byte(`[Exposed=Window] interface Navigator {};
			[Exposed=Worker] interface WorkerNavigator {};`)},
		"interfaces/dom.idl": {Data: []byte(`[Exposed=*] interface EventTarget {};
			[Exposed=*] interface AbortSignal : EventTarget {};`)},
		"index.html": {Data: []byte(`<script src=/resources/testharness.js></script>
			<script src=/resources/WebIDLParser.js></script>
			<script src=/resources/idlharness.js></script>
			<script>` + test + `
			window.workerResults = new Promise(resolve => {
				const w = new Worker("worker.js");
				w.onmessage = e => { if (e.data && e.data.idlResults) resolve(e.data.idlResults); };
			});
			</script>`)},
		"worker.js": {Data: []byte(`importScripts("/resources/testharness.js", "/resources/WebIDLParser.js", "/resources/idlharness.js");` + test + `done();`)},
	}
	_, w, ctx := open(t, fsys, browser.Config{})
	for _, expr := range []string{
		`new Promise(r => { const poll = () => window.windowResults ? r(window.windowResults) : setTimeout(poll, 10); poll(); })`,
		`workerResults`,
	} {
		got, ok := eval(t, ctx, w, expr).(map[string]any)
		if !ok {
			t.Fatalf("%s: no results", expr)
		}
		tests, _ := got["tests"].([]any)
		if got["status"] != int64(0) || len(tests) < 10 {
			t.Errorf("%s: harness status %v, %d tests", expr, got["status"], len(tests))
		}
		for _, s := range tests {
			if !strings.Contains(s.(string), ": 0 ") {
				t.Errorf("%s: %s", expr, s)
			}
		}
	}
}

// TestFetchHTTP: fetch() in a window and a worker over HTTPFetcher, with a
// cross-origin CORS request and a POST body, and RunUntilIdle waiting for
// requests in flight.
func TestFetchHTTP(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<script>window.ready = true;</script>`)
	})
	mux.HandleFunc("/w.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, `onmessage = async e => { const r = await fetch(e.data, {method: "POST", body: "from worker"}); postMessage(r.status + " " + await r.text()); };`)
	})
	var other *httptest.Server
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if o := r.Header.Get("Origin"); o != "" {
			w.Header().Set("Access-Control-Allow-Origin", o)
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "%s %s", r.Method, b)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/echo", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	other = httptest.NewServer(mux)
	defer other.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{})
	defer b.Close()
	w, err := b.Open(ctx, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, ctx, w, `(async () => {
		const out = [];
		let r = await fetch("/echo", {method: "POST", body: new Uint8Array([104, 105])});
		out.push(r.type + " " + r.status + " " + await r.text());
		r = await fetch("/redirect");
		out.push(r.redirected + " " + new URL(r.url).pathname + " " + await r.text());
		r = await fetch("/redirect", {redirect: "manual"});
		out.push(r.type + " " + r.status);
		await fetch("/redirect", {redirect: "error"}).catch(e => out.push(e.name));
		r = await fetch("`+other.URL+`/echo");
		out.push(r.type + " " + await r.text());
		const wk = new Worker("/w.js");
		out.push(await new Promise(res => { wk.onmessage = e => res(e.data); wk.postMessage("`+other.URL+`/echo"); }));
		return out;
	})()`)
	want := []any{"basic 200 POST hi", "true /echo GET ", "opaqueredirect 0", "TypeError", "cors GET ", "200 POST from worker"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// A fetch in flight keeps the browser busy until its promise settled.
	eval(t, ctx, w, `window.late = null; fetch("/echo").then(r => r.text()).then(t => { window.late = t; }); 0`)
	if err := b.RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if got := eval(t, ctx, w, `window.late`); got != "GET " {
		t.Errorf("after RunUntilIdle: late = %#v", got)
	}
}

// TestFetchPreflightCache: the user agent's CORS-preflight cache is
// shared by the fetch() calls of its windows and workers: a second
// preflighted request within Access-Control-Max-Age sends no OPTIONS;
// another browser (another user agent) has its own cache.
func TestFetchPreflightCache(t *testing.T) {
	var mu sync.Mutex
	var preflights int
	api := http.NewServeMux()
	api.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		if r.Method == http.MethodOptions {
			mu.Lock()
			preflights++
			mu.Unlock()
			w.Header().Set("Access-Control-Allow-Methods", "PUT")
			w.Header().Set("Access-Control-Allow-Headers", "X-Token")
			w.Header().Set("Access-Control-Max-Age", "600")
			return
		}
		io.WriteString(w, r.Method+" "+r.Header.Get("X-Token"))
	})
	other := httptest.NewServer(api)
	defer other.Close()
	page := http.NewServeMux()
	page.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `<p>page</p>`) })
	page.HandleFunc("/w.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, `onmessage = async e => { const r = await fetch(e.data, {method: "PUT", headers: {"X-Token": "w"}}); postMessage(await r.text()); };`)
	})
	srv := httptest.NewServer(page)
	defer srv.Close()
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := preflights
		preflights = 0
		return n
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	script := `(async () => {
		const out = [];
		for (const token of ["a", "b"]) {
			const r = await fetch("` + other.URL + `/api", {method: "PUT", headers: {"X-Token": token}});
			out.push(await r.text());
		}
		const wk = new Worker("/w.js");
		out.push(await new Promise(res => { wk.onmessage = e => res(e.data); wk.postMessage("` + other.URL + `/api"); }));
		return out;
	})()`
	for i := 0; i < 2; i++ {
		b := browser.New(browser.Config{})
		w, err := b.Open(ctx, srv.URL+"/")
		if err != nil {
			t.Fatal(err)
		}
		got := eval(t, ctx, w, script)
		b.Close()
		if want := []any{"PUT a", "PUT b", "PUT w"}; !reflect.DeepEqual(got, want) {
			t.Errorf("browser %d: got %q, want %q", i, got, want)
		}
		if n := count(); n != 1 {
			t.Errorf("browser %d: %d preflights, want 1 (cached for the window's second fetch and the worker's)", i, n)
		}
	}
}

// TestFetchUploadStreaming: a request body from a ReadableStream is sent
// as it is read, over HTTP/2 (the server echoes it; a chunk that is not a
// Uint8Array is a TypeError), and a 307 of such a request is a TypeError
// while a 303 is followed as a GET; over HTTP/1.1 the request is a
// TypeError and never sent.
func TestFetchUploadStreaming(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<p>page</p>`)
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Proto+" "+r.Method)
		mu.Unlock()
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		fmt.Fprintf(w, "%s %s", r.Method, b)
	})
	mux.HandleFunc("/sink", func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) })
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		code := 307
		fmt.Sscan(r.URL.Query().Get("code"), &code)
		http.Redirect(w, r, "/echo", code)
	})
	h2 := httptest.NewUnstartedServer(mux)
	h2.EnableHTTP2 = true
	h2.StartTLS()
	defer h2.Close()
	h1 := httptest.NewServer(mux)
	defer h1.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{Fetcher: browser.HTTPFetcher{Client: h2.Client()}})
	defer b.Close()
	w, err := b.Open(ctx, h2.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, ctx, w, `(async () => {
		const enc = new TextEncoder();
		const src = (...chunks) => new ReadableStream({start(c) { for (const x of chunks) c.enqueue(x); c.close(); }});
		const out = [];
		let r = await fetch("/echo", {method: "POST", body: src(enc.encode("up"), enc.encode("load")), duplex: "half"});
		out.push(await r.text());
		out.push(await fetch("/sink", {method: "POST", body: src("str"), duplex: "half"}).catch(e => e.name));
		out.push(await fetch("/redirect?code=307", {method: "POST", body: src(enc.encode("x")), duplex: "half"}).catch(e => e.name));
		r = await fetch("/redirect?code=303", {method: "POST", body: src(enc.encode("y")), duplex: "half"});
		out.push(r.redirected + " " + await r.text());
		out.push(await fetch("`+h1.URL+`/echo", {method: "POST", body: src(enc.encode("z")), duplex: "half"}).catch(e => e.name));
		return out;
	})()`)
	want := []any{"POST upload", "TypeError", "TypeError", "true GET ", "TypeError"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	// (The cross-origin request's CORS preflight has no body: it goes
	// over HTTP/1.1; the POST does not.)
	if want := []string{"HTTP/2.0 POST", "HTTP/2.0 GET", "HTTP/1.1 OPTIONS"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("the server saw %q, want %q", seen, want)
	}
}

// TestFetchKeepaliveOutlivesDocument: a keepalive fetch started in a
// cross-site iframe's pagehide or unload reaches the server after the iframe is
// removed; a fetch without keepalive started there ends with the
// document (the fetch group is terminated) and never completes.
func TestFetchKeepaliveOutlivesDocument(t *testing.T) {
	got := make(chan string, 16)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `<p>page</p>`) })
	mux.HandleFunc("/frame", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<script>
			for (const ev of ["pagehide", "unload"]) addEventListener(ev, () => {
				fetch("/slow?plain-" + ev);
				fetch("/slow?keepalive-" + ev, {keepalive: true, method: "POST", body: "x"});
			});
		</script>`)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		// Answer after a while: time for the document to go.
		select {
		case <-time.After(200 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		got <- r.URL.RawQuery
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{})
	defer b.Close()
	w, err := b.Open(ctx, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	eval(t, ctx, w, `new Promise(r => { const f = document.createElement("iframe"); f.src = "`+strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)+`/frame"; f.onload = () => { f.remove(); r(0); }; document.body.append(f); })`)
	want := map[string]bool{"keepalive-pagehide": true, "keepalive-unload": true}
	for len(want) > 0 {
		select {
		case q := <-got:
			if !want[q] {
				t.Fatalf("the server answered %q (a fetch without keepalive outlived its document?)", q)
			}
			delete(want, q)
		case <-ctx.Done():
			t.Fatalf("keepalive fetches missing: %v", want)
		}
	}
	// The plain fetches ended with their document: a request that would
	// have been answered by now was not.
	eval(t, ctx, w, `fetch("/slow?after").then(r => r.text())`)
	if q := <-got; q != "after" {
		t.Errorf("the server answered %q, want the later request", q)
	}
}

// TestFetchKeepaliveInPopupFrameUnload: closing a cross-site popup fires
// unload at its iframe while the iframe is still its element's
// contentWindow, and a keepalive fetch the iframe's window starts there
// (its relative URL parsed against the popup's base URL: about:blank)
// reaches the server.
func TestFetchKeepaliveInPopupFrameUnload(t *testing.T) {
	got := make(chan string, 4)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `<p>page</p>`) })
	mux.HandleFunc("/popup", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<body><script>
			addEventListener("load", () => {
				const f = document.createElement("iframe");
				document.body.appendChild(f);
				f.contentWindow.addEventListener("unload", () => { f.contentWindow.fetch("/put?frame", {keepalive: true}); });
				opener.postMessage("ready", "*");
			});
		</script>`)
	})
	mux.HandleFunc("/put", func(w http.ResponseWriter, r *http.Request) { got <- r.URL.RawQuery })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{})
	defer b.Close()
	w, err := b.Open(ctx, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	eval(t, ctx, w, `new Promise(r => { const p = open("`+strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)+`/popup"); onmessage = () => { p.close(); r(0); }; })`)
	select {
	case q := <-got:
		if q != "frame" {
			t.Errorf("the server got %q", q)
		}
	case <-ctx.Done():
		t.Fatal("the keepalive fetch of the popup's iframe never came")
	}
}

// TestFetchAPIBaseURL: the Request constructor and Response.redirect
// parse URLs against their realm's API base URL: the document's base URL
// (its <base href>; an about:blank iframe's creator's, even once
// detached).
func TestFetchAPIBaseURL(t *testing.T) {
	_, w, ctx := openPage(t, fstest.MapFS{"dir/index.html": {Data: []byte(`<base href="sub/"><body>`)}}, browser.Config{}, "https://example.test/dir/", 20*time.Second)
	got := eval(t, ctx, w, `(() => {
		const f = document.createElement("iframe");
		document.body.append(f);
		const R = f.contentWindow.Request;
		const out = [new Request("a").url, Response.redirect("b").headers.get("Location"), new R("c").url];
		f.remove();
		out.push(new R("d").url);
		return out;
	})()`)
	want := []any{"https://example.test/dir/sub/a", "https://example.test/dir/sub/b", "https://example.test/dir/sub/c", "https://example.test/dir/sub/d"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestFetchServiceWorkerReferrerPolicy: a service worker's fetches take
// the referrer policy of its script's response (Referrer-Policy:
// origin): the Referer is its origin, not its script's URL.
func TestFetchServiceWorkerReferrerPolicy(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `<p>page</p>`) })
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Referrer-Policy", "origin")
		io.WriteString(w, `onmessage = e => e.waitUntil(fetch("/ref").then(r => r.text()).then(t => e.source.postMessage(t)));`)
	})
	mux.HandleFunc("/ref", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Header.Get("Referer")) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{})
	defer b.Close()
	w, err := b.Open(ctx, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, ctx, w, `(async () => {
		await navigator.serviceWorker.register("/sw.js");
		const reg = await navigator.serviceWorker.ready;
		return new Promise(r => { navigator.serviceWorker.onmessage = e => r(e.data); reg.active.postMessage("go"); });
	})()`)
	if want := srv.URL + "/"; got != want {
		t.Errorf("the service worker's fetch sent Referer %q, want %q", got, want)
	}
}

// TestFetchNoCORSAbortClosesConnection: the body of an opaque response
// (null to script) is still read, its connection open, until it ends
// (the server completes it) or the fetch is aborted, which closes it.
func TestFetchNoCORSAbortClosesConnection(t *testing.T) {
	var mu sync.Mutex
	state := map[string]string{}
	release := make(chan struct{})
	set := func(id, s string) {
		mu.Lock()
		state[id] = s
		mu.Unlock()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `<p>page</p>`) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.RawQuery
		set(id, "open")
		io.WriteString(w, "first bytes")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			set(id, "closed")
		case <-release:
			if _, err := io.WriteString(w, "the rest"); err != nil {
				set(id, "closed")
				return
			}
			w.(http.Flusher).Flush()
			set(id, "complete")
		}
	})
	mux.HandleFunc("/release", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		close(release)
	})
	mux.HandleFunc("/state", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		mu.Lock()
		defer mu.Unlock()
		io.WriteString(w, state[r.URL.RawQuery])
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{})
	defer b.Close()
	w, err := b.Open(ctx, srv.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, ctx, w, `(async () => {
		const out = [];
		const settled = async id => {
			let s;
			while ((s = await fetch("/state?" + id).then(r => r.text())) === "open") await new Promise(r => setTimeout(r, 10));
			return s;
		};
		const ac = new AbortController();
		const kept = await fetch("`+other+`/slow?kept", {mode: "no-cors"});
		const aborted = await fetch("`+other+`/slow?aborted", {mode: "no-cors", signal: ac.signal});
		out.push(kept.type, aborted.type);
		ac.abort();
		out.push(await settled("aborted"));
		await fetch("/release");
		out.push(await settled("kept"));
		return out;
	})()`)
	if want := []any{"opaque", "opaque", "closed", "complete"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
