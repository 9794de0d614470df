package idl

import (
	"strings"
	"unicode/utf8"
)

// Error is a positioned syntax error.
type Error struct {
	Pos Position
	// Message is the plain message ("Missing semicolon after interface").
	Message string
	// Rule names the rule of the Web IDL grammar
	// (https://webidl.spec.whatwg.org/#idl-grammar) being parsed when the
	// error was found ("ArgumentList", "DictionaryMember"; "identifier"
	// for a reserved identifier).
	Rule string
	// Context describes the enclosing definition, like webidl2.js's
	// "since `interface Foo`" ("" at top level).
	Context string
	// Line is the source line the error is on, without its line break
	// (shortened around the error, with "...", when very long).
	Line string
	// Caret is the 1-based byte column of the error within Line.
	Caret int
}

// Error formats the error on one line: "file:line:col: rule: message",
// as a validation Problem is formatted.
func (e *Error) Error() string {
	return e.Pos.String() + ": " + e.Rule + ": " + e.Message
}

// Detail formats the error like a compiler: the first line as Error(), then
// the source line and a caret under the offending column.
func (e *Error) Detail() string {
	var b strings.Builder
	b.WriteString(e.Error())
	if e.Context != "" {
		b.WriteString(" (in `" + e.Context + "`)")
	}
	b.WriteByte('\n')
	b.WriteString(CaretContext(e.Line, e.Caret))
	return b.String()
}

// Excerpt returns the source line and a caret under the error.
func (e *Error) Excerpt() string { return CaretContext(e.Line, e.Caret) }

// CaretContext renders a source line and, under it, a caret at the 1-based
// byte column col. Tabs in the prefix are kept so the caret lines up.
// Control characters (other than tab) and invalid UTF-8 are shown escaped,
// as \x1b or \u009b, so that an excerpt can never send terminal escape
// sequences from the input to the terminal; the caret still lines up.
func CaretContext(line string, col int) string {
	var b, caret strings.Builder
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		var text string
		switch {
		case r == '\t':
			text = "\t"
		case r == utf8.RuneError && size == 1:
			text = `\x` + hex2(line[i])
		case r < 0x20 || r == 0x7f:
			text = `\x` + hex2(byte(r))
		case r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029:
			text = `\u` + hex2(byte(r>>8)) + hex2(byte(r))
		default:
			text = line[i : i+size]
		}
		b.WriteString(text)
		if i < col-1 {
			if text == "\t" {
				caret.WriteByte('\t')
			} else {
				// One space per character shown.
				caret.WriteString(strings.Repeat(" ", utf8.RuneCountInString(text)))
			}
		}
		i += size
	}
	b.WriteByte('\n')
	b.WriteString(caret.String())
	b.WriteByte('^')
	return b.String()
}

// Sanitize returns s with control characters (tab included) and invalid
// UTF-8 escaped as CaretContext shows them, for printing text taken from
// the input (names, string values) to a terminal.
func Sanitize(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r < 0xa0 || r == utf8.RuneError || r == 0x2028 || r == 0x2029 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + hex2(s[i]))
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x` + hex2(byte(r)))
		case r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029:
			b.WriteString(`\u` + hex2(byte(r>>8)) + hex2(byte(r)))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// ErrorList is the list of syntax errors of one parse; it implements error.
type ErrorList []*Error

// Error returns the first error and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return l[0].Error() + " (and " + itoa(len(l)-1) + " more errors)"
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// maxContext bounds how much of a long line is shown on each side of an
// error, so that reporting many errors on a huge one-line file stays cheap.
const maxContext = 200

// lineWindow returns the line of src around offset, without its line
// terminator, shortened to about maxContext bytes on each side, and the
// 1-based column of offset within the returned text.
func lineWindow[S string | []byte](src S, offset int) (string, int) {
	if offset > len(src) {
		offset = len(src)
	}
	start := offset
	for start > 0 && src[start-1] != '\n' && offset-start < maxContext {
		start--
	}
	prefix := ""
	if start > 0 && src[start-1] != '\n' {
		for start < offset && src[start]&0xC0 == 0x80 { // whole characters
			start++
		}
		prefix = "..."
	}
	end := offset
	for end < len(src) && src[end] != '\n' && end-offset < maxContext {
		end++
	}
	suffix := ""
	if end < len(src) && src[end] != '\n' {
		for end > offset && src[end]&0xC0 == 0x80 {
			end--
		}
		suffix = "..."
	}
	if suffix == "" && end > start && src[end-1] == '\r' {
		end--
	}
	return prefix + string(src[start:end]) + suffix, offset - start + 1 + len(prefix)
}
