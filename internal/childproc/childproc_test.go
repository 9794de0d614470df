package childproc

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestCrashReason(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want string
	}{
		{"echo 'runtime: goroutine stack exceeds 1000-byte limit' >&2; echo 'fatal error: stack overflow' >&2; exit 2", "stack overflow"},
		{"echo 'renderer: out of memory: 500 MiB in use' >&2; exit 4", "out of memory"},
		{"echo 'fatal error: runtime: out of memory' >&2; exit 2", "out of memory"},
		{"kill -9 $$", "killed by a signal (killed)"},
		{"echo 'panic: boom' >&2; exit 2", "panic"},
		{"echo 'fatal error: concurrent map writes' >&2; exit 2", "concurrent map writes"},
		{"exit 7", "exit status 7"},
	} {
		cmd := exec.Command("sh", "-c", tc.cmd)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if got := CrashReason(err, stderr.String()); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

func TestHeadBuffer(t *testing.T) {
	h := &HeadBuffer{Max: 200}
	h.Write([]byte("noise\nrenderer: out of memory: 9 MiB in use\nfatal error: x\n"))
	h.Write([]byte(strings.Repeat("y", 500)))
	if len(h.String()) != 200 {
		t.Fatalf("kept %d bytes", len(h.String()))
	}
	if got := h.Summary(); got != "renderer: out of memory: 9 MiB in use; fatal error: x" {
		t.Fatalf("summary %q", got)
	}
	h.Reset()
	if h.String() != "" {
		t.Fatal("not reset")
	}
}

func TestResidentBytes(t *testing.T) {
	rss, ok := residentBytes()
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		t.Skip("no /proc/self/statm here")
	}
	if !ok || rss < 1<<20 || rss > 1<<40 {
		t.Errorf("residentBytes = %d, %v", rss, ok)
	}
}

func TestOutOfMemory(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		used, live int64
		want       string
	}{
		{100 * mib, 50 * mib, ""},
		{399 * mib, 300 * mib, ""},
		{401 * mib, 10 * mib, "401 MiB in use, over the limit of 400 MiB"},
		// The collector can no longer keep the heap well under the limit.
		{380 * mib, 301 * mib, "301 MiB of live heap after a collection, over 3/4 of the limit of 400 MiB"},
		// A huge live allocation that was never touched (resident memory
		// well under the limit) is not out of memory.
		{150 * mib, 4000 * mib, ""},
	} {
		if got := OutOfMemory(tc.used, tc.live, 400*mib); got != tc.want {
			t.Errorf("OutOfMemory(%d, %d): %q, want %q", tc.used>>20, tc.live>>20, got, tc.want)
		}
	}
}
