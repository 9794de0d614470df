package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// diskTree builds a tree on disk with links inside and out of it.
func diskTree(t *testing.T) (root, secret string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, data string) {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secret = "SECRET-" + t.Name()
	write(filepath.Join(outside, "secret.txt"), secret)
	write(filepath.Join(root, "ok.txt"), "inside")
	links := map[string]string{
		"sub/abs.txt":    filepath.Join(outside, "secret.txt"), // absolute link out
		"sub/rel.txt":    "../../outside/secret.txt",           // relative link out
		"sub/in.txt":     "../ok.txt",                          // relative link inside: served
		"outdir":         outside,                              // a directory out
		"sub/zero.txt":   "/dev/zero",                          // a device
		"sub/passwd.txt": "/etc/passwd",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "sub", "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, secret
}

func startDisk(t *testing.T, dir string) *Server {
	t.Helper()
	s, err := Start(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestSymlinksStayInsideTheRoot(t *testing.T) {
	root, secret := diskTree(t)
	s := startDisk(t, root)
	for _, p := range []string{"/sub/abs.txt", "/sub/rel.txt", "/outdir/secret.txt", "/outdir/", "/sub/passwd.txt",
		"/sub/../../outside/secret.txt", "/%2e%2e/outside/secret.txt"} {
		resp, body := get(t, s, s.testURL(false, MainHost, p))
		if resp.StatusCode == 200 || strings.Contains(body, secret) || strings.Contains(body, "root:") {
			t.Errorf("%s: served %d %q", p, resp.StatusCode, body)
		}
	}
	if resp, body := get(t, s, s.testURL(false, MainHost, "/sub/in.txt")); resp.StatusCode != 200 || body != "inside" {
		t.Errorf("a link inside the tree: %d %q", resp.StatusCode, body)
	}
	// Listings show neither the links out of the tree nor their targets.
	for _, p := range []string{"/", "/sub/"} {
		resp, body := get(t, s, s.testURL(false, MainHost, p))
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", p, resp.StatusCode)
		}
		for _, bad := range []string{"abs.txt", "rel.txt", "outdir", "passwd.txt", "secret"} {
			if strings.Contains(body, bad) {
				t.Errorf("listing of %s shows %s:\n%s", p, bad, body)
			}
		}
	}
	if _, body := get(t, s, s.testURL(false, MainHost, "/sub/")); !strings.Contains(body, "in.txt") {
		t.Errorf("listing lacks the link inside the tree:\n%s", body)
	}
}

func TestNonRegularFilesRefused(t *testing.T) {
	root, _ := diskTree(t)
	s := startDisk(t, root)
	for _, p := range []string{"/sub/fifo.txt", "/sub/zero.txt"} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			resp, body := get(t, s, s.testURL(false, MainHost, p))
			if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s: %d %.40q", p, resp.StatusCode, body)
			}
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the server blocked", p)
		}
	}
}

// A large file is streamed, not read whole.
func TestLargeFileStreamed(t *testing.T) {
	root := t.TempDir()
	const size = 512 << 20
	f, err := os.Create(filepath.Join(root, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil { // sparse: no disk space used
		t.Fatal(err)
	}
	f.Close()
	s := startDisk(t, root)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	resp, err := s.Client().Get(s.testURL(false, MainHost, "/big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentLength != size {
		t.Errorf("Content-Length %d", resp.ContentLength)
	}
	n, _ := io.CopyN(io.Discard, resp.Body, 1<<20)
	runtime.ReadMemStats(&after)
	resp.Body.Close()
	if n != 1<<20 {
		t.Errorf("read %d bytes", n)
	}
	if grew := int64(after.TotalAlloc) - int64(before.TotalAlloc); grew > 64<<20 {
		t.Errorf("serving 1 MiB of a 512 MiB file allocated %d MiB", grew>>20)
	}
}

func TestHostHeaderChecked(t *testing.T) {
	s := testServer(t)
	for host, ok := range map[string]bool{"evil.example": false, "evil.example:80": false, "web-platform.test.evil.example": false,
		"www1.web-platform.test": true, "localhost": true, "not-web-platform.test:8000": true} {
		req, _ := http.NewRequest("GET", s.testURL(false, MainHost, "/web-locks/plain.html"), nil)
		req.Host = host
		resp, err := s.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.StatusCode == 200; got != ok {
			t.Errorf("Host %q: status %d", host, resp.StatusCode)
		} else if !ok && (resp.StatusCode < 400 || resp.StatusCode > 499) {
			t.Errorf("Host %q: status %d, want 4xx", host, resp.StatusCode)
		}
	}
}

func TestStashBounded(t *testing.T) {
	now := time.Unix(1000, 0)
	st := newStash(StashLimits{MaxMessage: 10, MaxTotal: 25, TTL: time.Minute})
	st.now = func() time.Time { return now }
	serve := func(method, id, body string) (int, string) {
		req, _ := http.NewRequest(method, "http://web-platform.test/common/dispatcher/dispatcher.py?uuid="+id, strings.NewReader(body))
		rec := httptest.NewRecorder()
		st.serveDispatcher(rec, req)
		return rec.Code, rec.Body.String()
	}
	if code, body := serve("POST", "a", "0123456789x"); code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "limit") {
		t.Errorf("message over the limit: %d %q", code, body)
	}
	serve("POST", "a", "0123456789")
	serve("POST", "b", "0123456789")
	if code, body := serve("POST", "c", "0123456789"); code != http.StatusInsufficientStorage || !strings.Contains(body, "full") {
		t.Errorf("stash over its total: %d %q", code, body)
	}
	if _, body := serve("GET", "a", ""); body != "0123456789" {
		t.Errorf("GET: %q", body)
	}
	if code, _ := serve("POST", "c", "0123456789"); code != 200 {
		t.Errorf("after a take there is room: %d", code)
	}
	now = now.Add(2 * time.Minute)
	if _, body := serve("GET", "b", ""); body != "not ready" {
		t.Errorf("expired queue still served: %q", body)
	}
	if st.total != 0 || len(st.queues) != 0 {
		t.Errorf("after expiry: %d bytes in %d queues", st.total, len(st.queues))
	}
}

func TestSubNestingBounded(t *testing.T) {
	s := testServer(t)
	deep := strings.Repeat("$a:", 100000) + "uuid()"
	r, _ := http.NewRequest("GET", "http://web-platform.test/", nil)
	if _, err := s.evalSub(deep, r, map[string]string{}, 0); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("deep nesting: %v", err)
	}
	if v, err := s.evalSub("$a:$b:uuid()", r, map[string]string{}, 0); err != nil || len(v) != 36 {
		t.Errorf("shallow nesting: %q %v", v, err)
	}
}
