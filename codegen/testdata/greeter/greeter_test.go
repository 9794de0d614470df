package greeter

import (
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// newWindow opens a window at rawURL with a realm that has the Greeter
// bindings installed.
func newWindow(t *testing.T, rawURL string) *bindings.Realm {
	t.Helper()
	ua := html.NewUserAgent()
	t.Cleanup(ua.Close)
	doc, err := ua.OpenWindowURL(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	r, err := bindings.NewWindowRealm(doc.EnvironmentSettingsObject(), bindings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	r.QueueTask(func(*sobek.Runtime) { done <- Install(r) })
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return r
}

// eval runs a script that calls report(string) once, and returns that.
func eval(t *testing.T, r *bindings.Realm, src string) string {
	t.Helper()
	out := make(chan string, 1)
	r.DefineGlobalFunction("report", 1, func(call sobek.FunctionCall) sobek.Value {
		out <- call.Argument(0).String()
		return sobek.Undefined()
	})
	if err := r.RunScript("test.js", src); err != nil {
		t.Fatal(err)
	}
	return <-out
}

func TestGreeterInSecureWindow(t *testing.T) {
	r := newWindow(t, "https://example.com/")
	got := eval(t, r, `
		const log = [];
		const g = new Greeter("Ada");
		log.push(g instanceof EventTarget, Object.getPrototypeOf(Greeter) === EventTarget, g.name, g.greeting, g.since);
		g.greeting = "Hi";
		g.addEventListener("greet", e => log.push("event " + e.detail + " " + (e.target === g) + " " + (this === undefined || true)));
		log.push(g.greet(), g.greet({loud: true}));
		const c = new AbortController();
		c.abort(new Error("stop"));
		try { g.greet({signal: c.signal}); } catch (e) { log.push("aborted " + e.message); }
		g.addEventListener("greet", e => e.preventDefault());
		try { g.greet(); } catch (e) { log.push(e.name); }
		log.push(g.kindOf("x"), g.kindOf(() => 1));
		try { Greeter("x"); } catch (e) { log.push(e.name); }
		try { new Greeter(); } catch (e) { log.push(e.name); }
		try { Object.getOwnPropertyDescriptor(Greeter.prototype, "name").get.call(new EventTarget()); } catch (e) { log.push(e.name); }
		report(log.join("|"));
	`)
	want := strings.Join([]string{
		"true", "true", "Ada", "Hello", "42",
		"event Hi, Ada! true true", "event HI, ADA! true true", "Hi, Ada!", "HI, ADA!",
		"aborted stop",
		"event Hi, Ada! true true", "TypeError",
		"string x", "function",
		"TypeError", "TypeError", "TypeError",
	}, "|")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// [SecureContext]: no Greeter in a non-secure window; the engine's own
// interfaces are still there.
func TestGreeterAbsentInNonSecureWindow(t *testing.T) {
	r := newWindow(t, "http://example.com/")
	got := eval(t, r, `report([typeof Greeter, "Greeter" in self, typeof EventTarget, isSecureContext].join(" "))`)
	if got != "undefined false function false" {
		t.Errorf("got %q", got)
	}
}
