package browser_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/browser/ipc"
	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// reval evaluates expr in w, failing the test on an error.
func reval(t *testing.T, ctx context.Context, w *browser.Window, expr string) any {
	t.Helper()
	v, err := w.Evaluate(ctx, expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// lockState is a window's query() as "held|pending", each lock as
// name:client id.
const lockState = `navigator.locks.query().then(s => [s.held, s.pending].map(l => l.map(x => x.name + ':' + x.clientId).join(',')).join('|'))`

// holdL makes w request L and hold it until releaseL() (resolving once
// it is granted).
const holdL = `new Promise(granted => {
	window.lost = navigator.locks.request('L', () => { granted(); return new Promise(r => window.releaseL = r); })
		.then(() => 'released', e => e.name);
})`

// TestRendererLocksContend: two same-origin windows in two renderer
// processes contend for one lock through the browser process's lock
// service: FIFO across the processes, and query() from either lists both
// with two distinct client ids.
func TestRendererLocksContend(t *testing.T) {
	eachLockTransport(t, func(t *testing.T, rc browser.RendererConfig) {
		ctx := testCtx(t)
		b := rendererBrowser(t, browser.Config{Renderer: rc})
		w1, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		w2, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		if w1.RendererPID() == w2.RendererPID() {
			t.Fatal("one renderer for two browsing context groups")
		}
		reval(t, ctx, w1, holdL)
		reval(t, ctx, w2, `window.order = []; window.p2 = navigator.locks.request('L', () => { order.push('w2'); return 'w2 got L'; }); 0`)
		// w2's request is queued before w1's second one.
		for s := reval(t, ctx, w2, lockState).(string); !strings.Contains(s, "|L:"); s = reval(t, ctx, w2, lockState).(string) {
		}
		reval(t, ctx, w1, `window.p1 = navigator.locks.request('L', () => 'w1 got L again'); 0`)
		s1 := reval(t, ctx, w1, lockState).(string)
		s2 := reval(t, ctx, w2, lockState).(string)
		if s1 != s2 {
			t.Fatalf("the two renderers see %q and %q", s1, s2)
		}
		var held, pendA, pendB string
		if _, err := fmt.Sscanf(strings.NewReplacer("|", " ", ",", " ").Replace(s1), "%s %s %s", &held, &pendA, &pendB); err != nil {
			t.Fatalf("state %q: %v", s1, err)
		}
		if held != pendB || held == pendA || len(held) < len("L:x") {
			t.Fatalf("state %q: want w1 holding, then w2 and w1 waiting (two distinct client ids)", s1)
		}
		reval(t, ctx, w1, `releaseL(); 0`)
		if v := reval(t, ctx, w2, `p2`); v != "w2 got L" {
			t.Fatalf("w2: %v", v)
		}
		if v := reval(t, ctx, w1, `p1`); v != "w1 got L again" {
			t.Fatalf("w1: %v", v)
		}
		if v := reval(t, ctx, w2, lockState); v != "|" {
			t.Fatalf("at the end: %v", v)
		}
	})
}

// TestRendererLocksHolderKilled: SIGKILL of the holder's renderer grants
// the waiter in the other process, and its next query() no longer lists
// the dead client.
func TestRendererLocksHolderKilled(t *testing.T) {
	eachLockTransport(t, func(t *testing.T, rc browser.RendererConfig) {
		ctx := testCtx(t)
		b := rendererBrowser(t, browser.Config{Renderer: rc})
		w1, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		w2, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		reval(t, ctx, w1, holdL)
		reval(t, ctx, w2, `window.p2 = navigator.locks.request('L', () => 'w2 got L'); 0`)
		for s := reval(t, ctx, w2, lockState).(string); !strings.Contains(s, "|L:"); s = reval(t, ctx, w2, lockState).(string) {
		}
		before := reval(t, ctx, w2, lockState).(string)
		dead := strings.TrimPrefix(strings.Split(before, "|")[0], "L:")
		if err := syscall.Kill(w1.RendererPID(), syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if v := reval(t, ctx, w2, `p2`); v != "w2 got L" {
			t.Fatalf("w2: %v", v)
		}
		if s := reval(t, ctx, w2, lockState).(string); strings.Contains(s, dead) {
			t.Fatalf("the dead client %s is still listed: %s", dead, s)
		}
		var re *browser.RendererExitError
		if _, err := w1.Evaluate(ctx, "1"); !errors.As(err, &re) || re.Reason != "killed by a signal (killed)" {
			t.Fatalf("w1: %v", err)
		}
	})
}

// TestRendererLocksSteal: a steal in one renderer rejects the holder's
// released promise in the other with an AbortError.
func TestRendererLocksSteal(t *testing.T) {
	eachLockTransport(t, func(t *testing.T, rc browser.RendererConfig) {
		ctx := testCtx(t)
		b := rendererBrowser(t, browser.Config{Renderer: rc})
		w1, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		w2, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		reval(t, ctx, w1, holdL)
		if v := reval(t, ctx, w2, `navigator.locks.request('L', {steal: true}, () => 'stolen')`); v != "stolen" {
			t.Fatalf("w2: %v", v)
		}
		if v := reval(t, ctx, w1, `lost`); v != "AbortError" {
			t.Fatalf("w1's released promise: %v", v)
		}
	})
}

// forgerEnv makes this test binary a forging renderer (see TestMain).
const forgerEnv = "BROWSER_TEST_FORGER"

// runForger is a hostile renderer: it reports ready, then registers a
// lock client with another site's storage key.
func runForger() {
	conn, err := ipc.FileConn(os.NewFile(3, "ipc"))
	if err != nil {
		os.Exit(5)
	}
	cc, err := ipc.Connect(conn)
	if err != nil {
		os.Exit(5)
	}
	ctl, err := rendererpb.NewHostClient(cc).Control(context.Background())
	if err != nil {
		os.Exit(5)
	}
	ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Ready{Ready: &rendererpb.Ready{Pid: int64(os.Getpid())}}})
	// The OpenWindow (after the service worker state, SWState).
	for {
		c, err := ctl.Recv()
		if err != nil {
			os.Exit(5)
		}
		if _, ok := c.Command.(*rendererpb.Command_Open); ok {
			break
		}
	}
	if os.Getenv(forgerEnv) == "storage" {
		rendererpb.NewHostClient(cc).Storage(context.Background(), &rendererpb.StorageCall{Op: rendererpb.StorageCall_OP_LENGTH,
			StorageKey: &rendererpb.StorageKey{Origin: "https://b.test", TopLevelSite: "https://b.test"}})
		select {}
	}
	if how, ok := strings.CutPrefix(os.Getenv(forgerEnv), "sw:"); ok {
		forgeServiceWorker(rendererpb.NewHostClient(cc), ctl, how)
	}
	if strings.HasPrefix(os.Getenv(forgerEnv), "msg:") {
		forgeMessage(rendererpb.NewHostClient(cc), ctl, strings.TrimPrefix(os.Getenv(forgerEnv), "msg:"))
	}
	if os.Getenv(forgerEnv) == "broadcast" {
		ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Broadcast{Broadcast: &rendererpb.Broadcast{
			Key: &rendererpb.StorageKey{Origin: "https://b.test", TopLevelSite: "https://b.test"}, Name: "c"}}})
		ctl.Recv()
		select {}
	}
	send := lockSession(cc)
	switch os.Getenv(forgerEnv) {
	case "frame:huge":
		// A frame header announcing 2 GiB.
		writeLockFrame([]byte{0x7f, 0xff, 0xff, 0xff})
	case "frame:garbage":
		writeLockFrame([]byte{0, 0, 0, 3, 0xff, 0xff, 0xff})
	default:
		send(&lockspb.Call{Call: &lockspb.Call_Register{Register: &lockspb.Register{Client: 1, Id: "forged",
			Key: &lockspb.StorageKey{Origin: "https://b.test", TopLevelSite: "https://b.test"}}}})
	}
	select {} // until killed
}

// lockSession returns how a hand-written renderer sends lock calls: on
// its framed lock socket (fd 4) when the browser process gave it one, as
// frames written by hand (a 4-byte big-endian length, then the message),
// else on a gRPC session.
func lockSession(cc *grpc.ClientConn) func(*lockspb.Call) error {
	if lockSocket() != nil {
		return func(c *lockspb.Call) error {
			b, err := proto.Marshal(c)
			if err != nil {
				return err
			}
			return writeLockFrame(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b)
		}
	}
	s, err := lockspb.NewLockServiceClient(cc).Session(context.Background())
	if err != nil {
		os.Exit(5)
	}
	go func() {
		for {
			if _, err := s.Recv(); err != nil {
				return
			}
		}
	}()
	return s.Send
}

// lockSocket is the framed lock socket, when the renderer's settings say
// it has one.
var lockSocket = sync.OnceValue(func() *os.File {
	var set struct {
		LockTransport browser.LockTransport `json:"lock_transport"`
	}
	if err := json.Unmarshal([]byte(os.Getenv("GOWEBENGINE_RENDERER")), &set); err != nil || set.LockTransport != browser.LockTransportFramed {
		return nil
	}
	return os.NewFile(4, "locks")
})

// writeLockFrame writes bytes on the framed lock socket.
func writeLockFrame(parts ...[]byte) error {
	f := lockSocket()
	if f == nil {
		os.Exit(6)
	}
	for _, p := range parts {
		if _, err := f.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// eachLockTransport runs f on each lock transport of renderers.
func eachLockTransport(t *testing.T, f func(t *testing.T, rc browser.RendererConfig)) {
	for _, lt := range []browser.LockTransport{browser.LockTransportFramed, browser.LockTransportGRPC} {
		t.Run(lt.String(), func(t *testing.T) { f(t, browser.RendererConfig{LockTransport: lt}) })
	}
}

// TestRendererForgedMessageKilled: a renderer sending a lock call for
// another site's storage key is refused and killed by the browser
// process, which says why.
func TestRendererForgedMessageKilled(t *testing.T) {
	forged := func(t *testing.T, rc browser.RendererConfig, mode, want string) {
		rc.Command = func() (*exec.Cmd, error) {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), forgerEnv+"="+mode)
			return cmd, nil
		}
		b := rendererBrowser(t, browser.Config{Renderer: rc})
		_, err := b.Open(testCtx(t), "https://a.test/index.html")
		var re *browser.RendererExitError
		if !errors.As(err, &re) || !strings.Contains(re.Reason, "killed by the browser process: "+want) {
			t.Fatalf("got %v", err)
		}
	}
	eachLockTransport(t, func(t *testing.T, rc browser.RendererConfig) {
		forged(t, rc, "1", "storage key of https://b.test")
	})
	// Bad frames on the framed lock socket.
	t.Run("huge frame", func(t *testing.T) {
		forged(t, browser.RendererConfig{}, "frame:huge", fmt.Sprintf("a frame of %d bytes, over the limit of %d", 1<<31-1, ipc.MaxRecvBytes))
	})
	t.Run("malformed message", func(t *testing.T) {
		forged(t, browser.RendererConfig{}, "frame:garbage", "a malformed call (3 bytes)")
	})
}

// TestRendererLocksBFCacheEviction: a page kept in the back/forward cache
// of one renderer while it holds a lock is evicted when a window of
// another renderer requests that lock (contention), or queries the lock
// manager; the lock is then released.
func TestRendererLocksBFCacheEviction(t *testing.T) {
	eachLockTransport(t, func(t *testing.T, rc browser.RendererConfig) {
		for _, by := range []string{"contention", "query"} {
			t.Run(by, func(t *testing.T) { bfcacheEviction(t, rc, by) })
		}
	})
}

func bfcacheEviction(t *testing.T, rc browser.RendererConfig, by string) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{Renderer: rc})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	w2, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	reval(t, ctx, w1, holdL)
	// w1 navigates away: its document, holding L, goes into its
	// renderer's back/forward cache (no unload listener).
	reval(t, ctx, w1, `location.href = '/other.html'; 0`)
	waitPath(t, ctx, w1, "/other.html")
	switch by {
	case "contention":
		if v := reval(t, ctx, w2, `navigator.locks.request('L', () => 'w2 got L')`); v != "w2 got L" {
			t.Fatalf("w2: %v", v)
		}
	case "query":
		// The query evicts w1's cached page; its lock goes.
		for s := reval(t, ctx, w2, lockState).(string); s != "|"; s = reval(t, ctx, w2, lockState).(string) {
		}
	}
}
