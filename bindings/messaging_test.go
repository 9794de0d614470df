package bindings

import (
	"strings"
	"testing"

	"github.com/grafana/sobek"
)

func TestMessageChannel(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const {port1, port2} = new MessageChannel();
			log(port1 instanceof MessagePort, port1 instanceof EventTarget, Object.prototype.toString.call(port1));
			const got = [];
			port2.postMessage("before start"); // waits in port1's queue until started
			port1.addEventListener("message", e => {
				got.push(e.data);
				if (got.length === 2) step2();
			});
			port2.postMessage({n: 1});
			setTimeout(() => { log("not started yet", got.length); port1.start(); }, 0);
			function step2() {
				log(got[0], got[1].n);
				// Transfer a port through a port: messages follow it.
				const inner = new MessageChannel();
				port1.onmessage = e => {
					const [p] = e.ports;
					log("transferred", e instanceof MessageEvent, e.data.tag, p instanceof MessagePort, e.ports.length, e.data.port === p, e.origin === "", e.source);
					p.onmessage = e2 => { log("through transferred port", e2.data); step3(); };
					inner.port1.postMessage("hello");
				};
				port2.postMessage({tag: "t", port: inner.port2}, [inner.port2]);
				try { inner.port2.postMessage(1); log("detached port posts silently"); } catch (e) { log("threw", e.name); }
				try { port2.postMessage(1, [inner.port2]); } catch (e) { log("re-transfer", e.name); }
				try { port2.postMessage(1, [port2]); } catch (e) { log("self transfer", e.name); }
				try { port2.postMessage(() => 1); } catch (e) { log("function", e.name); }
			}
			function step3() {
				const c = new MessageChannel();
				c.port2.onmessage = () => log("closed port delivered");
				c.port1.close();
				c.port1.postMessage("lost");
				const m = new MessageEvent("message", {data: 5, origin: "o", ports: [c.port1], source: c.port2});
				log("ctor", m.data, m.origin, m.ports[0] === c.port1, m.source === c.port2, m.lastEventId, m.bubbles);
				setTimeout(done, 10);
			}
		`)
		want := []string{
			"true true [object MessagePort]",
			"not started yet 0",
			"before start 1",
			"detached port posts silently",
			"re-transfer DataCloneError",
			"self transfer DataCloneError",
			"function DataCloneError",
			"transferred true t true 1 true true null",
			"through transferred port hello",
			"ctor 5 o true true  false",
		}
		got := j.takeLog()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// A MessagePort transferred to another agent (a worker) keeps its queue
// and entanglement.
func TestPortAcrossAgents(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	wk := w.worker(win, "https://example.com/w.js")
	// Carry a transferred port by hand between the two realms, as a host's
	// postMessage would.
	win.exec(prelude + `
		var ch = new MessageChannel();
		ch.port1.onmessage = e => log("window got", e.data);
	`)
	var carried sobek.Value
	win.r.QueueTask(func(vm *sobek.Runtime) {
		port2 := vm.Get("ch").ToObject(vm).Get("port2").(*sobek.Object)
		ser, err := win.r.StructuredSerializeWithTransfer(port2, []*sobek.Object{port2})
		if err != nil {
			t.Error(err)
			return
		}
		wk.r.QueueTask(func(vm *sobek.Runtime) {
			v, ports, err := wk.r.StructuredDeserializeWithTransfer(ser)
			if err != nil || len(ports) != 1 || v != ports[0] {
				t.Errorf("deserialize: %v %v", err, ports)
			}
			carried = v
			_ = vm.Set("port", v)
		})
	})
	w.settle()
	if carried == nil {
		t.Fatal("port not carried")
	}
	wk.exec(prelude + `port.postMessage("from worker"); port.onmessage = e => { log("worker got", e.data); port.postMessage("again"); };`)
	win.exec(`ch.port1.postMessage("to worker")`)
	expectLog(t, win, "window got from worker", "window got again")
	expectLog(t, wk, "worker got to worker")
}

func TestWorkerConstructor(t *testing.T) {
	t.Run("window", func(t *testing.T) {
		w := newWorld(t)
		testWorkerConstructor(t, w, w.window("https://example.com/dir/page.html"))
	})
	t.Run("nested", func(t *testing.T) {
		w := newWorld(t)
		win := w.window("https://example.com/dir/page.html")
		testWorkerConstructor(t, w, w.worker(win, "https://example.com/dir/outer.js"))
	})
}

func testWorkerConstructor(t *testing.T, w *world, owner *jsRealm) {
	var started *DedicatedWorker
	var wk *jsRealm
	owner.r.SetWorkerHooks(WorkerHooks{StartWorker: func(d *DedicatedWorker) error {
		started = d
		wk = w.worker(owner, d.URL)
		wk.r.ConnectWorkerPort(d.Port)
		wk.r.QueueScript("w.js", `onmessage = e => postMessage({echo: e.data, name: "`+d.Name+`"});`, func(error) { d.Port.Start() })
		return nil
	}})
	owner.async(prelude + `
		try { new Worker("https://[bad"); } catch (e) { log("bad url", e.name); }
		const wk = new Worker("w.js", {name: "n1"});
		log(wk instanceof Worker, wk instanceof EventTarget);
		wk.onmessage = e => { log("echo", e.data.echo.x, e.data.name, e instanceof MessageEvent); wk.terminate(); done(); };
		wk.postMessage({x: 42});
	`)
	expectLog(t, owner, "bad url SyntaxError", "true true", "echo 42 n1 true")
	if started == nil || started.URL != "https://example.com/dir/w.js" || started.Name != "n1" {
		t.Errorf("started %+v", started)
	}
	started.QueueErrorEvent(&ScriptError{Message: "Uncaught Error: boom", Filename: "w.js", Line: 1, Column: 2})
	owner.exec(`onerror = null;`)
	w.settle()
	if errs := owner.takeErrors(); len(errs) != 1 || !strings.Contains(errs[0], "boom") {
		t.Errorf("errors %v", errs)
	}
}

// Without an embedder, new Worker() is a NotSupportedError.
func TestWorkerWithoutHooks(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	if got := win.eval(`try { new Worker("x.js"); "no" } catch (e) { e.name }`); got != "NotSupportedError" {
		t.Errorf("got %q", got)
	}
}

func TestURLAndEncoding(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.exec(prelude + `
			const u = new URL("../a/./b?x=1&y=2#h", "https://user:pw@EXAMPLE.com:443/p/q");
			log(u.href, u.origin, u.host, u.pathname, u.search, u.hash, u.username, String(u), JSON.stringify({u}));
			log(u.searchParams.get("y"), u.searchParams === u.searchParams, u.searchParams.size);
			u.searchParams.append("z", "a b");
			log(u.search, u.href);
			u.search = "?q=%20";
			log(u.searchParams.get("q") === " ", u.searchParams.size);
			u.pathname = "/new path"; u.port = "8080"; u.hash = "";
			log(u.href);
			try { new URL("nope"); } catch (e) { log("invalid", e instanceof TypeError); }
			try { new URL("/x", "nope"); } catch (e) { log("invalid base", e instanceof TypeError); }
			log(URL.canParse("https://a"), URL.canParse("a"), URL.parse("a"), URL.parse("/b", "http://h/c").href);
			log(new URL("http://[::1]:80/").host, new URL("HTTP://xn--nxasmq6b.com/").hostname, new URL("https://münchen.de/").hostname);
			const p = new URLSearchParams("?a=1&b=2&a=3");
			log(p.getAll("a").join(), p.has("b"), p.has("a", "3"), p.get("nope"), [...p].map(x => x.join("=")).join("&"), [...p.keys()].join());
			p.delete("a", "1"); p.set("c", "&"); p.sort();
			log(p.toString(), String(new URLSearchParams({k: "v", "ü": "é"})), String(new URLSearchParams([["x", "1"], ["y", "2"]])));
			try { new URLSearchParams([["x"]]); } catch (e) { log("pair", e instanceof TypeError); }
			const enc = new TextEncoder();
			const bytes = enc.encode("h\u00e9\ud83d\ude00\ud800");
			log(enc.encoding, bytes instanceof Uint8Array, Array.from(bytes).join());
			const dst = new Uint8Array(5);
			const r = enc.encodeInto("a\u00e9\ud83d\ude00", dst);
			log(r.read, r.written, Array.from(dst).join());
			const dec = new TextDecoder();
			log(dec.encoding, dec.fatal, dec.ignoreBOM, dec.decode(bytes), dec.decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41, 0xE2, 0x82, 0x41, 0xFF])), dec.decode());
			log(new TextDecoder("utf-8", {ignoreBOM: true}).decode(new Uint8Array([0xEF, 0xBB, 0xBF])).charCodeAt(0));
			const s = new TextDecoder(); log(s.decode(new Uint8Array([0xF0, 0x9F]), {stream: true}) + "|" + s.decode(new Uint8Array([0x98, 0x80])));
			try { new TextDecoder("utf-8", {fatal: true}).decode(new Uint8Array([0xC0])); } catch (e) { log("fatal", e instanceof TypeError); }
			try { new TextDecoder("latin1"); } catch (e) { log("label", e instanceof RangeError); }
			log(new TextDecoder(" UTF8 ").decode(new DataView(new Uint8Array([0x68, 0x69]).buffer)));
		`)
		want := []string{
			`https://user:pw@example.com/a/b?x=1&y=2#h https://example.com example.com /a/b ?x=1&y=2 #h user https://user:pw@example.com/a/b?x=1&y=2#h {"u":"https://user:pw@example.com/a/b?x=1&y=2#h"}`,
			"2 true 2",
			"?x=1&y=2&z=a+b https://user:pw@example.com/a/b?x=1&y=2&z=a+b#h",
			"true 1",
			"https://user:pw@example.com:8080/new%20path?q=%20",
			"invalid true",
			"invalid base true",
			"true false null http://h/b",
			"[::1] xn--nxasmq6b.com xn--mnchen-3ya.de",
			"1,3 true true null a=1&b=2&a=3 a,b,a",
			"a=3&b=2&c=%26 k=v&%C3%BC=%C3%A9 x=1&y=2",
			"pair true",
			"utf-8 true 104,195,169,240,159,152,128,239,191,189",
			"2 3 97,195,169,0,0",
			"utf-8 false false hé😀\ufffd A\ufffdA\ufffd ",
			"65279",
			"|😀",
			"fatal true",
			"label true",
			"hi",
		}
		got := j.takeLog()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}
