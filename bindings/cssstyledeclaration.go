package bindings

import (
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
)

// This file implements an element's inline style declaration
// (https://drafts.csswg.org/cssom/#the-elementcssinlinestyle-mixin) as far
// as pages use it: a CSSStyleDeclaration whose declarations are those of
// the element's style attribute, read on every access and written back as
// their serialization. CSS values are not parsed or validated (a
// deviation, see doc.go): a declaration is a property name (ASCII-lowercased unless it
// is a custom property) and the text after its colon, with "!important" as
// its priority. Property attributes (style.display) are not defined: a
// script that sets one sets an ordinary property of the object.

type cssStyleDeclarationImpl struct {
	webidl.Reflector
	owner *htmlElementImpl
}

func (d *cssStyleDeclarationImpl) WebIDLInterface() string { return "CSSStyleDeclaration" }

type cssDeclaration struct{ name, value, priority string }

func cssPropertyName(p string) string {
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, "--") {
		return p
	}
	return strings.ToLower(p)
}

// declarations parses the style attribute (last declaration of a name
// wins, keeping its first position).
func (d *cssStyleDeclarationImpl) declarations() []cssDeclaration {
	text, _ := d.owner.n.Attribute("style")
	var out []cssDeclaration
	for _, part := range strings.Split(text, ";") {
		name, value, ok := strings.Cut(part, ":")
		if !ok || strings.TrimSpace(name) == "" {
			continue
		}
		decl := cssDeclaration{name: cssPropertyName(name), value: strings.TrimSpace(value)}
		if v, ok := strings.CutSuffix(decl.value, "!important"); ok {
			decl.value, decl.priority = strings.TrimSpace(v), "important"
		}
		replaced := false
		for i := range out {
			if out[i].name == decl.name {
				out[i], replaced = decl, true
			}
		}
		if !replaced {
			out = append(out, decl)
		}
	}
	return out
}

func serializeCSSDeclarations(decls []cssDeclaration) string {
	parts := make([]string, 0, len(decls))
	for _, decl := range decls {
		s := decl.name + ": " + decl.value
		if decl.priority != "" {
			s += " !" + decl.priority
		}
		parts = append(parts, s+";")
	}
	return strings.Join(parts, " ")
}

func (d *cssStyleDeclarationImpl) store(decls []cssDeclaration) error {
	return d.owner.n.SetAttribute("style", serializeCSSDeclarations(decls))
}

func (d *cssStyleDeclarationImpl) CSSText() (webidl.DOMString, error) {
	return webidl.DOMString(serializeCSSDeclarations(d.declarations())), nil
}

func (d *cssStyleDeclarationImpl) SetCSSText(v webidl.DOMString) error {
	return d.owner.n.SetAttribute("style", string(v))
}

func (d *cssStyleDeclarationImpl) Length() (uint32, error) {
	return uint32(len(d.declarations())), nil
}

func (d *cssStyleDeclarationImpl) IndexedLength() (uint32, error) { return d.Length() }

func (d *cssStyleDeclarationImpl) Item(i uint32) (webidl.DOMString, error) {
	decls := d.declarations()
	if int64(i) >= int64(len(decls)) {
		return "", nil
	}
	return webidl.DOMString(decls[i].name), nil
}

func (d *cssStyleDeclarationImpl) find(property webidl.DOMString) (cssDeclaration, bool) {
	name := cssPropertyName(string(property))
	for _, decl := range d.declarations() {
		if decl.name == name {
			return decl, true
		}
	}
	return cssDeclaration{}, false
}

func (d *cssStyleDeclarationImpl) GetPropertyValue(property webidl.DOMString) (webidl.DOMString, error) {
	decl, _ := d.find(property)
	return webidl.DOMString(decl.value), nil
}

func (d *cssStyleDeclarationImpl) GetPropertyPriority(property webidl.DOMString) (webidl.DOMString, error) {
	decl, _ := d.find(property)
	return webidl.DOMString(decl.priority), nil
}

// SetProperty: https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-setproperty
// (an empty value removes the property; a priority other than "" or
// "important" is ignored).
func (d *cssStyleDeclarationImpl) SetProperty(property, value, priority webidl.DOMString) error {
	if strings.TrimSpace(string(value)) == "" {
		_, err := d.RemoveProperty(property)
		return err
	}
	prio := strings.ToLower(string(priority))
	if prio != "" && prio != "important" {
		return nil
	}
	name := cssPropertyName(string(property))
	decls := d.declarations()
	decl := cssDeclaration{name: name, value: strings.TrimSpace(string(value)), priority: prio}
	for i := range decls {
		if decls[i].name == name {
			decls[i] = decl
			return d.store(decls)
		}
	}
	return d.store(append(decls, decl))
}

// RemoveProperty: https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-removeproperty
// (returns the removed value).
func (d *cssStyleDeclarationImpl) RemoveProperty(property webidl.DOMString) (webidl.DOMString, error) {
	name := cssPropertyName(string(property))
	decls := d.declarations()
	for i := range decls {
		if decls[i].name == name {
			old := decls[i].value
			return webidl.DOMString(old), d.store(append(decls[:i], decls[i+1:]...))
		}
	}
	return "", nil
}
