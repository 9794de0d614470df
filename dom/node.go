package dom

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Namespaces of the Infra Standard.
const (
	HTMLNamespace   = "http://www.w3.org/1999/xhtml"
	SVGNamespace    = "http://www.w3.org/2000/svg"
	MathMLNamespace = "http://www.w3.org/1998/Math/MathML"
)

// NodeType values (Node.nodeType).
const (
	ElementNode               = 1
	TextNode                  = 3
	CommentNode               = 8
	DocumentNode              = 9
	DocumentTypeNode          = 10
	DocumentFragmentNode      = 11
	ProcessingInstructionNode = 7
)

// Node is a node of a document's node tree. The tree itself is the
// golang.org/x/net/html tree the parser built (or scripts grew): Node adds
// the node's EventTarget, its node document and a slot for the embedder
// (the bindings keep the node's platform object there). There is exactly
// one Node per html.Node, kept by the node document.
type Node struct {
	EventTarget
	h   *html.Node
	doc *Document
	// Slot is the embedder's slot (the JavaScript layer's wrapper).
	Slot any
}

// Document is a Document node plus what the DOM and HTML standards keep on
// a document: its URL, content type, readiness and the hooks of the
// embedder (insertion and removal steps of iframes and scripts).
type Document struct {
	Node
	nodes map[*html.Node]*Node
	// URL is the document's URL (serialized).
	URL string
	// ContentType is the document's content type.
	ContentType string
	// ReadyState is "loading", "interactive" or "complete".
	ReadyState string
	// FallbackBaseURL, when set, is the base URL of an about:blank or
	// about:srcdoc document without a base element: its creator's base
	// URL (HTML's "fallback base URL"). The host sets it.
	FallbackBaseURL string
	// Hooks are the embedder's steps run on tree changes; nil fields are
	// skipped.
	Hooks DocumentHooks
	// CurrentScript is document.currentScript: the embedder sets it to
	// the script element whose classic script runs (nil otherwise).
	CurrentScript *Node
}

// DocumentHooks are the "insertion steps", "removing steps" and
// "attribute change steps" other specifications (HTML's iframe and script
// elements) hook into the DOM. They run synchronously, on the document's
// event loop, after the tree changed.
type DocumentHooks struct {
	// Inserted runs for every inclusive descendant of an inserted node,
	// in tree order.
	Inserted func(n *Node)
	// Removed runs for every inclusive descendant of a removed node, in
	// tree order; oldParent is the removed node's former parent.
	Removed func(n *Node, oldParent *Node)
	// AttributeChanged runs when an element's attribute is set or removed.
	AttributeChanged func(el *Node, name string, oldValue, value *string)
}

// ParseDocument parses an HTML document (the HTML parser of x/net/html)
// into a new Document whose URL is docURL.
func ParseDocument(r io.Reader, docURL string) (*Document, error) {
	root, err := html.Parse(r)
	if err != nil {
		return nil, err
	}
	return newDocument(root, docURL), nil
}

// NewDocument returns an empty document (no children), as new Document()
// creates; ReadyState is "complete".
func NewDocument(docURL string) *Document {
	d := newDocument(&html.Node{Type: html.DocumentNode}, docURL)
	d.ReadyState = "complete"
	return d
}

// NewHTMLDocument returns a document holding the empty html, head and body
// elements the parser makes of an empty string.
func NewHTMLDocument(docURL string) *Document {
	d, _ := ParseDocument(strings.NewReader(""), docURL)
	d.ReadyState = "complete"
	return d
}

func newDocument(root *html.Node, docURL string) *Document {
	d := &Document{nodes: map[*html.Node]*Node{}, URL: docURL, ContentType: "text/html", ReadyState: "loading"}
	d.h = root
	d.doc = d
	d.nodes[root] = &d.Node
	return d
}

// NodeOf returns the Node of an html.Node of this document's trees
// (creating it on first use).
func (d *Document) NodeOf(h *html.Node) *Node {
	if h == nil {
		return nil
	}
	if n, ok := d.nodes[h]; ok {
		return n
	}
	n := &Node{h: h, doc: d}
	d.nodes[h] = n
	return n
}

// HTML returns the underlying x/net/html node.
func (n *Node) HTML() *html.Node { return n.h }

// OwnerDocument is the node's node document.
func (n *Node) OwnerDocument() *Document { return n.doc }

// AsDocument returns the Document when n is a document node.
func (n *Node) AsDocument() (*Document, bool) {
	if n.h.Type == html.DocumentNode && &n.doc.Node == n {
		return n.doc, true
	}
	return nil, false
}

func (n *Node) wrap(h *html.Node) *Node {
	if h == nil {
		return nil
	}
	return n.doc.NodeOf(h)
}

// NodeType is https://dom.spec.whatwg.org/#dom-node-nodetype
func (n *Node) NodeType() uint16 {
	switch n.h.Type {
	case html.ElementNode:
		return ElementNode
	case html.TextNode:
		return TextNode
	case html.CommentNode:
		return CommentNode
	case html.DocumentNode:
		if n.IsFragment() {
			return DocumentFragmentNode
		}
		return DocumentNode
	case html.DoctypeNode:
		return DocumentTypeNode
	}
	return ElementNode
}

// IsFragment reports whether n is a DocumentFragment (an html.DocumentNode
// that is not its document's root).
func (n *Node) IsFragment() bool {
	return n.h.Type == html.DocumentNode && n.h != n.doc.h
}

// IsElement reports whether n is an element.
func (n *Node) IsElement() bool { return n.h.Type == html.ElementNode }

// NodeName is https://dom.spec.whatwg.org/#dom-node-nodename
func (n *Node) NodeName() string {
	switch n.NodeType() {
	case ElementNode:
		return n.TagName()
	case TextNode:
		return "#text"
	case CommentNode:
		return "#comment"
	case DocumentNode:
		return "#document"
	case DocumentFragmentNode:
		return "#document-fragment"
	case DocumentTypeNode:
		return n.h.Data
	}
	return ""
}

// Parent is the node's parent, or nil.
func (n *Node) Parent() *Node { return n.wrap(n.h.Parent) }

// ParentElement is the parent if it is an element.
func (n *Node) ParentElement() *Node {
	if p := n.h.Parent; p != nil && p.Type == html.ElementNode {
		return n.wrap(p)
	}
	return nil
}

// FirstChild, LastChild, PreviousSibling and NextSibling walk the tree.
func (n *Node) FirstChild() *Node      { return n.wrap(n.h.FirstChild) }
func (n *Node) LastChild() *Node       { return n.wrap(n.h.LastChild) }
func (n *Node) PreviousSibling() *Node { return n.wrap(n.h.PrevSibling) }
func (n *Node) NextSibling() *Node     { return n.wrap(n.h.NextSibling) }

// ChildNodes returns the children (a snapshot).
func (n *Node) ChildNodes() []*Node {
	var out []*Node
	for c := n.h.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, n.wrap(c))
	}
	return out
}

// Children returns the element children (a snapshot).
func (n *Node) Children() []*Node {
	var out []*Node
	for c := n.h.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			out = append(out, n.wrap(c))
		}
	}
	return out
}

// FirstElementChild and LastElementChild are ParentNode's.
func (n *Node) FirstElementChild() *Node {
	for c := n.h.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return n.wrap(c)
		}
	}
	return nil
}

func (n *Node) LastElementChild() *Node {
	for c := n.h.LastChild; c != nil; c = c.PrevSibling {
		if c.Type == html.ElementNode {
			return n.wrap(c)
		}
	}
	return nil
}

// PreviousElementSibling and NextElementSibling are
// NonDocumentTypeChildNode's.
func (n *Node) PreviousElementSibling() *Node {
	for c := n.h.PrevSibling; c != nil; c = c.PrevSibling {
		if c.Type == html.ElementNode {
			return n.wrap(c)
		}
	}
	return nil
}

func (n *Node) NextElementSibling() *Node {
	for c := n.h.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return n.wrap(c)
		}
	}
	return nil
}

// Root is the node's root (https://dom.spec.whatwg.org/#concept-tree-root).
func (n *Node) Root() *Node {
	h := n.h
	for h.Parent != nil {
		h = h.Parent
	}
	return n.wrap(h)
}

// IsConnected is https://dom.spec.whatwg.org/#connected: the node's root is
// its document.
func (n *Node) IsConnected() bool {
	h := n.h
	for h.Parent != nil {
		h = h.Parent
	}
	return h == n.doc.h
}

// Contains is https://dom.spec.whatwg.org/#dom-node-contains (inclusive
// descendant).
func (n *Node) Contains(other *Node) bool {
	if other == nil {
		return false
	}
	for h := other.h; h != nil; h = h.Parent {
		if h == n.h {
			return true
		}
	}
	return false
}

// TextContent is https://dom.spec.whatwg.org/#dom-node-textcontent (the
// getter); ok is false when the value is null (document, doctype).
func (n *Node) TextContent() (s string, ok bool) {
	switch n.h.Type {
	case html.TextNode, html.CommentNode:
		return n.h.Data, true
	case html.ElementNode:
		return descendantText(n.h), true
	case html.DocumentNode:
		if n.IsFragment() {
			return descendantText(n.h), true
		}
	}
	return "", false
}

// descendantText is the descendant text content: the Text descendants'
// data in tree order.
func descendantText(h *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(h *html.Node) {
		for c := h.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
			case html.ElementNode, html.DocumentNode:
				walk(c)
			}
		}
	}
	walk(h)
	return b.String()
}

// SetTextContent is the textContent setter: for elements and fragments
// "string replace all", for character data "replace data".
func (n *Node) SetTextContent(s string) {
	switch n.h.Type {
	case html.TextNode, html.CommentNode:
		n.h.Data = s
	case html.ElementNode:
		n.replaceAllWithText(s)
	case html.DocumentNode:
		if n.IsFragment() {
			n.replaceAllWithText(s)
		}
	}
}

// replaceAllWithText is https://dom.spec.whatwg.org/#string-replace-all
func (n *Node) replaceAllWithText(s string) {
	// 1. Let node be null. 2. If string is not the empty string, then set
	//    node to a new Text node whose data is string.
	var node *Node
	if s != "" {
		node = n.doc.CreateTextNode(s)
	}
	// 3. Replace all with node within parent.
	for c := n.h.FirstChild; c != nil; c = n.h.FirstChild {
		n.doc.NodeOf(c).remove()
	}
	if node != nil {
		n.insert(node, nil)
	}
}

// Data is CharacterData's data (text and comments); "" for other nodes.
func (n *Node) Data() string {
	if n.h.Type == html.TextNode || n.h.Type == html.CommentNode {
		return n.h.Data
	}
	return ""
}

// SetData replaces the data of a Text or Comment node.
func (n *Node) SetData(s string) {
	if n.h.Type == html.TextNode || n.h.Type == html.CommentNode {
		n.h.Data = s
	}
}

// UTF16Length is the length of a string in UTF-16 code units (the unit of
// CharacterData.length).
func UTF16Length(s string) int {
	l := 0
	for _, r := range s {
		l += utf16.RuneLen(r)
	}
	return l
}

// CreateElement creates an element in the HTML namespace
// (https://dom.spec.whatwg.org/#dom-document-createelement). The name must
// be valid (ValidElementName); HTML documents lowercase it.
func (d *Document) CreateElement(localName string) (*Node, error) {
	// 1. If localName is not a valid element local name, then throw an
	//    "InvalidCharacterError" DOMException.
	if !ValidElementName(localName) {
		return nil, NewDOMException("The tag name provided ('"+localName+"') is not a valid name.", InvalidCharacterError)
	}
	// 2. If this is an HTML document, then set localName to localName in
	//    ASCII lowercase.
	localName = strings.ToLower(localName)
	return d.newElement(localName, ""), nil
}

// CreateElementNS is https://dom.spec.whatwg.org/#dom-document-createelementns
// for the namespaces the HTML parser knows (HTML, SVG, MathML); other
// namespaces give a NotSupportedError.
func (d *Document) CreateElementNS(namespace, qualifiedName string) (*Node, error) {
	local := qualifiedName
	if i := strings.IndexByte(qualifiedName, ':'); i >= 0 {
		local = qualifiedName[i+1:]
		if qualifiedName[:i] == "" {
			return nil, NewDOMException("The qualified name provided ('"+qualifiedName+"') has an empty prefix.", NamespaceError)
		}
	}
	if !ValidElementName(local) {
		return nil, NewDOMException("The qualified name provided ('"+qualifiedName+"') contains the invalid name-start character.", InvalidCharacterError)
	}
	switch namespace {
	case HTMLNamespace:
		return d.newElement(local, ""), nil
	case SVGNamespace:
		return d.newElement(local, "svg"), nil
	case MathMLNamespace:
		return d.newElement(local, "math"), nil
	}
	return nil, NewDOMException("elements in namespace '"+namespace+"' are not supported", NotSupportedError)
}

func (d *Document) newElement(local, ns string) *Node {
	h := &html.Node{Type: html.ElementNode, Data: local, DataAtom: atom.Lookup([]byte(local)), Namespace: ns}
	return d.NodeOf(h)
}

// CreateTextNode creates a Text node.
func (d *Document) CreateTextNode(data string) *Node {
	return d.NodeOf(&html.Node{Type: html.TextNode, Data: data})
}

// CreateComment creates a Comment node.
func (d *Document) CreateComment(data string) *Node {
	return d.NodeOf(&html.Node{Type: html.CommentNode, Data: data})
}

// CreateDocumentFragment creates a DocumentFragment node.
func (d *Document) CreateDocumentFragment() *Node {
	return d.NodeOf(&html.Node{Type: html.DocumentNode})
}

// ValidElementName reports whether name is a valid element local name
// (https://dom.spec.whatwg.org/#valid-element-local-name): it starts with
// an ASCII letter and has no ASCII whitespace, NULL, "/" or ">", or it
// starts with ":", "_" or a non-ASCII code point and has only name
// characters.
func ValidElementName(name string) bool {
	if name == "" {
		return false
	}
	c := name[0]
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return !strings.ContainsAny(name, "\t\n\f\r />\x00")
	}
	if c != ':' && c != '_' && c < 0x80 {
		return false
	}
	for _, r := range name {
		if r < 0x80 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == ':' || r == '_') {
			return false
		}
	}
	return true
}

// ValidAttributeName reports whether name is a valid attribute local name
// (https://dom.spec.whatwg.org/#valid-attribute-local-name).
func ValidAttributeName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "\t\n\f\r />=\x00")
}

// Element members.

// LocalName is the element's local name.
func (n *Node) LocalName() string { return n.h.Data }

// NamespaceURI is the element's namespace.
func (n *Node) NamespaceURI() string {
	switch n.h.Namespace {
	case "":
		return HTMLNamespace
	case "svg":
		return SVGNamespace
	case "math":
		return MathMLNamespace
	}
	return n.h.Namespace
}

// IsHTML reports whether n is an element in the HTML namespace.
func (n *Node) IsHTML() bool { return n.h.Type == html.ElementNode && n.h.Namespace == "" }

// IsSVG says whether n is an element in the SVG namespace.
func (n *Node) IsSVG() bool { return n.h.Type == html.ElementNode && n.h.Namespace == "svg" }

// TagName is the element's qualified name, uppercased for HTML elements.
func (n *Node) TagName() string {
	if n.IsHTML() {
		return strings.ToUpper(n.h.Data)
	}
	return n.h.Data
}

// Attribute returns an attribute's value (names match ASCII
// case-insensitively on HTML elements, as in an HTML document).
func (n *Node) Attribute(name string) (string, bool) {
	name = n.attrName(name)
	for _, a := range n.h.Attr {
		if a.Key == name && a.Namespace == "" {
			return a.Val, true
		}
	}
	return "", false
}

// AttributeNames lists the attribute names in order.
func (n *Node) AttributeNames() []string {
	out := make([]string, 0, len(n.h.Attr))
	for _, a := range n.h.Attr {
		if a.Namespace != "" {
			out = append(out, a.Namespace+":"+a.Key)
			continue
		}
		out = append(out, a.Key)
	}
	return out
}

func (n *Node) attrName(name string) string {
	if n.IsHTML() {
		return strings.ToLower(name)
	}
	return name
}

// SetAttribute is https://dom.spec.whatwg.org/#dom-element-setattribute
func (n *Node) SetAttribute(name, value string) error {
	// 1. If qualifiedName is not a valid attribute local name, then throw
	//    an "InvalidCharacterError" DOMException.
	if !ValidAttributeName(name) {
		return NewDOMException("'"+name+"' is not a valid attribute name.", InvalidCharacterError)
	}
	// 2. Lowercase for HTML elements in HTML documents.
	name = n.attrName(name)
	// 3-5. Change the existing attribute or append a new one.
	for i, a := range n.h.Attr {
		if a.Key == name && a.Namespace == "" {
			old := a.Val
			n.h.Attr[i].Val = value
			n.attributeChanged(name, &old, &value)
			return nil
		}
	}
	n.h.Attr = append(n.h.Attr, html.Attribute{Key: name, Val: value})
	n.attributeChanged(name, nil, &value)
	return nil
}

// RemoveAttribute is https://dom.spec.whatwg.org/#dom-element-removeattribute
func (n *Node) RemoveAttribute(name string) {
	name = n.attrName(name)
	for i, a := range n.h.Attr {
		if a.Key == name && a.Namespace == "" {
			n.h.Attr = append(n.h.Attr[:i], n.h.Attr[i+1:]...)
			old := a.Val
			n.attributeChanged(name, &old, nil)
			return
		}
	}
}

func (n *Node) attributeChanged(name string, old, value *string) {
	if f := n.doc.Hooks.AttributeChanged; f != nil {
		f(n, name, old, value)
	}
}

// Matches is https://dom.spec.whatwg.org/#dom-element-matches; a selector
// that does not parse is a SyntaxError DOMException.
func (n *Node) Matches(selectors string) (bool, error) {
	sel, err := compileSelector(selectors)
	if err != nil {
		return false, err
	}
	return sel.Match(n.h), nil
}

// Closest is https://dom.spec.whatwg.org/#dom-element-closest
func (n *Node) Closest(selectors string) (*Node, error) {
	sel, err := compileSelector(selectors)
	if err != nil {
		return nil, err
	}
	for h := n.h; h != nil && h.Type == html.ElementNode; h = h.Parent {
		if sel.Match(h) {
			return n.wrap(h), nil
		}
	}
	return nil, nil
}

func compileSelector(s string) (cascadia.SelectorGroup, error) {
	sel, err := cascadia.ParseGroup(s)
	if err != nil {
		return nil, NewDOMException("'"+s+"' is not a valid selector.", SyntaxError)
	}
	return sel, nil
}

// QuerySelector is https://dom.spec.whatwg.org/#dom-parentnode-queryselector
// (selectors from github.com/andybalholm/cascadia).
func (n *Node) QuerySelector(selectors string) (*Node, error) {
	sel, err := compileSelector(selectors)
	if err != nil {
		return nil, err
	}
	var found *html.Node
	walkDescendants(n.h, func(h *html.Node) bool {
		if h.Type == html.ElementNode && sel.Match(h) {
			found = h
			return false
		}
		return true
	})
	return n.wrap(found), nil
}

// QuerySelectorAll is https://dom.spec.whatwg.org/#dom-parentnode-queryselectorall
func (n *Node) QuerySelectorAll(selectors string) ([]*Node, error) {
	sel, err := compileSelector(selectors)
	if err != nil {
		return nil, err
	}
	return n.descendantsMatching(func(h *html.Node) bool { return sel.Match(h) }), nil
}

// walkDescendants visits the descendants of h in tree order until f
// returns false.
func walkDescendants(h *html.Node, f func(*html.Node) bool) bool {
	for c := h.FirstChild; c != nil; c = c.NextSibling {
		if !f(c) || !walkDescendants(c, f) {
			return false
		}
	}
	return true
}

func (n *Node) descendantsMatching(match func(*html.Node) bool) []*Node {
	var out []*Node
	walkDescendants(n.h, func(h *html.Node) bool {
		if h.Type == html.ElementNode && match(h) {
			out = append(out, n.wrap(h))
		}
		return true
	})
	return out
}

// ElementsByTagName is https://dom.spec.whatwg.org/#concept-getelementsbytagname
// (a snapshot, not a live collection).
func (n *Node) ElementsByTagName(qualifiedName string) []*Node {
	lower := strings.ToLower(qualifiedName)
	return n.descendantsMatching(func(h *html.Node) bool {
		if qualifiedName == "*" {
			return true
		}
		if h.Namespace == "" {
			return h.Data == lower
		}
		return h.Data == qualifiedName
	})
}

// ElementsByClassName is https://dom.spec.whatwg.org/#concept-getelementsbyclassname
// (a snapshot).
func (n *Node) ElementsByClassName(classNames string) []*Node {
	want := strings.Fields(classNames)
	if len(want) == 0 {
		return nil
	}
	return n.descendantsMatching(func(h *html.Node) bool {
		var have []string
		for _, a := range h.Attr {
			if a.Key == "class" && a.Namespace == "" {
				have = strings.Fields(a.Val)
			}
		}
		for _, w := range want {
			found := false
			for _, c := range have {
				if c == w {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	})
}

// ElementByID is https://dom.spec.whatwg.org/#dom-nonelementparentnode-getelementbyid
func (n *Node) ElementByID(id string) *Node {
	if id == "" {
		return nil
	}
	var found *html.Node
	walkDescendants(n.h, func(h *html.Node) bool {
		if h.Type == html.ElementNode {
			for _, a := range h.Attr {
				if a.Key == "id" && a.Namespace == "" && a.Val == id {
					found = h
					return false
				}
			}
		}
		return true
	})
	return n.wrap(found)
}

// DocumentElement is the document element (the root's element child).
func (d *Document) DocumentElement() *Node { return d.FirstElementChild() }

// htmlChild returns the first child element of the html element with the
// given local name.
func (d *Document) htmlChild(local string) *Node {
	de := d.DocumentElement()
	if de == nil || !de.IsHTML() || de.h.Data != "html" {
		return nil
	}
	for c := de.h.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Namespace == "" && c.Data == local {
			return d.NodeOf(c)
		}
	}
	return nil
}

// Head is https://html.spec.whatwg.org/#dom-document-head
func (d *Document) Head() *Node { return d.htmlChild("head") }

// Body is https://html.spec.whatwg.org/#dom-document-body (body only,
// frameset documents are not made).
func (d *Document) Body() *Node { return d.htmlChild("body") }

// Title is https://html.spec.whatwg.org/#document.title: the first title
// element's text with ASCII whitespace stripped and collapsed.
func (d *Document) Title() string {
	for _, t := range d.ElementsByTagName("title") {
		if t.IsHTML() {
			return strings.Join(strings.Fields(descendantText(t.h)), " ")
		}
	}
	return ""
}

// SetTitle is the document.title setter (HTML documents): the title
// element's text, creating it in head when missing.
func (d *Document) SetTitle(s string) {
	for _, t := range d.ElementsByTagName("title") {
		if t.IsHTML() {
			t.SetTextContent(s)
			return
		}
	}
	head := d.Head()
	if head == nil {
		return
	}
	t := d.newElement("title", "")
	t.SetTextContent(s)
	head.insert(t, nil)
}

// InnerHTML serializes the node's children (the HTML fragment
// serialization algorithm of x/net/html).
func (n *Node) InnerHTML() string {
	var b bytes.Buffer
	raw := n.IsHTML() && rawTextParents[n.h.Data]
	for c := n.h.FirstChild; c != nil; c = c.NextSibling {
		// HTML fragment serialization: a Text node whose parent is a
		// style, script, xmp, iframe, noembed, noframes or plaintext
		// element, or a noscript element (scripting is enabled), is
		// appended literally.
		if raw && c.Type == html.TextNode {
			b.WriteString(c.Data)
			continue
		}
		_ = html.Render(&b, c)
	}
	return b.String()
}

// rawTextParents are the elements whose Text children serialize
// literally (https://html.spec.whatwg.org/multipage/parsing.html#serialising-html-fragments).
var rawTextParents = map[string]bool{"style": true, "script": true, "xmp": true, "iframe": true, "noembed": true,
	"noframes": true, "plaintext": true, "noscript": true}

// OuterHTML serializes the node itself.
func (n *Node) OuterHTML() string {
	var b bytes.Buffer
	_ = html.Render(&b, n.h)
	return b.String()
}

// SetInnerHTML replaces the element's children with the result of parsing
// s as a fragment in its context.
func (n *Node) SetInnerHTML(s string) error {
	ctx := n.h
	if ctx.Type != html.ElementNode {
		ctx = &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	}
	nodes, err := html.ParseFragment(strings.NewReader(s), ctx)
	if err != nil {
		return NewDOMException(err.Error(), SyntaxError)
	}
	for c := n.h.FirstChild; c != nil; c = n.h.FirstChild {
		n.doc.NodeOf(c).remove()
	}
	for _, h := range nodes {
		n.insert(n.doc.NodeOf(h), nil)
	}
	return nil
}

// Tree mutation (https://dom.spec.whatwg.org/#mutation-algorithms).

func hierarchyError(msg string) error { return NewDOMException(msg, HierarchyRequestError) }

// ensurePreInsertionValidity is
// https://dom.spec.whatwg.org/#concept-node-ensure-pre-insert-validity
func (parent *Node) ensurePreInsertionValidity(node, child *Node) error {
	// 1. If parent is not a Document, DocumentFragment, or Element node,
	//    then throw a "HierarchyRequestError" DOMException.
	pt := parent.NodeType()
	if pt != DocumentNode && pt != DocumentFragmentNode && pt != ElementNode {
		return hierarchyError("This node type does not support children.")
	}
	// 2. If node is a host-including inclusive ancestor of parent, then
	//    throw a "HierarchyRequestError" DOMException.
	if node.Contains(parent) {
		return hierarchyError("The new child element contains the parent.")
	}
	// 3. If child is non-null and its parent is not parent, then throw a
	//    "NotFoundError" DOMException.
	if child != nil && child.h.Parent != parent.h {
		return NewDOMException("The node before which the new node is to be inserted is not a child of this node.", NotFoundError)
	}
	// 4. If node is not a DocumentFragment, DocumentType, Element, or
	//    CharacterData node, then throw a "HierarchyRequestError".
	nt := node.NodeType()
	if nt == DocumentNode {
		return hierarchyError("Nodes of type '#document' may not be inserted inside nodes of type '" + parent.NodeName() + "'.")
	}
	// 5. If either node is a Text node and parent is a document, or node
	//    is a doctype and parent is not a document, then throw a
	//    "HierarchyRequestError" DOMException.
	if nt == TextNode && pt == DocumentNode {
		return hierarchyError("Nodes of type '#text' may not be inserted inside nodes of type '#document'.")
	}
	if nt == DocumentTypeNode && pt != DocumentNode {
		return hierarchyError("Nodes of type 'DocumentType' may only be inserted inside a document.")
	}
	// 6. If parent is a document: at most one element child.
	if pt == DocumentNode {
		elements := 0
		switch nt {
		case DocumentFragmentNode:
			for c := node.h.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					elements++
				}
			}
		case ElementNode:
			elements = 1
		}
		if elements > 0 && (elements > 1 || parent.FirstElementChild() != nil) {
			return hierarchyError("Only one element on document allowed.")
		}
	}
	return nil
}

// PreInsert is https://dom.spec.whatwg.org/#concept-node-pre-insert: it
// inserts node into parent before child (nil: at the end) and returns node.
func (parent *Node) PreInsert(node, child *Node) (*Node, error) {
	// 1. Ensure pre-insert validity of node into parent before child.
	if err := parent.ensurePreInsertionValidity(node, child); err != nil {
		return nil, err
	}
	// 2-3. Let referenceChild be child; if it is node, set it to node's
	//      next sibling.
	ref := child
	if ref == node {
		ref = node.NextSibling()
	}
	// 4. Insert node into parent before referenceChild.
	parent.insert(node, ref)
	// 5. Return node.
	return node, nil
}

// AppendChild is https://dom.spec.whatwg.org/#concept-node-append
func (parent *Node) AppendChild(node *Node) (*Node, error) { return parent.PreInsert(node, nil) }

// insert is https://dom.spec.whatwg.org/#concept-node-insert (without
// mutation observers, custom elements and slots).
func (parent *Node) insert(node, child *Node) {
	// 1. Let nodes be node's children, if node is a DocumentFragment node;
	//    otherwise « node ».
	var nodes []*Node
	if node.IsFragment() {
		nodes = node.ChildNodes()
		// 4. If node is a DocumentFragment node, remove its children.
		for _, c := range nodes {
			c.remove()
		}
	} else {
		// (adopt: remove node from its old parent)
		if node.h.Parent != nil {
			node.remove()
		}
		nodes = []*Node{node}
	}
	// 7. For each node in nodes, in tree order: adopt node into parent's
	//    node document, insert it, run the insertion steps.
	for _, n := range nodes {
		parent.doc.adopt(n)
		if child == nil {
			parent.h.AppendChild(n.h)
		} else {
			parent.h.InsertBefore(n.h, child.h)
		}
	}
	if f := parent.doc.Hooks.Inserted; f != nil && parent.IsConnected() {
		for _, n := range nodes {
			n.forInclusiveDescendants(f)
		}
	}
}

func (n *Node) forInclusiveDescendants(f func(*Node)) {
	f(n)
	walkDescendants(n.h, func(h *html.Node) bool {
		f(n.doc.NodeOf(h))
		return true
	})
}

// adopt is https://dom.spec.whatwg.org/#concept-node-adopt for a node
// with no parent: the node and its descendants move to d.
func (d *Document) adopt(n *Node) {
	if n.doc == d {
		return
	}
	old := n.doc
	move := func(x *Node) {
		delete(old.nodes, x.h)
		x.doc = d
		d.nodes[x.h] = x
	}
	move(n)
	walkDescendants(n.h, func(h *html.Node) bool {
		move(old.NodeOf(h))
		return true
	})
}

// RemoveChild is https://dom.spec.whatwg.org/#concept-node-pre-remove
func (parent *Node) RemoveChild(child *Node) (*Node, error) {
	// 1. If child's parent is not parent, then throw a "NotFoundError".
	if child.h.Parent != parent.h {
		return nil, NewDOMException("The node to be removed is not a child of this node.", NotFoundError)
	}
	// 2. Remove child. 3. Return child.
	child.remove()
	return child, nil
}

// Remove is ChildNode's remove(): remove the node from its parent, if any.
func (n *Node) Remove() {
	if n.h.Parent != nil {
		n.remove()
	}
}

// ReplaceChild is https://dom.spec.whatwg.org/#concept-node-replace
// (simplified: validity as for pre-insert).
func (parent *Node) ReplaceChild(node, child *Node) (*Node, error) {
	if child.h.Parent != parent.h {
		return nil, NewDOMException("The node to be replaced is not a child of this node.", NotFoundError)
	}
	if node == child {
		return child, nil
	}
	if err := parent.ensurePreInsertionValidity(node, child); err != nil {
		if de, ok := err.(*DOMException); !ok || de.Name != HierarchyRequestError || parent.NodeType() != DocumentNode || node.NodeType() != ElementNode || child.NodeType() != ElementNode {
			return nil, err
		}
	}
	ref := child.NextSibling()
	if ref == node {
		ref = node.NextSibling()
	}
	child.remove()
	parent.insert(node, ref)
	return child, nil
}

// remove is https://dom.spec.whatwg.org/#concept-node-remove: detach the
// node and run the removing steps (for connected nodes) on it and its
// descendants.
func (n *Node) remove() {
	parentH := n.h.Parent
	if parentH == nil {
		return
	}
	parent := n.doc.NodeOf(parentH)
	wasConnected := parent.IsConnected()
	parentH.RemoveChild(n.h)
	if f := n.doc.Hooks.Removed; f != nil && wasConnected {
		n.forInclusiveDescendants(func(x *Node) { f(x, parent) })
	}
}

// CloneNode is https://dom.spec.whatwg.org/#concept-node-clone into the
// same document.
func (n *Node) CloneNode(subtree bool) *Node {
	var clone func(h *html.Node) *html.Node
	clone = func(h *html.Node) *html.Node {
		c := &html.Node{Type: h.Type, Data: h.Data, DataAtom: h.DataAtom, Namespace: h.Namespace}
		c.Attr = append([]html.Attribute(nil), h.Attr...)
		if subtree {
			for k := h.FirstChild; k != nil; k = k.NextSibling {
				c.AppendChild(clone(k))
			}
		}
		return c
	}
	if n.h.Type == html.DocumentNode && !n.IsFragment() {
		d := newDocument(clone(n.h), n.doc.URL)
		d.ContentType = n.doc.ContentType
		d.ReadyState = "complete"
		return &d.Node
	}
	return n.doc.NodeOf(clone(n.h))
}

// BaseHref is the document's base URL source: the href of the first base
// element with one, else the document URL (unresolved: the caller parses
// it against the document URL).
func (d *Document) BaseHref() string {
	for _, b := range d.ElementsByTagName("base") {
		if v, ok := b.Attribute("href"); ok && b.IsHTML() {
			return v
		}
	}
	return ""
}

// CompatMode is https://dom.spec.whatwg.org/#dom-document-compatmode:
// "BackCompat" without a doctype (quirks mode as x/net/html decides it is
// not exposed; a missing or non-html doctype means quirks).
func (d *Document) CompatMode() string {
	for c := d.h.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.DoctypeNode {
			if strings.EqualFold(c.Data, "html") {
				return "CSS1Compat"
			}
			break
		}
	}
	if d.h.FirstChild == nil {
		return "CSS1Compat"
	}
	return "BackCompat"
}

// Doctype returns the document's doctype node, or nil.
func (d *Document) Doctype() *Node {
	for c := d.h.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.DoctypeNode {
			return d.NodeOf(c)
		}
	}
	return nil
}

// Descendants lists the inclusive descendants of n that are elements
// matching the local name (in the HTML namespace), in tree order; the
// embedder uses it to find scripts and iframes of a parsed document.
func (n *Node) Descendants(localName string) []*Node {
	return n.descendantsMatching(func(h *html.Node) bool { return h.Namespace == "" && h.Data == localName })
}
