package bindings

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/fetch"
)

// TestFetchBodyStream: Response.body and Request.body are ReadableStreams
// over the body; reading through one disturbs the body, a locked one
// makes the Body methods and clone() fail; bodies from a ReadableStream
// are read by text() and by fetch(); clone() tees.
func TestFetchBodyStream(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/")
	host := &handlerHost{h: fetchTestHandler()}
	win.r.SetFetchHost(host)
	win.async(prelude + `
	(async () => {
		const dec = new TextDecoder();
		const readAll = async (rs) => {
			const rd = rs.getReader(); let s = "";
			for (let r = await rd.read(); !r.done; r = await rd.read()) s += dec.decode(r.value, {stream: true}) + "|";
			return s;
		};
		// A network body.
		const r = await fetch("/text");
		log(r.body instanceof ReadableStream, r.body === r.body, r.bodyUsed);
		log(await readAll(r.body), r.bodyUsed, r.body.locked);
		await r.text().catch(e => log("text after read", e.name));
		try { r.clone(); } catch (e) { log("clone after read", e.name); }
		// Null bodies.
		log(new Response(null).body, new Response(null, {status: 204}).body, new Request("/x").body, Response.error().body);
		// In-memory bodies: one Uint8Array chunk.
		const m = new Response("abc");
		const rd = m.body.getReader();
		const c = await rd.read();
		log(c.value instanceof Uint8Array, c.value.join(), (await rd.read()).done);
		// A locked body is unusable; not disturbed.
		const l = new Response("x");
		l.body.getReader();
		log(l.bodyUsed);
		await l.text().catch(e => log("text locked", e.name));
		try { l.clone(); } catch (e) { log("clone locked", e.name); }
		// text() locks and disturbs the body's stream.
		const tx = new Response("y");
		log(await tx.text(), tx.bodyUsed, tx.body.locked);
		// Bodies from a ReadableStream.
		const enc = new TextEncoder();
		const src = (...chunks) => new ReadableStream({start(c) { for (const x of chunks) c.enqueue(x); c.close(); }});
		log(await new Response(src(enc.encode("a"), enc.encode("b"))).text());
		await new Response(src("not bytes")).text().catch(e => log("string chunk", e.name));
		const used = src(enc.encode("a"));
		used.getReader();
		try { new Response(used); } catch (e) { log("locked stream body", e.name); }
		const s0 = src(enc.encode("q"));
		const s0r = new Response(s0);
		log(s0r.body === s0, s0r.headers.get("content-type"));
		// clone() tees a body with a stream.
		const t1 = new Response(src(enc.encode("t"), enc.encode("ee")));
		const t2 = t1.clone();
		log(await t1.text(), await t2.text());
		const ch = new Uint8Array([7]);
		const cr = new Response(new ReadableStream({start(c) { c.enqueue(ch); c.close(); }}));
		const cc = cr.clone();
		const [x1, x2] = await Promise.all([cr.body.getReader().read(), cc.body.getReader().read()]);
		log("clone chunks", x1.value === ch, x2.value !== ch && x2.value.buffer !== ch.buffer && x2.value[0] === 7);
		const n1 = await fetch("/text");
		n1.body;
		const n2 = n1.clone();
		log(await readAll(n1.body), await n2.text());
		// Request bodies.
		try { new Request("/echo", {method: "POST", body: src(enc.encode("a"))}); } catch (e) { log("no duplex", e.name); }
		try { new Request("/echo", {method: "POST", mode: "no-cors", body: src(enc.encode("a")), duplex: "half"}); } catch (e) { log("no-cors stream", e.name); }
		const q = new Request("/echo", {method: "POST", body: src(enc.encode("up"), enc.encode("load")), duplex: "half"});
		log(q.body instanceof ReadableStream, await q.text(), q.bodyUsed);
		// A streamed body goes only over HTTP/2 (this network is
		// HTTP/1.1): a TypeError, the stream not read. A fetch that does
		// not reach the network leaves it unread (even one never closed).
		const up = src(enc.encode("sent "), enc.encode("whole"));
		await fetch("/echo", {method: "POST", body: up, duplex: "half"}).catch(e => log("h1 upload", e.name, up.locked));
		const dr = await fetch("data:,ok", {method: "POST", body: new ReadableStream(), duplex: "half"});
		log(await dr.text());
		// The Request constructor disturbs its input's body; the new
		// request's body is a new stream.
		const br = new Request("/x", {method: "POST", body: "rb"});
		const ob = br.body;
		const nr = new Request(br);
		log(br.bodyUsed, br.body === ob, nr.body !== ob, await nr.text());
		const br2 = new Request("/x", {method: "POST", body: "rb"});
		log(await new Request(br2, {body: "new"}).text(), br2.bodyUsed);
		// An aborted fetch() cancels its request body's stream with the
		// reason it rejects with.
		const ac = new AbortController();
		ac.abort();
		let reason;
		const fp = fetch("/echo", {method: "POST", body: new ReadableStream({cancel(r) { reason = r; }}), duplex: "half", signal: ac.signal});
		log("canceled", reason && reason.name, await fp.catch(e => e === reason));
		// An aborted response's body rejects every read with the reason.
		const ac2 = new AbortController();
		const ab = await fetch("/text", {signal: ac2.signal});
		ac2.abort();
		log(await ab.text().catch(e => e.name), await ab.text().catch(e => e.name));
		const qb = new Request("/echo", {method: "POST", body: "req"});
		log(await readAll(qb.body), qb.bodyUsed);
		done();
	})().catch(fail);`)
	expectLog(t, win,
		"true true false",
		"héllo| true true",
		"text after read TypeError",
		"clone after read TypeError",
		"null null null null",
		"true 97,98,99 true",
		"false",
		"text locked TypeError",
		"clone locked TypeError",
		"y true true",
		"ab",
		"string chunk TypeError",
		"locked stream body TypeError",
		"true null",
		"tee tee",
		"clone chunks true true",
		"héllo| héllo",
		"no duplex TypeError",
		"no-cors stream TypeError",
		"true upload true",
		"h1 upload TypeError true",
		"ok",
		"true true true rb",
		"new true",
		"canceled AbortError true",
		"AbortError AbortError",
		"req| true")
}

// pipeHost is a FetchHost whose network answers at once with a body the
// test writes into a pipe; Load runs in a goroutine whose end closes
// loaded. The fetch's context ending closes the pipe (as net/http ends a
// body read).
type pipeHost struct {
	pw     *io.PipeWriter
	reads  chan struct{} // a read of the body began
	loaded chan struct{}
}

type signalReader struct {
	r     io.ReadCloser
	reads chan struct{}
}

func (s *signalReader) Read(p []byte) (int, error) {
	s.reads <- struct{}{}
	return s.r.Read(p)
}
func (s *signalReader) Close() error { return s.r.Close() }

func (h *pipeHost) StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response)) {
	pr, pw := io.Pipe()
	h.pw, h.reads, h.loaded = pw, make(chan struct{}, 16), make(chan struct{})
	go func() {
		<-ctx.Done()
		pw.CloseWithError(ctx.Err())
	}()
	p.Network = fetch.NetworkFunc(func(context.Context, *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
		return &fetch.NetworkResponse{Status: 200, StatusText: "OK", Header: http.Header{}, Stream: &signalReader{pr, h.reads}}, nil
	})
	resp := fetch.Fetch(ctx, p)
	done(resp)
	go func() { resp.Load(); close(h.loaded) }()
}

// waitLoaded waits for the end of the body's Load (the network read
// ended), failing after a minute.
func (h *pipeHost) waitLoaded(t *testing.T) {
	t.Helper()
	select {
	case <-h.loaded:
	case <-time.After(time.Minute):
		t.Fatal("the network read of the body did not end")
	}
}

// write gives chunk to the body and waits until Load has handed it on
// (it has begun its next read).
func (h *pipeHost) write(t *testing.T, chunk string) {
	t.Helper()
	<-h.reads
	if _, err := io.WriteString(h.pw, chunk); err != nil {
		t.Fatal(err)
	}
	<-h.reads
	h.reads <- struct{}{} // (the read that began is still waiting)
}

// TestFetchBodyStreaming: Response.body's chunks come as the network
// gives them; aborting the fetch mid-body errors the stream with the
// abort reason and ends the network read; canceling the stream ends it
// too.
func TestFetchBodyStreaming(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://a.test/")
	host := &pipeHost{}
	win.r.SetFetchHost(host)
	win.exec(prelude + `
		const dec = new TextDecoder();
		globalThis.ctl = new AbortController();
		fetch("/trickle", {signal: ctl.signal}).then(r => {
			log("headers");
			globalThis.rd = r.body.getReader();
			globalThis.next = () => rd.read().then(x => log(x.done ? "done" : "chunk " + dec.decode(x.value)), e => log("error", e.name));
			next();
		});
	`)
	expectLog(t, win, "headers")
	host.write(t, "one")
	w.settle()
	expectLog(t, win, "chunk one")
	win.exec(`next()`)
	expectLog(t, win)
	host.write(t, "two")
	w.settle()
	expectLog(t, win, "chunk two")
	win.exec(`next(); ctl.abort();`)
	expectLog(t, win, "error AbortError")
	host.waitLoaded(t)
	win.exec(`next()`)
	expectLog(t, win, "error AbortError")

	// Canceling the body's stream ends the network read.
	win.exec(`fetch("/trickle").then(r => r.body.cancel()).then(() => log("canceled"))`)
	expectLog(t, win, "canceled")
	host.waitLoaded(t)

	// The end of the body closes the stream.
	win.exec(`fetch("/trickle").then(r => { globalThis.rd = r.body.getReader(); next(); })`)
	host.write(t, "last")
	w.settle()
	expectLog(t, win, "chunk last")
	win.exec(`next()`)
	host.pw.Close()
	host.waitLoaded(t)
	w.settle()
	expectLog(t, win, "done")
}
