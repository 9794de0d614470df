// Package testenv finds the external oracles some tests compare against:
// npm packages (webidl2.js, @webref/idl, upstream testharness.js) installed
// into a cache directory outside the repository, and Debian's Chromium.
//
// Outside CI a missing tool makes the test skip with a message saying how to
// get it; with CI=true (as .ci/run sets) it fails instead, so CI never
// silently skips an oracle.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// CacheDir is where npm packages are installed: $WEBLOCKS_NPM_CACHE, or
// $HOME/.cache/gowebengine-npm. It is never inside the repository.
func CacheDir() string {
	if d := os.Getenv("WEBLOCKS_NPM_CACHE"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		home = os.TempDir()
	}
	return filepath.Join(home, ".cache", "gowebengine-npm")
}

var npmMu sync.Mutex

// InCI reports whether the tests run under CI, where oracles are mandatory.
func InCI() bool { return os.Getenv("CI") == "true" }

// unavailable skips the test, or fails it under CI.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatalf("%s (required under CI=true)", msg)
	}
	t.Skip(msg)
}

// NPMPackage returns the directory of an npm package (for example
// "@webref/idl" or "webidl2") installed in CacheDir, installing it with npm
// when it is not there yet. spec may carry a version ("webidl2@24").
func NPMPackage(t testing.TB, spec string) string {
	t.Helper()
	dir, err := InstallNPM(spec)
	if err != nil {
		unavailable(t, "npm package %s unavailable: %v (install Node.js and npm: apt-get install -y nodejs npm)", spec, err)
	}
	return dir
}

// InstallNPM installs an npm package into CacheDir if needed and returns its
// directory. It is safe for concurrent use within one process; separate test
// processes install into the same prefix, which npm tolerates when the
// package is already present.
func InstallNPM(spec string) (string, error) {
	name := spec
	if i := strings.LastIndex(spec, "@"); i > 0 {
		name = spec[:i]
	}
	npmMu.Lock()
	defer npmMu.Unlock()
	prefix := CacheDir()
	dir := filepath.Join(prefix, "node_modules", filepath.FromSlash(name))
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return dir, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm not found on PATH")
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", prefix, spec)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("npm install %s: %v\n%s", spec, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		return "", fmt.Errorf("npm install %s did not produce %s", spec, dir)
	}
	return dir, nil
}

// Node returns the path of the node binary, skipping (or failing under CI)
// when there is none.
func Node(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node not found on PATH (apt-get install -y nodejs)")
	}
	return p
}

// ChromiumPath returns the Chromium binary: $CHROMIUM if set, else
// /usr/bin/chromium, else chromium on PATH; "" when there is none.
func ChromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

// Chromium returns the Chromium binary or skips the test (fails under CI)
// with a message saying how to install it.
func Chromium(t testing.TB) string {
	t.Helper()
	p := ChromiumPath()
	if p == "" {
		unavailable(t, "chromium not installed; install it with: apt-get install -y chromium")
	}
	return p
}

// UpstreamHarness returns the path of a file of upstream testharness.js's
// directory (for example "testharness.js" or "idlharness.js"), which the npm
// package wpt-runner ships.
func UpstreamHarness(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(NPMPackage(t, "wpt-runner"), "testharness", filepath.FromSlash(name))
}

// LongEnv is the variable that turns on the long checks (whole-corpus
// generation and the like). .ci/run sets it; README's `go test ./...` leaves
// it unset so that a fresh 2-core machine finishes within minutes.
const LongEnv = "WEBLOCKS_LONG_TESTS"

// Long skips the test unless $WEBLOCKS_LONG_TESTS is 1 (or the test binary
// runs under CI=true, where every check runs). why says what the test costs.
func Long(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("%s; skipped in -short mode", why)
	}
	if os.Getenv(LongEnv) != "1" && !InCI() {
		t.Skipf("%s; a long check: run with %s=1 (as .ci/run does)", why, LongEnv)
	}
}
