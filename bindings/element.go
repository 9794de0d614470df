package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

func (n *nodeImpl) element(x *dom.Node) ElementMethods {
	if x == nil {
		return nil
	}
	e, _ := n.realm.nodeImpl(x).(ElementMethods)
	return e
}

func (n *nodeImpl) GetElementsByTagName(name webidl.DOMString) (HTMLCollectionMethods, error) {
	return newHTMLCollection(n.realm, func() []*dom.Node { return n.n.ElementsByTagName(string(name)) }), nil
}

func (n *nodeImpl) GetElementsByClassName(names webidl.DOMString) (HTMLCollectionMethods, error) {
	return newHTMLCollection(n.realm, func() []*dom.Node { return n.n.ElementsByClassName(string(names)) }), nil
}

func (n *nodeImpl) NamespaceURI() (webidl.Nullable[webidl.DOMString], error) {
	return webidl.NonNull(webidl.DOMString(n.n.NamespaceURI())), nil
}

func (n *nodeImpl) Prefix() (webidl.Nullable[webidl.DOMString], error) {
	return webidl.Null[webidl.DOMString](), nil
}

func (n *nodeImpl) LocalName() (webidl.DOMString, error) {
	return webidl.DOMString(n.n.LocalName()), nil
}

func (n *nodeImpl) TagName() (webidl.DOMString, error) { return webidl.DOMString(n.n.TagName()), nil }

func (n *nodeImpl) attr(name string) webidl.DOMString {
	v, _ := n.n.Attribute(name)
	return webidl.DOMString(v)
}

func (n *nodeImpl) ID() (webidl.DOMString, error) { return n.attr("id"), nil }

func (n *nodeImpl) SetID(v webidl.DOMString) error { return n.n.SetAttribute("id", string(v)) }

func (n *nodeImpl) ClassName() (webidl.DOMString, error) { return n.attr("class"), nil }

// ClassList is https://dom.spec.whatwg.org/#dom-element-classlist: the
// element's DOMTokenList over its class attribute ([SameObject]).
func (n *nodeImpl) ClassList() (DOMTokenListMethods, error) {
	if n.classList == nil {
		n.classList = &domTokenListImpl{el: n.n, attr: "class"}
	}
	return n.classList, nil
}

func (n *nodeImpl) SetClassName(v webidl.DOMString) error {
	return n.n.SetAttribute("class", string(v))
}

func (n *nodeImpl) InnerHTML() (webidl.DOMString, error) {
	return webidl.DOMString(n.n.InnerHTML()), nil
}

func (n *nodeImpl) SetInnerHTML(v webidl.DOMString) error {
	return n.n.SetInnerHTML(string(v))
}

func (n *nodeImpl) OuterHTML() (webidl.DOMString, error) {
	return webidl.DOMString(n.n.OuterHTML()), nil
}

// SetOuterHTML replaces the element with the parsed fragment.
func (n *nodeImpl) SetOuterHTML(v webidl.DOMString) error {
	parent := n.n.Parent()
	if parent == nil {
		return nil
	}
	if parent.NodeType() == dom.DocumentNode {
		return dom.NewDOMException("This element's parent is of type '#document'.", dom.NoModificationAllowedError)
	}
	frag := n.n.OwnerDocument().CreateDocumentFragment()
	tmp := n.n.CloneNode(false)
	if err := tmp.SetInnerHTML(string(v)); err != nil {
		return err
	}
	for _, c := range tmp.ChildNodes() {
		if _, err := frag.AppendChild(c); err != nil {
			return err
		}
	}
	_, err := parent.ReplaceChild(frag, n.n)
	return err
}

func (n *nodeImpl) HasAttributes() (bool, error) { return len(n.n.AttributeNames()) > 0, nil }

func (n *nodeImpl) GetAttributeNames() ([]webidl.DOMString, error) {
	names := n.n.AttributeNames()
	out := make([]webidl.DOMString, len(names))
	for i, s := range names {
		out[i] = webidl.DOMString(s)
	}
	return out, nil
}

func (n *nodeImpl) GetAttribute(name webidl.DOMString) (webidl.Nullable[webidl.DOMString], error) {
	v, ok := n.n.Attribute(string(name))
	if !ok {
		return webidl.Null[webidl.DOMString](), nil
	}
	return webidl.NonNull(webidl.DOMString(v)), nil
}

func (n *nodeImpl) SetAttribute(name, value webidl.DOMString) error {
	return n.n.SetAttribute(string(name), string(value))
}

// GetAttributeNS is https://dom.spec.whatwg.org/#dom-element-getattributens.
func (n *nodeImpl) GetAttributeNS(namespace webidl.Nullable[webidl.DOMString], local webidl.DOMString) (webidl.Nullable[webidl.DOMString], error) {
	v, ok := n.n.AttributeNS(string(namespace.Value), string(local))
	if !ok {
		return webidl.Null[webidl.DOMString](), nil
	}
	return webidl.NonNull(webidl.DOMString(v)), nil
}

// SetAttributeNS is https://dom.spec.whatwg.org/#dom-element-setattributens.
func (n *nodeImpl) SetAttributeNS(namespace webidl.Nullable[webidl.DOMString], qualifiedName, value webidl.DOMString) error {
	return n.n.SetAttributeNS(string(namespace.Value), string(qualifiedName), string(value))
}

func (n *nodeImpl) RemoveAttribute(name webidl.DOMString) error {
	n.n.RemoveAttribute(string(name))
	return nil
}

// ToggleAttribute is https://dom.spec.whatwg.org/#dom-element-toggleattribute
func (n *nodeImpl) ToggleAttribute(name webidl.DOMString, force webidl.Optional[bool]) (bool, error) {
	// 1. If qualifiedName is not a valid attribute local name, throw an
	//    "InvalidCharacterError" DOMException.
	if !dom.ValidAttributeName(string(name)) {
		return false, dom.NewDOMException("'"+string(name)+"' is not a valid attribute name.", dom.InvalidCharacterError)
	}
	_, has := n.n.Attribute(string(name))
	// 4. If attribute is null: if force is not given or is true, create
	//    an attribute whose value is the empty string and return true.
	if !has {
		if !force.Present || force.Value {
			return true, n.n.SetAttribute(string(name), "")
		}
		return false, nil
	}
	// 5. Otherwise, if force is not given or is false, remove it.
	if !force.Present || !force.Value {
		n.n.RemoveAttribute(string(name))
		return false, nil
	}
	return true, nil
}

func (n *nodeImpl) HasAttribute(name webidl.DOMString) (bool, error) {
	_, ok := n.n.Attribute(string(name))
	return ok, nil
}

func (n *nodeImpl) Closest(sel webidl.DOMString) (ElementMethods, error) {
	res, err := n.n.Closest(string(sel))
	return n.element(res), err
}

func (n *nodeImpl) Matches(sel webidl.DOMString) (bool, error) { return n.n.Matches(string(sel)) }

// nodeImpl implements Element.
var _ ElementMethods = (*nodeImpl)(nil)
