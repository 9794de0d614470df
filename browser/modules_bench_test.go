package browser_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// BenchmarkPageScripts loads a page whose code is 20 small scripts, as
// classic scripts (src) and as a module graph (a module importing 20
// modules), side by side: what module loading (fetch, parse, link,
// evaluate per realm; no compiled-program cache) costs against classic
// scripts (compiled once, ScriptCache).
func BenchmarkPageScripts(b *testing.B) {
	const n = 20
	fsys := fstest.MapFS{}
	var classic, imports strings.Builder
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("function f%d(x) { let s = 0; for (let i = 0; i < x; i++) s += i; return s; }\n", i)
		fsys[fmt.Sprintf("c%d.js", i)] = &fstest.MapFile{Data: []byte(body + fmt.Sprintf("window.r%d = f%d(10);", i, i))}
		fsys[fmt.Sprintf("m%d.js", i)] = &fstest.MapFile{Data: []byte(body + fmt.Sprintf("export const r%d = f%d(10);", i, i))}
		fmt.Fprintf(&classic, "<script src=c%d.js></script>", i)
		fmt.Fprintf(&imports, "import './m%d.js';\n", i)
	}
	fsys["main.js"] = &fstest.MapFile{Data: []byte(imports.String())}
	pages := map[string]string{
		"classic": classic.String(),
		"module":  `<script type=module src=main.js></script>`,
	}
	// The check that both pages run their code.
	check := map[string]string{
		"classic": fmt.Sprintf("r%d", n-1),
		"module":  fmt.Sprintf("import('./m%d.js').then(m => m.r%d)", n-1, n-1),
	}
	for _, kind := range []string{"classic", "module"} {
		b.Run(kind, func(b *testing.B) {
			br := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: fsys}})
			defer br.Close()
			u, _ := url.Parse("https://example.test/")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			first := true
			for b.Loop() {
				w, err := br.StartHTML(u, pages[kind])
				if err != nil {
					b.Fatal(err)
				}
				select {
				case <-w.Loaded():
				case <-ctx.Done():
					b.Fatal("load did not fire")
				}
				if first {
					first = false
					if v, err := w.Evaluate(ctx, check[kind]); err != nil || v != int64(45) {
						b.Fatalf("%s page: %v %v", kind, v, err)
					}
				}
				w.Close()
			}
		})
	}
}
