package browser

import (
	"net/url"
	"strings"

	"github.com/dop251/goja"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file gives scripts a small, real DOM over the tree parsed by
// golang.org/x/net/html: enough for testharness.js (getElementsByTagName,
// getElementById, title, readyState, creating and appending its output
// nodes) and for tests that read the page. It has no rendering, no
// live collections (collections are arrays snapshotted when read) and no
// mutation events.

const (
	nsHTML = "http://www.w3.org/1999/xhtml"
	nsSVG  = "http://www.w3.org/2000/svg"
)

// domDocument is one Document of a window realm.
type domDocument struct {
	vm     *goja.Runtime
	root   *xhtml.Node // the DocumentNode
	url    *url.URL
	ready  string // "loading", "interactive", "complete"
	window *goja.Object

	wrappers map[*xhtml.Node]*goja.Object
	nodes    map[*goja.Object]*xhtml.Node

	nodeProto, elementProto, charProto, textProto, commentProto, docProto *goja.Object

	// domException creates a DOMException in the realm.
	domException func(name, msg string) goja.Value
	// newEventTarget, when set, creates node objects as platform
	// EventTargets with the given prototype (so addEventListener works on
	// the document and elements); otherwise they are ordinary objects.
	newEventTarget func(proto *goja.Object) *goja.Object
	// platformDocument, when set, is the realm's Document object, used as
	// the document node's object.
	platformDocument *goja.Object
	// wrapNative, when set, wraps every native function (crash handling).
	wrapNative func(func(goja.FunctionCall) goja.Value) func(goja.FunctionCall) goja.Value

	// frames, when set, is told about iframe elements becoming connected
	// or disconnected and about their src/srcdoc changes, and gives their
	// contentWindow (see frame.go).
	frames frameHost
	// styles are the elements' style objects (inline style is kept as a
	// plain object: nothing renders).
	styles map[*xhtml.Node]*goja.Object
}

// frameHost is the window side of iframe elements.
type frameHost interface {
	frameConnected(el *xhtml.Node)
	frameDisconnected(el *xhtml.Node)
	frameAttributeChanged(el *xhtml.Node)
	contentWindow(el *xhtml.Node) goja.Value
}

func (d *domDocument) native(fn func(goja.FunctionCall) goja.Value) func(goja.FunctionCall) goja.Value {
	if d.wrapNative != nil {
		return d.wrapNative(fn)
	}
	return fn
}

// newDOMDocument wraps root (a parsed document) for vm. parent is the
// prototype Node.prototype inherits from (EventTarget.prototype when the
// realm has one, else nil for Object.prototype).
func newDOMDocument(vm *goja.Runtime, root *xhtml.Node, u *url.URL, window, parent *goja.Object,
	domException func(name, msg string) goja.Value,
	wrapNative func(func(goja.FunctionCall) goja.Value) func(goja.FunctionCall) goja.Value) *domDocument {
	d := &domDocument{vm: vm, root: root, url: u, ready: "loading", window: window,
		wrappers: map[*xhtml.Node]*goja.Object{}, nodes: map[*goja.Object]*xhtml.Node{},
		domException: domException, wrapNative: wrapNative}
	d.buildPrototypes(parent)
	return d
}

// Object returns the document's JavaScript object.
func (d *domDocument) Object() *goja.Object { return d.wrapObj(d.root) }

// wrap returns the (unique) JavaScript object of n.
func (d *domDocument) wrap(n *xhtml.Node) goja.Value {
	if n == nil {
		return goja.Null()
	}
	return d.wrapObj(n)
}

func (d *domDocument) wrapObj(n *xhtml.Node) *goja.Object {
	if o, ok := d.wrappers[n]; ok {
		return o
	}
	var proto *goja.Object
	switch n.Type {
	case xhtml.DocumentNode:
		proto = d.docProto
	case xhtml.ElementNode:
		proto = d.elementProto
	case xhtml.TextNode:
		proto = d.textProto
	case xhtml.CommentNode:
		proto = d.commentProto
	default:
		proto = d.nodeProto
	}
	var o *goja.Object
	if n.Type == xhtml.DocumentNode && d.platformDocument != nil {
		// The realm's own Document platform object gets this DOM.
		o = d.platformDocument
		_ = o.SetPrototype(proto)
	} else if d.newEventTarget != nil {
		o = d.newEventTarget(proto)
	} else {
		o = d.vm.CreateObject(proto)
	}
	d.wrappers[n] = o
	d.nodes[o] = n
	return o
}

// this returns the node behind a method's this value, or throws
// "Illegal invocation" like a WebIDL operation called on the wrong object.
func (d *domDocument) this(call goja.FunctionCall) *xhtml.Node {
	if o, ok := call.This.(*goja.Object); ok {
		if n, ok := d.nodes[o]; ok {
			return n
		}
	}
	panic(d.vm.NewTypeError("Illegal invocation"))
}

func (d *domDocument) nodeArg(v goja.Value, what string) *xhtml.Node {
	if o, ok := v.(*goja.Object); ok {
		if n, ok := d.nodes[o]; ok {
			return n
		}
	}
	panic(d.vm.NewTypeError(what + " is not of type 'Node'."))
}

func (d *domDocument) throwDOM(name, msg string) {
	if d.domException != nil {
		panic(d.domException(name, msg))
	}
	panic(d.vm.NewTypeError(name + ": " + msg))
}

func (d *domDocument) method(o *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	f := d.vm.ToValue(d.native(fn)).ToObject(d.vm)
	_ = f.DefineDataProperty("name", d.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", d.vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = o.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

func (d *domDocument) accessor(o *goja.Object, name string, get func(n *xhtml.Node) goja.Value, set func(n *xhtml.Node, v goja.Value)) {
	g := d.vm.ToValue(d.native(func(call goja.FunctionCall) goja.Value { return get(d.this(call)) }))
	var s goja.Value
	if set != nil {
		s = d.vm.ToValue(d.native(func(call goja.FunctionCall) goja.Value {
			set(d.this(call), call.Argument(0))
			return goja.Undefined()
		}))
	}
	_ = o.DefineAccessorProperty(name, g, s, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

func (d *domDocument) str(s string) goja.Value { return d.vm.ToValue(s) }

func (d *domDocument) list(ns []*xhtml.Node) goja.Value {
	items := make([]any, len(ns))
	for i, n := range ns {
		items[i] = d.wrapObj(n)
	}
	return d.vm.NewArray(items...)
}

func (d *domDocument) buildPrototypes(parent *goja.Object) {
	vm := d.vm
	d.nodeProto = vm.NewObject()
	if parent != nil {
		_ = d.nodeProto.SetPrototype(parent)
	}
	d.elementProto = vm.CreateObject(d.nodeProto)
	d.charProto = vm.CreateObject(d.nodeProto)
	d.textProto = vm.CreateObject(d.charProto)
	d.commentProto = vm.CreateObject(d.charProto)
	d.docProto = vm.CreateObject(d.nodeProto)
	for _, p := range []struct {
		o    *goja.Object
		name string
	}{{d.nodeProto, "Node"}, {d.elementProto, "HTMLElement"}, {d.charProto, "CharacterData"},
		{d.textProto, "Text"}, {d.commentProto, "Comment"}, {d.docProto, "HTMLDocument"}} {
		_ = p.o.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue(p.name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}

	// Node.
	np := d.nodeProto
	d.accessor(np, "nodeType", func(n *xhtml.Node) goja.Value { return vm.ToValue(nodeType(n)) }, nil)
	d.accessor(np, "nodeName", func(n *xhtml.Node) goja.Value { return d.str(nodeName(n)) }, nil)
	d.accessor(np, "parentNode", func(n *xhtml.Node) goja.Value { return d.wrap(n.Parent) }, nil)
	d.accessor(np, "parentElement", func(n *xhtml.Node) goja.Value {
		if n.Parent != nil && n.Parent.Type == xhtml.ElementNode {
			return d.wrap(n.Parent)
		}
		return goja.Null()
	}, nil)
	d.accessor(np, "firstChild", func(n *xhtml.Node) goja.Value { return d.wrap(n.FirstChild) }, nil)
	d.accessor(np, "lastChild", func(n *xhtml.Node) goja.Value { return d.wrap(n.LastChild) }, nil)
	d.accessor(np, "nextSibling", func(n *xhtml.Node) goja.Value { return d.wrap(n.NextSibling) }, nil)
	d.accessor(np, "previousSibling", func(n *xhtml.Node) goja.Value { return d.wrap(n.PrevSibling) }, nil)
	d.accessor(np, "ownerDocument", func(n *xhtml.Node) goja.Value {
		if n == d.root {
			return goja.Null()
		}
		return d.wrap(d.root)
	}, nil)
	d.accessor(np, "childNodes", func(n *xhtml.Node) goja.Value {
		var cs []*xhtml.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			cs = append(cs, c)
		}
		return d.list(cs)
	}, nil)
	d.accessor(np, "textContent", func(n *xhtml.Node) goja.Value {
		switch n.Type {
		case xhtml.DocumentNode, xhtml.DoctypeNode:
			return goja.Null()
		case xhtml.TextNode, xhtml.CommentNode:
			return d.str(n.Data)
		}
		return d.str(textContent(n))
	}, func(n *xhtml.Node, v goja.Value) {
		s := ""
		if !goja.IsNull(v) && !goja.IsUndefined(v) {
			s = v.String()
		}
		switch n.Type {
		case xhtml.TextNode, xhtml.CommentNode:
			n.Data = s
		case xhtml.ElementNode:
			for n.FirstChild != nil {
				n.RemoveChild(n.FirstChild)
			}
			if s != "" {
				n.AppendChild(&xhtml.Node{Type: xhtml.TextNode, Data: s})
			}
		}
	})
	d.accessor(np, "nodeValue", func(n *xhtml.Node) goja.Value {
		if n.Type == xhtml.TextNode || n.Type == xhtml.CommentNode {
			return d.str(n.Data)
		}
		return goja.Null()
	}, nil)
	d.method(np, "hasChildNodes", 0, func(c goja.FunctionCall) goja.Value { return vm.ToValue(d.this(c).FirstChild != nil) })
	d.method(np, "contains", 1, func(c goja.FunctionCall) goja.Value {
		n := d.this(c)
		if goja.IsNull(c.Argument(0)) {
			return vm.ToValue(false)
		}
		other := d.nodeArg(c.Argument(0), "parameter 1")
		for p := other; p != nil; p = p.Parent {
			if p == n {
				return vm.ToValue(true)
			}
		}
		return vm.ToValue(false)
	})
	d.method(np, "appendChild", 1, func(c goja.FunctionCall) goja.Value {
		n := d.this(c)
		child := d.nodeArg(c.Argument(0), "parameter 1")
		d.insert(n, child, nil)
		return c.Argument(0)
	})
	d.method(np, "insertBefore", 2, func(c goja.FunctionCall) goja.Value {
		n := d.this(c)
		child := d.nodeArg(c.Argument(0), "parameter 1")
		var ref *xhtml.Node
		if !goja.IsNull(c.Argument(1)) && !goja.IsUndefined(c.Argument(1)) {
			ref = d.nodeArg(c.Argument(1), "parameter 2")
		}
		d.insert(n, child, ref)
		return c.Argument(0)
	})
	d.method(np, "removeChild", 1, func(c goja.FunctionCall) goja.Value {
		n := d.this(c)
		child := d.nodeArg(c.Argument(0), "parameter 1")
		if child.Parent != n {
			d.throwDOM("NotFoundError", "The node to be removed is not a child of this node.")
		}
		d.removeNode(child)
		return c.Argument(0)
	})
	// ChildNode's remove(): removes the node from its parent, if any.
	d.method(np, "remove", 0, func(c goja.FunctionCall) goja.Value {
		if n := d.this(c); n.Parent != nil {
			d.removeNode(n)
		}
		return goja.Undefined()
	})

	// Element.
	ep := d.elementProto
	d.accessor(ep, "localName", func(n *xhtml.Node) goja.Value { return d.str(n.Data) }, nil)
	d.accessor(ep, "tagName", func(n *xhtml.Node) goja.Value { return d.str(nodeName(n)) }, nil)
	d.accessor(ep, "namespaceURI", func(n *xhtml.Node) goja.Value { return d.str(namespaceOf(n)) }, nil)
	for _, a := range []string{"id", "className:class", "name", "content", "type", "rel", "lang", "title", "srcdoc", "sandbox"} {
		prop, attr, ok := strings.Cut(a, ":")
		if !ok {
			attr = prop
		}
		d.accessor(ep, prop, func(n *xhtml.Node) goja.Value {
			v, _ := getAttr(n, attr)
			return d.str(v)
		}, func(n *xhtml.Node, v goja.Value) { d.setAttribute(n, attr, v.String()) })
	}
	for _, attr := range []string{"src", "href"} {
		d.accessor(ep, attr, func(n *xhtml.Node) goja.Value {
			v, ok := getAttr(n, attr)
			if !ok {
				return d.str("")
			}
			if u, err := d.baseURL().Parse(strings.TrimSpace(v)); err == nil {
				return d.str(u.String())
			}
			return d.str(v)
		}, func(n *xhtml.Node, v goja.Value) { d.setAttribute(n, attr, v.String()) })
	}
	// HTMLIFrameElement's contentWindow (the frame's WindowProxy stand-in)
	// and contentDocument (null: documents of other realms are not
	// reachable from this one).
	d.accessor(ep, "contentWindow", func(n *xhtml.Node) goja.Value {
		if d.frames == nil || n.DataAtom != atom.Iframe || n.Namespace != "" {
			return goja.Null()
		}
		return d.frames.contentWindow(n)
	}, nil)
	d.accessor(ep, "contentDocument", func(n *xhtml.Node) goja.Value { return goja.Null() }, nil)
	d.accessor(ep, "style", func(n *xhtml.Node) goja.Value {
		if d.styles == nil {
			d.styles = map[*xhtml.Node]*goja.Object{}
		}
		o, ok := d.styles[n]
		if !ok {
			o = vm.NewObject()
			d.styles[n] = o
		}
		return o
	}, nil)
	d.accessor(ep, "children", func(n *xhtml.Node) goja.Value {
		var cs []*xhtml.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == xhtml.ElementNode {
				cs = append(cs, c)
			}
		}
		return d.list(cs)
	}, nil)
	d.accessor(ep, "innerHTML", func(n *xhtml.Node) goja.Value {
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			_ = xhtml.Render(&b, c)
		}
		return d.str(b.String())
	}, func(n *xhtml.Node, v goja.Value) {
		kids, err := xhtml.ParseFragment(strings.NewReader(v.String()), &xhtml.Node{Type: xhtml.ElementNode, Data: n.Data, DataAtom: n.DataAtom})
		if err != nil {
			d.throwDOM("SyntaxError", err.Error())
		}
		for n.FirstChild != nil {
			n.RemoveChild(n.FirstChild)
		}
		for _, k := range kids {
			n.AppendChild(k)
		}
	})
	d.method(ep, "getAttribute", 1, func(c goja.FunctionCall) goja.Value {
		v, ok := getAttr(d.this(c), strings.ToLower(c.Argument(0).String()))
		if !ok {
			return goja.Null()
		}
		return d.str(v)
	})
	d.method(ep, "hasAttribute", 1, func(c goja.FunctionCall) goja.Value {
		_, ok := getAttr(d.this(c), strings.ToLower(c.Argument(0).String()))
		return vm.ToValue(ok)
	})
	d.method(ep, "setAttribute", 2, func(c goja.FunctionCall) goja.Value {
		n := d.this(c)
		name := c.Argument(0).String()
		if !validAttrName(name) {
			d.throwDOM("InvalidCharacterError", "'"+name+"' is not a valid attribute name.")
		}
		d.setAttribute(n, strings.ToLower(name), c.Argument(1).String())
		return goja.Undefined()
	})
	d.method(ep, "removeAttribute", 1, func(c goja.FunctionCall) goja.Value {
		n := d.this(c)
		name := strings.ToLower(c.Argument(0).String())
		for i, a := range n.Attr {
			if a.Namespace == "" && a.Key == name {
				n.Attr = append(n.Attr[:i], n.Attr[i+1:]...)
				break
			}
		}
		return goja.Undefined()
	})
	for _, p := range []*goja.Object{ep, d.docProto} {
		// ParentNode's append(...nodes): strings become Text nodes.
		d.method(p, "append", 0, func(c goja.FunctionCall) goja.Value {
			n := d.this(c)
			for _, a := range c.Arguments {
				var child *xhtml.Node
				if o, ok := a.(*goja.Object); ok && d.nodes[o] != nil {
					child = d.nodes[o]
				} else {
					child = &xhtml.Node{Type: xhtml.TextNode, Data: a.String()}
				}
				d.insert(n, child, nil)
			}
			return goja.Undefined()
		})
		d.method(p, "getElementsByTagName", 1, func(c goja.FunctionCall) goja.Value {
			return d.list(descendants(d.this(c), matchTag(c.Argument(0).String()), 0))
		})
		d.method(p, "getElementsByClassName", 1, func(c goja.FunctionCall) goja.Value {
			return d.list(descendants(d.this(c), matchClasses(c.Argument(0).String()), 0))
		})
		d.method(p, "querySelector", 1, func(c goja.FunctionCall) goja.Value {
			m := d.selector(c.Argument(0).String())
			if r := descendants(d.this(c), m, 1); len(r) > 0 {
				return d.wrap(r[0])
			}
			return goja.Null()
		})
		d.method(p, "querySelectorAll", 1, func(c goja.FunctionCall) goja.Value {
			return d.list(descendants(d.this(c), d.selector(c.Argument(0).String()), 0))
		})
	}

	// CharacterData.
	cp := d.charProto
	d.accessor(cp, "data", func(n *xhtml.Node) goja.Value { return d.str(n.Data) },
		func(n *xhtml.Node, v goja.Value) { n.Data = v.String() })
	d.accessor(cp, "length", func(n *xhtml.Node) goja.Value { return vm.ToValue(utf16Len(n.Data)) }, nil)

	// Document.
	dp := d.docProto
	d.accessor(dp, "documentElement", func(n *xhtml.Node) goja.Value { return d.wrap(firstElementChild(n)) }, nil)
	d.accessor(dp, "head", func(n *xhtml.Node) goja.Value { return d.wrap(d.htmlChild("head")) }, nil)
	d.accessor(dp, "body", func(n *xhtml.Node) goja.Value { return d.wrap(d.htmlChild("body")) }, nil)
	d.accessor(dp, "readyState", func(*xhtml.Node) goja.Value { return d.str(d.ready) }, nil)
	d.accessor(dp, "URL", func(*xhtml.Node) goja.Value { return d.str(d.url.String()) }, nil)
	d.accessor(dp, "documentURI", func(*xhtml.Node) goja.Value { return d.str(d.url.String()) }, nil)
	d.accessor(dp, "baseURI", func(*xhtml.Node) goja.Value { return d.str(d.baseURL().String()) }, nil)
	d.accessor(dp, "compatMode", func(n *xhtml.Node) goja.Value {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == xhtml.DoctypeNode {
				return d.str("CSS1Compat")
			}
		}
		return d.str("BackCompat")
	}, nil)
	d.accessor(dp, "characterSet", func(*xhtml.Node) goja.Value { return d.str("UTF-8") }, nil)
	d.accessor(dp, "contentType", func(*xhtml.Node) goja.Value { return d.str("text/html") }, nil)
	d.accessor(dp, "defaultView", func(*xhtml.Node) goja.Value {
		if d.window == nil {
			return goja.Null()
		}
		return d.window
	}, nil)
	d.accessor(dp, "location", func(*xhtml.Node) goja.Value {
		if d.window == nil {
			return goja.Null()
		}
		return d.window.Get("location")
	}, nil)
	d.accessor(dp, "title", func(*xhtml.Node) goja.Value {
		t := descendants(d.root, func(n *xhtml.Node) bool { return n.Type == xhtml.ElementNode && n.DataAtom == atom.Title }, 1)
		if len(t) == 0 {
			return d.str("")
		}
		return d.str(stripCollapse(textContent(t[0])))
	}, func(_ *xhtml.Node, v goja.Value) {
		t := descendants(d.root, func(n *xhtml.Node) bool { return n.Type == xhtml.ElementNode && n.DataAtom == atom.Title }, 1)
		var el *xhtml.Node
		if len(t) > 0 {
			el = t[0]
		} else if head := d.htmlChild("head"); head != nil {
			el = &xhtml.Node{Type: xhtml.ElementNode, Data: "title", DataAtom: atom.Title}
			head.AppendChild(el)
		} else {
			return
		}
		for el.FirstChild != nil {
			el.RemoveChild(el.FirstChild)
		}
		el.AppendChild(&xhtml.Node{Type: xhtml.TextNode, Data: v.String()})
	})
	d.method(dp, "getElementById", 1, func(c goja.FunctionCall) goja.Value {
		id := c.Argument(0).String()
		r := descendants(d.this(c), func(n *xhtml.Node) bool {
			v, ok := getAttr(n, "id")
			return n.Type == xhtml.ElementNode && ok && v == id
		}, 1)
		if len(r) == 0 {
			return goja.Null()
		}
		return d.wrap(r[0])
	})
	create := func(local, ns string) goja.Value {
		if !validAttrName(local) {
			d.throwDOM("InvalidCharacterError", "'"+local+"' is not a valid element name.")
		}
		el := &xhtml.Node{Type: xhtml.ElementNode, Data: local}
		if ns == nsHTML {
			el.DataAtom = atom.Lookup([]byte(local))
		} else if ns == nsSVG {
			el.Namespace = "svg"
		} else {
			el.Namespace = ns
		}
		return d.wrap(el)
	}
	d.method(dp, "createElement", 1, func(c goja.FunctionCall) goja.Value {
		d.this(c)
		return create(strings.ToLower(c.Argument(0).String()), nsHTML)
	})
	d.method(dp, "createElementNS", 2, func(c goja.FunctionCall) goja.Value {
		d.this(c)
		ns := ""
		if !goja.IsNull(c.Argument(0)) {
			ns = c.Argument(0).String()
		}
		q := c.Argument(1).String()
		if _, local, ok := strings.Cut(q, ":"); ok {
			q = local
		}
		return create(q, ns)
	})
	d.method(dp, "createTextNode", 1, func(c goja.FunctionCall) goja.Value {
		d.this(c)
		return d.wrap(&xhtml.Node{Type: xhtml.TextNode, Data: c.Argument(0).String()})
	})
	d.method(dp, "createComment", 1, func(c goja.FunctionCall) goja.Value {
		d.this(c)
		return d.wrap(&xhtml.Node{Type: xhtml.CommentNode, Data: c.Argument(0).String()})
	})
	d.method(dp, "hasFocus", 0, func(c goja.FunctionCall) goja.Value { return vm.ToValue(false) })
}

// insert is the DOM "pre-insert" restricted to what this tree models.
func (d *domDocument) insert(parent, node, ref *xhtml.Node) {
	// Only documents and elements have children here.
	if parent.Type != xhtml.ElementNode && parent.Type != xhtml.DocumentNode {
		d.throwDOM("HierarchyRequestError", "This node type does not support this method.")
	}
	// A node cannot be inserted into itself or its descendants, and a
	// document cannot be inserted anywhere.
	for p := parent; p != nil; p = p.Parent {
		if p == node {
			d.throwDOM("HierarchyRequestError", "The new child element contains the parent.")
		}
	}
	if node.Type == xhtml.DocumentNode || node.Type == xhtml.DoctypeNode && parent.Type != xhtml.DocumentNode {
		d.throwDOM("HierarchyRequestError", "Nodes of type '"+nodeName(node)+"' may not be inserted here.")
	}
	if parent.Type == xhtml.DocumentNode && node.Type == xhtml.TextNode {
		d.throwDOM("HierarchyRequestError", "Text nodes may not be inserted inside a document.")
	}
	if parent.Type == xhtml.DocumentNode && node.Type == xhtml.ElementNode && firstElementChild(parent) != nil {
		d.throwDOM("HierarchyRequestError", "Only one element on Document allowed.")
	}
	if ref != nil && ref.Parent != parent {
		d.throwDOM("NotFoundError", "The node before which the new node is to be inserted is not a child of this node.")
	}
	if ref == node {
		ref = node.NextSibling
	}
	if node.Parent != nil {
		d.removeNode(node)
	}
	parent.InsertBefore(node, ref)
	if d.frames != nil && d.connected(node) {
		for _, f := range iframesIn(node) {
			d.frames.frameConnected(f)
		}
	}
}

// removeNode detaches n from its parent; iframes that were connected are
// disconnected (their navigables are destroyed).
func (d *domDocument) removeNode(n *xhtml.Node) {
	wasConnected := d.frames != nil && d.connected(n)
	n.Parent.RemoveChild(n)
	if wasConnected {
		for _, f := range iframesIn(n) {
			d.frames.frameDisconnected(f)
		}
	}
}

// setAttribute sets an attribute; src and srcdoc changes of a connected
// iframe navigate it.
func (d *domDocument) setAttribute(n *xhtml.Node, key, val string) {
	setAttr(n, key, val)
	if d.frames != nil && (key == "src" || key == "srcdoc") && isIframe(n) && d.connected(n) {
		d.frames.frameAttributeChanged(n)
	}
}

// connected reports whether n is in the document's tree.
func (d *domDocument) connected(n *xhtml.Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p == d.root {
			return true
		}
	}
	return false
}

func isIframe(n *xhtml.Node) bool {
	return n.Type == xhtml.ElementNode && n.DataAtom == atom.Iframe && n.Namespace == ""
}

// iframesIn lists the iframe elements of n's subtree (n included), in tree order.
func iframesIn(n *xhtml.Node) []*xhtml.Node {
	var out []*xhtml.Node
	if isIframe(n) {
		out = append(out, n)
	}
	return append(out, descendants(n, isIframe, 0)...)
}

// baseURL is the document base URL: the first base element with an href,
// resolved against the document URL, else the document URL.
func (d *domDocument) baseURL() *url.URL {
	b := descendants(d.root, func(n *xhtml.Node) bool {
		_, ok := getAttr(n, "href")
		return n.Type == xhtml.ElementNode && n.DataAtom == atom.Base && n.Namespace == "" && ok
	}, 1)
	if len(b) > 0 {
		href, _ := getAttr(b[0], "href")
		if u, err := d.url.Parse(strings.TrimSpace(href)); err == nil {
			return u
		}
	}
	return d.url
}

// htmlChild returns the first child element of the html element with the
// given local name.
func (d *domDocument) htmlChild(local string) *xhtml.Node {
	root := firstElementChild(d.root)
	if root == nil || root.Data != "html" {
		return nil
	}
	for c := root.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.ElementNode && c.Data == local && c.Namespace == "" {
			return c
		}
	}
	return nil
}

// selector compiles the simple selectors this DOM supports: a comma list of
// compounds made of an optional tag name, #id, .class and [attr] / [attr=v]
// parts. Anything else is a SyntaxError, as an unsupported selector must not
// silently match nothing.
func (d *domDocument) selector(sel string) func(*xhtml.Node) bool {
	var alts []func(*xhtml.Node) bool
	for _, part := range strings.Split(sel, ",") {
		m, ok := compileCompound(strings.TrimSpace(part))
		if !ok {
			d.throwDOM("SyntaxError", "'"+sel+"' is not a selector this engine supports.")
		}
		alts = append(alts, m)
	}
	return func(n *xhtml.Node) bool {
		for _, m := range alts {
			if m(n) {
				return true
			}
		}
		return false
	}
}

func compileCompound(s string) (func(*xhtml.Node) bool, bool) {
	if s == "" {
		return nil, false
	}
	var tests []func(*xhtml.Node) bool
	ident := func(i int) int {
		for i < len(s) && (isNameChar(s[i])) {
			i++
		}
		return i
	}
	i := ident(0)
	if i > 0 {
		tag := strings.ToLower(s[:i])
		tests = append(tests, matchTag(tag))
	} else if strings.HasPrefix(s, "*") {
		i = 1
	}
	for i < len(s) {
		switch s[i] {
		case '#', '.':
			j := ident(i + 1)
			if j == i+1 {
				return nil, false
			}
			name := s[i+1 : j]
			if s[i] == '#' {
				tests = append(tests, func(n *xhtml.Node) bool { v, ok := getAttr(n, "id"); return ok && v == name })
			} else {
				tests = append(tests, matchClasses(name))
			}
			i = j
		case '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, false
			}
			body := s[i+1 : i+end]
			name, val, hasVal := strings.Cut(body, "=")
			name = strings.ToLower(strings.TrimSpace(name))
			val = strings.Trim(strings.TrimSpace(val), `"'`)
			if name == "" {
				return nil, false
			}
			tests = append(tests, func(n *xhtml.Node) bool {
				v, ok := getAttr(n, name)
				return ok && (!hasVal || v == val)
			})
			i += end + 1
		default:
			return nil, false
		}
	}
	return func(n *xhtml.Node) bool {
		if n.Type != xhtml.ElementNode {
			return false
		}
		for _, t := range tests {
			if !t(n) {
				return false
			}
		}
		return true
	}, true
}

func isNameChar(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func matchTag(tag string) func(*xhtml.Node) bool {
	lower := strings.ToLower(tag)
	return func(n *xhtml.Node) bool {
		if n.Type != xhtml.ElementNode {
			return false
		}
		if tag == "*" {
			return true
		}
		if n.Namespace == "" {
			return n.Data == lower
		}
		return n.Data == tag
	}
}

func matchClasses(list string) func(*xhtml.Node) bool {
	want := strings.Fields(list)
	return func(n *xhtml.Node) bool {
		if n.Type != xhtml.ElementNode || len(want) == 0 {
			return false
		}
		v, _ := getAttr(n, "class")
		have := strings.Fields(v)
		for _, w := range want {
			found := false
			for _, h := range have {
				if h == w {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
}

// descendants lists the descendants of n (not n) in tree order that match,
// stopping after limit matches when limit > 0.
func descendants(n *xhtml.Node, match func(*xhtml.Node) bool, limit int) []*xhtml.Node {
	var out []*xhtml.Node
	var walk func(*xhtml.Node) bool
	walk = func(p *xhtml.Node) bool {
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if match(c) {
				out = append(out, c)
				if limit > 0 && len(out) >= limit {
					return false
				}
			}
			if !walk(c) {
				return false
			}
		}
		return true
	}
	walk(n)
	return out
}

func firstElementChild(n *xhtml.Node) *xhtml.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.ElementNode {
			return c
		}
	}
	return nil
}

func textContent(n *xhtml.Node) string {
	var b strings.Builder
	var walk func(*xhtml.Node)
	walk = func(p *xhtml.Node) {
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == xhtml.TextNode {
				b.WriteString(c.Data)
			}
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// stripCollapse is "strip and collapse ASCII whitespace".
func stripCollapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
	}), " ")
}

func getAttr(n *xhtml.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func setAttr(n *xhtml.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, xhtml.Attribute{Key: key, Val: val})
}

func validAttrName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\f', '\r', '/', '>', '<', '"', '\'', '=', 0:
			return false
		}
	}
	return true
}

func nodeType(n *xhtml.Node) int {
	switch n.Type {
	case xhtml.ElementNode:
		return 1
	case xhtml.TextNode:
		return 3
	case xhtml.CommentNode:
		return 8
	case xhtml.DocumentNode:
		return 9
	case xhtml.DoctypeNode:
		return 10
	}
	return 0
}

func nodeName(n *xhtml.Node) string {
	switch n.Type {
	case xhtml.ElementNode:
		if n.Namespace == "" {
			return strings.ToUpper(n.Data)
		}
		return n.Data
	case xhtml.TextNode:
		return "#text"
	case xhtml.CommentNode:
		return "#comment"
	case xhtml.DocumentNode:
		return "#document"
	case xhtml.DoctypeNode:
		return n.Data
	}
	return ""
}

func namespaceOf(n *xhtml.Node) string {
	switch n.Namespace {
	case "":
		return nsHTML
	case "svg":
		return nsSVG
	case "math":
		return "http://www.w3.org/1998/Math/MathML"
	}
	return n.Namespace
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
