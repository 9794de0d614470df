package bindings

import (
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// TestInlineStyle: HTMLElement.style reflects the style attribute
// ([SameObject]); setProperty, removeProperty, cssText, item/length and
// an ordinary property set (style.display) behave as pages expect.
func TestInlineStyle(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/page.html")
	doc, err := dom.ParseDocument(strings.NewReader(`<!doctype html><div id=a style="COLOR: red; margin: 0 !important"></div>`), "https://example.com/page.html")
	if err != nil {
		t.Fatal(err)
	}
	j.r.QueueTask(func(vm *sobek.Runtime) { j.r.SetDocument(doc) })
	w.settle()
	j.exec(prelude + `
		const a = document.getElementById("a");
		const s = a.style;
		log(s instanceof CSSStyleDeclaration, s === a.style, s.length, s[0], s.item(1), s.item(5) === "");
		log(s.getPropertyValue("color"), s.getPropertyPriority("margin"), s.cssText);
		s.setProperty("display", "none");
		s.setProperty("color", "blue", "important");
		log(a.getAttribute("style"));
		log(s.removeProperty("margin"), s.removeProperty("nothing") === "", s.cssText);
		s.setProperty("color", "");
		s.cssText = "top: 1px";
		log(s.length, s.getPropertyValue("top"), a.getAttribute("style"));
		const f = document.createElement("iframe");
		f.style.display = "none";
		log(f.style.display, f.getAttribute("style"));
	`)
	w.settle()
	want := []string{
		"true true 2 color margin true",
		"red important color: red; margin: 0 !important;",
		"color: blue !important; margin: 0 !important; display: none;",
		"0 true color: blue !important; display: none;",
		"1 1px top: 1px",
		"none null",
	}
	if got := j.takeLog(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
