package browser

import (
	"fmt"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file runs script elements that scripts insert into a document
// (document.createElement("script") appended somewhere): HTML's "prepare
// the script element" for scripts that are not parser-inserted. The
// parser's scripts are collectScripts and runScripts (window.go).

// scriptStarted marks script elements whose "already started" flag is set
// (https://html.spec.whatwg.org/multipage/scripting.html#already-started):
// the parser's scripts, and inserted scripts once prepared. It is the
// window's, so only the event loop of the window touches it.
func (w *Window) markScriptStarted(el *xhtml.Node) bool {
	if w.startedScripts == nil {
		w.startedScripts = make(map[*xhtml.Node]bool)
	}
	if w.startedScripts[el] {
		return false
	}
	w.startedScripts[el] = true
	return true
}

// scriptInserted is the script element's insertion steps (HTML: "when a
// script element becomes connected, the user agent must immediately
// prepare the script element"), for a script inserted by the DOM.
// Deviations (browser/doc.go): a script prepared as empty is not prepared
// again when its children or src change later, and inserted scripts do not
// delay the load event.
// https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element
func (w *Window) scriptInserted(el *xhtml.Node) {
	if el.Type != xhtml.ElementNode || el.DataAtom != atom.Script || el.Namespace != "" {
		return
	}
	// 1. If el's already started is true, then return.
	if w.startedScripts[el] {
		return
	}
	// 4-5. Let source text be el's child text content; if el has no src
	//      attribute and source text is the empty string, then return.
	src, hasSrc := getAttr(el, "src")
	text := textContent(el)
	if !hasSrc && text == "" {
		return
	}
	// 6. If el is not connected, then return.
	// 7-12. The script's type; a data block returns.
	typ := scriptTypeOf(el)
	if typ == "" {
		return
	}
	// 13. Set el's already started to true.
	w.markScriptStarted(el)
	// 15. If el has a nomodule content attribute and its type is
	//     "classic", then return.
	if _, ok := getAttr(el, "nomodule"); ok && typ == "classic" {
		return
	}
	ps := newPageScript(el)
	ps.module, ps.async = typ == "module", true
	if hasSrc {
		u, err := parseURL(src, w.baseURL())
		if err != nil || strings.TrimSpace(src) == "" {
			// 31.3-4: an empty or unparsable src: queue an element task
			// to fire error at el.
			ps.badSrc = true
		} else {
			ps.src = u
			ps.name = u.String()
		}
	} else {
		ps.inline = text
		w.insertedScripts++
		ps.name = fmt.Sprintf("%s#inserted-script%d", w.url.String(), w.insertedScripts)
	}
	// 33. Inline classic scripts execute at once (el is not
	//     parser-inserted), even if other scripts are already executing.
	if !ps.module && ps.src == nil && !ps.badSrc {
		w.executeTheScriptElement(ps, false, ps.inline, nil)
		return
	}
	// 32. Otherwise the script is fetched (a classic script, or a module
	//     script graph through the window's module map), and, not being
	//     parser-inserted, joins the set of scripts that will execute as
	//     soon as possible: it executes in a task once ready.
	s := w.s
	switch {
	case ps.badSrc:
	case ps.module:
		mm := moduleMapOf(w.realm)
		if mm == nil {
			ps.badSrc = true
			break
		}
		w.fetchModuleGraph(mm, ps)
	default:
		w.fetchClassic(ps)
	}
	s.busy.Add(1)
	go func() {
		defer s.busy.Add(-1)
		s.guard(func() { w.executeWhenReady(ps) })
	}()
}
