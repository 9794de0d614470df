package idl

import (
	"fmt"
	"runtime"
	"strconv"
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

// TestMemoryPerInputByte guards the memory that parsing and validating
// take, per byte of input: "live" is the heap that the parsed files keep
// (measured after a garbage collection; the input itself, which the files
// share, is not counted), "allocated" everything parsing and validation
// allocate, garbage included, which bounds their peak heap from above.
// Measured on 2026-11-23 (Go 1.25, amd64, @webref/idl 3.x):
//
//	                                 live   allocated
//	corpus, one Parser ("check")     6.0     8.7
//	corpus, Parse for each file      5.6     8.4
//	300,000 arguments in one file   10.6    14.6
//
// (before the compact AST: 20 and 36 live, 24 and 43 at peak; before
// the optional parts of nodes went behind pointers: 7.3 and 16.4 live).
// The corpus must stay within 10 times its size, the file of arguments
// within 11: each argument ("long a123456, ", 13 bytes on average) is
// three tokens (24 bytes), an Argument (48), a Type (56, in a 64-byte
// allocation) and a slice element (8); see the package documentation.
func TestMemoryPerInputByte(t *testing.T) {
	check := func(t *testing.T, name string, srcs [][]byte, shared bool, maxLive float64) {
		live, alloc := memoryPerInputByte(t, srcs, shared)
		t.Logf("%s: %.2f live, %.2f allocated per input byte", name, live, alloc)
		if live > maxLive {
			t.Errorf("%s: %.2f bytes live per input byte, want at most %.1f", name, live, maxLive)
		}
	}
	t.Run("corpus", func(t *testing.T) {
		var srcs [][]byte
		for _, f := range loadCorpus(t) {
			srcs = append(srcs, f.Src)
		}
		check(t, "one Parser", srcs, true, 10)
		check(t, "Parse", srcs, false, 10)
	})
	t.Run("args=300000", func(t *testing.T) {
		check(t, "Parse", [][]byte{manyArguments(300000)}, false, 11)
	})
}

// memoryPerInputByte parses srcs (with one Parser when shared, else with
// Parse) and validates them together; it returns the heap still live
// after a collection and the bytes allocated meanwhile, both over the
// input size.
func memoryPerInputByte(t *testing.T, srcs [][]byte, shared bool) (live, allocated float64) {
	total := 0
	for _, s := range srcs {
		total += len(s)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var ps Parser
	files := make([]*File, 0, len(srcs))
	for i, s := range srcs {
		var f *File
		var err error
		if shared {
			f, err = ps.Parse(strconv.Itoa(i)+".idl", s)
		} else {
			f, err = Parse(strconv.Itoa(i)+".idl", s)
		}
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	Validate(files...)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(files)
	live = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(total)
	allocated = float64(after.TotalAlloc-before.TotalAlloc) / float64(total)
	return live, allocated
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

// TestParseRejectsTooLargeInput checks that input over the size limit is
// an error rather than wrapped offsets (the limit is lowered for the test).
func TestParseRejectsTooLargeInput(t *testing.T) {
	defer func(n int) { maxSourceSize = n }(maxSourceSize)
	maxSourceSize = 64
	src := []byte("interface I {};\n" + strings.Repeat(" ", 60))
	f, err := Parse("big.idl", src)
	if list, ok := err.(ErrorList); !ok || len(list) != 1 || !strings.Contains(list[0].Message, "too large") {
		t.Fatalf("error %v, want one \"too large\" error", err)
	}
	if f == nil || len(f.Definitions) != 0 || f.EOF() == nil {
		t.Fatalf("file %+v", f)
	}
	if _, err := Parse("small.idl", src[:60]); err != nil {
		t.Errorf("60 bytes: %v", err)
	}
}

// TestDuplicateArgumentsInLongLists checks the set that finds duplicate
// argument names in lists of more than 16 arguments against the pairwise
// comparison used for short ones: the same arguments are reported, each
// duplicate once, escaped names ("_a1") counting as their unescaped form.
func TestDuplicateArgumentsInLongLists(t *testing.T) {
	for _, n := range []int{10, 40, 3000} {
		var b strings.Builder
		b.WriteString("[Exposed=Window] interface I { undefined f(")
		var want []string
		seen := map[int]bool{}
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			k := i
			if i%7 == 3 {
				k = i / 3 // a name already used
			}
			name := fmt.Sprintf("a%d", k)
			if i%5 == 0 {
				name = "_" + name
			}
			if seen[k] {
				want = append(want, fmt.Sprintf("a%d", k))
			}
			seen[k] = true
			b.WriteString("long " + name)
		}
		b.WriteString("); };")
		f, err := Parse("dup.idl", []byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range Validate(f) {
			if p.Rule == "no-duplicate-argument" {
				got = append(got, p.Message)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("n=%d: %d duplicates reported, want %d", n, len(got), len(want))
		}
		for i, w := range want {
			if m := `argument name "` + w + `" is used twice`; got[i] != m {
				t.Errorf("n=%d: problem %d is %q, want %q", n, i, got[i], m)
			}
		}
	}
}
