package idl

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestTokenize(t *testing.T) {
	src := "/* c */ foo -bar _baz 12 -0x1F 017 1.5 -.5e3 2E10 \"s t\" ... -Infinity ? é\n\"multi\nline\" x"
	type tk struct {
		kind    TokenKind
		value   string
		keyword bool
		line    int32
		col     int32
	}
	want := []tk{
		{TokenIdentifier, "foo", false, 1, 9},
		{TokenIdentifier, "-bar", false, 1, 13},
		{TokenIdentifier, "_baz", false, 1, 18},
		{TokenInteger, "12", false, 1, 23},
		{TokenInteger, "-0x1F", false, 1, 26},
		{TokenInteger, "017", false, 1, 32},
		{TokenDecimal, "1.5", false, 1, 36},
		{TokenDecimal, "-.5e3", false, 1, 40},
		{TokenDecimal, "2E10", false, 1, 46},
		{TokenString, `"s t"`, false, 1, 51},
		{TokenOther, "...", false, 1, 57},
		{TokenIdentifier, "-Infinity", true, 1, 61},
		{TokenOther, "?", false, 1, 71},
		{TokenOther, "é", false, 1, 73},
		{TokenString, "\"multi\nline\"", false, 2, 1},
		{TokenIdentifier, "x", false, 3, 7},
		{TokenEOF, "", false, 3, 8},
	}
	toks := tokenize(src)
	f := &File{text: src, Tokens: toks}
	if len(toks) != len(want) {
		for i, tok := range toks {
			t.Logf("%v %q", tok.Kind(), f.Text(TokenRef(i+1)))
		}
		t.Fatalf("got %d tokens, want %d", len(toks), len(want))
	}
	for i, w := range want {
		g, r := toks[i], TokenRef(i+1)
		pos := f.Pos(r)
		if g.Kind() != w.kind || f.Text(r) != w.value || g.Keyword() != w.keyword || pos.Line != int(w.line) || pos.Column != int(w.col) {
			t.Errorf("token %d = %v %q kw=%v %d:%d, want %v %q kw=%v %d:%d", i, g.Kind(), f.Text(r), g.Keyword(), pos.Line, pos.Column,
				w.kind, w.value, w.keyword, w.line, w.col)
		}
	}
	if f.Trivia(1) != "/* c */ " {
		t.Errorf("trivia %q", f.Trivia(1))
	}
	// Offsets point at the token text.
	for i, tok := range toks {
		if int(tok.Offset)+int(tok.Len()) > len(src) || int(f.triviaStart(i)) > int(tok.Offset) {
			t.Errorf("token %+v is out of bounds", tok)
		}
	}
}

func TestTokenizeEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		src   string
		kinds []TokenKind
	}{
		{"/* unterminated", []TokenKind{TokenOther, TokenOther, TokenIdentifier, TokenEOF}},
		{`"unterminated`, []TokenKind{TokenOther, TokenIdentifier, TokenEOF}},
		{"// only a comment", []TokenKind{TokenEOF}},
		{"1.", []TokenKind{TokenDecimal, TokenEOF}},
		{".", []TokenKind{TokenOther, TokenEOF}},
		{"..", []TokenKind{TokenOther, TokenOther, TokenEOF}},
		{"08", []TokenKind{TokenInteger, TokenInteger, TokenEOF}},
		{"0x", []TokenKind{TokenInteger, TokenIdentifier, TokenEOF}},
		{"1e", []TokenKind{TokenInteger, TokenIdentifier, TokenEOF}},
		{"\xff\xfe", []TokenKind{TokenOther, TokenOther, TokenEOF}},
		{"", []TokenKind{TokenEOF}},
	} {
		toks := tokenize(tc.src)
		f := &File{text: tc.src, Tokens: toks}
		var got []TokenKind
		var text string
		for i, tok := range toks {
			got = append(got, tok.Kind())
			text += f.Trivia(TokenRef(i+1)) + f.Text(TokenRef(i+1))
		}
		if text != tc.src {
			t.Errorf("%q: tokens do not cover the source: %q", tc.src, text)
		}
		if len(got) != len(tc.kinds) {
			t.Errorf("%q: kinds %v, want %v", tc.src, got, tc.kinds)
			continue
		}
		for i := range got {
			if got[i] != tc.kinds[i] {
				t.Errorf("%q: kinds %v, want %v", tc.src, got, tc.kinds)
				break
			}
		}
	}
}

// TestPositions checks node positions: file, line, column and offset.
func TestPositions(t *testing.T) {
	src := "// head\n[Exposed=Window]\ninterface  Foo {\n\tattribute\tlong x;\n  undefined f(optional long y = 1);\n};\n"
	f, err := Parse("pos.idl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	it := f.Definitions[0].(*Interface)
	check := func(what string, p Position, line, col int) {
		t.Helper()
		if p.Filename != "pos.idl" || p.Line != line || p.Column != col {
			t.Errorf("%s at %v, want pos.idl:%d:%d", what, p, line, col)
		}
		// The offset agrees with line and column.
		lines := strings.SplitAfter(src, "\n")
		off := 0
		for _, l := range lines[:line-1] {
			off += len(l)
		}
		if p.Offset != off+col-1 {
			t.Errorf("%s: offset %d, want %d", what, p.Offset, off+col-1)
		}
	}
	check("interface", it.Pos(), 3, 1)
	check("ext attr", it.ExtAttrs.List()[0].Pos(), 2, 2)
	attr := it.Members[0].(*Attribute)
	check("attribute", attr.Pos(), 4, 2)
	check("attribute type", attr.Type.Pos(), 4, 12)
	check("attribute name", f.Pos(attr.Tokens.Name), 4, 17)
	op := it.Members[1].(*Operation)
	check("operation", op.Pos(), 5, 3)
	check("argument", op.Arguments[0].Pos(), 5, 15)
	check("default", op.Arguments[0].Default.Pos(), 5, 33)
	if got := it.Pos().String(); got != "pos.idl:3:1" {
		t.Errorf("Position.String() = %q", got)
	}
}

// TestRecovery checks that after a syntax error the parser goes on, keeps
// the definitions and members around it, and reports each error.
func TestRecovery(t *testing.T) {
	src := `[Exposed=Window] interface A {
  attribute long ok1;
  attribute long;
  undefined ok2();
  getter;
  const long OK3 = 1;
};
dictionary Broken { long };
enum E { "a" };
typedef ;
callback C = undefined ();
`
	f, err := Parse("r.idl", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	var msgs []string
	for _, e := range list {
		msgs = append(msgs, e.Pos.String()+" "+e.Message)
	}
	want := []string{
		"r.idl:3:17 Attribute lacks a name",
		"r.idl:5:9 Missing return type",
		"r.idl:8:26 Dictionary member lacks a name",
		"r.idl:10:9 Typedef lacks a type",
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	var names []string
	for _, d := range f.Definitions {
		names = append(names, d.DefinitionName())
	}
	if got := strings.Join(names, " "); got != "A Broken E C" {
		t.Errorf("definitions %q", got)
	}
	var members []string
	for _, m := range f.Definitions[0].(*Interface).Members {
		members = append(members, m.MemberName())
	}
	if got := strings.Join(members, " "); got != "ok1 ok2 OK3" {
		t.Errorf("members %q", got)
	}
	if !strings.Contains(err.Error(), "(and 3 more errors)") {
		t.Errorf("Error() = %q", err.Error())
	}
	var one *Error
	if !errors.As(err, &one) || one.Message != "Attribute lacks a name" {
		t.Errorf("errors.As *Error: %v", one)
	}
}

// TestDeepNesting checks that absurdly nested input gives an error rather
// than exhausting the stack.
func TestDeepNesting(t *testing.T) {
	src := "typedef " + strings.Repeat("sequence<", 100000) + "long" + strings.Repeat(">", 100000) + " T;"
	_, err := Parse("deep.idl", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "Nesting too deep") {
		t.Errorf("err = %v", err)
	}
	src = "typedef " + strings.Repeat("(long or ", 100000) + "long" + strings.Repeat(")", 100000) + " T;"
	if _, err := Parse("deep.idl", []byte(src)); err == nil {
		t.Error("no error for deep unions")
	}
	ok := "typedef " + strings.Repeat("sequence<", 100) + "long" + strings.Repeat(">", 100) + " T;"
	if _, err := Parse("ok.idl", []byte(ok)); err != nil {
		t.Errorf("100 levels: %v", err)
	}
}

func TestJSONStrings(t *testing.T) {
	for in, want := range map[string]string{
		"plain":          `"plain"`,
		"q\"b\\":         `"q\"b\\"`,
		"\n\r\t\b\f\x01": `"\n\r\t\b\f\u0001"`,
		"é€😀":            `"é€😀"`,
		"bad\xffutf8":    "\"bad\uFFFDutf8\"",
		"<>&\u2028":      "\"<>&\u2028\"",
	} {
		if got := string(appendString(nil, in)); got != want {
			t.Errorf("appendString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestTypeString(t *testing.T) {
	f, err := Parse("t.idl", []byte("typedef ([Clamp] unsigned long long or sequence<DOMString?> or record<DOMString, (A or B)?>)? T;"))
	if err != nil {
		t.Fatal(err)
	}
	got := f.Definitions[0].(*Typedef).Type.String()
	if want := "(unsigned long long or sequence<DOMString?> or record<DOMString, (A or B)?>)?"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestManyErrorsOnOneHugeLine checks that error reporting stays cheap and
// bounded on a huge single-line input full of errors.
func TestManyErrorsOnOneHugeLine(t *testing.T) {
	src := strings.Repeat("x; ", 200000)
	_, err := Parse("huge.idl", []byte(src))
	list, ok := err.(ErrorList)
	if !ok {
		t.Fatalf("err = %v", err)
	}
	if len(list) > maxErrors+1 {
		t.Errorf("%d errors, want at most %d", len(list), maxErrors+1)
	}
	if last := list[len(list)-1]; last.Message != "Too many errors; giving up" {
		t.Errorf("last error %q", last.Message)
	}
	for _, e := range list {
		if len(e.Line) > 2*maxContext+10 {
			t.Fatalf("context line of %d bytes", len(e.Line))
		}
		if e.Line[e.Caret-1] != 'x' {
			t.Fatalf("caret %d does not point at the token in %q", e.Caret, e.Line)
		}
	}
}

func TestLineWindow(t *testing.T) {
	long := strings.Repeat("a", 300) + "X" + strings.Repeat("b", 300)
	line, caret := lineWindow(long, 300)
	if !strings.HasPrefix(line, "...") || !strings.HasSuffix(line, "...") || line[caret-1] != 'X' {
		t.Errorf("window %q caret %d", line, caret)
	}
	line, caret = lineWindow("first\r\nsecond line\r\nthird", 10)
	if line != "second line" || caret != 4 {
		t.Errorf("got %q %d", line, caret)
	}
	line, caret = lineWindow("ab", 2)
	if line != "ab" || caret != 3 {
		t.Errorf("at end: %q %d", line, caret)
	}
}

// TestManyUnterminatedComments checks that many unterminated "/*" do not
// make tokenizing quadratic.
func TestManyUnterminatedComments(t *testing.T) {
	src := strings.Repeat("/* ", 300000)
	start := time.Now()
	toks := tokenize(src)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("tokenize took %v", d)
	}
	if len(toks) != 600001 { // "/" and "*" for each, then EOF
		t.Errorf("%d tokens", len(toks))
	}
}

// TestPositionLineTable checks that File.Position, which looks lines up
// in a table, agrees with counting line breaks, for every token and node
// start of a source with CRLF line ends, comments and a multi-line string.
func TestPositionLineTable(t *testing.T) {
	src := "// c\r\n/* a\nb */ [Exposed=Window]\ninterface I {\r\n  attribute long x; // t\n\n" +
		"  undefined f(optional long a = 1, \"s\n t\" b);\n};\nenum E { \"x\" };"
	f, _ := Parse("lines.idl", []byte(src))
	naive := func(off int) Position {
		line := 1 + strings.Count(src[:off], "\n")
		return Position{Filename: "lines.idl", Offset: off, Line: line, Column: off - (strings.LastIndexByte(src[:off], '\n') + 1) + 1}
	}
	if len(f.Tokens) < 20 {
		t.Fatalf("%d tokens", len(f.Tokens))
	}
	for i, tok := range f.Tokens {
		if got, want := f.Pos(TokenRef(i+1)), naive(int(tok.Offset)); got != want {
			t.Errorf("token %d %q: %v, want %v", i, f.Text(TokenRef(i+1)), got, want)
		}
	}
	for _, d := range f.Definitions {
		if got, want := d.Pos(), naive(int(LocOf(d).Offset)); got != want || !got.IsValid() {
			t.Errorf("%s: %v, want %v", d.DefinitionName(), got, want)
		}
	}
	if got := (&File{Name: "hand", text: "a\nb"}).Position(2); got.Line != 2 || got.Column != 1 {
		t.Errorf("hand-built file: %v", got)
	}
}

// TestDerivedTokens checks the tokens that Type, Argument and ExtAttrList
// derive rather than store.
func TestDerivedTokens(t *testing.T) {
	src := "[Exposed=Window] interface I {\n" +
		"  undefined f(optional [Clamp] unsigned long long? a = 1, (sequence<DOMString> or record<DOMString, long>)? b, long... c);\n};"
	f, err := Parse("d.idl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	text := func(r TokenRef) string { return f.Text(r) }
	it := f.Definitions[0].(*Interface)
	if br := it.ExtAttrs.Tokens(); text(br.Open) != "[" || text(br.Close) != "]" || br.Close != br.Open+4 {
		t.Errorf("interface brackets %v", br)
	}
	args := it.Members[0].(*Operation).Arguments
	a := args[0]
	if tk := a.Tokens(); text(tk.Optional) != "optional" || tk.Variadic != 0 || text(tk.Name) != "a" || text(tk.Separator) != "," {
		t.Errorf("argument a: %+v", tk)
	}
	if tk := a.Type.Tokens(); text(tk.Prefix) != "unsigned" || text(tk.Base) != "long" || text(tk.Postfix) != "long" ||
		text(tk.Nullable) != "?" || tk.Postfix != tk.Base+1 || tk.Separator != 0 {
		t.Errorf("type of a: %+v", tk)
	}
	if br := a.Type.ExtAttrs.Tokens(); text(br.Open) != "[" || text(br.Close) != "]" {
		t.Errorf("type brackets %+v", br)
	}
	u := args[1].Type
	if tk := u.Tokens(); text(tk.Open) != "(" || text(tk.Close) != ")" || text(tk.Nullable) != "?" {
		t.Errorf("union: %+v", tk)
	}
	if tk := u.Subtypes()[0].Tokens(); text(tk.Base) != "sequence" || text(tk.Open) != "<" || text(tk.Close) != ">" || text(tk.Separator) != "or" {
		t.Errorf("sequence: %+v", tk)
	}
	rec := u.Subtypes()[1]
	if tk := rec.Subtypes()[0].Tokens(); text(tk.Base) != "DOMString" || text(tk.Separator) != "," {
		t.Errorf("record key: %+v", tk)
	}
	if tk := rec.Tokens(); text(tk.Close) != ">" || tk.Separator != 0 {
		t.Errorf("record: %+v", tk)
	}
	if tk := args[2].Tokens(); text(tk.Variadic) != "..." || text(tk.Name) != "c" || tk.Separator != 0 || tk.Optional != 0 {
		t.Errorf("argument c: %+v", tk)
	}
	var hand Type
	if tk := hand.Tokens(); tk != (TypeTokens{}) {
		t.Errorf("hand-built type: %+v", tk)
	}
}
