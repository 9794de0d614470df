package bindings

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/internal/jsmsg"
	"github.com/grafana/sobek"
)

// scriptErrorOf describes err (a *sobek.Exception, a compile error or an
// uncatchable sobek error) as a ScriptError.
func (r *Realm) scriptErrorOf(err error) *ScriptError {
	var jsErr *webidl.JSError
	if errors.As(err, &jsErr) {
		err = r.throwValue(webidl.AnyValue(jsErr.Value))
	}
	var ex *sobek.Exception
	if errors.As(err, &ex) {
		se := &ScriptError{Value: ex.Value()}
		if v := ex.Value(); v != nil {
			if s, ok := r.safeToString(v); ok {
				se.Message = jsmsg.Once(s)
			}
			if o, ok := v.(*sobek.Object); ok {
				if st := o.Get("stack"); st != nil && !sobek.IsUndefined(st) {
					se.Stack, _ = r.safeToString(st)
				}
			}
		}
		for _, f := range ex.Stack() {
			p := f.Position()
			if p.Filename == "" && p.Line == 0 {
				continue
			}
			se.Filename, se.Line, se.Column = p.Filename, p.Line, p.Column
			break
		}
		if se.Message == "" {
			se.Message = ex.Error()
		}
		return se
	}
	// sobek's stack overflow is uncatchable: it unwinds every JavaScript
	// frame, so try/catch cannot see it (see the package doc). When it
	// reaches the top of a task it is reported as the RangeError browsers
	// throw, so an error event listener or the console sees that value.
	var so *sobek.StackOverflowError
	if errors.As(err, &so) {
		const msg = "Maximum call stack size exceeded"
		se := &ScriptError{Value: sobek.Undefined(), Message: "RangeError: " + msg}
		if ctor, ok := r.vm.Get("RangeError").(*sobek.Object); ok {
			if obj, e := r.vm.New(ctor, r.vm.ToValue(msg)); e == nil {
				se.Value = obj
			}
		}
		return se
	}
	// Other uncatchable errors (interrupts) have no JS value.
	return &ScriptError{Value: sobek.Undefined(), Message: err.Error()}
}

// syntaxError turns a compile error into a ScriptError whose value is a
// SyntaxError object of the realm.
func (r *Realm) syntaxError(name string, err error) *ScriptError {
	msg := err.Error()
	var ce *sobek.CompilerSyntaxError
	if errors.As(err, &ce) {
		msg = ce.Message
	}
	se := &ScriptError{Filename: name, Message: "SyntaxError: " + msg}
	if ctor, ok := r.vm.Get("SyntaxError").(*sobek.Object); ok {
		if obj, e := r.vm.New(ctor, r.vm.ToValue(msg)); e == nil {
			se.Value = obj
		}
	}
	if se.Value == nil {
		se.Value = r.vm.ToValue(se.Message)
	}
	// Positions look like "name: Line 3:7 ..." in sobek's messages.
	if i := strings.Index(msg, "Line "); i >= 0 {
		var line, col int
		if _, e := fmt.Sscanf(msg[i:], "Line %d:%d", &line, &col); e == nil {
			se.Line, se.Column = line, col
		}
	}
	return se
}

// reportError runs "report an exception" for err and returns the
// ScriptError it reported. An interrupt (Close, Interrupt) is not a script
// error: it is returned but not reported.
func (r *Realm) reportError(err error) *ScriptError {
	se := r.scriptErrorOf(err)
	var ie *sobek.InterruptedError
	if errors.As(err, &ie) {
		return se
	}
	r.reportScriptError(se)
	return se
}

// reportScriptError is HTML's "report an exception" with the realm's
// global object as target.
func (r *Realm) reportScriptError(se *ScriptError) {
	// 1. If target is in error reporting mode, then return.
	if r.errorReporting {
		return
	}
	// 2. Set target's error reporting mode to true.
	r.errorReporting = true
	// 5-6. Let notHandled be the result of firing an event named error at
	// target, using ErrorEvent, with cancelable true, message, filename,
	// lineno, colno and error initialized.
	notHandled := r.fireErrorEvent(se)
	// 7. Set target's error reporting mode to false.
	r.errorReporting = false
	// 8. If notHandled is true, report the exception to the developer
	// console (and, for workers, to the owner: Options.OnError).
	if notHandled {
		r.printer(ConsoleError, "Uncaught "+se.Error())
		if r.opts.OnError != nil {
			r.opts.OnError(se)
		}
	}
}

// ReportException runs HTML's "report an exception" for a thrown value
// (for example the error of a sobek call made by an integrator). Loop
// goroutine only.
func (r *Realm) ReportException(err error) *ScriptError { return r.reportError(err) }
