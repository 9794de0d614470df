package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/internal/jsmsg"
	"github.com/grafana/sobek"
)

// made reports whether w is a window the browser made: a nil or
// zero-value *Window gets ErrNoWindow (or a zero result) from its methods
// rather than a nil-pointer panic.
func (w *Window) made() bool { return w != nil && w.s != nil && w.realm != nil }

// URL is the URL of the window's document (nil for a nil Window).
func (w *Window) URL() *url.URL {
	if w == nil {
		return nil
	}
	w.urlMu.Lock()
	defer w.urlMu.Unlock()
	if w.url == nil {
		return nil
	}
	u := *w.url
	return &u
}

// Realm is the window's realm. Use its runtime only inside its tasks
// (Realm.QueueTask).
func (w *Window) Realm() *bindings.Realm {
	if w == nil {
		return nil
	}
	return w.realm
}

// Document is the engine-side Document of the window (its navigable,
// origin, environment).
func (w *Window) Document() *html.Document {
	if w == nil {
		return nil
	}
	return w.htmlDoc
}

// Browser is the browser the window belongs to.
func (w *Window) Browser() *Browser {
	if w == nil {
		return nil
	}
	return w.s
}

// closedChan is the Loaded channel of a nil or zero-value Window: it does
// not block, and the window's methods then report ErrNoWindow.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Loaded is closed once the load event has fired at the window (at once for
// a nil or zero-value Window, whose methods report ErrNoWindow).
func (w *Window) Loaded() <-chan struct{} {
	if w != nil && w.remote != nil {
		return w.loaded
	}
	if !w.made() || w.loaded == nil {
		return closedChan
	}
	return w.loaded
}

// Close closes a window that Browser.Open opened: its navigable is
// destroyed (its documents unload, releasing their locks) and the realms of
// the window and its frames are closed.
func (w *Window) Close() {
	if !w.made() && (w == nil || w.remote == nil) {
		return
	}
	w.s.mu.Lock()
	for i, x := range w.s.windows {
		if x == w {
			w.s.windows = append(w.s.windows[:i], w.s.windows[i+1:]...)
			break
		}
	}
	w.s.mu.Unlock()
	w.close()
}

func (w *Window) close() {
	if w.remote != nil {
		w.s.closeRemote(w)
		return
	}
	if f := w.frame; f != nil && f.top {
		// The traversable goes, with whichever window is active in it.
		f.destroy(nil)
		return
	}
	w.closeRealms(nil)
	if w.htmlDoc != nil {
		w.htmlDoc.Navigable().Destroy()
	}
}

// EvalError is a JavaScript exception thrown by Window.Evaluate's
// expression, or the reason its promise was rejected with.
type EvalError struct {
	// Value is the thrown value, exported to Go (Export).
	Value any
	// Message is the value's string form.
	Message string
	// Rejected is true when a promise was rejected.
	Rejected bool
}

func (e *EvalError) Error() string {
	if e.Rejected {
		return "promise rejected: " + e.Message
	}
	return "uncaught: " + e.Message
}

// Evaluate evaluates the JavaScript expression (or script: the value of
// its last statement) in the window's realm, in a task of its event loop.
// When the value is a promise (or another thenable), Evaluate awaits it.
// The result is exported to Go (sobek's Export: numbers, strings, maps,
// slices). An exception or rejection is an *EvalError; ctx's end stops the
// wait (the script itself is not interrupted).
func (w *Window) Evaluate(ctx context.Context, expr string) (any, error) {
	if w != nil && w.remote != nil {
		p, id, tab := w.remote.target()
		return p.evaluate(ctx, id, tab, expr)
	}
	if !w.made() {
		return nil, ErrNoWindow
	}
	// A document that is not fully active runs no task until it is
	// restored (if ever): say so at once instead of waiting.
	if w.htmlDoc != nil && !w.htmlDoc.IsFullyActive() {
		return nil, ErrNotFullyActive
	}
	return evaluate(ctx, w.s, w.realm, expr)
}

type evalResult struct {
	v   any
	err error
}

func evaluate(ctx context.Context, b *Browser, realm *bindings.Realm, expr string) (any, error) {
	done := make(chan evalResult, 1)
	settle := func(r evalResult) {
		select {
		case done <- r:
		default:
		}
	}
	ok := realm.QueueTask(func(vm *sobek.Runtime) {
		b.guard(func() {
			v, err := vm.RunString(expr)
			if err != nil {
				settle(evalResult{err: thrown(err, false)})
				return
			}
			obj, isObj := v.(*sobek.Object)
			if !isObj {
				settle(evalResult{v: v.Export()})
				return
			}
			then, isFn := sobek.AssertFunction(obj.Get("then"))
			if !isFn {
				settle(evalResult{v: v.Export()})
				return
			}
			onOK := vm.ToValue(func(c sobek.FunctionCall) sobek.Value {
				settle(evalResult{v: c.Argument(0).Export()})
				return sobek.Undefined()
			})
			onErr := vm.ToValue(func(c sobek.FunctionCall) sobek.Value {
				settle(evalResult{err: &EvalError{Value: c.Argument(0).Export(), Message: jsmsg.Once(c.Argument(0).String()), Rejected: true}})
				return sobek.Undefined()
			})
			if _, err := then(obj, onOK, onErr); err != nil {
				settle(evalResult{err: thrown(err, false)})
			}
		})
	})
	if !ok {
		return nil, ErrClosed
	}
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-b.ctx.Done():
		if err := b.Err(); err != nil {
			return nil, err
		}
		return nil, ErrClosed
	}
}

func thrown(err error, rejected bool) error {
	var ex *sobek.Exception
	if errors.As(err, &ex) {
		return &EvalError{Value: ex.Value().Export(), Message: jsmsg.Once(ex.Value().String()), Rejected: rejected}
	}
	return err
}

// RunUntilIdle waits until the browser is idle: no document, script or
// worker is loading, and in every live window and worker realm no task is
// queued and no timer is active (windows whose documents are not fully
// active, e.g. kept in the back/forward cache, run nothing and are not
// probed). A page with a repeating timer is never
// idle: ctx bounds the wait. Idle is checked by probing every realm in a
// task of its event loop; two consecutive probes of all realms must agree,
// so a message in flight between two realms is not missed.
func (b *Browser) RunUntilIdle(ctx context.Context) error {
	if !b.created() {
		return ErrNotCreated
	}
	quiet := 0
	for quiet < 2 {
		if err := b.Err(); err != nil {
			return err
		}
		if b.ctx.Err() != nil {
			return ErrClosed
		}
		idle, err := b.probe(ctx)
		if err != nil {
			return err
		}
		if idle {
			quiet++
			continue
		}
		quiet = 0
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
	return nil
}

// probe reports whether every live realm had nothing to do when probed.
func (b *Browser) probe(ctx context.Context) (bool, error) {
	if b.busy.Load() > 0 {
		return false, nil
	}
	b.mu.Lock()
	realms := make([]*bindings.Realm, 0, len(b.realms))
	for r := range b.realms {
		realms = append(realms, r)
	}
	b.mu.Unlock()
	idle := true
	for _, r := range realms {
		// A window whose document is not fully active (kept in the
		// back/forward cache, or evicted from it), or a dedicated worker
		// of such a document (suspended), runs no tasks: it has nothing
		// to do until it is restored.
		if d := r.Env().SuspendingDocument(); d != nil && !d.IsFullyActive() {
			continue
		}
		got := make(chan bool, 1)
		loop := r.Env().ResponsibleEventLoop()
		if !r.QueueTask(func(*sobek.Runtime) { got <- r.ActiveTimers() == 0 && loop.Pending() == 0 }) {
			continue
		}
		tick := time.NewTicker(5 * time.Millisecond)
	wait:
		for {
			select {
			case ok := <-got:
				idle = idle && ok
				break wait
			case <-ctx.Done():
				tick.Stop()
				return false, ctx.Err()
			case <-tick.C:
				// A realm closed or an agent terminated meanwhile drops
				// the probe: it has nothing left to do.
				if loop.IsTerminated() || !b.hasRealm(r) {
					break wait
				}
			}
		}
		tick.Stop()
	}
	return idle && b.busy.Load() == 0, nil
}

func (b *Browser) hasRealm(r *bindings.Realm) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.realms[r]
	return ok
}

// String describes the window.
func (w *Window) String() string {
	if w == nil || w.url == nil {
		return "window (none)"
	}
	return fmt.Sprintf("window %s", w.url)
}

// DefineFunction defines a global function of the window's realm backed by
// fn. A Go panic in fn is a crash of the browser (Err, Config.OnPanic)
// rather than of the process; a sobek value fn panics with is thrown in
// script. Call it in Config.InitWindow or inside a task of the realm. On a
// nil or zero-value Window (which has no realm) it does nothing.
func (w *Window) DefineFunction(name string, length int, fn func(sobek.FunctionCall) sobek.Value) {
	if !w.made() {
		return
	}
	w.realm.DefineGlobalFunction(name, length, w.s.native(fn))
}
