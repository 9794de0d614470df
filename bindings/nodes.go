package bindings

import (
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements the node interfaces (Node, Document, Element,
// CharacterData, Text, Comment, DocumentType, DocumentFragment, NodeList,
// HTMLCollection, DOMTokenList, HTMLElement and its subclasses) over the
// dom package's node tree.

// DOMHooks are what the embedder (the browser host) provides for nodes
// whose behaviour depends on browsing contexts.
type DOMHooks struct {
	// ContentWindow gives iframe.contentWindow: the WindowProxy of the
	// element's content navigable as a value of the calling realm, or
	// nil/null when it has none.
	ContentWindow func(iframe *dom.Node) sobek.Value
	// ContentDocument gives iframe.contentDocument: the active document's
	// object when the caller may access it, or nil/null.
	ContentDocument func(iframe *dom.Node) sobek.Value
}

type domHooksKey struct{}

// SetDOMHooks sets the embedder's node hooks of a window realm.
func (r *Realm) SetDOMHooks(h DOMHooks) { r.SetValue(domHooksKey{}, h) }

func (r *Realm) domHooks() DOMHooks {
	h, _ := r.Value(domHooksKey{}).(DOMHooks)
	return h
}

// SetDocument makes doc the window's document node tree (window.document
// keeps its identity: the Document object now shows doc). Call it before
// scripts of the document run. Window realms only.
func (r *Realm) SetDocument(doc *dom.Document) {
	w, ok := r.globalImpl.(*windowImpl)
	if !ok {
		return
	}
	old := w.document.n
	if old == &doc.Node {
		return
	}
	old.Slot = nil
	w.document.n = &doc.Node
	w.document.nodeImpl.eventTargetImpl.target = &doc.EventTarget
	doc.EventTarget.Owner = w.document
	doc.Slot = w.document
}

// Document returns the window's document node tree (nil for workers).
func (r *Realm) Document() *dom.Document {
	w, ok := r.globalImpl.(*windowImpl)
	if !ok {
		return nil
	}
	d, _ := w.document.n.AsDocument()
	return d
}

// NodeValue returns the JavaScript object of a node (created on first
// use, then the same object every time).
func (r *Realm) NodeValue(n *dom.Node) sobek.Value {
	if n == nil {
		return sobek.Null()
	}
	return r.idl.Wrap(r.nodeImpl(n), "Node")
}

// NodeOf returns the node behind a Node platform object, or nil.
func (r *Realm) NodeOf(v sobek.Value) *dom.Node {
	impl, ok := r.idl.Implements(v, "Node")
	if !ok {
		return nil
	}
	if h, ok := impl.(interface{ domNode() *dom.Node }); ok {
		return h.domNode()
	}
	return nil
}

// nodeImpl implements Node and the interfaces of elements, character data
// and fragments.
type nodeImpl struct {
	*eventTargetImpl
	n *dom.Node
	// [SameObject] collections.
	childNodes *nodeListImpl
	children   *htmlCollectionImpl
}

// htmlElementImpl implements HTMLElement and its subclasses.
type htmlElementImpl struct {
	*nodeImpl
	sandbox *domTokenListImpl
}

// doctypeImpl implements DocumentType.
type doctypeImpl struct{ *nodeImpl }

// documentImpl implements Document.
type documentImpl struct {
	*nodeImpl
	window *windowImpl // nil for documents without a browsing context
}

func (n *nodeImpl) domNode() *dom.Node { return n.n }

// nodeImpl returns the implementation of n, creating it (with the realm r)
// on first use.
func (r *Realm) nodeImpl(n *dom.Node) NodeMethods {
	if n == nil {
		return nil
	}
	if impl, ok := n.Slot.(NodeMethods); ok {
		return impl
	}
	base := &nodeImpl{eventTargetImpl: r.newEventTargetImpl(&n.EventTarget), n: n}
	var impl NodeMethods = base
	switch {
	case n.IsHTML():
		impl = &htmlElementImpl{nodeImpl: base}
	case n.NodeType() == dom.DocumentTypeNode:
		impl = &doctypeImpl{nodeImpl: base}
	case n.NodeType() == dom.DocumentNode:
		impl = &documentImpl{nodeImpl: base}
	}
	n.EventTarget.Owner = impl
	n.Slot = impl
	return impl
}

func (r *Realm) newWindowDocument(w *windowImpl, u *url.URL) *documentImpl {
	s := "about:blank"
	if u != nil {
		s = u.String()
	}
	doc := dom.NewHTMLDocument(s)
	d := r.nodeImpl(&doc.Node).(*documentImpl)
	d.window = w
	return d
}

// domNodeOf returns the node of an argument implementation.
func domNodeOf(m any) *dom.Node {
	if m == nil {
		return nil
	}
	if h, ok := m.(interface{ domNode() *dom.Node }); ok {
		return h.domNode()
	}
	return nil
}

func (n *nodeImpl) wrap(x *dom.Node) NodeMethods {
	if x == nil {
		return nil
	}
	return n.realm.nodeImpl(x)
}

func (n *nodeImpl) element(x *dom.Node) ElementMethods {
	if x == nil {
		return nil
	}
	e, _ := n.realm.nodeImpl(x).(ElementMethods)
	return e
}

// WebIDLInterface names the node's most derived interface.
func (n *nodeImpl) WebIDLInterface() string {
	switch n.n.NodeType() {
	case dom.ElementNode:
		if n.n.IsHTML() {
			return htmlInterfaceOf(n.n.LocalName())
		}
		return "Element"
	case dom.TextNode:
		return "Text"
	case dom.CommentNode:
		return "Comment"
	case dom.DocumentNode:
		return "Document"
	case dom.DocumentFragmentNode:
		return "DocumentFragment"
	case dom.DocumentTypeNode:
		return "DocumentType"
	}
	return "Node"
}

// htmlInterfaceOf is the element interface for an HTML local name (the
// elements this engine has interfaces for; other known elements are
// HTMLElement, unknown ones HTMLUnknownElement).
func htmlInterfaceOf(local string) string {
	switch local {
	case "html":
		return "HTMLHtmlElement"
	case "head":
		return "HTMLHeadElement"
	case "title":
		return "HTMLTitleElement"
	case "meta":
		return "HTMLMetaElement"
	case "body":
		return "HTMLBodyElement"
	case "div":
		return "HTMLDivElement"
	case "span":
		return "HTMLSpanElement"
	case "p":
		return "HTMLParagraphElement"
	case "iframe":
		return "HTMLIFrameElement"
	case "script":
		return "HTMLScriptElement"
	}
	if knownHTMLElements[local] {
		return "HTMLElement"
	}
	if strings.Contains(local, "-") {
		return "HTMLElement" // a valid custom element name, undefined
	}
	return "HTMLUnknownElement"
}

var knownHTMLElements = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`a abbr address area article aside audio b base bdi bdo blockquote br button
		canvas caption cite code col colgroup data datalist dd del details dfn dialog dl dt em embed fieldset
		figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr i img input ins kbd label legend li link
		main map mark menu meta meter nav noscript object ol optgroup option output param picture pre progress q rp rt
		ruby s samp search section select slot small source strong style sub summary sup table tbody td template
		textarea tfoot th thead time tr track u ul var video wbr`) {
		m[s] = true
	}
	return m
}()

// Node

func (n *nodeImpl) NodeType() (uint16, error)           { return n.n.NodeType(), nil }
func (n *nodeImpl) NodeName() (webidl.DOMString, error) { return webidl.DOMString(n.n.NodeName()), nil }
func (n *nodeImpl) IsConnected() (bool, error)          { return n.n.IsConnected(), nil }
func (n *nodeImpl) ParentNode() (NodeMethods, error)    { return n.wrap(n.n.Parent()), nil }
func (n *nodeImpl) ParentElement() (ElementMethods, error) {
	return n.element(n.n.ParentElement()), nil
}
func (n *nodeImpl) FirstChild() (NodeMethods, error)      { return n.wrap(n.n.FirstChild()), nil }
func (n *nodeImpl) LastChild() (NodeMethods, error)       { return n.wrap(n.n.LastChild()), nil }
func (n *nodeImpl) PreviousSibling() (NodeMethods, error) { return n.wrap(n.n.PreviousSibling()), nil }
func (n *nodeImpl) NextSibling() (NodeMethods, error)     { return n.wrap(n.n.NextSibling()), nil }
func (n *nodeImpl) GetRootNode() (NodeMethods, error)     { return n.wrap(n.n.Root()), nil }
func (n *nodeImpl) HasChildNodes() (bool, error)          { return n.n.FirstChild() != nil, nil }

// BaseURI is the document base URL: the first base element's href parsed
// against the document URL, else the document URL.
func (n *nodeImpl) BaseURI() (string, error) {
	d := n.n.OwnerDocument()
	if href := d.BaseHref(); href != "" {
		if u, err := whatwg.ParseRef(d.URL, href); err == nil {
			return u.Href(false), nil
		}
	}
	if d.FallbackBaseURL != "" && strings.HasPrefix(d.URL, "about:") {
		return d.FallbackBaseURL, nil
	}
	return d.URL, nil
}

func (n *nodeImpl) OwnerDocument() (DocumentMethods, error) {
	if _, ok := n.n.AsDocument(); ok {
		return nil, nil
	}
	d, _ := n.realm.nodeImpl(&n.n.OwnerDocument().Node).(DocumentMethods)
	return d, nil
}

func (n *nodeImpl) ChildNodes() (NodeListMethods, error) {
	if n.childNodes == nil {
		n.childNodes = newNodeList(n.realm, n.n.ChildNodes)
	}
	return n.childNodes, nil
}

func (n *nodeImpl) NodeValue() (webidl.Nullable[webidl.DOMString], error) {
	switch n.n.NodeType() {
	case dom.TextNode, dom.CommentNode:
		return webidl.NonNull(webidl.DOMString(n.n.Data())), nil
	}
	return webidl.Null[webidl.DOMString](), nil
}

func (n *nodeImpl) SetNodeValue(v webidl.Nullable[webidl.DOMString]) error {
	switch n.n.NodeType() {
	case dom.TextNode, dom.CommentNode:
		n.n.SetData(string(v.Value))
	}
	return nil
}

func (n *nodeImpl) TextContent() (webidl.Nullable[webidl.DOMString], error) {
	s, ok := n.n.TextContent()
	if !ok {
		return webidl.Null[webidl.DOMString](), nil
	}
	return webidl.NonNull(webidl.DOMString(s)), nil
}

func (n *nodeImpl) SetTextContent(v webidl.Nullable[webidl.DOMString]) error {
	n.n.SetTextContent(string(v.Value))
	return nil
}

func (n *nodeImpl) CloneNode(subtree bool) (NodeMethods, error) {
	return n.wrap(n.n.CloneNode(subtree)), nil
}

func (n *nodeImpl) IsSameNode(other NodeMethods) (bool, error) {
	return domNodeOf(other) == n.n, nil
}

func (n *nodeImpl) Contains(other NodeMethods) (bool, error) {
	return n.n.Contains(domNodeOf(other)), nil
}

func (n *nodeImpl) InsertBefore(node, child NodeMethods) (NodeMethods, error) {
	res, err := n.n.PreInsert(domNodeOf(node), domNodeOf(child))
	return n.wrap(res), err
}

func (n *nodeImpl) AppendChild(node NodeMethods) (NodeMethods, error) {
	res, err := n.n.AppendChild(domNodeOf(node))
	return n.wrap(res), err
}

func (n *nodeImpl) ReplaceChild(node, child NodeMethods) (NodeMethods, error) {
	res, err := n.n.ReplaceChild(domNodeOf(node), domNodeOf(child))
	return n.wrap(res), err
}

func (n *nodeImpl) RemoveChild(child NodeMethods) (NodeMethods, error) {
	res, err := n.n.RemoveChild(domNodeOf(child))
	return n.wrap(res), err
}

// ParentNode, ChildNode, NonElementParentNode, NonDocumentTypeChildNode

func (n *nodeImpl) Children() (HTMLCollectionMethods, error) {
	if n.children == nil {
		n.children = newHTMLCollection(n.realm, n.n.Children)
	}
	return n.children, nil
}

func (n *nodeImpl) FirstElementChild() (ElementMethods, error) {
	return n.element(n.n.FirstElementChild()), nil
}
func (n *nodeImpl) LastElementChild() (ElementMethods, error) {
	return n.element(n.n.LastElementChild()), nil
}
func (n *nodeImpl) ChildElementCount() (uint32, error) { return uint32(len(n.n.Children())), nil }
func (n *nodeImpl) PreviousElementSibling() (ElementMethods, error) {
	return n.element(n.n.PreviousElementSibling()), nil
}
func (n *nodeImpl) NextElementSibling() (ElementMethods, error) {
	return n.element(n.n.NextElementSibling()), nil
}

func (n *nodeImpl) GetElementByID(id webidl.DOMString) (ElementMethods, error) {
	return n.element(n.n.ElementByID(string(id))), nil
}

func (n *nodeImpl) QuerySelector(sel webidl.DOMString) (ElementMethods, error) {
	res, err := n.n.QuerySelector(string(sel))
	return n.element(res), err
}

func (n *nodeImpl) QuerySelectorAll(sel webidl.DOMString) (NodeListMethods, error) {
	res, err := n.n.QuerySelectorAll(string(sel))
	if err != nil {
		return nil, err
	}
	return newNodeList(n.realm, func() []*dom.Node { return res }), nil
}

func (n *nodeImpl) GetElementsByTagName(name webidl.DOMString) (HTMLCollectionMethods, error) {
	return newHTMLCollection(n.realm, func() []*dom.Node { return n.n.ElementsByTagName(string(name)) }), nil
}

func (n *nodeImpl) GetElementsByClassName(names webidl.DOMString) (HTMLCollectionMethods, error) {
	return newHTMLCollection(n.realm, func() []*dom.Node { return n.n.ElementsByClassName(string(names)) }), nil
}

// convertNodesIntoANode is
// https://dom.spec.whatwg.org/#converting-nodes-into-a-node
func (n *nodeImpl) convertNodesIntoANode(nodes []NodeOrDOMString) *dom.Node {
	doc := n.n.OwnerDocument()
	// 1. Replace each string in nodes with a new Text node whose data is
	//    the string and node document is document.
	list := make([]*dom.Node, len(nodes))
	for i, x := range nodes {
		if x.Type == NodeOrDOMStringIsNode {
			list[i] = domNodeOf(x.Node)
		} else {
			list[i] = doc.CreateTextNode(string(x.DOMString))
		}
	}
	// 2. If nodes contains one node, then return it.
	if len(list) == 1 {
		return list[0]
	}
	// 3. Otherwise, a new DocumentFragment with the nodes appended.
	frag := doc.CreateDocumentFragment()
	for _, x := range list {
		if _, err := frag.AppendChild(x); err != nil {
			return frag
		}
	}
	return frag
}

func (n *nodeImpl) Prepend(nodes []NodeOrDOMString) error {
	node := n.convertNodesIntoANode(nodes)
	_, err := n.n.PreInsert(node, n.n.FirstChild())
	return err
}

func (n *nodeImpl) Append(nodes []NodeOrDOMString) error {
	_, err := n.n.AppendChild(n.convertNodesIntoANode(nodes))
	return err
}

// viableSibling returns the first following (or preceding) sibling of n
// not in nodes.
func (n *nodeImpl) viableSibling(nodes []NodeOrDOMString, next bool) *dom.Node {
	in := func(x *dom.Node) bool {
		for _, y := range nodes {
			if y.Type == NodeOrDOMStringIsNode && domNodeOf(y.Node) == x {
				return true
			}
		}
		return false
	}
	x := n.n
	for {
		if next {
			x = x.NextSibling()
		} else {
			x = x.PreviousSibling()
		}
		if x == nil || !in(x) {
			return x
		}
	}
}

func (n *nodeImpl) Before(nodes []NodeOrDOMString) error {
	parent := n.n.Parent()
	if parent == nil {
		return nil
	}
	prev := n.viableSibling(nodes, false)
	node := n.convertNodesIntoANode(nodes)
	ref := parent.FirstChild()
	if prev != nil {
		ref = prev.NextSibling()
	}
	_, err := parent.PreInsert(node, ref)
	return err
}

func (n *nodeImpl) After(nodes []NodeOrDOMString) error {
	parent := n.n.Parent()
	if parent == nil {
		return nil
	}
	next := n.viableSibling(nodes, true)
	node := n.convertNodesIntoANode(nodes)
	_, err := parent.PreInsert(node, next)
	return err
}

func (n *nodeImpl) ReplaceWith(nodes []NodeOrDOMString) error {
	parent := n.n.Parent()
	if parent == nil {
		return nil
	}
	next := n.viableSibling(nodes, true)
	node := n.convertNodesIntoANode(nodes)
	if n.n.Parent() == parent {
		_, err := parent.ReplaceChild(node, n.n)
		return err
	}
	_, err := parent.PreInsert(node, next)
	return err
}

func (n *nodeImpl) Remove() error {
	n.n.Remove()
	return nil
}

// Element

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

func (n *nodeImpl) ID() (webidl.DOMString, error)        { return n.attr("id"), nil }
func (n *nodeImpl) SetID(v webidl.DOMString) error       { return n.n.SetAttribute("id", string(v)) }
func (n *nodeImpl) ClassName() (webidl.DOMString, error) { return n.attr("class"), nil }
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

// CharacterData

func (n *nodeImpl) Data() (webidl.DOMString, error) { return webidl.DOMString(n.n.Data()), nil }
func (n *nodeImpl) SetData(v webidl.DOMString) error {
	n.n.SetData(string(v))
	return nil
}
func (n *nodeImpl) Length() (uint32, error) { return uint32(dom.UTF16Length(n.n.Data())), nil }
func (n *nodeImpl) AppendData(v webidl.DOMString) error {
	n.n.SetData(n.n.Data() + string(v))
	return nil
}

// DocumentType

func (d *doctypeImpl) Name() (webidl.DOMString, error)     { return webidl.DOMString(d.n.HTML().Data), nil }
func (d *doctypeImpl) PublicID() (webidl.DOMString, error) { return d.doctypeAttr("public"), nil }
func (d *doctypeImpl) SystemID() (webidl.DOMString, error) { return d.doctypeAttr("system"), nil }
func (d *doctypeImpl) doctypeAttr(key string) webidl.DOMString {
	for _, a := range d.n.HTML().Attr {
		if a.Key == key {
			return webidl.DOMString(a.Val)
		}
	}
	return ""
}

// Document

func (d *documentImpl) doc() *dom.Document {
	doc, _ := d.n.AsDocument()
	return doc
}

func (d *documentImpl) URL() (string, error)         { return d.doc().URL, nil }
func (d *documentImpl) DocumentURI() (string, error) { return d.doc().URL, nil }
func (d *documentImpl) CompatMode() (webidl.DOMString, error) {
	return webidl.DOMString(d.doc().CompatMode()), nil
}
func (d *documentImpl) CharacterSet() (webidl.DOMString, error) { return "UTF-8", nil }
func (d *documentImpl) Charset() (webidl.DOMString, error)      { return "UTF-8", nil }
func (d *documentImpl) InputEncoding() (webidl.DOMString, error) {
	return "UTF-8", nil
}
func (d *documentImpl) ContentType() (webidl.DOMString, error) {
	return webidl.DOMString(d.doc().ContentType), nil
}
func (d *documentImpl) Doctype() (DocumentTypeMethods, error) {
	dt, _ := d.wrap(d.doc().Doctype()).(DocumentTypeMethods)
	return dt, nil
}
func (d *documentImpl) DocumentElement() (ElementMethods, error) {
	return d.element(d.doc().DocumentElement()), nil
}
func (d *documentImpl) Location() (LocationMethods, error) {
	if d.window == nil {
		return nil, nil
	}
	return d.window.location, nil
}
func (d *documentImpl) ReadyState() (DocumentReadyState, error) {
	return DocumentReadyState(d.doc().ReadyState), nil
}
func (d *documentImpl) Title() (webidl.DOMString, error) {
	return webidl.DOMString(d.doc().Title()), nil
}
func (d *documentImpl) SetTitle(v webidl.DOMString) error {
	d.doc().SetTitle(string(v))
	return nil
}
func (d *documentImpl) Body() (HTMLElementMethods, error) {
	b, _ := d.wrap(d.doc().Body()).(HTMLElementMethods)
	return b, nil
}

// SetBody is https://html.spec.whatwg.org/#dom-document-body (setter) for
// body elements.
func (d *documentImpl) SetBody(v HTMLElementMethods) error {
	n := domNodeOf(v)
	if n == nil || n.LocalName() != "body" && n.LocalName() != "frameset" {
		return dom.NewDOMException("The new body element is of type '"+nodeNameOf(n)+"'. It must be either a 'BODY' or 'FRAMESET' element.", dom.HierarchyRequestError)
	}
	doc := d.doc()
	if old := doc.Body(); old != nil {
		if old == n {
			return nil
		}
		_, err := old.Parent().ReplaceChild(n, old)
		return err
	}
	de := doc.DocumentElement()
	if de == nil {
		return dom.NewDOMException("No document element.", dom.HierarchyRequestError)
	}
	_, err := de.AppendChild(n)
	return err
}

func nodeNameOf(n *dom.Node) string {
	if n == nil {
		return "null"
	}
	return n.NodeName()
}

func (d *documentImpl) Head() (HTMLHeadElementMethods, error) {
	h, _ := d.wrap(d.doc().Head()).(HTMLHeadElementMethods)
	return h, nil
}
func (d *documentImpl) DefaultView() (WindowMethods, error) {
	if d.window == nil {
		return nil, nil
	}
	return d.window, nil
}
func (d *documentImpl) VisibilityState() (webidl.DOMString, error) { return d.visibilityState(), nil }
func (d *documentImpl) Hidden() (bool, error)                      { return d.visibilityState() == "hidden", nil }
func (d *documentImpl) HasFocus() (bool, error)                    { return false, nil }

func (d *documentImpl) CreateElement(name webidl.DOMString) (ElementMethods, error) {
	el, err := d.doc().CreateElement(string(name))
	if err != nil {
		return nil, err
	}
	return d.element(el), nil
}

func (d *documentImpl) CreateElementNS(ns webidl.Nullable[webidl.DOMString], name webidl.DOMString) (ElementMethods, error) {
	space := ""
	if !ns.Null {
		space = string(ns.Value)
	}
	el, err := d.doc().CreateElementNS(space, string(name))
	if err != nil {
		return nil, err
	}
	return d.element(el), nil
}

func (d *documentImpl) CreateDocumentFragment() (DocumentFragmentMethods, error) {
	f, _ := d.wrap(d.doc().CreateDocumentFragment()).(DocumentFragmentMethods)
	return f, nil
}

func (d *documentImpl) CreateTextNode(data webidl.DOMString) (TextMethods, error) {
	return d.wrap(d.doc().CreateTextNode(string(data))).(TextMethods), nil
}

func (d *documentImpl) CreateComment(data webidl.DOMString) (CommentMethods, error) {
	return d.wrap(d.doc().CreateComment(string(data))).(CommentMethods), nil
}

// AdoptNode is https://dom.spec.whatwg.org/#dom-document-adoptnode
func (d *documentImpl) AdoptNode(node NodeMethods) (NodeMethods, error) {
	n := domNodeOf(node)
	// 1. If node is a document, then throw a "NotSupportedError".
	if _, ok := n.AsDocument(); ok {
		return nil, dom.NewDOMException("The node provided is a document, which may not be adopted.", dom.NotSupportedError)
	}
	// 3. Adopt node into this.
	n.Remove()
	frag := d.doc().CreateDocumentFragment()
	if _, err := frag.AppendChild(n); err != nil {
		return nil, err
	}
	n.Remove()
	return node, nil
}

func (d *documentImpl) Onerror() (*EventHandlerNonNull, error) { return d.handlerGet("error"), nil }
func (d *documentImpl) SetOnerror(v *EventHandlerNonNull) error {
	d.handlerSet("error", v)
	return nil
}
func (d *documentImpl) Onload() (*EventHandlerNonNull, error) { return d.handlerGet("load"), nil }
func (d *documentImpl) SetOnload(v *EventHandlerNonNull) error {
	d.handlerSet("load", v)
	return nil
}
func (d *documentImpl) Onmessage() (*EventHandlerNonNull, error) { return d.handlerGet("message"), nil }
func (d *documentImpl) SetOnmessage(v *EventHandlerNonNull) error {
	d.handlerSet("message", v)
	return nil
}

// Statics: new Document(), new DocumentFragment(), new Text(), new Comment().

// They are registered with the other statics in methods.go.

type nodeStatics struct{}

// currentDocument is the document of the realm's window (a new empty one
// for workers, which have no node constructors exposed).
func (r *Realm) currentDocument() *dom.Document {
	if d := r.Document(); d != nil {
		return d
	}
	return dom.NewDocument("about:blank")
}

func (nodeStatics) Constructor(r *webidl.Realm) (DocumentMethods, error) {
	rr := realmOf(r)
	d := dom.NewDocument(rr.currentDocument().URL)
	d.ContentType = "application/xml"
	return rr.nodeImpl(&d.Node).(DocumentMethods), nil
}

type fragmentStatics struct{}

func (fragmentStatics) Constructor(r *webidl.Realm) (DocumentFragmentMethods, error) {
	rr := realmOf(r)
	return rr.nodeImpl(rr.currentDocument().CreateDocumentFragment()).(DocumentFragmentMethods), nil
}

type textStatics struct{}

func (textStatics) Constructor(r *webidl.Realm, data webidl.DOMString) (TextMethods, error) {
	rr := realmOf(r)
	return rr.nodeImpl(rr.currentDocument().CreateTextNode(string(data))).(TextMethods), nil
}

type commentStatics struct{}

func (commentStatics) Constructor(r *webidl.Realm, data webidl.DOMString) (CommentMethods, error) {
	rr := realmOf(r)
	return rr.nodeImpl(rr.currentDocument().CreateComment(string(data))).(CommentMethods), nil
}

// NodeList and HTMLCollection: lists computed when read (childNodes and
// children follow the tree; getElementsBy* recompute on every access).

type listBase struct {
	webidl.Reflector
	realm *Realm
	get   func() []*dom.Node
}

func (l *listBase) IndexedLength() (uint32, error) { return uint32(len(l.get())), nil }
func (l *listBase) Length() (uint32, error)        { return uint32(len(l.get())), nil }

func (l *listBase) itemNode(i uint32) *dom.Node {
	list := l.get()
	if int64(i) >= int64(len(list)) {
		return nil
	}
	return list[i]
}

// nodeListImpl implements NodeList.
type nodeListImpl struct{ listBase }

func newNodeList(r *Realm, get func() []*dom.Node) *nodeListImpl {
	return &nodeListImpl{listBase{realm: r, get: get}}
}

func (l *nodeListImpl) Item(i uint32) (NodeMethods, error) {
	n := l.itemNode(i)
	if n == nil {
		return nil, nil
	}
	return l.realm.nodeImpl(n), nil
}

// htmlCollectionImpl implements HTMLCollection.
type htmlCollectionImpl struct{ listBase }

func newHTMLCollection(r *Realm, get func() []*dom.Node) *htmlCollectionImpl {
	return &htmlCollectionImpl{listBase{realm: r, get: get}}
}

func (l *htmlCollectionImpl) Item(i uint32) (ElementMethods, error) {
	n := l.itemNode(i)
	if n == nil {
		return nil, nil
	}
	e, _ := l.realm.nodeImpl(n).(ElementMethods)
	return e, nil
}

// DOMTokenList over an attribute (iframe sandbox).

type domTokenListImpl struct {
	webidl.Reflector
	el   *dom.Node
	attr string
}

func (t *domTokenListImpl) tokens() []string {
	v, _ := t.el.Attribute(t.attr)
	var out []string
	for _, s := range strings.Fields(v) {
		dup := false
		for _, o := range out {
			if o == s {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

func (t *domTokenListImpl) set(list []string) error {
	return t.el.SetAttribute(t.attr, strings.Join(list, " "))
}

func (t *domTokenListImpl) IndexedLength() (uint32, error) { return uint32(len(t.tokens())), nil }
func (t *domTokenListImpl) Length() (uint32, error)        { return uint32(len(t.tokens())), nil }
func (t *domTokenListImpl) Value() (webidl.DOMString, error) {
	v, _ := t.el.Attribute(t.attr)
	return webidl.DOMString(v), nil
}
func (t *domTokenListImpl) SetValue(v webidl.DOMString) error {
	return t.el.SetAttribute(t.attr, string(v))
}
func (t *domTokenListImpl) Item(i uint32) (webidl.Nullable[webidl.DOMString], error) {
	list := t.tokens()
	if int64(i) >= int64(len(list)) {
		return webidl.Null[webidl.DOMString](), nil
	}
	return webidl.NonNull(webidl.DOMString(list[i])), nil
}
func (t *domTokenListImpl) Contains(tok webidl.DOMString) (bool, error) {
	for _, s := range t.tokens() {
		if s == string(tok) {
			return true, nil
		}
	}
	return false, nil
}

// checkToken validates a token: SyntaxError for "", InvalidCharacterError
// for ASCII whitespace.
func checkToken(tok string) error {
	if tok == "" {
		return dom.NewDOMException("The token provided must not be empty.", dom.SyntaxError)
	}
	if strings.ContainsAny(tok, "\t\n\f\r ") {
		return dom.NewDOMException("The token provided ('"+tok+"') contains HTML space characters, which are not valid in tokens.", dom.InvalidCharacterError)
	}
	return nil
}

func (t *domTokenListImpl) Add(toks []webidl.DOMString) error {
	list := t.tokens()
	for _, tok := range toks {
		if err := checkToken(string(tok)); err != nil {
			return err
		}
	}
	for _, tok := range toks {
		if ok, _ := t.Contains(tok); !ok {
			list = append(list, string(tok))
		}
	}
	return t.set(list)
}

func (t *domTokenListImpl) Remove(toks []webidl.DOMString) error {
	for _, tok := range toks {
		if err := checkToken(string(tok)); err != nil {
			return err
		}
	}
	var out []string
	for _, s := range t.tokens() {
		keep := true
		for _, tok := range toks {
			if s == string(tok) {
				keep = false
			}
		}
		if keep {
			out = append(out, s)
		}
	}
	return t.set(out)
}

func (t *domTokenListImpl) Toggle(tok webidl.DOMString, force webidl.Optional[bool]) (bool, error) {
	if err := checkToken(string(tok)); err != nil {
		return false, err
	}
	has, _ := t.Contains(tok)
	if has {
		if !force.Present || !force.Value {
			return false, t.Remove([]webidl.DOMString{tok})
		}
		return true, nil
	}
	if !force.Present || force.Value {
		return true, t.Add([]webidl.DOMString{tok})
	}
	return false, nil
}

// HTMLElement and subclasses (reflected content attributes).

func (e *htmlElementImpl) reflectURL(name string) string {
	v, ok := e.n.Attribute(name)
	if !ok {
		return ""
	}
	base, _ := e.BaseURI()
	u, err := whatwg.ParseRef(base, v)
	if err != nil {
		return v
	}
	return u.Href(false)
}

func (e *htmlElementImpl) reflectBool(name string) bool {
	_, ok := e.n.Attribute(name)
	return ok
}

func (e *htmlElementImpl) setBool(name string, v bool) error {
	if v {
		return e.n.SetAttribute(name, "")
	}
	e.n.RemoveAttribute(name)
	return nil
}

func (e *htmlElementImpl) setAttr(name string, v webidl.DOMString) error {
	return e.n.SetAttribute(name, string(v))
}

func (e *htmlElementImpl) Title() (webidl.DOMString, error) { return e.attr("title"), nil }
func (e *htmlElementImpl) SetTitle(v webidl.DOMString) error {
	return e.setAttr("title", v)
}
func (e *htmlElementImpl) Lang() (webidl.DOMString, error)        { return e.attr("lang"), nil }
func (e *htmlElementImpl) SetLang(v webidl.DOMString) error       { return e.setAttr("lang", v) }
func (e *htmlElementImpl) Hidden() (bool, error)                  { return e.reflectBool("hidden"), nil }
func (e *htmlElementImpl) SetHidden(v bool) error                 { return e.setBool("hidden", v) }
func (e *htmlElementImpl) Onerror() (*EventHandlerNonNull, error) { return e.handlerGet("error"), nil }
func (e *htmlElementImpl) SetOnerror(v *EventHandlerNonNull) error {
	e.handlerSet("error", v)
	return nil
}
func (e *htmlElementImpl) Onload() (*EventHandlerNonNull, error) { return e.handlerGet("load"), nil }
func (e *htmlElementImpl) SetOnload(v *EventHandlerNonNull) error {
	e.handlerSet("load", v)
	return nil
}
func (e *htmlElementImpl) Onmessage() (*EventHandlerNonNull, error) {
	return e.handlerGet("message"), nil
}
func (e *htmlElementImpl) SetOnmessage(v *EventHandlerNonNull) error {
	e.handlerSet("message", v)
	return nil
}

// Click fires a synthetic, bubbling, cancelable click event (no
// activation behaviour: nothing here has one).
func (e *htmlElementImpl) Click() error {
	e.realm.fireEvent(e.target, "click", true, true, nil)
	return nil
}

// HTMLScriptElement, HTMLTitleElement

func (e *htmlElementImpl) Src() (string, error)             { return e.reflectURL("src"), nil }
func (e *htmlElementImpl) SetSrc(v string) error            { return e.n.SetAttribute("src", v) }
func (e *htmlElementImpl) Type() (webidl.DOMString, error)  { return e.attr("type"), nil }
func (e *htmlElementImpl) SetType(v webidl.DOMString) error { return e.setAttr("type", v) }
func (e *htmlElementImpl) Async() (bool, error)             { return e.reflectBool("async"), nil }
func (e *htmlElementImpl) SetAsync(v bool) error            { return e.setBool("async", v) }
func (e *htmlElementImpl) Defer() (bool, error)             { return e.reflectBool("defer"), nil }
func (e *htmlElementImpl) SetDefer(v bool) error            { return e.setBool("defer", v) }
func (e *htmlElementImpl) Text() (webidl.DOMString, error) {
	return webidl.DOMString(childText(e.n)), nil
}
func (e *htmlElementImpl) SetText(v webidl.DOMString) error {
	e.n.SetTextContent(string(v))
	return nil
}

// childText is the child text content (the Text children's data).
func childText(n *dom.Node) string {
	var b strings.Builder
	for _, c := range n.ChildNodes() {
		if c.NodeType() == dom.TextNode {
			b.WriteString(c.Data())
		}
	}
	return b.String()
}

// HTMLMetaElement (name is shared with HTMLIFrameElement's, below)

func (e *htmlElementImpl) HTTPEquiv() (webidl.DOMString, error)  { return e.attr("http-equiv"), nil }
func (e *htmlElementImpl) SetHTTPEquiv(v webidl.DOMString) error { return e.setAttr("http-equiv", v) }
func (e *htmlElementImpl) Content() (webidl.DOMString, error)    { return e.attr("content"), nil }
func (e *htmlElementImpl) SetContent(v webidl.DOMString) error   { return e.setAttr("content", v) }
func (e *htmlElementImpl) Media() (webidl.DOMString, error)      { return e.attr("media"), nil }
func (e *htmlElementImpl) SetMedia(v webidl.DOMString) error     { return e.setAttr("media", v) }

// HTMLIFrameElement

func (e *htmlElementImpl) Srcdoc() (webidl.DOMString, error)  { return e.attr("srcdoc"), nil }
func (e *htmlElementImpl) SetSrcdoc(v webidl.DOMString) error { return e.setAttr("srcdoc", v) }
func (e *htmlElementImpl) Name() (webidl.DOMString, error)    { return e.attr("name"), nil }
func (e *htmlElementImpl) SetName(v webidl.DOMString) error   { return e.setAttr("name", v) }
func (e *htmlElementImpl) Allow() (webidl.DOMString, error)   { return e.attr("allow"), nil }
func (e *htmlElementImpl) SetAllow(v webidl.DOMString) error  { return e.setAttr("allow", v) }
func (e *htmlElementImpl) Width() (webidl.DOMString, error)   { return e.attr("width"), nil }
func (e *htmlElementImpl) SetWidth(v webidl.DOMString) error  { return e.setAttr("width", v) }
func (e *htmlElementImpl) Height() (webidl.DOMString, error)  { return e.attr("height"), nil }
func (e *htmlElementImpl) SetHeight(v webidl.DOMString) error { return e.setAttr("height", v) }

func (e *htmlElementImpl) Sandbox() (DOMTokenListMethods, error) {
	if e.sandbox == nil {
		e.sandbox = &domTokenListImpl{el: e.n, attr: "sandbox"}
	}
	return e.sandbox, nil
}

// hostWindow and hostDocument carry a value the embedder made (a
// WindowProxy or Document of another realm) through the generated
// conversions, which return a sobek.Value implementation as is.
type hostWindow struct {
	sobek.Value
	WindowMethods
}

type hostDocument struct {
	sobek.Value
	DocumentMethods
}

// HostValue is the embedder's value itself (webidl.Realm.Wrap returns it).
func (h hostWindow) HostValue() sobek.Value { return h.Value }

// HostValue is the embedder's value itself (webidl.Realm.Wrap returns it).
func (h hostDocument) HostValue() sobek.Value { return h.Value }

func (e *htmlElementImpl) ContentWindow() (WindowMethods, error) {
	h := e.realm.domHooks().ContentWindow
	if h == nil {
		return nil, nil
	}
	v := h(e.n)
	if webidl.IsNullish(v) {
		return nil, nil
	}
	return hostWindow{Value: v}, nil
}

func (e *htmlElementImpl) ContentDocument() (DocumentMethods, error) {
	h := e.realm.domHooks().ContentDocument
	if h == nil {
		return nil, nil
	}
	v := h(e.n)
	if webidl.IsNullish(v) {
		return nil, nil
	}
	return hostDocument{Value: v}, nil
}

// CurrentScript is document.currentScript (set by the embedder on the
// dom.Document while a classic script of the document runs).
func (d *documentImpl) CurrentScript() (HTMLScriptElementMethods, error) {
	n := d.doc().CurrentScript
	if n == nil || !n.IsHTML() || n.LocalName() != "script" {
		return nil, nil
	}
	s, _ := d.wrap(n).(HTMLScriptElementMethods)
	return s, nil
}

// Domain is https://html.spec.whatwg.org/#dom-document-domain (getter):
// the host of the document's origin, "" for an opaque origin.
func (d *documentImpl) Domain() (string, error) {
	if d.window != nil && d.window.info.origin == "null" {
		return "", nil
	}
	u, err := urlParser.Parse(d.doc().URL)
	if err != nil || urlOrigin(u) == "null" {
		return "", nil
	}
	return u.Hostname(), nil
}

// SetDomain is the document.domain setter, without relaxing the
// same-origin check (agent clusters here are origin-keyed): setting the
// current value or a registrable suffix of it is accepted and changes
// nothing; anything else is a SecurityError.
func (d *documentImpl) SetDomain(v string) error {
	cur, _ := d.Domain()
	// 2-4. A document without a browsing context, a sandboxed one, or an
	//      opaque origin: SecurityError.
	if d.window == nil || cur == "" {
		return dom.NewDOMException("Assignment is forbidden for sandboxed iframes.", dom.SecurityError)
	}
	if v == cur || (strings.HasSuffix(cur, "."+v) && strings.Contains(v, ".")) {
		return nil
	}
	return dom.NewDOMException("'"+v+"' is not a suffix of '"+cur+"'.", dom.SecurityError)
}
