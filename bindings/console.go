package bindings

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/grafana/sobek"
)

// ConsoleLevel is the log level of a console message (Console Standard
// "logLevel").
type ConsoleLevel string

// The console log levels.
const (
	ConsoleLog   ConsoleLevel = "log"
	ConsoleInfo  ConsoleLevel = "info"
	ConsoleWarn  ConsoleLevel = "warn"
	ConsoleError ConsoleLevel = "error"
	ConsoleDebug ConsoleLevel = "debug"
)

// installConsole defines the console namespace object on global (the
// real global object; see setUp, which has it done on first use): a plain
// object whose [[Prototype]] is an empty object (Console Standard), with
// log/info/warn/error/debug/trace/assert operations that format their
// arguments with the Console Standard "formatter" and hand the result to the
// realm's console hook. It only uses sobek's Go API (no built-in script
// can have replaced).
func (r *Realm) installConsole(global *sobek.Object) {
	vm := r.vm
	proto := vm.NewObject()
	console := vm.CreateObject(proto)
	_ = console.DefineDataPropertySymbol(sobek.SymToStringTag, vm.ToValue("console"), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	for _, level := range []ConsoleLevel{ConsoleLog, ConsoleInfo, ConsoleWarn, ConsoleError, ConsoleDebug} {
		level := level
		r.defineMethod(console, string(level), 0, func(call sobek.FunctionCall) sobek.Value {
			r.logger(level, call.Arguments)
			return sobek.Undefined()
		})
	}
	r.defineMethod(console, "trace", 0, func(call sobek.FunctionCall) sobek.Value {
		r.logger(ConsoleLog, call.Arguments)
		return sobek.Undefined()
	})
	// assert(condition, ...data): 1. If condition is true, return.
	r.defineMethod(console, "assert", 0, func(call sobek.FunctionCall) sobek.Value {
		if call.Argument(0).ToBoolean() {
			return sobek.Undefined()
		}
		// 2. Let message be "Assertion failed".
		data := append([]sobek.Value(nil), call.Arguments[min(1, len(call.Arguments)):]...)
		const message = "Assertion failed"
		if len(data) == 0 {
			// 3. If data is empty, append message to data.
			data = append(data, vm.ToValue(message))
		} else if s, ok := data[0].(sobek.String); ok {
			// 4.2 If first is not a String, prepend message; else
			// concatenate message, ":", " " and first.
			data[0] = vm.ToValue(message + ": " + s.String())
		} else {
			data = append([]sobek.Value{vm.ToValue(message)}, data...)
		}
		// 5. Perform Logger("assert", data).
		r.logger(ConsoleError, data)
		return sobek.Undefined()
	})
	_ = global.DefineDataProperty("console", console, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
}

// logger is the Console Standard "Logger(logLevel, args)" abstract operation.
func (r *Realm) logger(level ConsoleLevel, args []sobek.Value) {
	// 1. If args is empty, return.
	if len(args) == 0 {
		return
	}
	// 2-4. Let first be args[0]; if rest is empty, print first; otherwise
	// format them.
	var parts []string
	if len(args) > 1 {
		args = r.formatter(args)
	}
	for _, a := range args {
		parts = append(parts, r.consoleString(a, true))
	}
	r.printer(level, strings.Join(parts, " "))
}

// formatter is the Console Standard "Formatter(args)": it substitutes the
// format specifiers of args[0] with the following arguments.
func (r *Realm) formatter(args []sobek.Value) []sobek.Value {
	target, ok := args[0].(sobek.String)
	if !ok {
		return args
	}
	format := target.String()
	rest := args[1:]
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		spec := format[i+1]
		if spec == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		if len(rest) == 0 || !strings.ContainsRune("sdifoOc", rune(spec)) {
			b.WriteByte(c)
			continue
		}
		cur := rest[0]
		switch spec {
		case 's':
			b.WriteString(r.consoleString(cur, false))
		case 'd', 'i':
			if _, isSym := cur.(*sobek.Symbol); isSym {
				b.WriteString("NaN")
			} else {
				f := cur.ToFloat()
				if math.IsNaN(f) || math.IsInf(f, 0) {
					b.WriteString("NaN")
				} else {
					b.WriteString(strconv.FormatFloat(math.Trunc(f), 'f', -1, 64))
				}
			}
		case 'f':
			if _, isSym := cur.(*sobek.Symbol); isSym {
				b.WriteString("NaN")
			} else {
				b.WriteString(r.consoleString(sobek.Value(r.vm.ToValue(cur.ToFloat())), false))
			}
		case 'o', 'O':
			b.WriteString(r.consoleString(cur, true))
		case 'c':
			// CSS styling is ignored by a text console.
		}
		rest = rest[1:]
		i++
	}
	return append([]sobek.Value{r.vm.ToValue(b.String())}, rest...)
}

// consoleString renders a value for the text console. Strings print raw;
// other values print the way developer consoles show them (JSON-like for
// plain objects and arrays, the error's stack head for errors).
func (r *Realm) consoleString(v sobek.Value, quoteObjects bool) string {
	switch {
	case v == nil || sobek.IsUndefined(v):
		return "undefined"
	case sobek.IsNull(v):
		return "null"
	}
	switch x := v.(type) {
	case sobek.String:
		return x.String()
	case *sobek.Symbol:
		return "Symbol(" + x.String() + ")"
	case *sobek.Object:
		if !quoteObjects {
			if s, ok := r.safeToString(x); ok {
				return s
			}
			return "[object]"
		}
		if _, isFunc := sobek.AssertFunction(x); isFunc {
			return "function " + x.Get("name").String() + "()"
		}
		if x.ClassName() == "Error" || r.isDOMExceptionObject(x) {
			if s, ok := r.safeToString(x); ok {
				return s
			}
		}
		var out string
		ex := r.vm.Try(func() {
			out = fmt.Sprint(r.jsonStringify(x))
		})
		if ex == nil && out != "" && out != "undefined" {
			return out
		}
		if s, ok := r.safeToString(x); ok {
			return s
		}
		return "[object]"
	}
	if s, ok := r.safeToString(v); ok {
		return s
	}
	return "?"
}

// safeToString runs ToString, catching any exception a user-defined
// toString throws.
func (r *Realm) safeToString(v sobek.Value) (s string, ok bool) {
	ex := r.vm.Try(func() { s = v.String() })
	return s, ex == nil
}

// jsonStringify calls the realm's original JSON.stringify.
func (r *Realm) jsonStringify(v sobek.Value) string {
	res, err := r.jsonStringifyFn(sobek.Undefined(), v)
	if err != nil || res == nil || sobek.IsUndefined(res) {
		return ""
	}
	return res.String()
}
