package bindings

import "testing"

// TestWritableStreamAndPipes: WritableStream, TransformStream, pipeTo
// and pipeThrough from JavaScript, with Response bodies.
func TestWritableStreamAndPipes(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/")
	win.async(prelude + `
	(async () => {
		const written = [];
		let ctl;
		const sink = {
			start(c) { ctl = c; log(this === sink, c instanceof WritableStreamDefaultController, c.signal instanceof AbortSignal); },
			write(chunk, c) { written.push(new TextDecoder().decode(chunk)); },
			close() { written.push("close"); },
		};
		const ws = new WritableStream(sink);
		const r = new Response("hello");
		const p = r.body.pipeTo(ws);
		log(r.bodyUsed, ws.locked, r.body.locked);
		await p;
		log(written.join(), ws.locked);

		// pipeThrough a TransformStream that upper-cases text.
		const upper = new TransformStream({
			transform(chunk, c) { c.enqueue(new TextDecoder().decode(chunk).toUpperCase()); },
			flush(c) { c.enqueue("!"); },
		});
		const out = new Response("abc").body.pipeThrough(upper);
		log(out === upper.readable);
		const parts = [];
		const outReader = out.getReader();
		for (let x = await outReader.read(); !x.done; x = await outReader.read()) parts.push(x.value);
		log(parts.join(""));

		// A writer: backpressure and abort (the controller's signal is
		// aborted with the reason).
		let abortReason;
		const ws2 = new WritableStream({write() { return new Promise(() => {}); }, abort(r) { abortReason = r; }}, {highWaterMark: 1});
		const wr = ws2.getWriter();
		log(wr.desiredSize);
		wr.write("a").catch(e => log("write rejected", e));
		log(wr.desiredSize);
		wr.abort("why");
		await wr.closed.catch(e => log("closed rejected", e));

		// pipeTo with a signal.
		const ac = new AbortController();
		const never = new ReadableStream({cancel(r) { log("source canceled", r.name); }});
		const piped = never.pipeTo(new WritableStream(), {signal: ac.signal});
		ac.abort();
		await piped.catch(e => log("pipe aborted", e.name));

		// Bad input.
		for (const f of [() => new WritableStream({type: "bytes"}), () => new WritableStream({}, {highWaterMark: -1}),
				() => new TransformStream({readableType: "bytes"}), () => { const x = new WritableStream(); x.getWriter(); x.getWriter(); },
				() => new ReadableStream().pipeThrough({readable: new ReadableStream()}),
				() => new WritableStreamDefaultWriter({})]) {
			try { f(); log("no throw"); } catch (e) { log(e.name); }
		}
		const locked = new WritableStream();
		locked.getWriter();
		await new ReadableStream().pipeTo(locked).catch(e => log("pipe to locked", e.name));
		// sobek has no Object.prototype.__defineGetter__ (Annex B).
		log(typeof Object.prototype.__defineGetter__);
		done();
	})().catch(fail);`)
	expectLog(t, win,
		"true true true",
		"true true true",
		"hello,close false",
		"true",
		"ABC!",
		"1",
		"0",
		"write rejected why",
		"closed rejected why",
		"source canceled AbortError",
		"pipe aborted AbortError",
		"RangeError", "RangeError", "RangeError", "TypeError", "TypeError", "TypeError",
		"pipe to locked TypeError",
		"undefined")
}
