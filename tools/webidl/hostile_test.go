package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

const unformatted = "enum   E {\"a\"};\n"
const formatted = "enum E { \"a\" };\n"

// TestRefusesNonRegularFiles checks that a FIFO (which would block for
// ever) and a device are refused with a message, and stdin is read.
func TestRefusesNonRegularFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.idl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, cmd := range [][]string{{"check", fifo}, {"ast", fifo}, {"fmt", fifo}, {"check", "/dev/zero"}, {"fmt", "-w", "/dev/null"}} {
		status, _, errs := runCmd(cmd...)
		if status == 0 || !strings.Contains(errs, "not a regular file") {
			t.Errorf("%v: status %d, stderr %q; want a refusal", cmd, status, errs)
		}
	}
	// A directory holding a FIFO named .idl: refused too.
	if status, _, errs := runCmd("check", dir); status == 0 || !strings.Contains(errs, "not a regular file") {
		t.Errorf("check DIR with a FIFO: status %d, stderr %q", status, errs)
	}
	// Standard input.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(unformatted)
	w.Close()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old }()
	if status, out, errs := runCmd("fmt", "-"); status != 0 || out != formatted {
		t.Errorf("fmt -: %d %q %q", status, out, errs)
	}
}

// TestCheckEscapesControlCharacters checks that no control character of
// the input reaches the output.
func TestCheckEscapesControlCharacters(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"esc.idl": "enum E { \"\x1b]0;pwned\x07\", \"\x1b]0;pwned\x07\" };\n[Exposed=Window] interface \x1b[2J {};\n",
	})
	_, out, errs := runCmd("check", dir)
	for _, s := range []string{out, errs} {
		for _, c := range s {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				t.Fatalf("output has control character %U:\n%q", c, s)
			}
		}
	}
	if !strings.Contains(out, `\x1b`) {
		t.Errorf("the escape character is not shown escaped:\n%s", out)
	}
}

// TestFmtWriteInPlace checks fmt -w: through a symbolic link it formats the
// target and keeps the link; it keeps the mode and hard links; it refuses
// read-only files.
func TestFmtWriteInPlace(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.idl")
	if err := os.WriteFile(target, []byte(unformatted), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.idl")
	if err := os.Symlink("target.idl", link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	hard := filepath.Join(dir, "hard.idl")
	if err := os.Link(target, hard); err != nil {
		t.Skipf("link: %v", err)
	}
	if status, _, errs := runCmd("fmt", "-w", link); status != 0 {
		t.Fatalf("fmt -w link: %d %s", status, errs)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced: %v %v", st.Mode(), err)
	}
	for _, p := range []string{target, hard} {
		got, _ := os.ReadFile(p)
		if string(got) != formatted {
			t.Errorf("%s = %q, want %q", filepath.Base(p), got, formatted)
		}
	}
	st, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o640 {
		t.Errorf("mode became %v, want 0640", st.Mode().Perm())
	}
	if hs, _ := os.Stat(hard); !os.SameFile(st, hs) {
		t.Errorf("the hard link was broken")
	}
	// Read-only: refused, content unchanged.
	ro := filepath.Join(dir, "ro.idl")
	if err := os.WriteFile(ro, []byte(unformatted), 0o444); err != nil {
		t.Fatal(err)
	}
	os.Chmod(ro, 0o444)
	status, _, errs := runCmd("fmt", "-w", ro)
	if got, _ := os.ReadFile(ro); status == 0 || string(got) != unformatted || !strings.Contains(errs, "read-only") {
		t.Errorf("fmt -w read-only: status %d, stderr %q, content %q", status, errs, got)
	}
	// Shorter output truncates; no stray temporary files are left.
	long := filepath.Join(dir, "long.idl")
	os.WriteFile(long, []byte("enum      E      {      \"a\"     }     ;\n\n\n\n"), 0o644)
	if status, _, errs := runCmd("fmt", "-w", long); status != 0 {
		t.Fatalf("fmt -w long: %d %s", status, errs)
	}
	if got, _ := os.ReadFile(long); string(got) != formatted {
		t.Errorf("long.idl = %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 5 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v", names)
	}
}

// TestCheckCountsSyntaxErrors checks that the summary counts syntax errors.
func TestCheckCountsSyntaxErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.idl": "enum E { a };\n"})
	status, _, errs := runCmd("check", dir)
	if status != 1 || !strings.Contains(errs, "1 files: 1 errors, 0 warnings") {
		t.Errorf("check bad.idl: status %d, summary %q", status, errs)
	}
}
