package bindings

import (
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

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

// documentImpl implements Document.
type documentImpl struct {
	*nodeImpl
	window *windowImpl // nil for documents without a browsing context
}

func (r *Realm) newWindowDocument(w *windowImpl, u *url.URL) *documentImpl {
	s := "about:blank"
	if u != nil {
		s = u.String()
	}
	doc := dom.NewHTMLDocument(s)
	d := r.nodeImpl(&doc.Node).(DocumentMethods).idlImpl()
	d.window = w
	return d
}

func (d *documentImpl) doc() *dom.Document {
	doc, _ := d.n.AsDocument()
	return doc
}

func (d *documentImpl) URL() (string, error) { return d.doc().URL, nil }

func (d *documentImpl) DocumentURI() (string, error) { return d.doc().URL, nil }

func (d *documentImpl) CompatMode() (webidl.DOMString, error) {
	return webidl.DOMString(d.doc().CompatMode()), nil
}

func (d *documentImpl) CharacterSet() (webidl.DOMString, error) { return "UTF-8", nil }

func (d *documentImpl) Charset() (webidl.DOMString, error) { return "UTF-8", nil }

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

func (d *documentImpl) Hidden() (bool, error) { return d.visibilityState() == "hidden", nil }

func (d *documentImpl) HasFocus() (bool, error) { return false, nil }

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

type documentStatics struct{}

// currentDocument is the document of the realm's window (a new empty one
// for workers, which have no node constructors exposed).
func (r *Realm) currentDocument() *dom.Document {
	if d := r.Document(); d != nil {
		return d
	}
	return dom.NewDocument("about:blank")
}

func (documentStatics) Constructor(r *webidl.Realm) (DocumentMethods, error) {
	rr := realmOf(r)
	d := dom.NewDocument(rr.currentDocument().URL)
	d.ContentType = "application/xml"
	return rr.nodeImpl(&d.Node).(DocumentMethods), nil
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

// visibilityState is the document's visibility state: "hidden" once the
// embedder hid its window (SetVisibilityState), else "visible".
func (d *documentImpl) visibilityState() webidl.DOMString {
	if d.window != nil && d.window.hidden {
		return "hidden"
	}
	return "visible"
}

// SetVisibilityState is steps 1-2 of HTML's "update the visibility state"
// (https://html.spec.whatwg.org/#update-the-visibility-state) for the
// window's document: it reports false when the state already is the one
// asked for; otherwise it sets it and the caller fires visibilitychange
// (bubbling) at the document (step 6). Call it in a task of this realm;
// workers ignore it.
func (r *Realm) SetVisibilityState(hidden bool) bool {
	w, ok := r.globalImpl.(*windowImpl)
	// 1. If document's visibility state equals visibilityState, then
	//    return.
	if !ok || w.hidden == hidden {
		return false
	}
	// 2. Set document's visibility state to visibilityState.
	w.hidden = hidden
	return true
}

// documentImpl implements Document.
var _ DocumentMethods = (*documentImpl)(nil)

func (d *documentImpl) Onloadeddata() (*EventHandlerNonNull, error) {
	return d.handlerGet("loadeddata"), nil
}

func (d *documentImpl) SetOnloadeddata(v *EventHandlerNonNull) error {
	d.handlerSet("loadeddata", v)
	return nil
}

func (d *documentImpl) Onloadedmetadata() (*EventHandlerNonNull, error) {
	return d.handlerGet("loadedmetadata"), nil
}

func (d *documentImpl) SetOnloadedmetadata(v *EventHandlerNonNull) error {
	d.handlerSet("loadedmetadata", v)
	return nil
}
