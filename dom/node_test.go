package dom

import (
	"errors"
	"strings"
	"testing"
)

func TestNodeTree(t *testing.T) {
	d, err := ParseDocument(strings.NewReader(`<!doctype html><title> A  b </title><div id=x class="p q"><span>hi</span></div><iframe src=f></iframe>`), "https://a.test/")
	if err != nil {
		t.Fatal(err)
	}
	if d.Title() != "A b" || d.CompatMode() != "CSS1Compat" {
		t.Fatalf("title %q mode %q", d.Title(), d.CompatMode())
	}
	x := d.ElementByID("x")
	if x == nil || x.TagName() != "DIV" || d.ElementByID("x") != x {
		t.Fatalf("getElementById: %v", x)
	}
	if got, _ := x.TextContent(); got != "hi" {
		t.Fatalf("textContent %q", got)
	}
	if n, err := d.QuerySelector("div.q > span"); err != nil || n == nil || n.LocalName() != "span" {
		t.Fatalf("querySelector: %v %v", n, err)
	}
	var de *DOMException
	if _, err := d.QuerySelectorAll("div[["); !errors.As(err, &de) || de.Name != SyntaxError {
		t.Fatalf("bad selector: %v", err)
	}
	var inserted, removed []string
	d.Hooks.Inserted = func(n *Node) { inserted = append(inserted, n.NodeName()) }
	d.Hooks.Removed = func(n *Node, _ *Node) { removed = append(removed, n.NodeName()) }
	el, err := d.CreateElement("P")
	if err != nil {
		t.Fatal(err)
	}
	el.SetTextContent("t")
	if _, err := d.Body().AppendChild(el); err != nil {
		t.Fatal(err)
	}
	if strings.Join(inserted, ",") != "P,#text" || !el.IsConnected() {
		t.Fatalf("inserted %v", inserted)
	}
	if _, err := el.AppendChild(d.Body()); !errors.As(err, &de) || de.Name != HierarchyRequestError {
		t.Fatalf("cycle: %v", err)
	}
	if _, err := d.Body().RemoveChild(d.Head()); !errors.As(err, &de) || de.Name != NotFoundError {
		t.Fatalf("removeChild: %v", err)
	}
	el.Remove()
	if strings.Join(removed, ",") != "P,#text" || el.IsConnected() {
		t.Fatalf("removed %v", removed)
	}
	if _, err := d.CreateElement("a b"); !errors.As(err, &de) || de.Name != InvalidCharacterError {
		t.Fatalf("createElement: %v", err)
	}
	other := NewHTMLDocument("about:blank")
	if _, err := other.Body().AppendChild(x); err != nil || x.OwnerDocument() != other || other.ElementByID("x") != x {
		t.Fatalf("adopt: %v", err)
	}
	if err := x.SetAttribute("=", "v"); !errors.As(err, &de) || de.Name != InvalidCharacterError {
		t.Fatalf("setAttribute: %v", err)
	}
	if err := x.SetInnerHTML("<b>1</b>2"); err != nil || x.InnerHTML() != "<b>1</b>2" {
		t.Fatalf("innerHTML %q %v", x.InnerHTML(), err)
	}
}
