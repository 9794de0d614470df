package idl

import (
	"bytes"
	"strings"
)

// Error is a positioned syntax error.
type Error struct {
	Pos Position
	// Message is the plain message ("Missing semicolon after interface").
	Message string
	// Context describes the enclosing definition, like webidl2.js's
	// "since `interface Foo`" ("" at top level).
	Context string
	// Line is the source line the error is on, without its line break.
	Line string
}

// Error formats the error on one line: "file:line:col: message".
func (e *Error) Error() string {
	return e.Pos.String() + ": " + e.Message
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
	b.WriteString(CaretContext(e.Line, e.Pos.Column))
	return b.String()
}

// CaretContext renders a source line and, under it, a caret at the 1-based
// byte column col. Tabs in the prefix are kept so the caret lines up.
func CaretContext(line string, col int) string {
	var b strings.Builder
	b.WriteString(line)
	b.WriteByte('\n')
	for i := 0; i < col-1 && i < len(line); i++ {
		if line[i] == '\t' {
			b.WriteByte('\t')
		} else if line[i]&0xC0 != 0x80 { // one space per character
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	return b.String()
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

// sourceLineBytes is sourceLine for a byte slice.
func sourceLineBytes(src []byte, offset int) string {
	if offset > len(src) {
		offset = len(src)
	}
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	end := bytes.IndexByte(src[offset:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += offset
	}
	return strings.TrimRight(string(src[start:end]), "\r")
}

// sourceLine returns the line of src that contains offset, without its
// line terminator.
func sourceLine(src string, offset int) string {
	if offset > len(src) {
		offset = len(src)
	}
	start := strings.LastIndexByte(src[:offset], '\n') + 1
	end := strings.IndexByte(src[offset:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += offset
	}
	return strings.TrimRight(src[start:end], "\r")
}
