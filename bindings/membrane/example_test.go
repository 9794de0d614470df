package membrane_test

import (
	"fmt"

	"github.com/gowebengine/weblocks/bindings/membrane"
	"github.com/grafana/sobek"
)

// Two runtimes of one agent: the parent reaches the frame's objects
// synchronously; functions, exceptions and promises cross.
func Example() {
	parent, frame := sobek.New(), sobek.New()
	m := membrane.New()
	for _, vm := range []*sobek.Runtime{parent, frame} {
		if err := m.Add(vm); err != nil {
			panic(err)
		}
	}
	if _, err := frame.RunString(`
		var counter = { n: 0, bump() { return ++this.n; } };
		function later(v) { return Promise.resolve(v * 2); }
	`); err != nil {
		panic(err)
	}
	_ = parent.Set("frameWindow", m.Wrap(frame, parent, frame.GlobalObject()))
	_ = parent.Set("print", func(s string) { fmt.Println(s) })
	if _, err := parent.RunString(`
		const c = frameWindow.counter;
		c.bump(); c.bump();
		print("n = " + c.n + ", same object: " + (c === frameWindow.counter));
		const p = frameWindow.later(21);
		print("frame's promise: " + (p instanceof frameWindow.Promise) + ", parent's: " + (p instanceof Promise));
		p.then(v => print("resolved " + v));
		try { new frameWindow.Array(-1); } catch (e) {
			print("frame's RangeError: " + (e instanceof frameWindow.RangeError) + ", parent's: " + (e instanceof RangeError));
		}
	`); err != nil {
		panic(err)
	}
	// Output:
	// n = 2, same object: true
	// frame's promise: true, parent's: false
	// frame's RangeError: true, parent's: false
	// resolved 42
}
