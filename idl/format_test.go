package idl

import (
	"bytes"
	"strings"
	"testing"
)

// comments lists the comments of a file's trivia, normalized for
// comparison (line endings).
func comments(f *File) []string {
	var out []string
	for i := range f.Tokens {
		t, l := splitTrivia(f.Trivia(TokenRef(i + 1)))
		out = append(out, t...)
		out = append(out, l...)
	}
	return out
}

func sameMultiset(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
		if m[s] < 0 {
			return false
		}
	}
	return true
}

// checkFormat verifies the formatter's properties on one valid source.
func checkFormat(t *testing.T, name string, src []byte) []byte {
	t.Helper()
	f, err := Parse(name, src)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil
	}
	out := Format(f)
	g, err := Parse(name, out)
	if err != nil {
		t.Errorf("%s: formatted output does not parse: %v\n%s", name, err, out)
		return nil
	}
	a, _ := f.MarshalJSON()
	b, _ := g.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Errorf("%s: formatting changed the AST:%s", name, firstDiff(string(b), string(a)))
	}
	if !sameMultiset(comments(f), comments(g)) {
		t.Errorf("%s: formatting lost or changed comments:\n%q\n%q", name, comments(f), comments(g))
	}
	if again := Format(g); !bytes.Equal(again, out) {
		t.Errorf("%s: Format is not idempotent:%s", name, firstDiff(string(again), string(out)))
	}
	return out
}

func TestFormatSyntaxCases(t *testing.T) {
	for _, dir := range []string{"syntax", "syntax-spec"} {
		for _, f := range readTestdata(t, dir) {
			out := checkFormat(t, f.Path, f.Src)
			golden(t, strings.TrimSuffix(f.Path, ".idl")+".fmt", out)
		}
	}
}

func TestFormatExample(t *testing.T) {
	src := `// File comment.
[Exposed=Window,SecureContext] interface   Foo:Bar{
  // Leading.
  attribute   unsigned  long   long x ; // trailing

  Promise<undefined>f( optional  Options o={} ,long...rest);
  getter DOMString(unsigned long i);
  stringifier;
  };
A includes B; A includes C;
enum E {"a","b"};
`
	want := `// File comment.
[Exposed=Window, SecureContext]
interface Foo : Bar {
  // Leading.
  attribute unsigned long long x; // trailing

  Promise<undefined> f(optional Options o = {}, long... rest);
  getter DOMString (unsigned long i);
  stringifier;
};

A includes B;
A includes C;

enum E { "a", "b" };
`
	got := checkFormat(t, "example.idl", []byte(src))
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
