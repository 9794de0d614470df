package browser_test

import (
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

// TestInsertedScripts: scripts inserted by the DOM are prepared: an inline
// classic script runs during the insertion, an external classic script and
// a module script run later and fire load at their element, a 404 fires
// error, a nomodule classic script and a data block do not run, an empty
// script does not run, and moving a started script does not run it again.
func TestInsertedScripts(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>
window.log = [];
function add(attrs, text) {
  const s = document.createElement("script");
  for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
  if (text) s.textContent = text;
  const done = new Promise(resolve => { s.onload = () => resolve("load"); s.onerror = () => resolve("error"); });
  document.head.append(s);
  return [s, done];
}
const [inline] = add({}, "log.push('inline')");
log.push("after inline");
window.results = Promise.all([
  add({src: "ext.js"})[1],
  add({src: "none.js"})[1],
  add({type: "module", src: "mod.js"})[1],
]);
add({nomodule: ""}, "log.push('nomodule')");
add({type: "text/plain"}, "log.push('data')");
add({});
document.body.append(inline);
</script>`),
		"ext.js": js(`log.push("ext")`),
		"mod.js": js(`import {v} from "./lib.js"; log.push("mod " + v + " " + import.meta.url);`),
		"lib.js": js(`export const v = 1;`),
	}, browser.Config{})
	if got := eval(t, ctx, w, `results`); !reflect.DeepEqual(got, []any{"load", "error", "load"}) {
		t.Fatalf("events = %v", got)
	}
	got := eval(t, ctx, w, `log.slice().sort()`)
	want := []any{"after inline", "ext", "inline", "mod 1 https://example.test/mod.js"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("log = %v, want %v", got, want)
	}
	if got := eval(t, ctx, w, `log.slice(0, 2).join()`); got != "inline,after inline" {
		t.Fatalf("the inline script did not run during its insertion: %v", got)
	}
}
