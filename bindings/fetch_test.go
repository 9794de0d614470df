package bindings

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gowebengine/weblocks/fetch"
)

// handlerHost is a FetchHost that runs fetch.Fetch synchronously over a
// network answering every request with an http.Handler (the manual
// scheduler then runs the task that settles the promise). Requests to
// /hang wait for their context to end, in a goroutine.
type handlerHost struct {
	h    http.Handler
	mu   sync.Mutex
	reqs []*fetch.NetworkRequest
	hung []func()
}

func (f *handlerHost) StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response)) {
	p.Network = fetch.NetworkFunc(f.send)
	if p.Request.CurrentURL().Path == "/hang" {
		// Finished by the abort (recorded so the test can wait).
		ch := make(chan struct{})
		f.hung = append(f.hung, func() { <-ch })
		go func() { done(fetch.Fetch(ctx, p)); close(ch) }()
		return
	}
	resp := fetch.Fetch(ctx, p)
	done(resp)
	resp.Load()
}

func (f *handlerHost) send(ctx context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
	if req.URL.Path == "/hang" {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if req.URL.Host == "unreachable.test" {
		return nil, errors.New("connection refused")
	}
	if req.BodyStream != nil {
		// A streamed body: this network's connections are HTTP/1.1 (it
		// runs on the event loop, which the stream's reads need; package
		// browser's tests send one over HTTP/2).
		return nil, fetch.ErrStreamingUploadHTTP1
	}
	body := req.Body
	hr := httptest.NewRequest(req.Method, req.URL.String(), bytes.NewReader(body))
	hr.Header = req.Header.Clone()
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, hr)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return &fetch.NetworkResponse{Status: res.StatusCode, StatusText: http.StatusText(res.StatusCode), Header: res.Header, Body: b}, nil
}

func fetchTestHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain;charset=utf-8")
		w.Header().Set("X-Custom", "a")
		w.Header().Add("X-Custom", "b")
		w.Header().Add("Set-Cookie", "k=v")
		io.WriteString(w, "h\u00e9llo")
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"a": [1, 2], "b": "x"}`)
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Method", r.Method)
		w.Header().Set("X-Content-Type", r.Header.Get("Content-Type"))
		w.Header().Set("X-Origin", r.Header.Get("Origin"))
		w.Header().Set("X-Seen", r.Header.Get("X-Test"))
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Expose-Headers", "X-Method, X-Content-Type, X-Origin")
		w.Write(b)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nope", http.StatusNotFound)
	})
	mux.HandleFunc("/nocors", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secret")
	})
	mux.HandleFunc("/cors-creds", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		if r.URL.Query().Get("creds") == "1" {
			w.Header().Set("Access-Control-Allow-Credentials", "true")
		}
		io.WriteString(w, "ok")
	})
	mux.HandleFunc("/preflight", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			if r.URL.Query().Get("allow") == "1" {
				w.Header().Set("Access-Control-Allow-Methods", "PUT")
				w.Header().Set("Access-Control-Allow-Headers", "x-test")
			}
			return
		}
		io.WriteString(w, r.Method+" "+r.Header.Get("X-Test"))
	})
	return mux
}

func TestFetchWindow(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/dir/page.html")
	host := &handlerHost{h: fetchTestHandler()}
	win.r.SetFetchHost(host)
	win.async(prelude + `
	(async () => {
		let r = await fetch("../text");
		log(r instanceof Response, r.type, r.url, r.status, r.ok, r.statusText, r.redirected);
		log(r.headers.get("x-custom"), r.headers.get("set-cookie"), [...r.headers.keys()].join());
		log(r.bodyUsed, await r.text(), r.bodyUsed);
		await r.text().then(() => log("read twice"), e => log("second read", e.name));
		r = await fetch("/json");
		const j = await r.json();
		log(j.a.join("+"), j.b);
		r = await fetch("/text");
		const ab = await r.arrayBuffer();
		log(ab instanceof ArrayBuffer, ab.byteLength);
		r = await fetch("/text");
		const u8 = await r.bytes();
		log(u8 instanceof Uint8Array, u8[0], u8.length);
		r = await fetch("/missing");
		log(r.status, r.ok, r.statusText, (await r.text()).trim());

		// Request bodies: string, typed array, ArrayBuffer, DataView.
		r = await fetch("/echo", {method: "post", body: "a=1"});
		log(r.headers.get("x-method"), r.headers.get("x-content-type"), r.headers.get("x-origin"), await r.text());
		r = await fetch("/echo", {method: "PUT", body: new Uint8Array([104, 105])});
		log(r.headers.get("x-method"), JSON.stringify(r.headers.get("x-content-type")), await r.text());
		r = await fetch("/echo", {method: "POST", body: new Uint16Array([0x6968]).buffer, headers: {"Content-Type": "text/x-mine"}});
		log(r.headers.get("x-content-type"), await r.text());
		r = await fetch(new Request("/echo", {method: "POST", body: new DataView(new Uint8Array([111, 107]).buffer)}));
		log(await r.text());
		r = await fetch("/echo", {method: "POST", body: new URLSearchParams([["a", "1 2"], ["b", "é&"]])});
		log(r.headers.get("x-content-type"), await r.text());

		// Network errors and bad arguments are TypeErrors.
		for (const [u, init] of [["https://unreachable.test/"], ["ftp://a.test/x"],
				["https://user:pw@a.test/"], ["/x", {method: "GET", body: "x"}], ["/x", {method: "TRACE"}],
				["/x", {method: "bad method"}], ["/x", {mode: "navigate"}], ["/x", {mode: "no-cors", method: "PUT"}],
				["/x", {headers: {"bad name": "v"}}], ["/x", {headers: [["a"]]}], ["/x", {window: {}}],
				["http://[::1"]]) {
			await fetch(u, init).then(() => log("fulfilled", u), e => log(e.constructor.name, e instanceof TypeError));
		}
		done();
	})().catch(fail);
	`)
	expectLog(t, win,
		"true basic https://a.test/text 200 true OK false",
		"a, b null content-type,x-custom",
		"false héllo true",
		"second read TypeError",
		"1+2 x",
		"true 6",
		"true 104 6",
		"404 false Not Found nope",
		"POST text/plain;charset=UTF-8 https://a.test a=1",
		`PUT "" hi`,
		"text/x-mine hi",
		"ok",
		"application/x-www-form-urlencoded;charset=UTF-8 a=1+2&b=%C3%A9%26",
		"TypeError true", "TypeError true", "TypeError true", "TypeError true", "TypeError true", "TypeError true",
		"TypeError true", "TypeError true", "TypeError true", "TypeError true", "TypeError true", "TypeError true")
}

func TestFetchCORS(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/page.html")
	host := &handlerHost{h: fetchTestHandler()}
	win.r.SetFetchHost(host)
	win.async(prelude + `
	(async () => {
		const other = "https://b.test";
		const show = p => p.then(async r => log(r.type, r.status, r.url, [...r.headers].map(x => x.join(":")).join(" "), JSON.stringify(await r.text())),
			e => log("rejected", e.name));
		await show(fetch(other + "/echo", {method: "POST", body: "x"}));
		await show(fetch(other + "/nocors"));
		await show(fetch(other + "/nocors", {mode: "no-cors"}));
		await show(fetch(other + "/echo", {mode: "same-origin"}));
		await show(fetch(other + "/echo", {credentials: "include"}));
		await show(fetch(other + "/cors-creds", {credentials: "include"}));
		await show(fetch(other + "/cors-creds?creds=1", {credentials: "include"}));
		await show(fetch(other + "/preflight", {method: "PUT", headers: {"X-Test": "t"}}));
		await show(fetch(other + "/preflight?allow=1", {method: "PUT", headers: {"X-Test": "t"}}));
		done();
	})().catch(fail);
	`)
	expectLog(t, win,
		`cors 200 https://b.test/echo content-type:text/plain; charset=utf-8 x-content-type:text/plain;charset=UTF-8 x-method:POST x-origin:https://a.test "x"`,
		"rejected TypeError",
		`opaque 0   ""`,
		"rejected TypeError",
		"rejected TypeError",
		"rejected TypeError",
		`cors 200 https://b.test/cors-creds?creds=1 content-type:text/plain; charset=utf-8 "ok"`,
		"rejected TypeError",
		`cors 200 https://b.test/preflight?allow=1 content-type:text/plain; charset=utf-8 "PUT t"`)
	var methods []string
	for _, r := range host.reqs {
		methods = append(methods, r.Method+" "+r.URL.Path+" "+r.Header.Get("Access-Control-Request-Headers"))
	}
	if got := strings.Join(methods, ","); !strings.Contains(got, "OPTIONS /preflight x-test,OPTIONS /preflight x-test,PUT /preflight ") {
		t.Errorf("requests: %s", got)
	}
}

// TestFetchAbort: an abort before the request, while it is in flight (the
// host sees its context end) and after the response; the signal's reason
// is the rejection value.
func TestFetchAbort(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/")
	host := &handlerHost{h: fetchTestHandler()}
	win.r.SetFetchHost(host)
	win.exec(prelude + `
		const show = p => p.then(r => log("fulfilled", r.status), e => log("rejected", e && e.name || e));
		show(fetch("/text", {signal: AbortSignal.abort()}));
		const c = new AbortController();
		show(fetch("/hang", {signal: c.signal}));
		c.abort("stop");
		const c2 = new AbortController();
		show(fetch("/hang", {signal: c2.signal}));
		setTimeout(() => c2.abort(), 5);
		const c3 = new AbortController();
		fetch("/text", {signal: c3.signal}).then(async r => { c3.abort(); log("after response", await r.text().catch(e => e.name)); });
		// signal: null drops the input request's (aborted) signal; an
		// undefined one keeps it.
		const aborted = new Request("/text", {signal: AbortSignal.abort()});
		log("null signal", new Request(aborted, {signal: null}).signal.aborted, new Request(aborted, {signal: undefined}).signal.aborted);
		show(fetch(aborted, {signal: null}));
	`)
	for _, wait := range host.hung {
		wait()
	}
	w.settle()
	expectLog(t, win, "null signal false true", "rejected AbortError", "rejected stop", "after response AbortError", "fulfilled 200", "rejected AbortError")
	if len(host.hung) != 2 {
		t.Errorf("%d requests reached the host hanging, want 2", len(host.hung))
	}
}

// TestFetchWorkerAndNoHost: fetch() in a dedicated worker realm resolves
// URLs against the worker's URL; without a FetchHost every request is a
// network error.
func TestFetchWorkerAndNoHost(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/page.html")
	wk := w.worker(win, "https://a.test/sub/worker.js")
	host := &handlerHost{h: fetchTestHandler()}
	wk.r.SetFetchHost(host)
	wk.async(prelude + `
	(async () => {
		const r = await fetch("../json");
		log(r.url, (await r.json()).b, typeof Headers, typeof Request, typeof Response);
		log(new Request("x").url);
		done();
	})().catch(fail);`)
	expectLog(t, wk, "https://a.test/json x function function function", "https://a.test/sub/x")
	win.async(prelude + `fetch("/text").then(() => log("fulfilled"), e => log(e.name, e.message)).then(done);`)
	expectLog(t, win, "TypeError Failed to fetch")
}

// TestFetchObjects: Headers, Request and Response without the network.
func TestFetchObjects(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/dir/")
	win.async(prelude + `
	(async () => {
		const h = new Headers({"Set-Cookie": "a=1", "X-B": "1"});
		h.append("set-cookie", "b=2");
		h.append("X-b", " 2 ");
		log([...h].map(p => p.join("=")).join("|"), h.getSetCookie().join("|"));
		log([...h.keys()].join(), [...h.values()].length, h.get("x-b"));
		const seen = [];
		h.forEach((v, k, o) => seen.push(k + (o === h)));
		log(seen.join());
		for (const f of [() => h.append("", "x"), () => h.append("a", "\0"), () => new Headers(5), () => new Headers([["a", "b", "c"]])]) {
			try { f(); log("no throw"); } catch (e) { log(e.name); }
		}
		// Guards: request headers drop forbidden names; no-cors keeps only
		// safelisted ones.
		let q = new Request("x", {headers: {"Cookie": "c", "Host": "h", "Sec-X": "s", "Accept": "a", "X-Y": "y"}});
		log([...q.headers.keys()].join());
		q = new Request("x", {mode: "no-cors", headers: {"Accept": "a", "X-Y": "y", "Content-Type": "application/json"}});
		log(q.mode, [...q.headers.keys()].join());
		q.headers.set("X-Z", "z");
		q.headers.set("Content-Type", "text/plain");
		log([...q.headers].map(p => p.join("=")).join());
		// Response headers drop Set-Cookie.
		const resp = new Response(null, {headers: {"Set-Cookie": "x", "X-A": "a"}});
		log([...resp.headers.keys()].join());
		// Request from a Request: the body moves; the signal follows.
		const c = new AbortController();
		const q1 = new Request("https://b.test/p#frag", {method: "PUT", body: "payload", signal: c.signal, referrer: ""});
		const q2 = new Request(q1, {headers: [["X-N", "n"]]});
		log(q1.bodyUsed, q2.method, q2.url, q2.referrer, q1.referrer, [...q2.headers.keys()].join());
		c.abort();
		log(q2.signal.aborted, q1.signal.aborted);
		log(await q2.text());
		log(new Request("/a").referrer, new Request("/a", {referrer: "/b"}).referrer);
		for (const f of [() => new Request("/a", {cache: "only-if-cached"}), () => new Request("/a", {referrer: "http://[x"}),
				() => new Request("/a", {method: "track"}), () => Response.redirect("http://[x"), () => Response.json(undefined)]) {
			try { f(); log("no throw"); } catch (e) { log(e.name); }
		}
		// Body types.
		const r = new Response(new Uint8Array([0xEF, 0xBB, 0xBF, 0x61, 0xFF]));
		const r2 = r.clone();
		log(JSON.stringify(await r.text()), (await r2.bytes()).length);
		await new Response("{bad").json().catch(e => log(e.name));
		const rr = Response.redirect("../to", 308);
		log(rr.headers.get("location"), rr.status, rr.headers.has("x"));
		try { rr.headers.set("x", "y"); } catch (e) { log("redirect headers", e.name); }
		log(new Response(new DataView(new Uint8Array([65, 66, 67]).buffer, 1)).headers.get("content-type"));
		log(await new Response(new DataView(new Uint8Array([65, 66, 67]).buffer, 1)).text());
		done();
	})().catch(fail);`)
	expectLog(t, win,
		"set-cookie=a=1|set-cookie=b=2|x-b=1, 2 a=1|b=2",
		"set-cookie,set-cookie,x-b 3 1, 2",
		"set-cookietrue,set-cookietrue,x-btrue",
		"TypeError", "TypeError", "TypeError", "TypeError",
		"accept,x-y",
		"no-cors accept",
		"accept=a,content-type=text/plain",
		"x-a",
		"true PUT https://b.test/p#frag about:client  x-n",
		"true true",
		"payload",
		"about:client https://a.test/b",
		"TypeError", "TypeError", "TypeError", "TypeError", "TypeError",
		"\"a\ufffd\" 5",
		"SyntaxError",
		"https://a.test/to 308 false",
		"redirect headers TypeError",
		"null",
		"BC")
}

// TestFetchBlob: Blob construction, slice, reading, and Blob bodies both
// ways.
func TestFetchBlob(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/")
	win.r.SetFetchHost(&handlerHost{h: fetchTestHandler()})
	win.async(prelude + `
	(async () => {
		const b = new Blob(["a\r\nb", new Uint8Array([99]), new Blob(["dd"])], {type: "Text/Plain", endings: "native"});
		log(b.size, b.type, JSON.stringify(await b.text()), new Blob().size, new Blob([], {type: "a\u00e9"}).type === "");
		const s = b.slice(-3, -1, "X/Y");
		log(s.size, s.type, await s.text(), await b.slice(2).text(), b.slice(5, 1).size, (await b.bytes())[0], (await b.arrayBuffer()).byteLength);
		let r = await fetch("/echo", {method: "POST", body: new Blob(["blob body"], {type: "application/x-blob"})});
		log(r.headers.get("x-content-type"), await r.text());
		r = await fetch("/echo", {method: "POST", body: new Blob(["untyped"])});
		log(JSON.stringify(r.headers.get("x-content-type")));
		const got = await (await fetch("/json")).blob();
		log(got instanceof Blob, got.type, got.size, (await got.text()).length);
		const rb = await new Response(new Blob(["x"], {type: "a/b"})).blob();
		log(rb.type, await rb.text());
		log((await new Request("/", {method: "POST", body: "t"}).blob()).type);
		done();
	})().catch(fail);`)
	expectLog(t, win,
		`6 text/plain "a\nbcdd" 0 true`,
		"2 x/y cd bcdd 0 97 6",
		"application/x-blob blob body",
		`""`,
		"true application/json 23 23",
		"a/b x",
		"text/plain;charset=utf-8")
}
