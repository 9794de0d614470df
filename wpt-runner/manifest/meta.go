// Package manifest finds the testharness tests of a web-platform-tests tree
// and knows how wptserve turns test sources into test URLs: the META
// comments of .any.js, .window.js and .worker.js files, the globals and
// variants they expand into, and the filename flags (.https., .www.).
package manifest

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Meta is what the leading "// META: key=value" lines of a script test
// declare (or the <meta name=timeout>/<meta name=variant> of an HTML test).
type Meta struct {
	// Globals is the list of scopes, expanded ("worker" is dedicatedworker,
	// sharedworker and serviceworker) and in canonical order; nil when the
	// file has no global= line, meaning DefaultGlobals.
	Globals  []string
	Scripts  []string // script= values, in order
	Long     bool     // timeout=long
	Title    string   // title=
	Variants []string // variant= values ("?a=b" or "#x"), in order
}

// Scopes a wrapper can run an .any.js test in.
const (
	Window          = "window"
	DedicatedWorker = "dedicatedworker"
	SharedWorker    = "sharedworker"
	ServiceWorker   = "serviceworker"
)

// DefaultGlobals are the scopes of an .any.js test without global=.
var DefaultGlobals = []string{Window, DedicatedWorker}

var globalOrder = []string{Window, DedicatedWorker, SharedWorker, ServiceWorker}

// ParseMeta reads the META lines that lead a script test. Reading stops at
// the first line that is not a META comment (blank lines included, as in
// wptserve). Unknown keys and globals are reported as errors but the rest
// of the metadata is still returned.
func ParseMeta(src []byte) (Meta, error) {
	var m Meta
	var errs []string
	globals := map[string]bool{}
	sawGlobal := false
	for _, line := range bytes.Split(src, []byte("\n")) {
		l := strings.TrimRight(string(line), "\r")
		rest, ok := strings.CutPrefix(l, "// META:")
		if !ok {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(rest), "=")
		if !ok {
			errs = append(errs, fmt.Sprintf("META line without '=': %q", l))
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch key {
		case "global":
			sawGlobal = true
			for _, g := range strings.Split(value, ",") {
				g = strings.TrimSpace(g)
				neg := strings.HasPrefix(g, "!")
				g = strings.TrimPrefix(g, "!")
				var names []string
				switch g {
				case "":
					continue
				case "default":
					names = DefaultGlobals
				case "worker":
					names = []string{DedicatedWorker, SharedWorker, ServiceWorker}
				case Window, DedicatedWorker, SharedWorker, ServiceWorker:
					names = []string{g}
				case "jsshell", "shadowrealm", "shadowrealm-in-window", "shadowrealm-in-shadowrealm",
					"shadowrealm-in-dedicatedworker", "shadowrealm-in-sharedworker", "shadowrealm-in-serviceworker",
					"shadowrealm-in-audioworklet", "dedicatedworker-module", "sharedworker-module",
					"serviceworker-module", "worker-module":
					continue // scopes browsers-only runners do not generate here
				default:
					errs = append(errs, fmt.Sprintf("unknown global %q", g))
					continue
				}
				for _, n := range names {
					globals[n] = !neg
				}
			}
		case "script":
			m.Scripts = append(m.Scripts, value)
		case "timeout":
			if value == "long" {
				m.Long = true
			} else {
				errs = append(errs, fmt.Sprintf("unknown timeout %q", value))
			}
		case "title":
			m.Title = value
		case "variant":
			m.Variants = append(m.Variants, value)
		default:
			errs = append(errs, fmt.Sprintf("unknown META key %q", key))
		}
	}
	if sawGlobal {
		m.Globals = []string{}
		for _, g := range globalOrder {
			if globals[g] {
				m.Globals = append(m.Globals, g)
			}
		}
	}
	if len(errs) > 0 {
		return m, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return m, nil
}

// EffectiveGlobals returns m.Globals, or DefaultGlobals when none were given.
func (m Meta) EffectiveGlobals() []string {
	if m.Globals == nil {
		return DefaultGlobals
	}
	return m.Globals
}

var (
	metaTagRe   = regexp.MustCompile(`(?is)<meta\s[^>]*>`)
	attrRe      = regexp.MustCompile(`(?is)([a-z-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)`)
	harnessRe   = regexp.MustCompile(`(?is)<script[^>]*\bsrc\s*=\s*["']?[^"'>\s]*resources/testharness\.js`)
	htmlTitleRe = regexp.MustCompile(`(?is)<title>(.*?)</title>`)
)

// ParseHTMLMeta reads the timeout and variant <meta> elements of an HTML
// test and reports whether it loads testharness.js.
func ParseHTMLMeta(src []byte) (m Meta, testharness bool) {
	for _, tag := range metaTagRe.FindAll(src, -1) {
		attrs := map[string]string{}
		for _, a := range attrRe.FindAllSubmatch(tag, -1) {
			v := string(a[2])
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
				v = v[1 : len(v)-1]
			}
			attrs[strings.ToLower(string(a[1]))] = v
		}
		switch strings.ToLower(attrs["name"]) {
		case "timeout":
			if attrs["content"] == "long" {
				m.Long = true
			}
		case "variant":
			m.Variants = append(m.Variants, attrs["content"])
		}
	}
	if t := htmlTitleRe.FindSubmatch(src); t != nil {
		m.Title = strings.TrimSpace(string(t[1]))
	}
	return m, harnessRe.Match(src)
}
