package webidl

import (
	"testing"

	"github.com/grafana/sobek"
)

// TestSobekLimits pins the limits of sobek listed in the package doc
// ("Other limits of sobek that pages can see"). It fails when sobek stops
// having one of them: then drop the deviation from the doc and this test.
func TestSobekLimits(t *testing.T) {
	vm := sobek.New()
	for _, c := range []struct{ name, src, want string }{
		{
			// testharness.js's sanitize_unpaired_surrogates pattern: a
			// valid pair must come out unchanged ("<pair>" below).
			"surrogate classes in regular expressions",
			`var re = /([\ud800-\udbff]+)(?![\udc00-\udfff])|(^|[^\ud800-\udbff])([\udc00-\udfff]+)/g;
			 ("\uD834\uDF06".replace(re, "<lone>") === "\uD834\uDF06") ? "pair" : "lone"`,
			"lone", // browsers: "pair"
		},
		{"Float16Array", `typeof Float16Array`, "undefined"}, // browsers: "function"
		// Annex B's legacy accessor methods.
		{"__defineGetter__", `typeof Object.prototype.__defineGetter__`, "undefined"}, // browsers: "function"
	} {
		v, err := vm.RunString(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := v.String(); got != c.want {
			t.Errorf("%s: sobek now gives %q, not %q: update bindings/webidl/doc.go and this test", c.name, got, c.want)
		}
	}
	// Import attributes do not parse (a SyntaxError at "with").
	if _, err := sobek.ParseModule("m.js", `import data from "./data.json" with { type: "json" }; export default data;`, nil); err == nil {
		t.Errorf("import attributes: sobek now parses them: update bindings/webidl/doc.go, browser's module loading and this test")
	}
}
