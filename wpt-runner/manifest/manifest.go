package manifest

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Test is one test URL (what wptrunner calls a test id).
type Test struct {
	// ID is the URL path plus the variant, e.g. "/web-locks/a.https.any.worker.html?x".
	ID string
	// Path is the URL path without the variant.
	Path    string
	Variant string
	// Source is the tree path of the file the test comes from, e.g.
	// "web-locks/a.https.any.js" (no leading slash).
	Source string
	// Global is the scope of an .any.js test, "window" for .window.js,
	// "dedicatedworker" for .worker.js and "" for an HTML test.
	Global string
	Long   bool // timeout=long
	// HTTPS: the test is loaded over https (.https. or .h2. flag, or a
	// service worker scope); WWW: on the www subdomain (.www. flag).
	HTTPS, WWW bool
	// Crashtest marks a crash test (IsCrashtest): a page that passes when
	// it loads, and finishes (its root loses the class "test-wait"),
	// without crashing the engine; it has no subtests.
	Crashtest bool
}

// Flags returns the dot-separated flags of a file name: for
// "a.https.any.js" it is ["https", "any"].
func Flags(name string) []string {
	parts := strings.Split(path.Base(name), ".")
	if len(parts) <= 2 {
		return nil
	}
	return parts[1 : len(parts)-1]
}

func hasFlag(name, flag string) bool {
	for _, f := range Flags(name) {
		if f == flag {
			return true
		}
	}
	return false
}

var rootNonTest = map[string]bool{
	"common": true, "resources": true, "tools": true, "docs": true,
	"conformance-checkers": true, "_certs": true, "interfaces": true,
}

var dirNonTest = map[string]bool{"resources": true, "support": true, "tools": true}

var typeFlagNonTest = map[string]bool{"support": true, "manual": true, "ref": true, "notref": true, "visual": true, "print": true}

// IsNonTestPath reports whether a tree path can never hold a testharness
// test or a crash test: support directories (resources/, support/, tools/
// at any depth; common/, docs/ and the like at the top), hidden files, and
// files whose type flag marks support files, manual tests or references
// (a-support.html, b-manual.html, c-ref.html).
func IsNonTestPath(p string) bool {
	p = strings.Trim(p, "/")
	parts := strings.Split(p, "/")
	if len(parts) > 1 && rootNonTest[parts[0]] {
		return true
	}
	for i, part := range parts {
		if strings.HasPrefix(part, ".") {
			return true
		}
		if i < len(parts)-1 && dirNonTest[part] {
			return true
		}
	}
	base := parts[len(parts)-1]
	stem, _, _ := strings.Cut(base, ".")
	if i := strings.LastIndex(stem, "-"); i >= 0 && typeFlagNonTest[stem[i+1:]] {
		return true
	}
	return strings.HasPrefix(base, "__dir__")
}

// markupExt are the extensions of the markup files wptrunner can take as
// crash tests.
var markupExt = map[string]bool{".html": true, ".htm": true, ".xhtml": true, ".xht": true, ".xml": true, ".svg": true}

// IsCrashtest reports whether a tree path is a crash test, as wptrunner's
// manifest decides: a markup file (.html, .htm, .xhtml, .xht, .xml, .svg)
// that is not a support file, with the type flag "crash" (a-crash.html,
// b-crash.https.html) or inside a crashtests/ directory at any depth.
// A crash test is never a testharness test, even when it loads
// testharness.js.
func IsCrashtest(p string) bool {
	p = strings.Trim(p, "/")
	if IsNonTestPath(p) || !markupExt[strings.ToLower(path.Ext(p))] {
		return false
	}
	parts := strings.Split(p, "/")
	for _, dir := range parts[:len(parts)-1] {
		if dir == "crashtests" {
			return true
		}
	}
	stem, _, _ := strings.Cut(parts[len(parts)-1], ".")
	return strings.HasSuffix(stem, "-crash")
}

// IsCrashtestID reports whether a test ID (a URL path, query and
// fragment ignored) names a crash test: IsCrashtest of its path, unless
// the path is the wrapper page of a .any.js, .worker.js or .window.js
// test (such as crashtests/huge-fetch.any.html), which is a testharness
// test wherever it lives, as in wptrunner (its source is not markup).
func IsCrashtestID(id string) bool {
	if i := strings.IndexAny(id, "?#"); i >= 0 {
		id = id[:i]
	}
	for _, suffix := range []string{".any.html", ".any.worker.html", ".any.sharedworker.html", ".any.serviceworker.html", ".worker.html", ".window.html"} {
		if strings.HasSuffix(id, suffix) {
			return false
		}
	}
	return IsCrashtest(id)
}

// wrapperSuffix is the URL suffix that replaces ".any.js" for each global.
var wrapperSuffix = map[string]string{
	Window:          ".any.html",
	DedicatedWorker: ".any.worker.html",
	SharedWorker:    ".any.sharedworker.html",
	ServiceWorker:   ".any.serviceworker.html",
}

// TestsForFile returns the tests a source file of the tree yields (none
// for files that are not tests). name is a tree path without leading slash.
func TestsForFile(fsys fs.FS, name string) ([]Test, error) {
	name = strings.TrimPrefix(path.Clean("/"+name), "/")
	if IsNonTestPath(name) {
		return nil, nil
	}
	base := path.Base(name)
	var kind string
	switch {
	case IsCrashtest(name):
		kind = "crash"
	case strings.HasSuffix(base, ".any.js"):
		kind = "any"
	case strings.HasSuffix(base, ".window.js"):
		kind = "window"
	case strings.HasSuffix(base, ".worker.js"):
		kind = "worker"
	case strings.HasSuffix(base, ".html") || strings.HasSuffix(base, ".htm") || strings.HasSuffix(base, ".xhtml"):
		kind = "html"
	default:
		return nil, nil
	}
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var meta Meta
	var metaErr error
	type page struct{ path, global string }
	var pages []page
	stem := "/" + name
	switch kind {
	case "any":
		meta, metaErr = ParseMeta(src)
		stem = strings.TrimSuffix(stem, ".any.js")
		for _, g := range meta.EffectiveGlobals() {
			pages = append(pages, page{stem + wrapperSuffix[g], g})
		}
	case "window":
		meta, metaErr = ParseMeta(src)
		pages = append(pages, page{strings.TrimSuffix(stem, ".js") + ".html", Window})
	case "worker":
		meta, metaErr = ParseMeta(src)
		pages = append(pages, page{strings.TrimSuffix(stem, ".js") + ".html", DedicatedWorker})
	case "html":
		var th bool
		meta, th = ParseHTMLMeta(src)
		if !th {
			return nil, nil
		}
		pages = append(pages, page{stem, ""})
	case "crash":
		meta, _ = ParseHTMLMeta(src)
		pages = append(pages, page{stem, ""})
	}
	if metaErr != nil {
		metaErr = fmt.Errorf("%s: %v", name, metaErr)
	}
	variants := meta.Variants
	if len(variants) == 0 {
		variants = []string{""}
	}
	https := hasFlag(name, "https") || hasFlag(name, "h2")
	www := hasFlag(name, "www")
	var tests []Test
	for _, p := range pages {
		for _, v := range variants {
			tests = append(tests, Test{
				ID: p.path + v, Path: p.path, Variant: v, Source: name, Global: p.global,
				Long: meta.Long, HTTPS: https || p.global == ServiceWorker, WWW: www,
				Crashtest: kind == "crash",
			})
		}
	}
	return tests, metaErr
}

// Discover lists the tests under the given tree paths (directories,
// source files, or test URLs such as "web-locks/a.any.worker.html" or
// "/web-locks/a.any.html?x"); no paths means the whole tree. Tests are
// sorted by ID and de-duplicated. Problems with single files are returned
// as warnings alongside the tests; an argument that names nothing is an error.
func Discover(fsys fs.FS, paths []string) (tests []Test, warnings []error, err error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	seen := map[string]bool{}
	add := func(ts []Test, filter func(Test) bool) {
		for _, t := range ts {
			if !seen[t.ID] && (filter == nil || filter(t)) {
				seen[t.ID] = true
				tests = append(tests, t)
			}
		}
	}
	for _, arg := range paths {
		p := strings.TrimPrefix(path.Clean("/"+arg), "/")
		query := ""
		if i := strings.IndexAny(p, "?#"); i >= 0 {
			p, query = p[:i], p[i:]
		}
		if p == "" {
			p = "."
		}
		info, statErr := fs.Stat(fsys, p)
		switch {
		case statErr == nil && info.IsDir():
			walkErr := fs.WalkDir(fsys, p, func(name string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() {
					if name != p && IsNonTestPath(name+"/x") {
						return fs.SkipDir
					}
					return nil
				}
				ts, terr := TestsForFile(fsys, name)
				if terr != nil {
					warnings = append(warnings, terr)
				}
				add(ts, nil)
				return nil
			})
			if walkErr != nil {
				return nil, warnings, walkErr
			}
		case statErr == nil:
			ts, terr := TestsForFile(fsys, p)
			if terr != nil {
				warnings = append(warnings, terr)
			}
			if len(ts) == 0 && terr == nil {
				return nil, warnings, fmt.Errorf("%s is not a testharness test or crash test", arg)
			}
			add(ts, func(t Test) bool { return query == "" || t.Variant == query })
		default:
			// A test URL: find its source and keep the matching tests.
			src := sourceForURL(p)
			if src == "" {
				return nil, warnings, fmt.Errorf("no test or directory %q in the tree", arg)
			}
			ts, terr := TestsForFile(fsys, src)
			if terr != nil {
				warnings = append(warnings, terr)
			}
			n := len(tests)
			add(ts, func(t Test) bool {
				return t.Path == "/"+p && (query == "" || t.Variant == query)
			})
			if len(tests) == n && !seen["/"+p+query] {
				return nil, warnings, fmt.Errorf("no test %q in the tree", arg)
			}
		}
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].ID < tests[j].ID })
	return tests, warnings, nil
}

// sourceForURL maps a generated test URL path to its source file path, or "".
func sourceForURL(p string) string {
	for _, suffix := range []string{".any.html", ".any.worker.html", ".any.sharedworker.html", ".any.serviceworker.html", ".any.worker.js"} {
		if strings.HasSuffix(p, suffix) {
			return strings.TrimSuffix(p, suffix) + ".any.js"
		}
	}
	for _, suffix := range []string{".window.html", ".worker.html"} {
		if strings.HasSuffix(p, suffix) {
			return strings.TrimSuffix(p, ".html") + ".js"
		}
	}
	return ""
}

// SourceForURL maps a generated wrapper URL path ("/a/b.any.worker.html")
// to the tree path of its source ("a/b.any.js"), or "" when the path is not
// a generated wrapper.
func SourceForURL(urlPath string) string {
	return strings.TrimPrefix(sourceForURL(strings.TrimPrefix(urlPath, "/")), "/")
}
