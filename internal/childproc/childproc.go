// Package childproc is what the processes that run pages have in common,
// the WPT runner's product children (wpt-runner/isolate) and the
// browser's renderer processes (browser): limits that make a runaway page
// kill only its own process, fast and recognizably (Limit: a Go stack cap
// and a memory limit with a watchdog), and the parent's reading of why a
// child died (CrashReason, HeadBuffer).
package childproc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// OOMExitCode is the exit status of a process the watchdog ends.
const OOMExitCode = 4

// Limit caps the calling process: one goroutine's stack at maxStack bytes
// (debug.SetMaxStack: a runaway recursion dies fast with "stack overflow"
// instead of growing to 1 GB), and, when memoryLimit > 0, its memory at
// memoryLimit bytes (debug.SetMemoryLimit, and a watchdog that ends the
// process with "<who>: out of memory: ..." on stderr and OOMExitCode, see
// OutOfMemory). Zero leaves a limit alone.
func Limit(who string, maxStack int, memoryLimit int64) {
	if maxStack > 0 {
		debug.SetMaxStack(maxStack)
	}
	if memoryLimit > 0 {
		debug.SetMemoryLimit(memoryLimit)
		go watchMemory(who, memoryLimit)
	}
}

// watchMemory ends the process when it is out of memory (OutOfMemory): an
// out-of-memory is this process's crash, not the machine's. The memory in
// use is what the Go runtime holds from the system, or the process's
// resident set when that is smaller (Linux): memory a page allocated but
// never touched (a 4 GiB typed array it drops at once) does not count, as
// in other engines, and memory the runtime does not account for (the race
// detector's shadow) does not either.
func watchMemory(who string, limit int64) {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}, {Name: "/gc/heap/live:bytes"}}
	for {
		metrics.Read(samples)
		used := int64(samples[0].Value.Uint64()) - int64(samples[1].Value.Uint64())
		if rss, ok := residentBytes(); ok && rss < used {
			used = rss
		}
		if msg := OutOfMemory(used, int64(samples[2].Value.Uint64()), limit); msg != "" {
			fmt.Fprintf(os.Stderr, "%s: out of memory: %s\n", who, msg)
			os.Exit(OOMExitCode)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// residentBytes is the process's resident set size, from
// /proc/self/statm (false where there is none).
func residentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// OutOfMemory says why a process that uses used bytes (resident), of
// which live bytes were live at the last collection, is out of memory
// under limit, or "" when it is not. That is when used passes limit, or
// when the live heap passes 3/4 of limit while more than half of limit is
// in use: from then on the collector, held to limit by
// debug.SetMemoryLimit, runs ever more often and the program crawls
// towards the limit instead of reaching it (with the soft limit at 3/4
// and no such check, an allocate-until-out-of-memory test took 45 s). A
// live heap that is mostly untouched memory (one huge allocation) is not
// out of memory until it is used.
func OutOfMemory(used, live, limit int64) string {
	if used > limit {
		return fmt.Sprintf("%d MiB in use, over the limit of %d MiB", used>>20, limit>>20)
	}
	if live > limit*3/4 && used > limit/2 {
		return fmt.Sprintf("%d MiB of live heap after a collection, over 3/4 of the limit of %d MiB", live>>20, limit>>20)
	}
	return ""
}

// CrashReason names why a child process died from its wait error and
// the start of its stderr: "stack overflow", "out of memory", "killed by a
// signal (killed)" (SIGKILL: the kernel's out-of-memory killer or a
// user), "panic", another Go "fatal error: …", or "exit status N".
func CrashReason(waitErr error, stderr string) string {
	switch {
	case strings.Contains(stderr, "fatal error: stack overflow"), strings.Contains(stderr, "goroutine stack exceeds"):
		return "stack overflow"
	case strings.Contains(stderr, ": out of memory: "), strings.Contains(stderr, "fatal error: runtime: out of memory"),
		strings.Contains(stderr, "fatal error: out of memory"):
		return "out of memory"
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("killed by a signal (%v)", ws.Signal())
		}
	}
	for _, line := range strings.Split(stderr, "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "fatal error: "); ok {
			return m
		}
		if strings.HasPrefix(line, "panic: ") {
			return "panic"
		}
	}
	if ee != nil {
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	if waitErr != nil {
		return waitErr.Error()
	}
	return "exited"
}

// HeadBuffer keeps the first Max bytes written since the last Reset (a
// fatal error's first lines say what happened; the goroutine dump after
// them can be megabytes).
type HeadBuffer struct {
	Max int

	mu sync.Mutex
	b  []byte
}

func (h *HeadBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.Max - len(h.b); room > 0 {
		if len(p) < room {
			room = len(p)
		}
		h.b = append(h.b, p[:room]...)
	}
	return len(p), nil
}

// Reset forgets what was written.
func (h *HeadBuffer) Reset() {
	h.mu.Lock()
	h.b = h.b[:0]
	h.mu.Unlock()
}

func (h *HeadBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.b)
}

// Summary is the first lines that say why the process died ("fatal error:
// stack overflow", the watchdog's "out of memory" line, a panic), at most
// three, joined with "; ".
func (h *HeadBuffer) Summary() string {
	var keep []string
	for _, line := range strings.Split(h.String(), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "fatal error:") || strings.HasPrefix(line, "runtime:") ||
			strings.Contains(line, ": out of memory: ") || strings.HasPrefix(line, "panic:") {
			keep = append(keep, line)
		}
		if len(keep) == 3 {
			break
		}
	}
	return strings.Join(keep, "; ")
}
