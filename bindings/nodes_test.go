package bindings

import (
	"github.com/gowebengine/weblocks/fileapi"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

func TestNodeInterfaces(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/dir/page.html")
	doc, err := dom.ParseDocument(strings.NewReader(`<!doctype html><title>T</title><base href="/b/"><div id=a class="x y"><span>one</span><p>two</p></div><iframe id=f src="sub.html" sandbox="allow-scripts"></iframe>`), "https://example.com/dir/page.html")
	if err != nil {
		t.Fatal(err)
	}
	var frameWin sobek.Value
	j.r.QueueTask(func(vm *sobek.Runtime) {
		j.r.SetDocument(doc)
		frameWin = vm.NewObject()
		_ = frameWin.(*sobek.Object).Set("marker", "frame window")
		j.r.SetDOMHooks(DOMHooks{ContentWindow: func(el *dom.Node) sobek.Value {
			if el.LocalName() == "iframe" {
				return frameWin
			}
			return nil
		}})
		_ = vm.Set("frameWin", frameWin)
	})
	w.settle()
	j.exec(prelude + `
		log(typeof Node, document instanceof Document, document instanceof Node, document instanceof EventTarget);
		log(document.title, document.compatMode, document.readyState, document.URL, document.defaultView === window);
		const a = document.getElementById("a");
		log(a instanceof HTMLDivElement, a instanceof HTMLElement, a.tagName, a.id, a.className, a === document.getElementById("a"));
		log(a.textContent, a.childNodes.length, a.children.length, a.firstElementChild.localName, a.lastElementChild.tagName);
		log(document.querySelector("div.y > p").textContent, document.querySelectorAll("span, p").length, [...document.querySelectorAll("*")].length > 5);
		try { document.querySelector("[[") } catch (e) { log("qs", e instanceof DOMException, e.name) }
		const el = document.createElement("SPAN");
		log(el instanceof HTMLSpanElement, el.localName, el.isConnected, el.ownerDocument === document);
		el.textContent = "three";
		el.setAttribute("data-k", "v");
		log(el.getAttribute("data-k"), el.getAttribute("nope"), el.hasAttribute("DATA-K"), el.getAttributeNames().join());
		document.body.appendChild(el);
		log(el.isConnected, el.parentNode === document.body, document.body.lastChild === el);
		try { el.appendChild(document.body) } catch (e) { log("cycle", e.name) }
		try { document.body.removeChild(document.head) } catch (e) { log("removeChild", e.name) }
		try { document.createElement("a b") } catch (e) { log("createElement", e.name) }
		el.remove();
		log(el.isConnected, el.parentNode);
		const f = document.getElementById("f");
		log(f instanceof HTMLIFrameElement, f.src, f.sandbox.contains("allow-scripts"), f.sandbox === f.sandbox, f.contentWindow === frameWin, f.contentWindow.marker, f.contentDocument);
		f.sandbox = "allow-same-origin";
		log(f.getAttribute("sandbox"), f.sandbox.length, String(f.sandbox));
		const s = document.createElement("script");
		s.src = "x.js"; s.async = true;
		log(s instanceof HTMLScriptElement, s.src, s.async, s.outerHTML);
		const t = new Text("t"); const c = document.createComment("c");
		log(t.nodeType, t.nodeName, t.data, t.length, c.nodeType, c.nodeValue, document.nodeType, document.doctype.name);
		a.append("x", t, c);
		log(a.innerHTML);
		a.innerHTML = "<b>bold</b>";
		log(a.firstChild instanceof HTMLElement, a.firstChild.tagName, a.textContent);
		const frag = new DocumentFragment(); frag.append(document.createElement("i"), "z");
		a.prepend(frag);
		log(a.innerHTML, frag.childNodes.length, a.matches("#a"), a.firstChild.closest("div") === a);
		log(Object.prototype.toString.call(document.childNodes), Object.prototype.toString.call(document.body.children));
		log([...a.childNodes].map(n => n.nodeName).join());
		let clicked = 0; a.addEventListener("click", e => clicked++); a.onclick = null; a.click(); log("clicked", clicked);
		log(document.getElementsByTagName("B").length, document.getElementsByClassName("x").item(0) === a);
		log(document.head.baseURI, document.body.firstChild.nodeName);
		log(document.domain, document.currentScript);
		document.domain = "example.com";
		try { document.domain = "other.test"; } catch (e) { log("domain", e.name); }
	`)
	want := []string{
		"function true true true",
		"T CSS1Compat loading https://example.com/dir/page.html true",
		"true true DIV a x y true",
		"onetwo 2 2 span P",
		"two 2 true",
		"qs true SyntaxError",
		"true span false true",
		"v null true data-k",
		"true true true",
		"cycle HierarchyRequestError",
		"removeChild NotFoundError",
		"createElement InvalidCharacterError",
		"false null",
		"true https://example.com/b/sub.html true true true frame window null",
		"allow-same-origin 1 allow-same-origin",
		`true https://example.com/b/x.js true <script src="x.js" async=""></script>`,
		"3 #text t 1 8 c 9 html",
		"<span>one</span><p>two</p>xt<!--c-->",
		"true B bold",
		"<i></i>z<b>bold</b> 0 true true",
		"[object NodeList] [object HTMLCollection]",
		"I,#text,B",
		"clicked 1",
		"1 true",
		"https://example.com/b/ DIV",
		"example.com null",
		"domain SecurityError",
	}
	got := j.takeLog()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A window realm without an embedder document still has a usable DOM.
func TestDefaultDocument(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/")
	if got := j.eval(`document.body.appendChild(document.createElement("div")); document.documentElement.outerHTML`); got != "<html><head></head><body><div></div></body></html>" {
		t.Errorf("got %q", got)
	}
	if got := j.eval(`typeof Node + " " + (document instanceof Document) + " " + document.readyState`); got != "function true complete" {
		t.Errorf("got %q", got)
	}
	j.r.QueueTask(func(vm *sobek.Runtime) {
		d := j.r.Document()
		s, _ := d.CreateElement("script")
		_, _ = d.Body().AppendChild(s)
		d.CurrentScript = s
	})
	if got := j.eval(`document.currentScript instanceof HTMLScriptElement && document.currentScript === document.body.lastChild`); got != "true" {
		t.Errorf("currentScript: %s", got)
	}
}

// HTMLMetaElement reflects its content attributes; testharness.js finds a
// page's <meta name=timeout content=long> through them, and without them
// every timeout=long test in a window ran with the normal 10 s timeout.
func TestMetaElement(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/page.html")
	doc, err := dom.ParseDocument(strings.NewReader(`<!doctype html><meta charset=utf-8><meta name="timeout" content="long"><meta http-equiv="refresh" content="5" media="print">`), "https://example.com/page.html")
	if err != nil {
		t.Fatal(err)
	}
	j.r.QueueTask(func(vm *sobek.Runtime) { j.r.SetDocument(doc) })
	w.settle()
	got := j.eval(`(() => {
		const m = document.getElementsByTagName("meta");
		const out = [m.length, m[0] instanceof HTMLMetaElement, m[0] instanceof HTMLElement, JSON.stringify(m[0].name), m[1].name, m[1].content, m[2].httpEquiv, m[2].content, m[2].media];
		const e = document.createElement("meta");
		e.name = "n"; e.httpEquiv = "x-h"; e.content = "c"; e.media = "screen";
		out.push(e.getAttributeNames().map(n => n + "=" + e.getAttribute(n)).join(), Object.prototype.toString.call(e), "content" in HTMLElement.prototype);
		return out.join(" ");
	})()`)
	want := `3 true true "" timeout long refresh 5 print name=n,http-equiv=x-h,content=c,media=screen [object HTMLMetaElement] false`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// Element.classList is a DOMTokenList over the class attribute: the same
// object each time, live, and assignable (PutForwards=value).
func TestElementClassList(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/page.html")
	doc, err := dom.ParseDocument(strings.NewReader(`<!doctype html><html class="test-wait a"><div id=d></div></html>`), "https://example.com/page.html")
	if err != nil {
		t.Fatal(err)
	}
	j.r.QueueTask(func(vm *sobek.Runtime) { j.r.SetDocument(doc) })
	w.settle()
	j.exec(prelude + `
		const root = document.documentElement;
		log(root.classList === root.classList, root.classList.length, root.classList.contains("test-wait"));
		root.classList.remove("test-wait");
		log(root.className, root.classList.length);
		root.classList.add("b", "c");
		log(root.getAttribute("class"), root.classList.toggle("a"), root.className);
		root.classList = "x y";
		log(root.className, [...root.classList].join("|"), root.classList instanceof DOMTokenList);
	`)
	w.settle()
	expectLog(t, j,
		"true 2 true",
		"a 1",
		"a b c false b c",
		"x y x|y true",
	)
}

// URL.createObjectURL adds the blob to the user agent's blob URL store
// (package fileapi) under a blob URL of the realm's origin;
// revokeObjectURL removes it.
func TestCreateObjectURL(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/page.html")
	j.exec(prelude + `
		const u = URL.createObjectURL(new Blob(["hello"], {type: "text/plain"}));
		log(/^blob:https:\/\/example\.com\/[0-9a-f-]{36}$/.test(u), typeof URL.revokeObjectURL);
		try { URL.createObjectURL("nope"); } catch (e) { log("create", e.name); }
		globalThis.blobURL = u;
	`)
	w.settle()
	var u string
	j.r.QueueTask(func(vm *sobek.Runtime) { u = vm.Get("blobURL").String() })
	w.settle()
	store := fileapi.StoreOf(j.r.env.UserAgent())
	if e := store.Resolve(u); e == nil || string(e.Object.Data) != "hello" || e.Object.Type != "text/plain" {
		t.Fatalf("store entry for %s: %+v", u, e)
	}
	j.exec(`URL.revokeObjectURL("blob:https://other.test/x"); URL.revokeObjectURL("https://example.com/"); URL.revokeObjectURL(blobURL);`)
	w.settle()
	if store.Resolve(u) != nil {
		t.Fatal("revoked blob URL still resolves")
	}
	expectLog(t, j, "true function", "create TypeError")
}
