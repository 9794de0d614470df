package browser_test

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/browser/ipc"
	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	htmlpkg "github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/internal/testenv"
)

// hostileEnv makes this test binary a hostile renderer (see TestMain and
// runHostile): its value is the mode, then a colon and a count.
const hostileEnv = "BROWSER_TEST_HOSTILE"

// runHostile is a renderer speaking the wire protocol by hand: it opens
// its control channel, says it is ready, answers the OpenWindow (opened,
// loaded), then
// misbehaves by mode:
//   - "deaf": never reads its control channel again (nor exits);
//   - "listen": reports (a Message) the origin of the storage key of
//     every BroadcastChannel message it gets;
//   - "broadcast:N": posts N BroadcastChannel messages of 1 KiB (32 KiB
//     when N is small), then reports "done" (a Message);
//   - "fetch:N": starts N fetches at once of a URL the test's fetcher
//     never answers;
//   - "storage:N": uses localStorage of N origins of its site;
//   - "locks:N": registers a lock client, then sends N lock requests on
//     its lock session (framed or gRPC, as the browser process set it up),
//     as fast as the browser process takes them.
func runHostile(mode string) {
	conn, err := ipc.FileConn(os.NewFile(3, "ipc"))
	if err != nil {
		os.Exit(5)
	}
	cc, err := ipc.Connect(conn)
	if err != nil {
		os.Exit(5)
	}
	host := rendererpb.NewHostClient(cc)
	ctl, err := host.Control(context.Background())
	if err != nil {
		os.Exit(5)
	}
	ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Ready{Ready: &rendererpb.Ready{Pid: int64(os.Getpid())}}})
	cmd, err := ctl.Recv()
	if err != nil {
		os.Exit(5)
	}
	open := cmd.GetOpen()
	ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Opened{Opened: &rendererpb.WindowOpened{Window: open.GetWindow(), Url: open.GetUrl()}}})
	ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Loaded{Loaded: &rendererpb.WindowLoaded{Window: open.GetWindow()}}})
	kind, count, _ := strings.Cut(mode, ":")
	var n int
	fmt.Sscan(count, &n)
	switch kind {
	case "deaf":
		select {}
	case "listen":
		// Reports the storage key's origin of every broadcast it gets.
		for {
			c, err := ctl.Recv()
			if err != nil {
				os.Exit(0)
			}
			if m := c.GetBroadcast(); m != nil {
				ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Message{Message: &rendererpb.Message{Window: open.GetWindow(), Text: m.GetKey().GetOrigin()}}})
			}
		}
	}
	go func() {
		// The browser process closing the channel ends the renderer.
		for {
			if _, err := ctl.Recv(); err != nil {
				os.Exit(0)
			}
		}
	}()
	key := &rendererpb.StorageKey{Origin: "https://a.test", TopLevelSite: "https://a.test"}
	switch kind {
	case "broadcast":
		size := 1 << 10
		if n < 100000 {
			size = 32 << 10
		}
		// A string of size bytes, as a renderer serializes it.
		var buf bytes.Buffer
		if gob.NewEncoder(&buf).Encode(&htmlpkg.SerializedRecord{Kind: htmlpkg.SerializedString, String: strings.Repeat("x", size)}) != nil {
			os.Exit(5)
		}
		msg := buf.Bytes()
		for range n {
			if ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Broadcast{Broadcast: &rendererpb.Broadcast{
				Key: key, Name: "flood", SourceOrigin: "https://a.test", Message: msg}}}) != nil {
				os.Exit(0)
			}
		}
		ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Message{Message: &rendererpb.Message{Window: open.GetWindow(), Text: "done"}}})
	case "fetch":
		for range n {
			go host.Fetch(context.Background(), &rendererpb.FetchRequest{Url: "https://a.test/hang"})
		}
	case "locks":
		send := lockSession(cc)
		send(&lockspb.Call{Call: &lockspb.Call_Register{Register: &lockspb.Register{Client: 1, Id: "flooder",
			Key: &lockspb.StorageKey{Origin: "https://a.test", TopLevelSite: "https://a.test"}}}})
		for i := range uint64(n) {
			if send(&lockspb.Call{Call: &lockspb.Call_Request{Request: &lockspb.Request{Client: 1, Request: i + 1, Name: []byte("L"),
				Mode: lockspb.Mode_MODE_EXCLUSIVE, Wait: lockspb.WaitMode_WAIT_MODE_WAIT}}}) != nil {
				break
			}
		}
	case "storage":
		for i := range n {
			host.Storage(context.Background(), &rendererpb.StorageCall{Op: rendererpb.StorageCall_OP_SET_ITEM, Key: []byte("k"), Value: []byte("v"),
				StorageKey: &rendererpb.StorageKey{Origin: fmt.Sprintf("https://s%d.a.test", i), TopLevelSite: "https://a.test"}})
		}
	}
	select {}
}

// hostileBrowser is a browser of RendererProcesses whose renderers are
// hostile ones of modes, in the order Open starts them, then normal ones.
func hostileBrowser(t *testing.T, cfg browser.Config, modes ...string) *browser.Browser {
	var next atomic.Int32
	cfg.Renderer.Command = func() (*exec.Cmd, error) {
		cmd := exec.Command(os.Args[0])
		if i := int(next.Add(1)) - 1; i < len(modes) {
			cmd.Env = append(os.Environ(), hostileEnv+"="+modes[i])
		}
		return cmd, nil
	}
	return rendererBrowser(t, cfg)
}

// heapWatch samples this process's heap while a test floods it.
type heapWatch struct {
	start uint64
	peak  atomic.Uint64
	stop  chan struct{}
	done  chan struct{}
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func watchHeap() *heapWatch {
	w := &heapWatch{start: heapBytes(), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if h := heapBytes(); h > w.peak.Load() {
				w.peak.Store(h)
			}
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// growth stops watching and returns the peak growth in MiB.
func (w *heapWatch) growth() float64 {
	close(w.stop)
	<-w.done
	if p := w.peak.Load(); p > w.start {
		return float64(p-w.start) / (1 << 20)
	}
	return 0
}

// lockCycles is a script doing n request/release cycles of a lock.
func lockCycles(n int) string {
	return fmt.Sprintf(`(async () => { for (let i = 0; i < %d; i++) await navigator.locks.request('x', () => {}); return 1; })()`, n)
}

// TestRendererHostileBroadcastFlood: a renderer posting a flood of
// BroadcastChannel messages while another renderer never reads its
// control channel: the flooder is throttled, the deaf renderer is killed
// once the flooder has waited for it in vain, a third renderer keeps
// working (lock cycles) and receives the flood, and the browser process's
// heap stays bounded (by the 32 MiB queued for each renderer). The long
// checks (without the race detector) post a million messages of 1 KiB,
// and the third renderer is of another site (it would take minutes to
// dispatch them all to a script).
func TestRendererHostileBroadcastFlood(t *testing.T) {
	n := 3000 // of 32 KiB: the deaf renderer's queue is full after about 1,000
	third := "https://a.test/index.html"
	if (os.Getenv(testenv.LongEnv) == "1" || testenv.InCI()) && !raceEnabled {
		n, third = 1000000, "https://b.test/index.html"
	}
	defer browser.SetForwardPatience(time.Second)()
	ctx := testCtx(t)
	done := make(chan struct{})
	exits := make(chan string, 4)
	var once sync.Once
	b := hostileBrowser(t, browser.Config{Renderer: browser.RendererConfig{
		OnMessage: func(_ *browser.Window, msg string) {
			if msg == "done" {
				once.Do(func() { close(done) })
			}
		},
		OnExit: func(w *browser.Window, err *browser.RendererExitError) { exits <- err.Reason },
	}}, "deaf", "", fmt.Sprintf("broadcast:%d", n))
	deaf, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	normal, err := b.Open(ctx, third)
	if err != nil {
		t.Fatal(err)
	}
	reval(t, ctx, normal, `window.n = 0; new BroadcastChannel('flood').onmessage = () => n++; 0`)
	heap := watchHeap()
	if _, err := b.Open(ctx, "https://a.test/index.html"); err != nil {
		t.Fatal(err)
	}
	limit := 90 * time.Second
	if n > 3000 {
		limit = 5 * time.Minute
	}
	deadline := time.Now().Add(limit)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the flood did not end within %v: the flooder is held up by the deaf renderer", limit)
		}
		if v := reval(t, ctx, normal, lockCycles(20)); v != int64(1) {
			t.Fatalf("lock cycles during the flood: %v", v)
		}
		select {
		case <-done:
		case <-time.After(10 * time.Millisecond):
			continue
		}
		break
	}
	select {
	case reason := <-exits:
		if !strings.Contains(reason, "does not read its messages") {
			t.Fatalf("a renderer ended: %s", reason)
		}
	case <-ctx.Done():
		t.Fatal("the deaf renderer was not killed")
	}
	if deaf.RendererErr() == nil {
		t.Fatal("the deaf renderer's window does not say it ended")
	}
	g := heap.growth()
	t.Logf("%d messages; the heap grew by %.0f MiB at most", n, g)
	if g > 512 {
		t.Errorf("the heap grew by %.0f MiB during the flood", g)
	}
	if third != "https://a.test/index.html" {
		return
	}
	// The normal renderer gets every message (its queue is bounded too:
	// the flooder waited for it).
	v := reval(t, ctx, normal, fmt.Sprintf(`new Promise(r => { const f = () => n >= %d ? r(n) : setTimeout(f, 10); f(); })`, n))
	if v != int64(n) {
		t.Fatalf("the normal renderer got %v messages", v)
	}
	select {
	case reason := <-exits:
		t.Fatalf("another renderer ended: %s", reason)
	default:
	}
}

// TestRendererHostileFetchFlood: a renderer starting a thousand fetches
// that the network never answers holds at most ipc.MaxStreams of them
// in the browser process at once (gRPC queues the others in the
// renderer), and another renderer loads and fetches meanwhile.
func TestRendererHostileFetchFlood(t *testing.T) {
	ctx := testCtx(t)
	var active, peak atomic.Int32
	release := make(chan struct{})
	defer close(release)
	reached := make(chan struct{})
	var once sync.Once
	fetcher := browser.FetcherFunc(func(ctx context.Context, u *url.URL) (*browser.Response, error) {
		if u.Path == "/hang" {
			n := active.Add(1)
			defer active.Add(-1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			if n >= ipc.MaxStreams-1 {
				once.Do(func() { close(reached) })
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil, errors.New("no answer")
		}
		return browser.FSFetcher{FS: rendererSite}.Fetch(ctx, u)
	})
	b := hostileBrowser(t, browser.Config{Fetcher: fetcher}, "fetch:1000")
	if _, err := b.Open(ctx, "https://a.test/index.html"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reached:
	case <-ctx.Done():
		t.Fatalf("the hostile renderer's fetches did not arrive: %d", active.Load())
	}
	w, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if v := reval(t, ctx, w, `fetch('other.html').then(r => r.text()).then(s => s.includes('other'))`); v != true {
		t.Fatalf("the other renderer's fetch: %v", v)
	}
	if v := reval(t, ctx, w, lockCycles(20)); v != int64(1) {
		t.Fatal(v)
	}
	if p := peak.Load(); p > ipc.MaxStreams {
		t.Fatalf("%d fetches of one renderer at once in the browser process", p)
	}
}

// TestRendererHostileLockFlood: a renderer sending a million lock
// requests on its lock session, framed or gRPC, is killed at
// ipc.DefaultMaxOutstanding with the browser process's heap bounded
// meanwhile, and another renderer's lock cycles go on during the flood
// and after.
func TestRendererHostileLockFlood(t *testing.T) {
	eachLockTransport(t, func(t *testing.T, rc browser.RendererConfig) {
		ctx := testCtx(t)
		exits := make(chan string, 1)
		rc.OnExit = func(w *browser.Window, err *browser.RendererExitError) { exits <- err.Reason }
		// The first renderer is a normal one, the second the flooder.
		b := hostileBrowser(t, browser.Config{Renderer: rc}, "", "locks:1000000")
		w, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		if v := reval(t, ctx, w, `navigator.locks.request('x', () => 1)`); v != int64(1) {
			t.Fatal(v)
		}
		heap := watchHeap()
		if _, err := b.Open(ctx, "https://a.test/index.html"); err != nil && !strings.Contains(err.Error(), "over the limit") {
			t.Fatal(err)
		}
		done := make(chan any, 1)
		go func() { v, _ := w.Evaluate(ctx, lockCycles(200)); done <- v }()
		want := fmt.Sprintf("over the limit of %d", ipc.DefaultMaxOutstanding)
		select {
		case reason := <-exits:
			if !strings.Contains(reason, want) {
				t.Fatalf("ended: %s", reason)
			}
		case <-ctx.Done():
			t.Fatal("the flooding renderer was not killed")
		}
		if v := <-done; v != int64(1) {
			t.Fatalf("the other renderer's lock cycles: %v", v)
		}
		if g := heap.growth(); g > 256 {
			t.Errorf("the heap grew by %.0f MiB during the flood", g)
		} else {
			t.Logf("the heap grew by %.0f MiB at most during the flood", g)
		}
		if v := reval(t, ctx, w, lockCycles(20)); v != int64(1) {
			t.Fatal(v)
		}
	})
}

// TestRendererHostileStorageKeys: a renderer using the localStorage of
// ever new origins of its site (each an area of the browser process) is
// killed past ipc.MaxStorageKeys.
func TestRendererHostileStorageKeys(t *testing.T) {
	ctx := testCtx(t)
	exits := make(chan string, 1)
	b := hostileBrowser(t, browser.Config{Renderer: browser.RendererConfig{
		OnExit: func(w *browser.Window, err *browser.RendererExitError) { exits <- err.Reason },
	}}, "storage:100000")
	want := fmt.Sprintf("localStorage calls for more than %d storage keys", ipc.MaxStorageKeys)
	if _, err := b.Open(ctx, "https://a.test/index.html"); err != nil {
		// Killed before Open returned.
		if !strings.Contains(err.Error(), want) {
			t.Fatal(err)
		}
		return
	}
	select {
	case reason := <-exits:
		if !strings.Contains(reason, want) {
			t.Fatalf("ended: %s", reason)
		}
	case <-ctx.Done():
		t.Fatal("not killed")
	}
}

// TestRendererBroadcastStaysInSite: the browser process passes a
// BroadcastChannel message only to the renderers of its storage key's
// site: a renderer of another site never sees it.
func TestRendererBroadcastStaysInSite(t *testing.T) {
	ctx := testCtx(t)
	got := make(chan string, 16)
	b := hostileBrowser(t, browser.Config{Renderer: browser.RendererConfig{
		OnMessage: func(_ *browser.Window, msg string) { got <- msg },
	}}, "listen")
	if _, err := b.Open(ctx, "https://b.test/index.html"); err != nil {
		t.Fatal(err)
	}
	var a []*browser.Window
	for _, u := range []string{"https://a.test/index.html", "https://a.test/index.html", "https://b.test/index.html"} {
		w, err := b.Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		a = append(a, w)
	}
	reval(t, ctx, a[1], `window.got = new Promise(r => { new BroadcastChannel('c').onmessage = e => r(e.data); }); 0`)
	reval(t, ctx, a[0], `new BroadcastChannel('c').postMessage('for a.test'); 0`)
	if v := reval(t, ctx, a[1], `got`); v != "for a.test" {
		t.Fatalf("a.test's other renderer got %v", v)
	}
	// The browser process has passed a.test's message on (to the
	// renderers it passes it to) before it answers this.
	reval(t, ctx, a[0], `0`)
	// b.test's message follows it in the listener's queue.
	reval(t, ctx, a[2], `new BroadcastChannel('c').postMessage('for b.test'); 0`)
	select {
	case origin := <-got:
		if origin != "https://b.test" {
			t.Fatalf("the b.test renderer got a broadcast of %s", origin)
		}
	case <-ctx.Done():
		t.Fatal("the b.test renderer got no broadcast")
	}
}
