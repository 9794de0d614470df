package greeter

import (
	"context"
	"fmt"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/browser"
)

// Example_browser installs the Greeter interface into every window of a
// browser.Browser: the generated Register adds the definitions, with the
// implementation of their static members (here the constructor), to a
// registry once; Config.InitWindow installs that registry into each
// window's realm before the window's scripts run. (Install, in
// greeter.go, does both for one realm.)
func Example_browser() {
	reg := webidl.NewRegistry() // or the generated package variable Interfaces
	if err := Register(reg, Statics{Greeter: statics{}}); err != nil {
		fmt.Println(err) // a missing Statics implementation, or a name registered twice
		return
	}
	site := fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><script>
		const g = new Greeter("Ada");
		g.addEventListener("greet", e => console.log("greet event: " + e.detail));
		window.said = g.greet({loud: true});
	</script>`)}}
	b := browser.New(browser.Config{
		Fetcher: browser.FSFetcher{FS: site},
		InitWindow: func(w *browser.Window) {
			// On the window's event loop, before any of its scripts.
			if err := w.Realm().IDL().Install(reg); err != nil {
				fmt.Println("install:", err)
			}
		},
		Console: func(line string) { fmt.Println(line) },
	})
	defer b.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// https: Greeter is [SecureContext].
	w, err := b.Open(ctx, "https://example.test/")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w.Evaluate(ctx, `[said, Object.getPrototypeOf(Greeter) === EventTarget]`))
	// Output:
	// log: greet event: HELLO, ADA!
	// [HELLO, ADA! true] <nil>
}
