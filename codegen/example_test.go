package codegen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gowebengine/weblocks/codegen"
)

// ExampleRun generates the Go bindings of an integrator's own Web IDL, out
// of the engine's tree: the IDL may use the engine's definitions
// (WithBindings: EventTarget, AbortSignal, its typedefs), and the generated
// package imports package bindings for them. The same is
//
//	go run github.com/gowebengine/weblocks/tools/bindgen -in idl -out . -pkg clock
//
// usually from a go:generate line. The package then implements the
// generated ClockMethods (and ClockStatics for the constructor), registers
// them with the generated Register and installs the registry into each
// window (see codegen/testdata/greeter, whose Example_browser does so in
// a browser.Browser).
func ExampleRun() {
	in, err := os.MkdirTemp("", "idl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(in)
	out := filepath.Join(in, "clock")
	idl := `[Exposed=Window, SecureContext]
interface Clock : EventTarget {
  constructor();
  readonly attribute DOMHighResTimeStamp now;
  undefined tick(optional AbortSignal signal);
};
`
	if err := os.WriteFile(filepath.Join(in, "clock.idl"), []byte(idl), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	err = codegen.Run(codegen.Config{In: in, Out: out, Package: "clock", WithBindings: true})
	fmt.Println("error:", err)
	files, _ := filepath.Glob(filepath.Join(out, "*.go"))
	for _, f := range files {
		src, _ := os.ReadFile(f)
		fmt.Println(filepath.Base(f), strings.Contains(string(src), "type ClockMethods interface"))
	}

	// A mistake is reported with its position, the rule and the source line.
	bad := `[Exposed=Window] interface Broken { attribute Missing m; };` + "\n"
	if err := os.WriteFile(filepath.Join(in, "clock.idl"), []byte(bad), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	err = codegen.Run(codegen.Config{In: in, Out: out, Package: "clock", WithBindings: true})
	fmt.Println(strings.ReplaceAll(err.Error(), in, "IN"))
	// Output:
	// error: <nil>
	// bindings_gen.go false
	// clock_gen.go true
	// IN/clock.idl:1:47: undefined-type: "Missing" is not defined (expected a type)
}
