package idl

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// manyArguments is one operation with n arguments (one file, one line).
func manyArguments(n int) []byte {
	var b strings.Builder
	b.WriteString("[Exposed=Window] interface I {\n  undefined f(")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "long a%d", i)
	}
	b.WriteString(");\n  undefined f(DOMString s);\n};\n")
	return []byte(b.String())
}

// BenchmarkValidateArguments validates one operation of 3,000 and of
// 300,000 arguments (overloaded, so that its effective overload set is
// computed too). Validation is linear: ns/arg stays about the same from
// one size to the other (it was quadratic: the larger took 280 s).
func BenchmarkValidateArguments(b *testing.B) {
	for _, n := range []int{3000, 300000} {
		src := manyArguments(n)
		f, err := Parse("many.idl", src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("args=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if ps := Validate(f); len(ps) != 0 {
					b.Fatalf("problems: %v", ps[0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/arg")
		})
	}
}

// BenchmarkMemoryPerInputByte reports the heap that parsing and
// validating keeps live, per byte of input ("live/B"), on the @webref/idl
// corpus and on the 300,000-argument file. Validation itself keeps almost
// nothing; the figure is the AST's (tokens with their trivia, positions and
// nodes), which is about 20 times realistic IDL and up to about 36 times
// IDL made of one-character identifiers.
func BenchmarkMemoryPerInputByte(b *testing.B) {
	b.Run("corpus", func(b *testing.B) {
		var srcs [][]byte
		for _, f := range loadCorpus(b) {
			srcs = append(srcs, f.Src)
		}
		benchmarkLive(b, srcs)
	})
	b.Run("args=300000", func(b *testing.B) { benchmarkLive(b, [][]byte{manyArguments(300000)}) })
}

func benchmarkLive(b *testing.B, srcs [][]byte) {
	total := 0
	for _, s := range srcs {
		total += len(s)
	}
	var live float64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var files []*File
		for _, s := range srcs {
			f, err := Parse("x.idl", s)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, f)
		}
		Validate(files...)
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = float64(after.HeapAlloc) - float64(before.HeapAlloc)
		runtime.KeepAlive(files)
	}
	b.ReportMetric(live/float64(total), "live/B")
}

// TestValidateRejectsHostileInvalid checks the invalid IDL that validation
// once accepted: a typedef cycle longer than any depth limit, a union
// listing one type twice, and a dictionary that contains itself.
func TestValidateRejectsHostileInvalid(t *testing.T) {
	var cycle strings.Builder
	for i := 0; i < 11000; i++ {
		fmt.Fprintf(&cycle, "typedef T%d T%d;\n", (i+1)%11000, i)
	}
	cases := []struct{ src, rule string }{
		{cycle.String(), "typedef-cycle"},
		{"typedef (long or long) T;", "indistinguishable-union-members"},
		{"dictionary A { A m; };", "dictionary-includes-itself"},
		{"dictionary A { required A m; };", "dictionary-includes-itself"},
	}
	for _, c := range cases {
		f, err := Parse("hostile.idl", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Check(f)
		found := false
		for _, p := range Validate(f) {
			found = found || p.Rule == c.rule && p.Severity == SeverityError
		}
		if !found || err == nil {
			name := c.src
			if len(name) > 40 {
				name = name[:40] + "..."
			}
			t.Errorf("%q: no %s error (Check error %v)", name, c.rule, err)
		}
	}
}

// TestExcerptEscapesControlCharacters checks that an error excerpt shows
// the control characters of the input escaped, caret still aligned.
func TestExcerptEscapesControlCharacters(t *testing.T) {
	src := "enum E { \"\x1b[31mred\x1b]0;title\x07\", \xc2\x9b2J \xff };\n"
	_, err := Parse("esc.idl", []byte(src))
	list, ok := err.(ErrorList)
	if !ok || len(list) == 0 {
		t.Fatalf("no syntax error: %v", err)
	}
	ex := list[0].Excerpt()
	for _, c := range ex {
		if c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c < 0xa0 {
			t.Fatalf("excerpt has control character %U:\n%q", c, ex)
		}
	}
	want := "enum E { \"\\x1b[31mred\\x1b]0;title\\x07\", \\u009b2J \\xff };\n" +
		"                                        ^"
	if ex != want {
		t.Errorf("excerpt:\n%s\nwant:\n%s", ex, want)
	}
	if got := Sanitize("a\x1bb\tc"); got != `a\x1bb\x09c` {
		t.Errorf("Sanitize = %q", got)
	}
}
