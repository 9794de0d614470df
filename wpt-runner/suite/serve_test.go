package suite

import (
	"bufio"
	"fmt"
	"html"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// This file is a minimal wptserve for this package's own tests: it serves a
// WPT tree and generates the .any.html / .any.worker.html / .any.worker.js /
// .window.html wrappers the way wptserve lays them out. The product runner in
// wpt-runner/ has the full server; this one exists so the suite can be
// validated in Chromium without depending on it.

// reportJS is the testharnessreport.js the tests' pages load: it stores the
// harness's completion data in window.__wptResults for the driver to read.
// Like wptrunner's on slow configurations, it scales the harness timeout, so
// a loaded machine (go test ./... runs packages in parallel on two cores)
// does not turn slow runs into TIMEOUTs.
const reportJS = `
setup({timeout_multiplier: 3});
add_completion_callback(function (tests, status) {
  self.__wptResults = {
    status: status.status,
    message: status.message === undefined ? null : status.message,
    tests: tests.map(function (t) {
      return {name: t.name, status: t.status, message: t.message === undefined ? null : t.message};
    })
  };
});
`

type meta struct {
	scripts  []string
	long     bool
	title    string
	globals  []string
	variants []string
}

func parseMeta(src string) meta {
	var m meta
	sc := bufio.NewScanner(strings.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "// META:") {
			break
		}
		kv := strings.TrimSpace(strings.TrimPrefix(line, "// META:"))
		k, v, _ := strings.Cut(kv, "=")
		switch strings.TrimSpace(k) {
		case "script":
			m.scripts = append(m.scripts, strings.TrimSpace(v))
		case "timeout":
			m.long = strings.TrimSpace(v) == "long"
		case "title":
			m.title = strings.TrimSpace(v)
		case "global":
			for _, g := range strings.Split(v, ",") {
				m.globals = append(m.globals, strings.TrimSpace(g))
			}
		case "variant":
			m.variants = append(m.variants, strings.TrimSpace(v))
		}
	}
	return m
}

type server struct {
	root fs.FS
	// more are further trees searched after root.
	more []fs.FS
	// override replaces files of the tree (for example /resources/testharness.js).
	override map[string][]byte
}

func (s *server) read(p string) ([]byte, bool) {
	if b, ok := s.override[p]; ok {
		return b, true
	}
	for _, root := range append([]fs.FS{s.root}, s.more...) {
		if b, err := fs.ReadFile(root, strings.TrimPrefix(p, "/")); err == nil {
			return b, true
		}
	}
	return nil, false
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := path.Clean(r.URL.Path)
	if p == "/resources/testharnessreport.js" {
		if _, ok := s.override[p]; !ok {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			fmt.Fprint(w, reportJS)
			return
		}
	}
	if body, ctype, ok := s.wrapper(p); ok {
		w.Header().Set("Content-Type", ctype)
		fmt.Fprint(w, body)
		return
	}
	b, ok := s.read(p)
	if !ok {
		http.NotFound(w, r)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(p))
	if strings.HasSuffix(p, ".js") {
		ctype = "text/javascript; charset=utf-8"
	}
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Write(b)
}

func (s *server) wrapper(p string) (body, ctype string, ok bool) {
	const htmlType = "text/html; charset=utf-8"
	switch {
	case strings.HasSuffix(p, ".any.html"):
		src := strings.TrimSuffix(p, ".html") + ".js"
		if b, found := s.read(src); found {
			return windowPage(parseMeta(string(b)), src), htmlType, true
		}
	case strings.HasSuffix(p, ".any.worker.html"):
		src := strings.TrimSuffix(p, ".worker.html") + ".js"
		if b, found := s.read(src); found {
			m := parseMeta(string(b))
			var sb strings.Builder
			sb.WriteString("<!doctype html>\n<meta charset=utf-8>\n")
			if m.long {
				sb.WriteString("<meta name=timeout content=long>\n")
			}
			sb.WriteString("<script src=/resources/testharness.js></script>\n<script src=/resources/testharnessreport.js></script>\n<div id=log></div>\n")
			fmt.Fprintf(&sb, "<script>\nfetch_tests_from_worker(new Worker(%q));\n</script>\n", path.Base(strings.TrimSuffix(p, ".html")+".js"))
			return sb.String(), htmlType, true
		}
	case strings.HasSuffix(p, ".any.worker.js"):
		src := strings.TrimSuffix(p, ".worker.js") + ".js"
		if b, found := s.read(src); found {
			m := parseMeta(string(b))
			var sb strings.Builder
			sb.WriteString("self.GLOBAL = {isWindow: function() { return false; }, isWorker: function() { return true; }, isShadowRealm: function() { return false; }};\n")
			sb.WriteString("importScripts(\"/resources/testharness.js\");\n")
			for _, sc := range m.scripts {
				fmt.Fprintf(&sb, "importScripts(%q);\n", sc)
			}
			fmt.Fprintf(&sb, "importScripts(%q);\ndone();\n", src)
			return sb.String(), "text/javascript; charset=utf-8", true
		}
	case strings.HasSuffix(p, ".window.html"):
		src := strings.TrimSuffix(p, ".html") + ".js"
		if b, found := s.read(src); found {
			return windowPage(parseMeta(string(b)), src), htmlType, true
		}
	}
	return "", "", false
}

func windowPage(m meta, src string) string {
	var sb strings.Builder
	sb.WriteString("<!doctype html>\n<meta charset=utf-8>\n")
	if m.long {
		sb.WriteString("<meta name=timeout content=long>\n")
	}
	if m.title != "" {
		fmt.Fprintf(&sb, "<title>%s</title>\n", html.EscapeString(m.title))
	}
	sb.WriteString("<script>\nself.GLOBAL = {isWindow: function() { return true; }, isWorker: function() { return false; }, isShadowRealm: function() { return false; }};\n</script>\n")
	sb.WriteString("<script src=/resources/testharness.js></script>\n<script src=/resources/testharnessreport.js></script>\n")
	for _, sc := range m.scripts {
		fmt.Fprintf(&sb, "<script src=%q></script>\n", sc)
	}
	sb.WriteString("<div id=log></div>\n")
	fmt.Fprintf(&sb, "<script src=%q></script>\n", src)
	return sb.String()
}
