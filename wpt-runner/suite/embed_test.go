package suite

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/wpt-runner/manifest"
)

// TestTree checks the embedded tree's layout: the harness is there, the
// runner-owned testharnessreport.js is not, every test file is a secure
// (.https.) test whose META scripts exist, and names look like WPT's.
func TestTree(t *testing.T) {
	root := Root()
	if _, err := fs.Stat(root, "resources/testharness.js"); err != nil {
		t.Errorf("resources/testharness.js: %v", err)
	}
	if _, err := fs.Stat(root, "resources/testharnessreport.js"); err == nil {
		t.Errorf("resources/testharnessreport.js must come from the runner, not the suite")
	}
	if _, err := fs.Stat(FS, "wpt/resources/testharness.js"); err != nil {
		t.Errorf("FS must hold the tree under wpt/: %v", err)
	}
	files, crashtests := 0, 0
	err := fs.WalkDir(root, "web-locks", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasPrefix(p, "web-locks/resources/") {
			return nil
		}
		if strings.HasPrefix(p, "web-locks/crashtests/") {
			// Crash tests: pages with a title, and no testharness.js.
			b, err := fs.ReadFile(root, p)
			if err != nil {
				return err
			}
			if !manifest.IsCrashtest(p) || !strings.HasSuffix(p, ".https.html") {
				t.Errorf("%s: crash tests are .https.html files", p)
			}
			if m, th := manifest.ParseHTMLMeta(b); m.Title == "" || th {
				t.Errorf("%s: a crash test has a <title> and does not load testharness.js", p)
			}
			crashtests++
			return nil
		}
		files++
		if !strings.HasSuffix(p, ".https.any.js") && !strings.HasSuffix(p, ".https.window.js") {
			t.Errorf("%s: test files are .https.any.js or .https.window.js", p)
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		m, _ := manifest.ParseMeta(b)
		if m.Title == "" {
			t.Errorf("%s: no META title", p)
		}
		for _, s := range m.Scripts {
			target := s
			if !strings.HasPrefix(s, "/") {
				target = path.Join(path.Dir(p), s)
			}
			if _, err := fs.Stat(root, strings.TrimPrefix(target, "/")); err != nil {
				t.Errorf("%s: META script %s: %v", p, s, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 || crashtests < 5 {
		t.Errorf("found %d test files and %d crash tests, want the whole suite", files, crashtests)
	}
}

// TestSubtestNamesStatic counts the literal subtest names in the suite's test
// files: every file's names are unique (the harness reports duplicates as
// ERROR) and there are at least 100 of them. Chromium's run (see
// TestSuiteInChromium) counts the subtests as they actually run.
func TestSubtestNamesStatic(t *testing.T) {
	root := Root()
	name := regexp.MustCompile(`(?m)^}, (['` + "`" + `])(.*)['` + "`" + `]\);$`)
	total := 0
	err := fs.WalkDir(root, "web-locks", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, "web-locks/resources/") {
			return err
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, m := range name.FindAllStringSubmatch(string(b), -1) {
			if seen[m[2]] {
				t.Errorf("%s: duplicate subtest name %q", p, m[2])
			}
			seen[m[2]] = true
			total++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total < 100 {
		t.Errorf("%d literal subtest names, want at least 100", total)
	}
	t.Logf("%d literal subtest names (loops add more)", total)
}
