package main

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/weblocks"
)

// Two pages of the foreign host, each on its own goroutine with its own
// runtime, share the locks of one origin through a weblocks.Service.
func Example() {
	svc := weblocks.NewService()
	log := func(s string) { fmt.Println(s) }
	a, err := NewPage(svc, "page-a", "https://example.com/a", log)
	if err != nil {
		panic(err)
	}
	defer a.Close()
	b, err := NewPage(svc, "page-b", "https://example.com/b", log)
	if err != nil {
		panic(err)
	}
	defer b.Close()

	// A holds "res" exclusively until it calls release().
	fmt.Println(a.Run(`var release; new Promise(granted => navigator.locks.request("res", lock => {
	  granted("A holds " + lock.name + " (" + lock.mode + "), a Lock: " + (lock instanceof Lock));
	  return new Promise(r => release = r);
	}))`))
	// B queues two shared requests and an exclusive one behind it.
	fmt.Println(b.Run(`var order = [];
	var all = Promise.all([
	  navigator.locks.request("res", {mode: "shared"}, l => { order.push("shared 1"); }),
	  navigator.locks.request("res", {mode: "shared"}, l => { order.push("shared 2"); }),
	  navigator.locks.request("res", l => { order.push(l.mode + " 3"); }),
	]);
	"B queued 3 requests"`))
	// ifAvailable: the callback gets null.
	fmt.Println(b.Run(`navigator.locks.request("res", {ifAvailable: true}, lock => "ifAvailable got " + lock)`))
	// An aborted signal rejects the request with its reason.
	fmt.Println(b.Run(`var c = new AbortController();
	var p = navigator.locks.request("res", {signal: c.signal}, l => "granted");
	c.abort(new Error("custom reason"));
	p.catch(e => "aborted: " + e.message)`))
	// query() reports both clients.
	fmt.Println(b.Run(`navigator.locks.query().then(s => [
	  ...s.held.map(i => "held " + i.name + " " + i.mode + " by " + i.clientId),
	  ...s.pending.map(i => "pending " + i.name + " " + i.mode + " by " + i.clientId)].join("\n"))`))
	// A releases: B's requests are granted in order, the shared ones together.
	a.Run(`release()`)
	fmt.Println(b.Run(`all.then(() => order.join(", "))`))
	// A steals a lock B holds: B's released promise rejects with an AbortError.
	fmt.Println(b.Run(`var stolen; new Promise(granted => {
	  stolen = navigator.locks.request("s", l => { granted("B holds s"); return new Promise(() => {}); })
	    .catch(e => "B's lock on s: " + e.name);
	})`))
	fmt.Println(a.Run(`navigator.locks.request("s", {steal: true}, l => "A stole " + l.name)`))
	fmt.Println(b.Run(`stolen`))
	// The host terminates A's client (its page went away): its locks are
	// released and B, waiting on another goroutine, is granted.
	fmt.Println(a.Run(`new Promise(g => navigator.locks.request("t", l => { g("A holds t"); return new Promise(() => {}); }))`))
	fmt.Println(b.Run(`var waiter = navigator.locks.request("t", l => "B got t"); "B waits for t"`))
	if err := svc.TerminateClient(a.Client); err != nil {
		panic(err)
	}
	fmt.Println(b.Run(`waiter`))
	// Output:
	// A holds res (exclusive), a Lock: true
	// B queued 3 requests
	// ifAvailable got null
	// aborted: custom reason
	// held res exclusive by page-a
	// pending res shared by page-b
	// pending res shared by page-b
	// pending res exclusive by page-b
	// shared 1, shared 2, exclusive 3
	// B holds s
	// A stole s
	// B's lock on s: AbortError
	// A holds t
	// B waits for t
	// B got t
}

// The example uses none of the html host, the bindings or the browser.
func TestNoEngineHost(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skip("go list:", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"/bindings", "/browser", "/wpt-runner"} {
			if strings.HasPrefix(dep, "github.com/gowebengine/weblocks"+bad) {
				t.Errorf("depends on %s", dep)
			}
		}
	}
}
