package browser

import (
	"net/url"
	"strings"
	"testing"

	"github.com/dop251/goja"
	xhtml "golang.org/x/net/html"
)

func newTestDocument(t *testing.T, page string) (*goja.Runtime, *domDocument) {
	t.Helper()
	root, err := xhtml.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	vm := goja.New()
	u, _ := url.Parse("https://web-platform.test:8443/dir/page.html?q#f")
	d := newDOMDocument(vm, root, u, vm.GlobalObject(), nil, nil, nil)
	vm.Set("document", d.Object())
	return vm, d
}

func TestDocumentReads(t *testing.T) {
	vm, _ := newTestDocument(t, `<!doctype html><title> A   title </title><base href="/base/">
<meta name=timeout content=long><script src="x.js"></script><div id=log class="a b"></div><p>t<b>x</b></p>`)
	checks := []string{
		`document.title === "A title"`,
		`document.readyState === "loading"`,
		`document.compatMode === "CSS1Compat"`,
		`document.getElementById("log").className === "a b"`,
		`document.getElementById("nope") === null`,
		`document.getElementById("log") === document.getElementById("log")`,
		`document.getElementsByTagName("meta")[0].name === "timeout" && document.getElementsByTagName("meta")[0].content === "long"`,
		`document.getElementsByTagName("script")[0].src === "https://web-platform.test:8443/base/x.js"`,
		`document.getElementsByTagName("title")[0].firstChild.data === " A   title "`,
		`document.body.nodeName === "BODY" && document.head.localName === "head"`,
		`document.documentElement.namespaceURI === "http://www.w3.org/1999/xhtml"`,
		`document.querySelector("p").textContent === "tx"`,
		`document.querySelectorAll("div.a.b, p").length === 2`,
		`document.querySelector("#log.a[class='a b']") !== null`,
		`document.getElementsByClassName("b")[0].id === "log"`,
		`document.body.parentNode === document.documentElement && document.documentElement.parentNode === document`,
		`document.URL === "https://web-platform.test:8443/dir/page.html?q#f"`,
		`document.defaultView === globalThis`,
	}
	expectTrue(t, vm, checks)
}

func TestDocumentMutation(t *testing.T) {
	vm, _ := newTestDocument(t, `<!doctype html><body><div id=a></div></body>`)
	checks := []string{
		`var e = document.createElementNS("http://www.w3.org/1999/xhtml", "section"); e.id = "s";
		 document.body.appendChild(e); document.getElementById("s") === e && e.parentNode === document.body`,
		`e.appendChild(document.createTextNode("hi")); e.textContent === "hi"`,
		`e.textContent = "new"; e.childNodes.length === 1 && e.firstChild.data === "new"`,
		`document.getElementById("a").appendChild(e); e.parentNode.id === "a" && document.body.lastChild.id === "a"`,
		`e.removeChild(e.firstChild); e.firstChild === null`,
		`try { e.appendChild(document.body); false } catch (x) { /HierarchyRequestError/.test(String(x)) }`,
		`try { e.removeChild(document.body); false } catch (x) { /NotFoundError/.test(String(x)) }`,
		`try { document.body.appendChild({}); false } catch (x) { x instanceof TypeError }`,
		`try { document.createElement("a b"); false } catch (x) { /InvalidCharacterError/.test(String(x)) }`,
		`document.title = "T"; document.title === "T" && document.head.firstChild.localName === "title"`,
		`e.innerHTML = "<i>x</i>y"; e.firstChild.tagName === "I" && e.textContent === "xy" && e.innerHTML === "<i>x</i>y"`,
		`try { Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Object.getPrototypeOf(e)), "firstChild").get.call({}); false } catch (x) { x instanceof TypeError }`,
		`e.setAttribute("Data-X", "1"); e.getAttribute("data-x") === "1" && e.hasAttribute("DATA-X")`,
		`e.removeAttribute("data-x"); e.getAttribute("data-x") === null`,
		`try { document.querySelector("div > p"); false } catch (x) { /SyntaxError/.test(String(x)) }`,
	}
	expectTrue(t, vm, checks)
}

// expectTrue evaluates each check in vm and requires it to be truthy.
func expectTrue(t *testing.T, vm *goja.Runtime, checks []string) {
	t.Helper()
	for _, c := range checks {
		v, err := vm.RunString(c)
		if err != nil {
			t.Errorf("%s: %v", c, err)
		} else if !v.ToBoolean() {
			t.Errorf("false: %s", c)
		}
	}
}
