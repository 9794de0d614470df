package manifest

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseMeta(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      Meta
		wantErr   string
	}{
		{"none", "'use strict';\n// META: global=window\n", Meta{}, ""},
		{"all keys", "// META: title=Web Locks: a=b\n// META: script=resources/helpers.js\n// META: script=/common/utils.js\n// META: timeout=long\n// META: global=window,dedicatedworker,sharedworker,serviceworker\n// META: variant=?a=1\n// META: variant=#frag\ncode();\n",
			Meta{Globals: []string{Window, DedicatedWorker, SharedWorker, ServiceWorker}, Scripts: []string{"resources/helpers.js", "/common/utils.js"}, Long: true, Title: "Web Locks: a=b", Variants: []string{"?a=1", "#frag"}}, ""},
		{"worker shorthand", "// META: global=worker\n", Meta{Globals: []string{DedicatedWorker, SharedWorker, ServiceWorker}}, ""},
		{"default plus shared", "// META: global=default,sharedworker\n", Meta{Globals: []string{Window, DedicatedWorker, SharedWorker}}, ""},
		{"exclusion", "// META: global=worker,!serviceworker\n", Meta{Globals: []string{DedicatedWorker, SharedWorker}}, ""},
		{"order canonical, spaces", "// META: global= serviceworker , window\n", Meta{Globals: []string{Window, ServiceWorker}}, ""},
		{"unsupported scopes dropped", "// META: global=jsshell,shadowrealm\n", Meta{Globals: []string{}}, ""},
		{"crlf", "// META: timeout=long\r\n// META: title=x\r\n", Meta{Long: true, Title: "x"}, ""},
		{"stops at blank", "// META: title=x\n\n// META: timeout=long\n", Meta{Title: "x"}, ""},
		{"unknown key", "// META: foo=bar\n// META: title=t\n", Meta{Title: "t"}, `unknown META key "foo"`},
		{"unknown global", "// META: global=windoe\n", Meta{Globals: []string{}}, `unknown global "windoe"`},
		{"no equals", "// META: title\n", Meta{}, "without '='"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseMeta([]byte(tc.src))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
	if g := (Meta{}).EffectiveGlobals(); !reflect.DeepEqual(g, []string{Window, DedicatedWorker}) {
		t.Errorf("default globals %v", g)
	}
}

func TestParseHTMLMeta(t *testing.T) {
	src := `<!doctype html><title> T </title><meta name="timeout" content="long"><meta name=variant content="?1"><meta content='?2' name='variant'>
<script src="/resources/testharness.js"></script>`
	m, th := ParseHTMLMeta([]byte(src))
	if !th || !m.Long || m.Title != "T" || !reflect.DeepEqual(m.Variants, []string{"?1", "?2"}) {
		t.Errorf("got %+v %v", m, th)
	}
	if _, th := ParseHTMLMeta([]byte(`<script src="/resources/testharnessreport.js"></script><link rel=match href=x-ref.html>`)); th {
		t.Error("reftest detected as testharness test")
	}
	if _, th := ParseHTMLMeta([]byte(`<script src=../resources/testharness.js></script>`)); !th {
		t.Error("relative, unquoted testharness.js not detected")
	}
}

// Crash tests as wptrunner's manifest finds them: markup files in a
// crashtests/ directory at any depth or with the type flag "crash".
func TestIsCrashtest(t *testing.T) {
	for p, want := range map[string]bool{
		"web-locks/crashtests/iframe-append.https.html": true,
		"web-locks/crashtests/a/b.html":                 true,
		"web-locks/crashtests/x.xhtml":                  true,
		"web-locks/crashtests/x.svg":                    true,
		"web-locks/x-crash.html":                        true,
		"web-locks/x-crash.https.html":                  true,
		"/web-locks/x-crash.htm":                        true,
		"web-locks/crashtests/helper.js":                false,
		"web-locks/crashtests/x.window.js":              false,
		"web-locks/crashtests/resources/x.html":         false,
		"web-locks/crashtests/x-support.html":           false,
		"web-locks/x-crash.any.js":                      false,
		"web-locks/x-crashed.html":                      false,
		"web-locks/crash.html":                          false,
		"web-locks/a.https.html":                        false,
	} {
		if got := IsCrashtest(p); got != want {
			t.Errorf("IsCrashtest(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestIsCrashtestID(t *testing.T) {
	for id, want := range map[string]bool{
		"/web-locks/crashtests/iframe-append.https.html":   true,
		"/web-locks/crashtests/a.html?x=1":                 true,
		"/fetch/api/crashtests/huge-fetch.any.html":        false,
		"/fetch/api/crashtests/huge-fetch.any.worker.html": false,
		"/fetch/api/crashtests/x.window.html":              false,
		"/fetch/api/crashtests/x.worker.html?q":            false,
		"/web-locks/a.https.html":                          false,
	} {
		if got := IsCrashtestID(id); got != want {
			t.Errorf("IsCrashtestID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestIsNonTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"web-locks/a.any.js":                    false,
		"web-locks/resources/a.any.js":          true,
		"web-locks/support/x.html":              true,
		"web-locks/crashtests/x.html":           false,
		"web-locks/crashtests/resources/x.html": true,
		"a/b/tools/x.html":                      true,
		"common/utils.js":                       true,
		"resources/testharness.js":              true,
		"web-locks/.hidden.html":                true,
		"web-locks/x-manual.html":               true,
		"web-locks/x-ref.html":                  true,
		"web-locks/x-support.html":              true,
		"web-locks/x-crash.html":                false,
		"web-locks/__dir__.headers":             true,
		"web-locks/common-prefix.html":          false,
		"web-locks/resourcesful.https.html":     false,
	} {
		if got := IsNonTestPath(p); got != want {
			t.Errorf("IsNonTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

var tree = fstest.MapFS{
	"web-locks/a.https.any.js":     {Data: []byte("// META: global=window,worker\n// META: variant=?x=1\n// META: variant=?x=2\ntest(()=>{});\n")},
	"web-locks/b.any.js":           {Data: []byte("// META: timeout=long\ntest(()=>{});\n")},
	"web-locks/c.window.js":        {Data: []byte("test(()=>{});\n")},
	"web-locks/d.www.worker.js":    {Data: []byte("importScripts('/resources/testharness.js');\n")},
	"web-locks/e.html":             {Data: []byte(`<script src="/resources/testharness.js"></script>`)},
	"web-locks/f-ref.html":         {Data: []byte(`<script src="/resources/testharness.js"></script>`)},
	"web-locks/g.html":             {Data: []byte(`<p>reftest</p>`)},
	"web-locks/h.js":               {Data: []byte(`helper();`)},
	"web-locks/resources/i.any.js": {Data: []byte(`test(()=>{});`)},
	"web-locks/sub/j.h2.any.js":    {Data: []byte("// META: global=serviceworker\n")},
	"web-locks/k.any.js":           {Data: []byte("// META: global=bogus\n")},
	"common/l.any.js":              {Data: []byte(`test(()=>{});`)},
	// Crash tests, even one that loads testharness.js.
	"web-locks/crashtests/m.https.html": {Data: []byte(`<html class="test-wait"><meta name="timeout" content="long">`)},
	"web-locks/crashtests/helper.js":    {Data: []byte(`helper();`)},
	"web-locks/n-crash.html":            {Data: []byte(`<script src="/resources/testharness.js"></script>`)},
	"resources/testharness.js":          {Data: []byte(``)},
}

func ids(ts []Test) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

func TestDiscover(t *testing.T) {
	tests, warnings, err := Discover(tree, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/web-locks/a.https.any.html?x=1", "/web-locks/a.https.any.html?x=2",
		"/web-locks/a.https.any.serviceworker.html?x=1", "/web-locks/a.https.any.serviceworker.html?x=2",
		"/web-locks/a.https.any.sharedworker.html?x=1", "/web-locks/a.https.any.sharedworker.html?x=2",
		"/web-locks/a.https.any.worker.html?x=1", "/web-locks/a.https.any.worker.html?x=2",
		"/web-locks/b.any.html", "/web-locks/b.any.worker.html",
		"/web-locks/c.window.html",
		"/web-locks/crashtests/m.https.html",
		"/web-locks/d.www.worker.html",
		"/web-locks/e.html",
		"/web-locks/n-crash.html",
		"/web-locks/sub/j.h2.any.serviceworker.html",
	}
	if got := ids(tests); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "k.any.js") {
		t.Errorf("warnings = %v", warnings)
	}
	byID := map[string]Test{}
	for _, x := range tests {
		byID[x.ID] = x
	}
	check := func(id string, want Test) {
		t.Helper()
		if got := byID[id]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", id, got, want)
		}
	}
	check("/web-locks/a.https.any.worker.html?x=2", Test{ID: "/web-locks/a.https.any.worker.html?x=2", Path: "/web-locks/a.https.any.worker.html", Variant: "?x=2", Source: "web-locks/a.https.any.js", Global: DedicatedWorker, HTTPS: true})
	check("/web-locks/b.any.html", Test{ID: "/web-locks/b.any.html", Path: "/web-locks/b.any.html", Source: "web-locks/b.any.js", Global: Window, Long: true})
	check("/web-locks/d.www.worker.html", Test{ID: "/web-locks/d.www.worker.html", Path: "/web-locks/d.www.worker.html", Source: "web-locks/d.www.worker.js", Global: DedicatedWorker, WWW: true})
	check("/web-locks/e.html", Test{ID: "/web-locks/e.html", Path: "/web-locks/e.html", Source: "web-locks/e.html"})
	check("/web-locks/crashtests/m.https.html", Test{ID: "/web-locks/crashtests/m.https.html", Path: "/web-locks/crashtests/m.https.html", Source: "web-locks/crashtests/m.https.html", HTTPS: true, Long: true, Crashtest: true})
	check("/web-locks/n-crash.html", Test{ID: "/web-locks/n-crash.html", Path: "/web-locks/n-crash.html", Source: "web-locks/n-crash.html", Crashtest: true})
	// A service worker scope needs HTTPS even without the flag; .h2. implies it too.
	check("/web-locks/sub/j.h2.any.serviceworker.html", Test{ID: "/web-locks/sub/j.h2.any.serviceworker.html", Path: "/web-locks/sub/j.h2.any.serviceworker.html", Source: "web-locks/sub/j.h2.any.js", Global: ServiceWorker, HTTPS: true})
}

func TestDiscoverPaths(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
		err  string
	}{
		{[]string{"web-locks/b.any.js"}, []string{"/web-locks/b.any.html", "/web-locks/b.any.worker.html"}, ""},
		{[]string{"/web-locks/b.any.worker.html"}, []string{"/web-locks/b.any.worker.html"}, ""},
		{[]string{"web-locks/a.https.any.html?x=2"}, []string{"/web-locks/a.https.any.html?x=2"}, ""},
		{[]string{"web-locks/c.window.html", "web-locks/c.window.js"}, []string{"/web-locks/c.window.html"}, ""},
		{[]string{"web-locks/sub"}, []string{"/web-locks/sub/j.h2.any.serviceworker.html"}, ""},
		{[]string{"web-locks/resources"}, nil, ""},
		{[]string{"web-locks/nope"}, nil, "no test or directory"},
		{[]string{"web-locks/nope.any.html"}, nil, "no test"},
		{[]string{"web-locks/b.any.sharedworker.html"}, nil, "no test"},
		{[]string{"web-locks/h.js"}, nil, "not a testharness test"},
		{[]string{"web-locks/crashtests"}, []string{"/web-locks/crashtests/m.https.html"}, ""},
		{[]string{"/web-locks/n-crash.html"}, []string{"/web-locks/n-crash.html"}, ""},
	} {
		tests, _, err := Discover(tree, tc.args)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: err = %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if got := ids(tests); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: got %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestSourceForURL(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b.any.html":               "a/b.any.js",
		"/a/b.any.worker.html":        "a/b.any.js",
		"/a/b.any.sharedworker.html":  "a/b.any.js",
		"/a/b.any.serviceworker.html": "a/b.any.js",
		"/a/b.any.worker.js":          "a/b.any.js",
		"/a/b.window.html":            "a/b.window.js",
		"/a/b.worker.html":            "a/b.worker.js",
		"/a/b.html":                   "",
	} {
		if got := SourceForURL(in); got != want {
			t.Errorf("SourceForURL(%q) = %q, want %q", in, got, want)
		}
	}
}
