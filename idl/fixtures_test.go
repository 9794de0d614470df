package idl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/internal/testenv"
)

// webidl2Fixtures returns the directory of webidl2.js's own test fixtures
// (the "test" directory of a checkout of https://github.com/w3c/webidl2.js,
// with syntax/ and invalid/ inside), from $WEBIDL2_FIXTURES. The npm
// package does not ship them and no npm package does, so the test skips
// when they are absent; they are never committed here.
func webidl2Fixtures(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WEBIDL2_FIXTURES")
	if dir == "" {
		t.Skip("webidl2.js's test fixtures are not in its npm package: set WEBIDL2_FIXTURES to the test/ directory of a checkout of github.com/w3c/webidl2.js (same version as the npm webidl2) to run this test")
	}
	if _, err := os.Stat(filepath.Join(dir, "syntax", "idl")); err != nil {
		if _, err2 := os.Stat(filepath.Join(dir, "test", "syntax", "idl")); err2 == nil {
			return filepath.Join(dir, "test")
		}
		t.Fatalf("WEBIDL2_FIXTURES=%s has no syntax/idl directory: %v", dir, err)
	}
	return dir
}

func fixtureFiles(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.webidl"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no .webidl files in %s (%v)", dir, err)
	}
	sort.Strings(names)
	return names
}

// TestWebidl2SyntaxFixtures parses every syntax fixture of webidl2.js and
// compares the JSON AST with its baseline (a concrete parse: the baseline
// ends with the "eof" node).
func TestWebidl2SyntaxFixtures(t *testing.T) {
	root := webidl2Fixtures(t)
	same, total := 0, 0
	for _, path := range fixtureFiles(t, filepath.Join(root, "syntax", "idl")) {
		total++
		name := filepath.Base(path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		base, err := os.ReadFile(filepath.Join(root, "syntax", "baseline", strings.TrimSuffix(name, ".webidl")+".json"))
		if err != nil {
			t.Errorf("%s: no baseline: %v", name, err)
			continue
		}
		f, perr := Parse(name, src)
		if perr != nil {
			t.Errorf("%s: %v", name, perr)
			continue
		}
		var got, want any
		js := f.AppendJSON(nil)
		js = append(js[:len(js)-1], []byte(`,{"type":"eof","value":""}]`)...)
		if len(f.Definitions) == 0 {
			js = []byte(`[{"type":"eof","value":""}]`)
		}
		if err := json.Unmarshal(js, &got); err != nil {
			t.Fatalf("%s: our JSON: %v", name, err)
		}
		if err := json.Unmarshal(base, &want); err != nil {
			t.Fatalf("%s: baseline: %v", name, err)
		}
		dropListValueTypes(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: AST differs from webidl2.js's baseline:%s", name, firstDiff(string(mustIndent(js)), string(mustIndent(base))))
			continue
		}
		same++
	}
	t.Logf("webidl2.js syntax fixtures: %d/%d identical ASTs", same, total)
}

// dropListValueTypes removes the "type" of the values of extended
// attribute value lists (rhs.value[i].type) from a baseline: the baselines
// record webidl2.js's AST objects, whose list values have a "type" getter
// that JSON.stringify(webidl2.parse(...)) does not output — and the JSON
// of this package is that output, byte for byte (see TestWebref).
func dropListValueTypes(v any) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			dropListValueTypes(x)
		}
	case map[string]any:
		if rhs, ok := v["rhs"].(map[string]any); ok {
			if list, ok := rhs["value"].([]any); ok {
				for _, x := range list {
					if m, ok := x.(map[string]any); ok {
						delete(m, "type")
					}
				}
			}
		}
		for _, x := range v {
			dropListValueTypes(x)
		}
	}
}

func mustIndent(js []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, js, "", "  "); err != nil {
		return js
	}
	return b.Bytes()
}

// TestWebidl2InvalidFixtures gives every invalid fixture of webidl2.js the
// verdict webidl2.js gives it: a syntax error, a validation error, or
// acceptance with only warnings.
func TestWebidl2InvalidFixtures(t *testing.T) {
	root := webidl2Fixtures(t)
	dir := filepath.Join(root, "invalid", "idl")
	webidl2 := testenv.NPMPackage(t, "webidl2")
	node := testenv.Node(t)
	script, _ := filepath.Abs("testdata/webidl2-fixtures.js")
	out, err := exec.Command(node, script, webidl2, dir).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	theirs := map[string]string{}
	theirRules := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r struct {
			File, Verdict string
			Rules         []string
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		theirs[r.File], theirRules[r.File] = r.Verdict, r.Rules
	}
	same, total := 0, 0
	for _, path := range fixtureFiles(t, dir) {
		total++
		name := filepath.Base(path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		verdict := "ok"
		var rules []string
		f, perr := Parse(name, src)
		if perr != nil {
			verdict = "syntax"
		} else {
			for _, p := range Validate(f) {
				if p.Rule == "undefined-type" {
					// The fixtures are not self-contained (they use
					// HTMLElement, Event, ...): webidl2.js does not
					// resolve names, so its verdicts ignore them.
					continue
				}
				rules = append(rules, p.Rule+":"+p.Severity.String())
				if p.Severity == SeverityError {
					verdict = "error"
				} else if verdict == "ok" {
					verdict = "warning"
				}
			}
		}
		if verdict != theirs[name] {
			t.Errorf("%s: verdict %s (%v), webidl2.js says %s (%v)", name, verdict, rules, theirs[name], theirRules[name])
			continue
		}
		same++
	}
	t.Logf("webidl2.js invalid fixtures: %d/%d same verdict", same, total)
}
