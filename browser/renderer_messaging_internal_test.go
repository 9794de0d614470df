package browser

import (
	"testing"

	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/origin"
)

// TestRouterTargetOrigin: the browser process drops a window message
// whose targetOrigin is not of the target renderer's site (its data never
// reaches that renderer) and closes the links it carried; a matching or
// "*" targetOrigin passes, and the target may then answer the source.
func TestRouterTargetOrigin(t *testing.T) {
	var m msgRouter
	var ids uint64
	proc := func(site string) *rendererProc {
		ids++
		p := &rendererProc{site: origin.ObtainSite(origin.Parse(site)), fwd: newForwardQueue(), exited: make(chan struct{}), id: ids}
		m.add(p)
		return p
	}
	a, b := proc("https://a.test"), proc("https://b.test")
	target := b.id<<32 | 1
	m.grant(a, target)
	queued := func(p *rendererProc) []*rendererpb.Command {
		p.fwd.mu.Lock()
		defer p.fwd.mu.Unlock()
		out := p.fwd.items
		p.fwd.items, p.fwd.sizes, p.fwd.bytes = nil, nil, 0
		return out
	}
	post := func(targetOrigin string, ports ...uint64) {
		t.Helper()
		if !m.post(a, &rendererpb.WindowMessage{Source: a.id<<32 | 1, Target: target, SourceOrigin: "https://a.test", TargetOrigin: targetOrigin, Ports: ports}) {
			t.Fatalf("refused (targetOrigin %q)", targetOrigin)
		}
	}
	post("https://c.test", a.id<<32|1)
	if n := len(queued(b)); n != 0 {
		t.Fatalf("another site's targetOrigin: %d messages for b", n)
	}
	if back := queued(a); len(back) != 1 || back[0].GetPortClosed().GetLink() != a.id<<32|1 {
		t.Fatalf("the dropped message's link: %v", back)
	}
	post("https://b.test", a.id<<32|2)
	post("")
	if n := len(queued(b)); n != 2 {
		t.Fatalf("b got %d messages, want 2", n)
	}
	// b may answer a now, through the link too.
	if !m.post(b, &rendererpb.WindowMessage{Source: target, Target: a.id<<32 | 1, SourceOrigin: "https://b.test"}) {
		t.Fatal("b's answer refused")
	}
	if !m.portMessage(b, &rendererpb.PortMessage{Link: a.id<<32 | 2}) || len(queued(a)) != 2 {
		t.Fatal("b's answers did not reach a")
	}
}
