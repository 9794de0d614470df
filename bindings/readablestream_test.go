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
				() => new ReadableStream({type: "bytes"}), () => new ReadableStream({type: "other"}),
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
