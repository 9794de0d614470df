package server

import (
	"fmt"
	"html"
	"strings"

	"github.com/gowebengine/weblocks/wpt-runner/manifest"
)

// wrapperKind is a page or script wptserve generates from a test source.
type wrapperKind int

const (
	anyWindow       wrapperKind = iota // x.any.html
	anyDedicated                       // x.any.worker.html
	anyShared                          // x.any.sharedworker.html
	anyService                         // x.any.serviceworker.html
	anyWorkerScript                    // x.any.worker.js
	windowPage                         // x.window.html
	workerPage                         // x.worker.html
)

var wrapperSuffixes = []struct {
	suffix, srcSuffix string
	kind              wrapperKind
}{
	{".any.html", ".any.js", anyWindow},
	{".any.worker.html", ".any.js", anyDedicated},
	{".any.sharedworker.html", ".any.js", anyShared},
	{".any.serviceworker.html", ".any.js", anyService},
	{".any.worker.js", ".any.js", anyWorkerScript},
	{".window.html", ".window.js", windowPage},
	{".worker.html", ".worker.js", workerPage},
}

// wrapperFor maps a URL path to the wrapper it names and its source path.
func wrapperFor(urlPath string) (kind wrapperKind, srcPath string, ok bool) {
	for _, w := range wrapperSuffixes {
		if strings.HasSuffix(urlPath, w.suffix) {
			return w.kind, strings.TrimSuffix(urlPath, w.suffix) + w.srcSuffix, true
		}
	}
	return 0, "", false
}

// jsString quotes s as a JavaScript string literal that is also safe
// inside an HTML <script> element.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x2028 || r == 0x2029 || r == '<' || r == '>':
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func globalObject(window, worker bool) string {
	return fmt.Sprintf(`self.GLOBAL = {
  isWindow: function() { return %t; },
  isWorker: function() { return %t; },
  isShadowRealm: function() { return false; },
};
`, window, worker)
}

// htmlMeta renders the title and timeout META of a page wrapper.
func htmlMeta(m manifest.Meta) string {
	var b strings.Builder
	if m.Title != "" {
		fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(m.Title))
	}
	if m.Long {
		b.WriteString("<meta name=\"timeout\" content=\"long\">\n")
	}
	return b.String()
}

// renderWrapper builds the wrapper text. srcURL is the URL path of the
// source script; query is the request's "?..." (variant), passed on to the
// worker script URL as wptserve does.
func renderWrapper(kind wrapperKind, m manifest.Meta, srcURL, query string) (body, contentType string) {
	var b strings.Builder
	page := func() {
		b.WriteString("<!doctype html>\n<meta charset=utf-8>\n")
		b.WriteString(htmlMeta(m))
	}
	harness := "<script src=\"/resources/testharness.js\"></script>\n<script src=\"/resources/testharnessreport.js\"></script>\n"
	scripts := func() {
		for _, s := range m.Scripts {
			fmt.Fprintf(&b, "<script src=\"%s\"></script>\n", html.EscapeString(s))
		}
	}
	workerURL := strings.TrimSuffix(srcURL, ".any.js") + ".any.worker.js" + query
	switch kind {
	case anyWindow:
		page()
		b.WriteString("<script>\n" + globalObject(true, false) + "</script>\n")
		b.WriteString(harness)
		scripts()
		b.WriteString("<div id=log></div>\n")
		fmt.Fprintf(&b, "<script src=\"%s\"></script>\n", html.EscapeString(srcURL))
	case windowPage:
		page()
		b.WriteString(harness)
		scripts()
		b.WriteString("<div id=log></div>\n")
		fmt.Fprintf(&b, "<script src=\"%s\"></script>\n", html.EscapeString(srcURL))
	case anyDedicated, anyShared, workerPage:
		page()
		b.WriteString(harness)
		b.WriteString("<div id=log></div>\n<script>\n")
		ctor := "Worker"
		if kind == anyShared {
			ctor = "SharedWorker"
		}
		u := workerURL
		if kind == workerPage {
			u = srcURL + query
		}
		fmt.Fprintf(&b, "fetch_tests_from_worker(new %s(%s));\n</script>\n", ctor, jsString(u))
	case anyService:
		page()
		b.WriteString(harness)
		b.WriteString("<div id=log></div>\n<script>\n")
		fmt.Fprintf(&b, `(async function() {
  const scope = 'does/not/exist';
  let reg = await navigator.serviceWorker.getRegistration(scope);
  if (reg) await reg.unregister();
  reg = await navigator.serviceWorker.register(%s, {scope});
  fetch_tests_from_worker(reg.installing);
})();
</script>
`, jsString(workerURL))
	case anyWorkerScript:
		if m.Title != "" {
			fmt.Fprintf(&b, "self.META_TITLE = %s;\n", jsString(m.Title))
		}
		b.WriteString(globalObject(false, true))
		b.WriteString("importScripts(\"/resources/testharness.js\");\n")
		for _, s := range m.Scripts {
			fmt.Fprintf(&b, "importScripts(%s);\n", jsString(s))
		}
		fmt.Fprintf(&b, "importScripts(%s);\ndone();\n", jsString(srcURL))
		return b.String(), "text/javascript; charset=utf-8"
	}
	return b.String(), "text/html; charset=utf-8"
}
