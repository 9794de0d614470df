package browser_test

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// A popup with an opener (the opener's agent) pushes a fragment entry,
// then navigates to another document: its old window is unloaded, but the
// fragment entry still named it. Closing the popup then closed that
// window's realm a second time off the agent's event loop (its realm was
// closed, so no task could be queued for it), taking it out of the
// agent's membrane while the opener's script crossed the membrane on the
// loop: "concurrent map read and map write" once in ~30 runs of the
// bundled web-locks/fragment-navigation; -race reports it every time.
func TestClosePopupAfterFragmentAndNavigationRace(t *testing.T) {
	site := fstest.MapFS{
		"opener.html": {Data: []byte(`<iframe src="frame.html"></iframe><script>
var f = () => frames[0].poke();
</script>`)},
		"frame.html": {Data: []byte(`<script>var n = 0; function poke() { return Promise.resolve(++n); }</script>`)},
		"popup.html": {Data: []byte(`<script>var popup = true;</script>`)},
		"next.html":  {Data: []byte(`<script>addEventListener("load", () => opener.onNext(window));</script>`)},
	}
	_, w, ctx := openPage(t, site, browser.Config{}, "https://example.test/opener.html", 60*time.Second)
	<-w.Loaded()
	for i := 0; i < 3; i++ {
		got := eval(t, ctx, w, `new Promise(resolve => {
  const p = window.open("popup.html");
  p.addEventListener("load", () => {
    window.onNext = next => setTimeout(() => {
      // The opener's script crosses into its frame (the agent's
      // membrane) while the popup's windows are closed.
      next.close();
      let k = 0;
      const spin = () => f().then(() => ++k < 300 ? spin() : resolve(next.closed));
      spin();
    });
    // After the load event's task: the document has completely loaded,
    // so both navigations push an entry.
    setTimeout(() => {
      p.location.hash = "x";
      p.location.href = "next.html";
    });
  }, {once: true});
})`)
		if got != true {
			t.Fatalf("round %d: popup.closed = %v", i, got)
		}
	}
}
