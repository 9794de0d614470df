package bindings

import "testing"

// TestReadableStream: the JavaScript interfaces over package streams:
// an underlying source's start/pull/cancel with the source as this, the
// strategy, readers, errors for bad input, tee and async iteration.
func TestReadableStream(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/")
	win.async(prelude + `
	(async () => {
		const calls = [];
		let ctl;
		const src = {
			start(c) { ctl = c; calls.push("start", this === src, c instanceof ReadableStreamDefaultController, c.desiredSize); },
			pull(c) { calls.push("pull", c === ctl); },
			cancel(r) { calls.push("cancel " + r); return "ignored"; },
		};
		const s = new ReadableStream(src, {highWaterMark: 2});
		log(calls.join());
		await null; await null;
		log(calls.join());
		ctl.enqueue("a"); ctl.enqueue("b"); ctl.enqueue("c");
		log(ctl.desiredSize, s.locked);
		const rd = s.getReader();
		log(s.locked, rd instanceof ReadableStreamDefaultReader);
		let r = await rd.read();
		log(JSON.stringify(r), Object.keys(r).sort().join());
		ctl.close();
		try { ctl.enqueue("x"); } catch (e) { log("enqueue after close", e.name); }
		try { ctl.close(); } catch (e) { log("close after close", e.name); }
		log(JSON.stringify(await rd.read()), JSON.stringify(await rd.read()), JSON.stringify(await rd.read()));
		await rd.closed;
		log("closed");
		rd.releaseLock();
		await rd.read().catch(e => log("read on released", e.name));
		await rd.closed.catch(e => log("closed released", e.name));

		// Bad input.
		for (const f of [() => new ReadableStream({start: 1}), () => new ReadableStream({}, {highWaterMark: -1}),
				() => new ReadableStream({type: "bytes", autoAllocateChunkSize: 0}), () => new ReadableStream({type: "other"}),
				() => new ReadableStream().getReader({mode: "byob"}), () => new ReadableStreamDefaultReader({}),
				() => { const x = new ReadableStream(); x.getReader(); x.getReader(); },
				() => new ReadableStream({start() { throw new RangeError("mine"); }})]) {
			try { f(); log("no throw"); } catch (e) { log(e.name); }
		}
		const locked = new ReadableStream();
		locked.getReader();
		await locked.cancel("x").catch(e => log("cancel locked", e.name));

		// Errors reach pending reads and closed; size functions.
		let c2;
		const s2 = new ReadableStream({start(c) { c2 = c; }}, {size(chunk) { return chunk.length; }, highWaterMark: 10});
		c2.enqueue("abcd");
		log(c2.desiredSize);
		try { c2.enqueue(42); } catch (e) { log("size threw", e.name); }
		await s2.getReader().closed.catch(e => log("errored by size", e.name));
		const err = new Error("boom");
		const s3 = new ReadableStream({start(c) { c2 = c; }});
		const rd3 = s3.getReader();
		const pending = rd3.read();
		c2.error(err);
		await pending.catch(e => log("pending read", e === err));
		log(c2.desiredSize);
		// pull's rejection errors the stream.
		const s4 = new ReadableStream({pull() { return Promise.reject(err); }});
		await s4.getReader().read().catch(e => log("pull rejected", e === err));
		// cancel.
		const reasons = [];
		const s5 = new ReadableStream({cancel(r) { reasons.push(r); }});
		log(await s5.cancel("why"), reasons.join());

		// Queuing strategies.
		const bl = new ByteLengthQueuingStrategy({highWaterMark: 16});
		const cq = new CountQueuingStrategy({highWaterMark: 3});
		log(bl.highWaterMark, bl.size(new Uint8Array(5)), cq.size("xx"), bl.size === new ByteLengthQueuingStrategy({highWaterMark: 1}).size, bl.size.name, bl.size.length);
		try { new CountQueuingStrategy({}); } catch (e) { log("no highWaterMark", e.name); }

		// tee.
		const s6 = new ReadableStream({start(c) { c.enqueue(1); c.enqueue(2); c.close(); }});
		const [b1, b2] = s6.tee();
		log(s6.locked);
		const all = async (it) => { it = it.values(); const out = []; for (let r = await it.next(); !r.done; r = await it.next()) out.push(r.value); return out.join(); };
		log(await all(b1), await all(b2));
		// async iteration: return() cancels unless preventCancel.
		let canceled = 0;
		const s7 = new ReadableStream({pull(c) { c.enqueue("x"); }, cancel() { canceled++; }});
		let it = s7.values(); await it.next(); await it.return();
		log(canceled, s7.locked);
		const s8 = new ReadableStream({pull(c) { c.enqueue("x"); }, cancel() { canceled++; }});
		it = s8.values({preventCancel: true}); await it.next(); await it.return();
		log(canceled, s8.locked);
		done();
	})().catch(fail);`)
	expectLog(t, win,
		"start,true,true,2",
		"start,true,true,2,pull,true",
		"-1 false",
		"true true",
		`{"value":"a","done":false} done,value`,
		"enqueue after close TypeError",
		"close after close TypeError",
		`{"value":"b","done":false} {"value":"c","done":false} {"done":true}`,
		"closed",
		"read on released TypeError",
		"closed released TypeError",
		"TypeError", "RangeError", "TypeError", "TypeError", "TypeError", "TypeError", "TypeError", "RangeError",
		"cancel locked TypeError",
		"6",
		"size threw RangeError",
		"errored by size RangeError",
		"pending read true",
		"null",
		"pull rejected true",
		"undefined why",
		"16 5 1 true size 1",
		"no highWaterMark TypeError",
		"true",
		"1,2 1,2",
		"1 false",
		"1 false")
}

// TestReadableByteStream: type "bytes" sources, BYOB readers and
// requests from JavaScript, and Response bodies as byte streams.
func TestReadableByteStream(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/")
	win.async(prelude + `
	(async () => {
		let ctl;
		const s = new ReadableStream({type: "bytes", start(c) { ctl = c; }, pull(c) {
			const v = c.byobRequest.view;
			v[0] = 7; v[1] = 8;
			c.byobRequest.respond(2);
		}});
		log(ctl instanceof ReadableByteStreamController, ctl.desiredSize, ctl.byobRequest);
		const rd = s.getReader({mode: "byob"});
		log(rd instanceof ReadableStreamBYOBReader);
		const buf = new ArrayBuffer(4);
		let r = await rd.read(new Uint8Array(buf, 1));
		log(buf.byteLength, r.value.constructor.name, r.value.byteOffset, r.value.byteLength, Array.from(new Uint8Array(r.value.buffer)).join());
		for (const [name, f] of [["empty", () => rd.read(new Uint8Array(0))], ["min 0", () => rd.read(new Uint8Array(2), {min: 0})],
				["min past", () => rd.read(new Uint16Array(2), {min: 3})], ["not a view", () => rd.read(new ArrayBuffer(2))]]) {
			try { await f(); log(name, "resolved"); } catch (e) { log(name, e.name); }
		}
		try { ctl.enqueue(new Uint8Array(0)); } catch (e) { log("enqueue empty", e.name); }
		try { new ReadableStream({type: "bytes"}, {size() { return 1; }}); } catch (e) { log("size", e.name); }
		try { new ReadableStreamBYOBReader(new ReadableStream()); } catch (e) { log("byob of default", e.name); }
		rd.releaseLock();
		// A default reader gets the enqueued bytes as Uint8Arrays; the
		// enqueued buffer is transferred.
		const d = s.getReader();
		const chunk = new Uint16Array([1, 2]);
		ctl.enqueue(chunk);
		r = await d.read();
		log(chunk.byteLength, r.value.constructor.name, r.value.byteLength);
		ctl.close();
		log(JSON.stringify(await d.read()));
		// Response bodies are byte streams.
		const body = new Response("hello").body;
		const br = body.getReader({mode: "byob"});
		r = await br.read(new Uint8Array(3));
		log(new TextDecoder().decode(r.value));
		r = await br.read(new Uint8Array(3));
		log(new TextDecoder().decode(r.value));
		r = await br.read(new Uint8Array(3));
		log(r.done, r.value.byteLength);
		done();
	})().catch(fail);`)
	expectLog(t, win,
		"true 0 null",
		"true",
		"0 Uint8Array 1 2 0,7,8,0",
		"empty TypeError", "min 0 TypeError", "min past RangeError", "not a view TypeError",
		"enqueue empty TypeError",
		"size RangeError",
		"byob of default TypeError",
		"0 Uint8Array 4",
		`{"done":true}`,
		"hel", "lo", "true 0")
}
