package bindings

import (
	"fmt"
	"testing"
)

// BenchmarkStructuredClone measures structuredClone of a small message
// (an object with a string, numbers, an array and a nested object).
func BenchmarkStructuredClone(b *testing.B) {
	w := newWorld(b)
	j := w.window("https://example.com/")
	j.exec(`globalThis.msg = {op: "request", name: "lock-a", id: 42, modes: ["shared", "exclusive"], opts: {ifAvailable: false, steal: false}};`)
	b.ResetTimer()
	j.exec(fmt.Sprintf(`for (let i = 0; i < %d; i++) structuredClone(msg);`, b.N))
}

// BenchmarkMessagePortRoundTrip measures a message sent on a
// MessageChannel and answered on it (two serializations, two
// deserializations, two posted-message tasks; manual scheduler).
func BenchmarkMessagePortRoundTrip(b *testing.B) {
	w := newWorld(b)
	j := w.window("https://example.com/")
	j.exec(`
		const {port1, port2} = new MessageChannel();
		port2.onmessage = e => port2.postMessage(e.data);
		globalThis.roundTrips = n => {
			let left = n;
			port1.onmessage = e => { if (--left === 0) done(); else port1.postMessage(e.data); };
			port1.postMessage({n: 1, s: "x"});
		};
	`)
	b.ResetTimer()
	j.async(fmt.Sprintf("roundTrips(%d)", b.N))
}
