package idl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzParse checks that the parser never panics or hangs on any input and
// that its results are consistent: errors carry valid positions; a clean
// parse writes back byte for byte, encodes to valid JSON, and formats to
// text that reparses to the same JSON with the same comments; Validate
// never panics.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"syntax", "syntax-spec", "errors", "validate"} {
		names, _ := filepath.Glob(filepath.Join("testdata", dir, "*.idl"))
		for _, n := range names {
			if src, err := os.ReadFile(n); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("/* unterminated"))
	f.Add([]byte(`"unterminated`))
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				panic(fmt.Sprintf("hang on %q", src))
			}
		}()
		file, err := Parse("fuzz.idl", src)
		if file == nil {
			t.Fatal("nil file")
		}
		if c := countTokens(string(src)); c != len(file.Tokens) {
			t.Fatalf("countTokens = %d, tokenize made %d tokens", c, len(file.Tokens))
		}
		Validate(file)
		if err != nil {
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.Offset < 0 || e.Pos.Offset > len(src) || e.Pos.Line < 1 || e.Pos.Column < 1 {
					t.Fatalf("bad error position %+v", e.Pos)
				}
				_ = e.Detail()
			}
			return
		}
		if got := Write(file); !bytes.Equal(got, src) {
			t.Fatalf("round trip differs:\n%q\n%q", got, src)
		}
		js, _ := file.MarshalJSON()
		if !json.Valid(js) {
			t.Fatalf("invalid JSON %s", js)
		}
		out := Format(file)
		g, err := Parse("fuzz.idl", out)
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, out)
		}
		js2, _ := g.MarshalJSON()
		if !bytes.Equal(js, js2) {
			t.Fatalf("formatting changed the AST:\n%s\n%s\nformatted:\n%s", js, js2, out)
		}
		if !sameMultiset(comments(file), comments(g)) {
			t.Fatalf("formatting changed comments:\n%q\n%q", comments(file), comments(g))
		}
		if again := Format(g); !bytes.Equal(again, out) {
			t.Fatalf("Format is not idempotent:\n%s\n----\n%s", out, again)
		}
	})
}
