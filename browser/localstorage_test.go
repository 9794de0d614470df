package browser_test

import (
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

// TestLocalStorage: window.localStorage is one Storage object per window,
// its map is shared by the windows of an origin and outlives a window
// (a reloaded page counts its loads, as the bfcache executor does), keys
// keep insertion order, and values are strings.
func TestLocalStorage(t *testing.T) {
	b, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>
window.loads = parseInt(localStorage.getItem("loads") || "0") + 1;
localStorage.setItem("loads", loads);
</script>`),
	}, browser.Config{})
	got := eval(t, ctx, w, `localStorage.setItem("b", 2); localStorage.setItem("a", {toString() { return "x" }});
localStorage.setItem("b", "3");
[localStorage === window.localStorage, localStorage.length, localStorage.key(0), localStorage.key(1), localStorage.key(2),
 localStorage.key(3), localStorage.getItem("b"), localStorage.getItem("a"), localStorage.getItem("none"), String(localStorage)]`)
	want := []any{true, int64(3), "loads", "b", "a", nil, "3", "x", nil, "[object Storage]"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
	w2, err := b.Open(ctx, "https://example.test/")
	if err != nil {
		t.Fatal(err)
	}
	if got := eval(t, ctx, w2, `[loads, localStorage.getItem("a")]`); !reflect.DeepEqual(got, []any{int64(2), "x"}) {
		t.Fatalf("second window: %v", got)
	}
	eval(t, ctx, w2, `localStorage.removeItem("loads"); 0`)
	if got := eval(t, ctx, w, `[localStorage.length, localStorage.key(0), localStorage.key(1)]`); !reflect.DeepEqual(got, []any{int64(2), "b", "a"}) {
		t.Fatalf("after removeItem in the other window: %v", got)
	}
	eval(t, ctx, w, `localStorage.clear(); 0`)
	if got := eval(t, ctx, w2, `[localStorage.length, localStorage.getItem("b")]`); !reflect.DeepEqual(got, []any{int64(0), nil}) {
		t.Fatalf("after clear: %v", got)
	}
}
