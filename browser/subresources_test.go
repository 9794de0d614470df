package browser_test

import (
	"testing"
)

// Elements' subresource loads go through package fetch with the request
// HTML gives them (the destination and mode the server sees in
// Sec-Fetch-Dest and Sec-Fetch-Mode), and fire load or error as their
// response says: img (src, srcset, picture with source), Image(), link
// (stylesheet, preload with as, prefetch), audio and video.
func TestSubresourceRequests(t *testing.T) {
	const a = "https://a.test"
	png := siteFile{ctype: "image/png", body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}
	webm := siteFile{ctype: "video/webm", body: "\x1a\x45\xdf\xa3\x01\x00\x00\x00"}
	mp3 := siteFile{ctype: "audio/mpeg", body: "ID3\x03\x00\x00\x00\x00\x00\x00"}
	files := map[string]siteFile{
		"a.test/":                html(`<!DOCTYPE html><body></body>`),
		"a.test/img.png":         png,
		"a.test/srcset1x.png":    png,
		"a.test/srcset2x.png":    png,
		"a.test/picture.png":     png,
		"a.test/ctor.png":        png,
		"a.test/notimage.png":    {ctype: "image/png", body: "<html>not an image</html>"},
		"a.test/sheet.css":       {ctype: "text/css", body: `p { color: red }`},
		"a.test/wrongtype.css":   {ctype: "text/plain", body: `p { color: red }`},
		"a.test/preload.json":    {ctype: "application/json", body: `{}`},
		"a.test/preload.js":      script(``),
		"a.test/prefetch.html":   html(``),
		"a.test/audio.mp3":       mp3,
		"a.test/video.webm":      webm,
		"a.test/notmedia.webm":   {ctype: "video/webm", body: "plain text"},
		"a.test/preload.css":     {ctype: "text/css", body: ``},
		"a.test/preload.woff2":   {ctype: "font/woff2", body: `wOF2`},
		"a.test/preload-img.png": png,
		"a.test/svg.png":         png,
		"a.test/use.svg":         {ctype: "image/svg+xml", body: `<svg xmlns="http://www.w3.org/2000/svg"><g id="ref"/></svg>`},
	}
	site, w, ctx := openRecording(t, files, a+"/")
	// Each case resolves with the event its element fired.
	expectJS(t, ctx, w, `(() => {
		const ev = el => new Promise(r => {
			for (const t of ["load", "error", "loadeddata"]) el.addEventListener(t, () => r(t));
		});
		const img = src => { const i = document.createElement("img"); const p = ev(i); i.src = src; return p; };
		const srcset = () => { const i = document.createElement("img"); const p = ev(i); i.srcset = "/srcset2x.png 2x, /srcset1x.png 1x"; return p; };
		const picture = () => {
			const pic = document.createElement("picture"), s = document.createElement("source"), i = document.createElement("img");
			pic.append(s, i);
			const p = ev(i);
			s.srcset = "/picture.png";
			return p;
		};
		const ctor = () => { const i = new Image(4, 5); const p = ev(i); i.src = "/ctor.png"; return p; };
		const link = (rel, href, as) => {
			const l = document.createElement("link");
			l.rel = rel;
			if (as) l.as = as;
			l.href = href;
			const p = ev(l);
			document.body.append(l);
			return p;
		};
		const svgImage = href => {
			const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
			const i = document.createElementNS("http://www.w3.org/2000/svg", "image");
			const p = ev(i);
			i.setAttributeNS("http://www.w3.org/1999/xlink", "xlink:href", href);
			svg.append(i);
			document.body.append(svg);
			return p;
		};
		const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
		use.setAttribute("href", "/use.svg#ref");
		document.body.append(use);
		const media = (tag, src) => { const m = document.createElement(tag); const p = ev(m); m.src = src; return p; };
		return Promise.all([img("/img.png"), img("/notimage.png"), img("/missing.png"), img(""), srcset(), picture(), ctor(),
			link("stylesheet", "/sheet.css"), link("stylesheet", "/wrongtype.css"), link("stylesheet", "/missing.css"),
			link("preload", "/preload.json", "json"), link("preload", "/preload.js", "script"),
			link("preload", "/preload.css", "style"), link("preload", "/preload.woff2", "font"),
			link("preload", "/preload-img.png", "image"), link("prefetch", "/prefetch.html"),
			media("audio", "/audio.mp3"), media("video", "/video.webm"), media("video", "/notmedia.webm"),
			svgImage("/svg.png"), svgImage("/notimage.png"), Promise.resolve(use instanceof SVGUseElement)]);
	})()`, []any{"load", "error", "error", "error", "load", "load", "load",
		"load", "error", "error",
		"load", "load", "load", "load", "load", "load",
		"loadeddata", "loadeddata", "error",
		"load", "error", true})
	// (The use element's fetch fires no event: wait for it.)
	if err := w.Browser().RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]recorded{
		"/img.png":         {Dest: "image", Mode: "no-cors"},
		"/srcset1x.png":    {Dest: "image", Mode: "no-cors"},
		"/picture.png":     {Dest: "image", Mode: "no-cors"},
		"/ctor.png":        {Dest: "image", Mode: "no-cors"},
		"/sheet.css":       {Dest: "style", Mode: "no-cors"},
		"/preload.json":    {Dest: "json", Mode: "no-cors"},
		"/preload.js":      {Dest: "script", Mode: "no-cors"},
		"/preload.css":     {Dest: "style", Mode: "no-cors"},
		"/preload.woff2":   {Dest: "font", Mode: "no-cors"},
		"/preload-img.png": {Dest: "image", Mode: "no-cors"},
		"/prefetch.html":   {Dest: "empty", Mode: "no-cors"},
		"/audio.mp3":       {Dest: "audio", Mode: "no-cors"},
		"/video.webm":      {Dest: "video", Mode: "no-cors"},
	} {
		want.Site, want.Referer = "same-origin", a+"/"
		checkRequest(t, site, a+path, want)
	}
	// The 2x candidate is not selected (the device pixel ratio is 1).
	if _, ok := site.request(a + "/srcset2x.png"); ok {
		t.Errorf("the 2x candidate of srcset was fetched")
	}
}
