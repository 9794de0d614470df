package idl

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testFile is one file of a testdata directory.
type testFile struct {
	Path, Name string
	Src        []byte
}

func readTestdata(t *testing.T, dir string) []testFile {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", dir, "*.idl"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatalf("no .idl files in testdata/%s", dir)
	}
	var out []testFile
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, testFile{n, filepath.Base(n), src})
	}
	return out
}

// golden compares got with the golden file path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:%s", path, firstDiff(string(got), string(want)))
	}
}

// TestSyntaxGolden parses our own syntax cases (one per grammar production,
// see testdata/syntax and testdata/syntax-spec), checks they parse cleanly,
// round-trip byte for byte and give the golden JSON.
func TestSyntaxGolden(t *testing.T) {
	for _, dir := range []string{"syntax", "syntax-spec"} {
		for _, f := range readTestdata(t, dir) {
			file, err := Parse(f.Name, f.Src)
			if err != nil {
				t.Errorf("%s: %v", f.Path, err)
				continue
			}
			if got := Write(file); !bytes.Equal(got, f.Src) {
				t.Errorf("%s: round trip differs:%s", f.Path, firstDiff(string(got), string(f.Src)))
			}
			js, _ := file.MarshalJSON()
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, js, "", " "); err != nil {
				t.Fatalf("%s: invalid JSON: %v", f.Path, err)
			}
			pretty.WriteByte('\n')
			golden(t, strings.TrimSuffix(f.Path, ".idl")+".json", pretty.Bytes())
		}
	}
}

// TestSyntaxWebidl2 compares our JSON for testdata/syntax with webidl2.js's.
func TestSyntaxWebidl2(t *testing.T) {
	oracle := runOracle(t, filepath.Join("testdata", "syntax"))
	for _, f := range readTestdata(t, "syntax") {
		o := oracle[f.Name]
		if o.Error != "" {
			t.Errorf("%s: webidl2.js rejects it: %s (line %d)", f.Path, o.Error, o.Line)
			continue
		}
		file, err := Parse(f.Name, f.Src)
		if err != nil {
			t.Errorf("%s: %v", f.Path, err)
			continue
		}
		js, _ := file.MarshalJSON()
		var a, b any
		if err := json.Unmarshal(js, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(o.JSON), &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: JSON differs from webidl2.js:%s", f.Path, firstDiff(string(js), o.JSON))
		}
	}
}

// TestSyntaxErrorsGolden checks the errors reported for each case of
// testdata/errors against golden files (message, grammar rule, position,
// caret context), and that every error names its grammar rule.
func TestSyntaxErrorsGolden(t *testing.T) {
	for _, f := range readTestdata(t, "errors") {
		file, err := Parse(f.Path, f.Src)
		if err == nil {
			t.Errorf("%s: no error", f.Path)
			continue
		}
		if file == nil {
			t.Fatalf("%s: nil file", f.Path)
		}
		var b strings.Builder
		for _, e := range err.(ErrorList) {
			if e.Rule == "" {
				t.Errorf("%s: %v names no grammar rule", f.Path, e)
			}
			b.WriteString(e.Detail())
			b.WriteByte('\n')
		}
		golden(t, strings.TrimSuffix(f.Path, ".idl")+".err", []byte(b.String()))
	}
}

// TestSyntaxErrorsWebidl2 checks that our first error for each case of
// testdata/errors has webidl2.js's message and line.
func TestSyntaxErrorsWebidl2(t *testing.T) {
	oracle := runOracle(t, filepath.Join("testdata", "errors"))
	same := 0
	files := readTestdata(t, "errors")
	for _, f := range files {
		o := oracle[f.Name]
		if o.Error == "" {
			t.Errorf("%s: webidl2.js accepts it", f.Path)
			continue
		}
		_, err := Parse(f.Name, f.Src)
		if err == nil {
			t.Errorf("%s: we accept it; webidl2.js says %q", f.Path, o.Error)
			continue
		}
		first := err.(ErrorList)[0]
		if first.Message != o.Error || first.Pos.Line != o.Line {
			t.Errorf("%s: got %q at line %d, webidl2.js %q at line %d", f.Path, first.Message, first.Pos.Line, o.Error, o.Line)
			continue
		}
		same++
	}
	t.Logf("%d/%d error cases give webidl2.js's message and line", same, len(files))
}
