package webidl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/internal/testenv"
	"github.com/grafana/sobek"
)

// BenchmarkWebIDL2Parse times upstream WPT's WebIDLParser.js (webidl2.js,
// from the npm package wpt-runner) parsing @webref/idl's dom.idl in a
// runtime made by NewRuntime, as idlharness.js parses every IDL file it
// fetches. The input is dom.idl once and twice over (a ratio near 2 is
// linear, near 4 quadratic), as a string of ASCII only and as one with a
// single non-ASCII character (sobek then holds it as UTF-16).
//
// webidl2.js's tokenizer tries its sticky regular expressions (decimal,
// integer, identifier, ...) at every token; in sobek each failing exec of
// a sticky regexp that Go's regexp cannot run costs time proportional to
// the whole input (see doc.go, "Regular expressions"), so the parse is
// quadratic in the input's length: html.idl (99 kB) takes tens of seconds.
func BenchmarkWebIDL2Parse(b *testing.B) {
	harness := filepath.Join(testenv.NPMPackage(b, "wpt-runner"), "testharness")
	lib, err := os.ReadFile(filepath.Join(harness, "webidl2", "lib", "webidl2.js"))
	if err != nil {
		b.Fatal(err)
	}
	dom, err := os.ReadFile(filepath.Join(testenv.NPMPackage(b, "@webref/idl"), "dom.idl"))
	if err != nil {
		b.Fatal(err)
	}
	prg, err := Compile("WebIDLParser.js", string(lib), false)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 2} {
		for _, enc := range []string{"ascii", "utf16"} {
			src := strings.Repeat(string(dom)+"\n", n)
			if enc == "utf16" {
				src += "// \u00e9\n"
			}
			b.Run(fmt.Sprintf("dom.idl×%d/%s", n, enc), func(b *testing.B) {
				vm := NewRuntime()
				if err := vm.Set("self", vm.GlobalObject()); err != nil {
					b.Fatal(err)
				}
				if _, err := vm.RunProgram(prg); err != nil {
					b.Fatal(err)
				}
				parse, ok := sobek.AssertFunction(vm.Get("WebIDL2").ToObject(vm).Get("parse"))
				if !ok {
					b.Fatal("WebIDL2.parse is not a function")
				}
				arg := vm.ToValue(src)
				b.SetBytes(int64(len(src)))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					v, err := parse(sobek.Undefined(), arg)
					if err != nil {
						b.Fatal(err)
					}
					if l := v.ToObject(vm).Get("length").ToInteger(); l < int64(n*70) {
						b.Fatalf("parsed %d definitions", l)
					}
				}
			})
		}
	}
}
