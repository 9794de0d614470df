package dom

import (
	"errors"
	"testing"
)

func TestAttributeNSAndRawTextSerialization(t *testing.T) {
	d := NewHTMLDocument("about:blank")
	img, _ := d.CreateElementNS(SVGNamespace, "image")
	var changed []string
	d.Hooks.AttributeChanged = func(_ *Node, name string, _, _ *string) { changed = append(changed, name) }
	if err := img.SetAttributeNS(XLinkNamespace, "xlink:href", "a.png"); err != nil {
		t.Fatal(err)
	}
	if v, ok := img.AttributeNS(XLinkNamespace, "href"); !ok || v != "a.png" {
		t.Errorf("getAttributeNS = %q %v", v, ok)
	}
	if _, ok := img.Attribute("href"); ok {
		t.Error("an xlink:href is an href in no namespace")
	}
	if err := img.SetAttributeNS("", "href", "b.png"); err != nil {
		t.Fatal(err)
	}
	if v, _ := img.Attribute("href"); v != "b.png" || len(changed) != 2 || changed[0] != "href" {
		t.Errorf("href %q, changes %q", v, changed)
	}
	var de *DOMException
	for _, c := range []struct{ ns, name, want string }{
		{"", "x:y", NamespaceError}, {"urn:x", "xml:y", NamespaceError}, {"urn:x", "xmlns", NamespaceError},
		{XMLNSNamespace, "a", NamespaceError}, {"urn:x", "a b", InvalidCharacterError}, {"urn:x", ":a", InvalidCharacterError},
	} {
		if err := img.SetAttributeNS(c.ns, c.name, "v"); !errors.As(err, &de) || de.Name != c.want {
			t.Errorf("setAttributeNS(%q, %q): %v, want %s", c.ns, c.name, err, c.want)
		}
	}
	style, _ := d.CreateElement("style")
	style.SetTextContent(`a[href="x&y"] > b { background: url(a?b&c) }`)
	if got := style.InnerHTML(); got != `a[href="x&y"] > b { background: url(a?b&c) }` {
		t.Errorf("style innerHTML = %q", got)
	}
	p, _ := d.CreateElement("p")
	p.SetTextContent("a&b<")
	if got := p.InnerHTML(); got != "a&amp;b&lt;" {
		t.Errorf("p innerHTML = %q", got)
	}
}
