package browser_test

import "testing"

// Content Security Policy from a document's header and meta element, and
// from a worker script's header, blocks the requests it forbids before
// they reach the network (fetch() rejects, elements fire error).
func TestContentSecurityPolicyBlocksRequests(t *testing.T) {
	const a = "https://a.test"
	png := siteFile{ctype: "image/png", body: "\x89PNG\r\n\x1a\n"}
	files := map[string]siteFile{
		"a.test/": {ctype: "text/html", body: `<!DOCTYPE html><head><meta http-equiv="Content-Security-Policy" content="style-src 'none'"></head><body></body>`,
			header: map[string]string{"Content-Security-Policy": "connect-src 'none'; img-src 'self', font-src 'none'"}},
		"a.test/data.txt":  {ctype: "text/plain", body: "data"},
		"a.test/img.png":   png,
		"b.test/img.png":   png,
		"a.test/sheet.css": {ctype: "text/css", body: ""},
		"a.test/font.ttf":  {ctype: "font/ttf", body: "\x00\x01\x00\x00"},
		"a.test/worker.js": {ctype: "text/javascript", body: `fetch("/worker-data.txt").then(() => postMessage("fetched"), e => postMessage(e.name));`,
			header: map[string]string{"Content-Security-Policy": "default-src 'none'"}},
		"a.test/worker-data.txt": {ctype: "text/plain", body: "data"},
		"a.test/free-worker.js":  script(`fetch("/worker-data.txt?free").then(() => postMessage("fetched"), e => postMessage(e.name));`),
	}
	site, w, ctx := openRecording(t, files, a+"/")
	expectJS(t, ctx, w, `(() => {
		const ev = el => new Promise(r => { el.onload = () => r("load"); el.onerror = () => r("error"); });
		const img = src => { const i = document.createElement("img"); const p = ev(i); i.src = src; return p; };
		const l = document.createElement("link");
		l.rel = "stylesheet";
		l.href = "/sheet.css";
		const sheet = ev(l);
		document.head.append(l);
		const worker = src => new Promise(r => { const w = new Worker(src); w.onmessage = e => r(e.data); w.onerror = () => r("error"); });
		return Promise.all([fetch("/data.txt").then(() => "fetched", e => e.name), img("/img.png"), img("https://b.test/img.png"),
			sheet, new FontFace("f", "url(/font.ttf)").load().then(() => "loaded", e => e.name),
			worker("/worker.js"), worker("/free-worker.js")]);
	})()`, []any{"TypeError", "load", "error", "error", "NetworkError", "TypeError", "fetched"})
	if err := w.Browser().RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	// (The header's second policy, after its comma, forbids fonts.)
	for _, u := range []string{a + "/data.txt", "https://b.test/img.png", a + "/sheet.css", a + "/worker-data.txt", a + "/font.ttf"} {
		if _, ok := site.request(u); ok {
			t.Errorf("%s reached the network", u)
		}
	}
	for _, u := range []string{a + "/img.png", a + "/worker.js", a + "/worker-data.txt?free"} {
		if _, ok := site.request(u); !ok {
			t.Errorf("%s did not reach the network", u)
		}
	}
}
