package codegen

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/idl"
)

// Error is a positioned problem the generator found in its input.
type Error struct {
	Pos idl.Position
	Msg string
}

// Error formats the error as "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

func posErrorf(pos idl.Position, format string, args ...any) error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (m *Model) errorAt(def string, pos idl.Position, format string, args ...any) {
	if m.Errors == nil {
		m.Errors = map[string][]error{}
	}
	m.Errors[def] = append(m.Errors[def], posErrorf(pos, format, args...))
}

// Detail formats an error of the generator or the parser like a compiler:
// "file:line:col: message", then the source line and a caret under the
// column, found in files (plain errors are returned as they are). An
// errors.Join of errors gives one detail after the other.
func Detail(err error, files ...*idl.File) string {
	if err == nil {
		return ""
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if _, isList := err.(idl.ErrorList); !isList {
			var parts []string
			for _, e := range j.Unwrap() {
				parts = append(parts, Detail(e, files...))
			}
			return strings.Join(parts, "\n")
		}
	}
	var list idl.ErrorList
	if errors.As(err, &list) {
		var parts []string
		for _, e := range list {
			parts = append(parts, e.Error()+"\n"+e.Excerpt())
		}
		return strings.Join(parts, "\n")
	}
	var ve *ValidationError
	if errors.As(err, &ve) {
		return ve.Problem.Detail()
	}
	var ce *Error
	if errors.As(err, &ce) {
		for _, f := range files {
			if f != nil && f.Name == ce.Pos.Filename {
				return ce.Error() + "\n" + idl.CaretContext(sourceLine(f.Source, ce.Pos.Offset), ce.Pos.Column)
			}
		}
	}
	return err.Error()
}

// sourceLine returns the line of src holding byte offset off.
func sourceLine(src []byte, off int) string {
	if off < 0 || off > len(src) {
		return ""
	}
	start := strings.LastIndexByte(string(src[:off]), '\n') + 1
	end := len(src)
	if i := strings.IndexByte(string(src[off:]), '\n'); i >= 0 {
		end = off + i
	}
	return strings.TrimRight(string(src[start:end]), "\r")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
