package browser_test

import (
	"reflect"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

var jointSite = fstest.MapFS{
	"top.html":   {Data: []byte(`<iframe src="f.html?1"></iframe>`)},
	"f.html":     {Data: []byte(`<p>frame</p>`)},
	"other.html": {Data: []byte(`<p>other</p>`)},
}

// A frame's navigations are steps of the top-level traversable's session
// history: history.length counts them in both documents, and the page's
// history.back() traverses the frame; removing the frame drops its steps.
func TestJointSessionHistory(t *testing.T) {
	_, w, ctx := openPage(t, jointSite, browser.Config{}, "https://example.test/top.html", 60*time.Second)
	<-w.Loaded()
	step := func(script string) any {
		t.Helper()
		return eval(t, ctx, w, `new Promise(resolve => {
  const f = document.querySelector("iframe");
  f.addEventListener("load", () => setTimeout(() => resolve([history.length, f.contentWindow.history.length, f.contentWindow.location.search]), 0), {once: true});
  `+script+`;
})`)
	}
	if got := eval(t, ctx, w, `[history.length, document.querySelector("iframe").contentWindow.location.search]`); !reflect.DeepEqual(got, []any{int64(1), "?1"}) {
		t.Fatalf("at first: %v (the frame's first document replaces its initial entry)", got)
	}
	if got := step(`document.querySelector("iframe").contentWindow.location.href = "f.html?2"`); !reflect.DeepEqual(got, []any{int64(2), int64(2), "?2"}) {
		t.Fatalf("after the frame navigated: %v", got)
	}
	if got := step(`document.querySelector("iframe").contentWindow.location.href = "f.html?3"`); !reflect.DeepEqual(got, []any{int64(3), int64(3), "?3"}) {
		t.Fatalf("after the frame navigated again: %v", got)
	}
	if got := step(`history.go(-2)`); !reflect.DeepEqual(got, []any{int64(3), int64(3), "?1"}) {
		t.Fatalf("after the page went back two steps: %v", got)
	}
	if got := step(`document.querySelector("iframe").contentWindow.history.forward()`); !reflect.DeepEqual(got, []any{int64(3), int64(3), "?2"}) {
		t.Fatalf("after the frame went forward: %v", got)
	}
	// A push in the page drops the forward step of the frame.
	if got := eval(t, ctx, w, `history.pushState(null, "", "?pushed"); history.length`); got != int64(3) {
		t.Fatalf("after pushState: %v", got)
	}
	if got := eval(t, ctx, w, `document.querySelector("iframe").remove(); history.length`); got != int64(2) {
		t.Fatalf("after removing the frame: %v", got)
	}
}
