package dom

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestDOMExceptionCodes(t *testing.T) {
	want := map[string]int{
		"IndexSizeError": 1, "HierarchyRequestError": 3, "WrongDocumentError": 4, "InvalidCharacterError": 5,
		"NoModificationAllowedError": 7, "NotFoundError": 8, "NotSupportedError": 9, "InUseAttributeError": 10,
		"InvalidStateError": 11, "SyntaxError": 12, "InvalidModificationError": 13, "NamespaceError": 14,
		"InvalidAccessError": 15, "TypeMismatchError": 17, "SecurityError": 18, "NetworkError": 19,
		"AbortError": 20, "URLMismatchError": 21, "QuotaExceededError": 22, "TimeoutError": 23,
		"InvalidNodeTypeError": 24, "DataCloneError": 25, "EncodingError": 0, "NotReadableError": 0,
		"UnknownError": 0, "ConstraintError": 0, "DataError": 0, "TransactionInactiveError": 0,
		"ReadOnlyError": 0, "VersionError": 0, "OperationError": 0, "NotAllowedError": 0, "OptOutError": 0,
	}
	if len(ErrorNames) != len(want) {
		t.Fatalf("%d names, want %d", len(ErrorNames), len(want))
	}
	for name, code := range want {
		if !IsErrorName(name) {
			t.Errorf("%s missing", name)
		}
		if got := NewDOMException("m", name).Code(); got != code {
			t.Errorf("%s code %d, want %d", name, got, code)
		}
	}
	if NewDOMException("m", "Custom").Code() != 0 || IsErrorName("Custom") {
		t.Error("unknown names have code 0")
	}
	// Every legacy constant value 1..25 appears once, in order.
	for i, c := range LegacyCodeConstants {
		if c.Value != i+1 {
			t.Errorf("constant %s = %d at %d", c.Name, c.Value, i)
		}
	}
	// Codes of names agree with constants named after them.
	byValue := map[int]string{}
	for _, c := range LegacyCodeConstants {
		byValue[c.Value] = c.Name
	}
	if byValue[LegacyCode(AbortError)] != "ABORT_ERR" || byValue[LegacyCode(TimeoutError)] != "TIMEOUT_ERR" ||
		byValue[LegacyCode(InvalidStateError)] != "INVALID_STATE_ERR" || byValue[LegacyCode(SecurityError)] != "SECURITY_ERR" {
		t.Error("constants and codes disagree")
	}
}

func TestDOMExceptionError(t *testing.T) {
	e := NewDOMException("no", NotSupportedError)
	if e.Error() != "NotSupportedError: no" {
		t.Error(e.Error())
	}
	if NewDOMException("", AbortError).Error() != "AbortError" {
		t.Error("no message")
	}
	if NewDOMException("x", "").Name != "Error" {
		t.Error("default name is Error")
	}
	var err error = fmt.Errorf("wrapped: %w", e)
	if !errors.Is(err, &DOMException{Name: NotSupportedError}) || errors.Is(err, &DOMException{Name: AbortError}) {
		t.Error("errors.Is by name")
	}
	var de *DOMException
	if !errors.As(err, &de) || de.Name != NotSupportedError {
		t.Error("errors.As")
	}
}

func TestEventListenersOrderOnceRemove(t *testing.T) {
	var et EventTarget
	var log []string
	et.AddEventListener("x", func(*Event) { log = append(log, "a") }, ListenerOptions{})
	idB := et.AddEventListener("x", func(*Event) { log = append(log, "b") }, ListenerOptions{Once: true})
	et.AddEventListener("x", func(*Event) { log = append(log, "cap") }, ListenerOptions{Capture: true})
	et.AddEventListener("y", func(*Event) { log = append(log, "y") }, ListenerOptions{})
	key := new(int)
	et.AddEventListener("x", func(*Event) { log = append(log, "k") }, ListenerOptions{Key: key})
	if et.AddEventListener("x", func(*Event) { log = append(log, "dup") }, ListenerOptions{Key: key}) != 0 {
		t.Error("duplicate (type, key, capture) added")
	}
	et.AddEventListener("x", func(*Event) { log = append(log, "kc") }, ListenerOptions{Key: key, Capture: true})
	if idB == 0 {
		t.Fatal("id")
	}
	FireEvent("x", &et)
	FireEvent("x", &et)
	et.RemoveEventListener("x", key, false)
	FireEvent("x", &et)
	got := fmt.Sprint(log)
	want := "[cap kc a b k cap kc a k cap kc a]"
	if got != want {
		t.Fatalf("got %s want %s", got, want)
	}
}

func TestListenerRemovedDuringDispatchDoesNotRun(t *testing.T) {
	var et EventTarget
	var log []string
	var idB ListenerID
	et.AddEventListener("x", func(*Event) { log = append(log, "a"); et.RemoveListener(idB) }, ListenerOptions{})
	idB = et.AddEventListener("x", func(*Event) { log = append(log, "b") }, ListenerOptions{})
	// Added during dispatch: not run in this dispatch.
	et.AddEventListener("x", func(*Event) {
		log = append(log, "c")
		et.AddEventListener("x", func(*Event) { log = append(log, "late") }, ListenerOptions{})
	}, ListenerOptions{Once: true})
	FireEvent("x", &et)
	if got := fmt.Sprint(log); got != "[a c]" {
		t.Fatal(got)
	}
}

func TestStopImmediatePropagationAndPreventDefault(t *testing.T) {
	var et EventTarget
	n := 0
	et.AddEventListener("x", func(e *Event) { n++; e.PreventDefault(); e.StopImmediatePropagation() }, ListenerOptions{})
	et.AddEventListener("x", func(*Event) { n++ }, ListenerOptions{})
	e := NewEvent("x")
	e.Cancelable = true
	if et.DispatchEvent(e) || !e.DefaultPrevented() || n != 1 {
		t.Fatal("stopImmediatePropagation/preventDefault", n)
	}
	var passive EventTarget
	passive.AddEventListener("x", func(e *Event) { e.PreventDefault() }, ListenerOptions{Passive: true})
	e2 := NewEvent("x")
	e2.Cancelable = true
	if !passive.DispatchEvent(e2) || e2.DefaultPrevented() {
		t.Fatal("preventDefault in a passive listener")
	}
	if e2.Target() != &passive || e2.CurrentTarget() != nil || e2.EventPhase() != None {
		t.Fatal("target/currentTarget/phase after dispatch")
	}
}

func TestAbortControllerAndEvent(t *testing.T) {
	c := NewAbortController()
	s := c.Signal()
	var log []string
	s.AddAlgorithm(func() { log = append(log, "alg1") })
	id := s.AddAlgorithm(func() { log = append(log, "removed") })
	s.AddAlgorithm(func() { log = append(log, fmt.Sprint("alg3 aborted=", s.Aborted())) })
	s.RemoveAlgorithm(id)
	s.AddEventListener("abort", func(e *Event) {
		log = append(log, "event "+e.Type)
		if !e.IsTrusted || e.Target() != &s.EventTarget || e.Target().Owner != s {
			t.Error("abort event fields")
		}
	}, ListenerOptions{})
	if s.Aborted() || s.Reason() != nil || s.ThrowIfAborted() != nil {
		t.Fatal("fresh signal aborted")
	}
	c.Abort(nil)
	c.Abort("again") // no effect
	if got := fmt.Sprint(log); got != "[alg1 alg3 aborted=true event abort]" {
		t.Fatal(got)
	}
	de, ok := s.Reason().(*DOMException)
	if !ok || de.Name != AbortError || de.Code() != 20 {
		t.Fatalf("reason %v", s.Reason())
	}
	if !errors.Is(s.ThrowIfAborted(), &DOMException{Name: AbortError}) {
		t.Fatal("ThrowIfAborted")
	}
	if s.AddAlgorithm(func() { t.Error("ran") }) != 0 {
		t.Fatal("add on aborted signal")
	}
	// A given reason is kept as is.
	c2 := NewAbortController()
	c2.Abort(42)
	if c2.Signal().Reason() != 42 {
		t.Fatal("reason not kept")
	}
	var are *AbortReasonError
	if !errors.As(c2.Signal().ThrowIfAborted(), &are) || are.Reason != 42 {
		t.Fatal("non-error reason")
	}
}

func TestAlgorithmRemovingAnotherDuringAbort(t *testing.T) {
	s := NewAbortSignal()
	var ids []AlgorithmID
	n := 0
	ids = append(ids, s.AddAlgorithm(func() { n++; s.RemoveAlgorithm(ids[1]) }))
	ids = append(ids, s.AddAlgorithm(func() { n++ }))
	s.SignalAbort(nil)
	if n != 2 {
		t.Fatalf("%d algorithms ran", n)
	}
}

func TestListenerSignal(t *testing.T) {
	var et EventTarget
	c := NewAbortController()
	n := 0
	et.AddEventListener("x", func(*Event) { n++ }, ListenerOptions{Signal: c.Signal()})
	FireEvent("x", &et)
	c.Abort(nil)
	FireEvent("x", &et)
	if n != 1 || et.HasListeners("x") {
		t.Fatal("signal did not remove the listener", n)
	}
	if et.AddEventListener("x", func(*Event) {}, ListenerOptions{Signal: c.Signal()}) != 0 {
		t.Fatal("listener with aborted signal added")
	}
	// Removing a listener removes its abort algorithm from the signal.
	c2 := NewAbortController()
	id := et.AddEventListener("x", func(*Event) {}, ListenerOptions{Signal: c2.Signal()})
	et.RemoveListener(id)
	if len(c2.Signal().algorithms) != 0 {
		t.Fatal("abort algorithm leaked")
	}
}

func TestAbortSignalAbort(t *testing.T) {
	s := AbortSignalAbort(nil)
	if !s.Aborted() || s.Reason().(*DOMException).Name != AbortError {
		t.Fatal("AbortSignal.abort()")
	}
	r := errors.New("mine")
	if AbortSignalAbort(r).Reason() != r {
		t.Fatal("AbortSignal.abort(reason)")
	}
}

type fakeTimers struct {
	ms    []uint64
	steps []func()
}

func (f *fakeTimers) RunStepsAfterTimeout(ms uint64, steps func()) {
	f.ms = append(f.ms, ms)
	f.steps = append(f.steps, steps)
}

func TestAbortSignalTimeout(t *testing.T) {
	ft := &fakeTimers{}
	s := AbortSignalTimeout(ft, 250)
	fired := 0
	s.AddEventListener("abort", func(*Event) { fired++ }, ListenerOptions{})
	if s.Aborted() || len(ft.ms) != 1 || ft.ms[0] != 250 {
		t.Fatal("timer not started")
	}
	ft.steps[0]()
	de, ok := s.Reason().(*DOMException)
	if !ok || de.Name != TimeoutError || de.Code() != 23 || fired != 1 {
		t.Fatalf("reason %v fired %d", s.Reason(), fired)
	}
}

func TestAbortSignalAny(t *testing.T) {
	a, b := NewAbortController(), NewAbortController()
	any1 := AbortSignalAny([]*AbortSignal{a.Signal(), b.Signal(), a.Signal()})
	if !any1.Dependent() || len(any1.SourceSignals()) != 2 {
		t.Fatal("sources must be a set of the two signals")
	}
	// A dependent of a dependent links to the original sources.
	any2 := AbortSignalAny([]*AbortSignal{any1})
	if src := any2.SourceSignals(); len(src) != 2 || src[0] != a.Signal() || src[1] != b.Signal() {
		t.Fatal("any(any(...)) must depend on the non-dependent sources")
	}
	var log []string
	a.Signal().AddEventListener("abort", func(*Event) { log = append(log, "a") }, ListenerOptions{})
	any1.AddEventListener("abort", func(*Event) { log = append(log, fmt.Sprint("any1 ", any2.Aborted())) }, ListenerOptions{})
	any2.AddEventListener("abort", func(*Event) { log = append(log, "any2") }, ListenerOptions{})
	any1.AddAlgorithm(func() { log = append(log, "alg1") })
	reason := errors.New("r")
	b.Abort(reason)
	// Step 4 sets every dependent's reason before any abort steps run;
	// then source first, then dependents in order.
	if got := fmt.Sprint(log); got != "[alg1 any1 true any2]" {
		t.Fatal(got)
	}
	if any1.Reason() != reason || any2.Reason() != reason || a.Signal().Aborted() {
		t.Fatal("reasons")
	}
	a.Abort(nil)
	if got := fmt.Sprint(log); got != "[alg1 any1 true any2 a]" {
		t.Fatal("dependents aborted twice:", got)
	}
	// Already aborted input: result is aborted at once with its reason.
	pre := AbortSignalAbort("why")
	r := AbortSignalAny([]*AbortSignal{NewAbortSignal(), pre})
	if !r.Aborted() || r.Reason() != "why" || r.Dependent() {
		t.Fatal("any with an aborted signal")
	}
	if e := AbortSignalAny(nil); e.Aborted() || !e.Dependent() {
		t.Fatal("any([])")
	}
}

func TestAbortSignalAnyNoUnboundedGrowth(t *testing.T) {
	c := NewAbortController()
	for i := 0; i < 50000; i++ {
		AbortSignalAny([]*AbortSignal{c.Signal()})
		if i%2000 == 0 {
			runtime.GC()
		}
	}
	if n := c.Signal().dependentCount(); n > 10000 {
		t.Fatalf("source keeps %d unreachable dependent signals", n)
	}
	// A dependent with an abort algorithm must survive GC and still abort.
	ran := false
	func() {
		d := AbortSignalAny([]*AbortSignal{c.Signal()})
		d.AddAlgorithm(func() { ran = true })
	}()
	runtime.GC()
	runtime.GC()
	c.Abort(nil)
	if !ran {
		t.Fatal("dependent signal with an algorithm was collected")
	}
}

func ExampleAbortSignalAny() {
	user := NewAbortController()
	timeout := &fakeTimers{}
	s := AbortSignalAny([]*AbortSignal{user.Signal(), AbortSignalTimeout(timeout, 5000)})
	s.AddEventListener("abort", func(e *Event) {
		fmt.Println("aborted:", s.Reason().(*DOMException).Name)
	}, ListenerOptions{Once: true})
	timeout.steps[0]() // 5 s later the timer task runs
	user.Abort(nil)    // too late: already aborted
	// Output: aborted: TimeoutError
}

func ExampleAbortController() {
	c := NewAbortController()
	c.Signal().AddAlgorithm(func() { fmt.Println("algorithm runs first") })
	c.Signal().AddEventListener("abort", func(*Event) { fmt.Println("then the abort event") }, ListenerOptions{})
	c.Abort(nil)
	fmt.Println(c.Signal().Reason())
	// Output:
	// algorithm runs first
	// then the abort event
	// AbortError: signal is aborted without reason
}

func ExampleDOMException() {
	err := error(NewDOMException("The request was aborted.", AbortError))
	var de *DOMException
	if errors.As(err, &de) {
		fmt.Println(de.Name, de.Code(), de.Message)
	}
	fmt.Println(errors.Is(err, &DOMException{Name: AbortError}), NewDOMException("x", OperationError).Code())
	// Output:
	// AbortError 20 The request was aborted.
	// true 0
}

type fakeLoop struct{ ok bool }

func (l *fakeLoop) CheckCurrent() error {
	if l.ok {
		return nil
	}
	return errors.New("called from the wrong goroutine: loop L")
}

func TestBoundSignalChecksLoop(t *testing.T) {
	l := &fakeLoop{ok: true}
	c := NewAbortController()
	c.Signal().BindToLoop(l)
	c.Signal().BindToLoop(&fakeLoop{}) // the first binding wins
	if c.Signal().BoundLoop() != Loop(l) {
		t.Fatal("BindToLoop: the first binding must win")
	}
	dep := AbortSignalAny([]*AbortSignal{c.Signal()})
	if dep.BoundLoop() != Loop(l) {
		t.Fatal("a dependent signal belongs to its sources' loop")
	}
	id := c.Signal().AddAlgorithm(func() {})
	l.ok = false
	for what, f := range map[string]func(){
		"Abort":                  func() { c.Abort(nil) },
		"AddAlgorithm":           func() { c.Signal().AddAlgorithm(func() {}) },
		"RemoveAlgorithm":        func() { c.Signal().RemoveAlgorithm(id) },
		"AddEventListener":       func() { c.Signal().AddEventListener("abort", func(*Event) {}, ListenerOptions{}) },
		"DispatchEvent":          func() { c.Signal().DispatchEvent(NewEvent("x")) },
		"FireEvent, no listener": func() { FireEvent("nobody-listens", &c.Signal().EventTarget) },
		"dependent AddAlgorithm": func() { dep.AddAlgorithm(func() {}) },
	} {
		func() {
			defer func() {
				s, _ := recover().(string)
				if !strings.Contains(s, "loop L") {
					t.Errorf("%s off the loop: panic %q; want one naming the loop", what, s)
				}
			}()
			f()
		}()
	}
	l.ok = true
	c.Abort(nil)
	if !c.Signal().Aborted() || !dep.Aborted() {
		t.Fatal("abort on the loop")
	}
	// Unbound signals are not checked.
	NewAbortController().Abort(nil)
}

// FireEvent creates no event for a target without listeners of the type,
// and fires a trusted one as soon as a listener of that type is there.
func TestFireEventOnlyWithListeners(t *testing.T) {
	var target EventTarget
	if !FireEvent("ping", &target) {
		t.Fatal("FireEvent without listeners: want true")
	}
	var got []string
	target.AddEventListener("pong", func(e *Event) { got = append(got, "pong") }, ListenerOptions{})
	if !FireEvent("ping", &target) || len(got) != 0 {
		t.Fatalf("a pong listener ran for ping: %v", got)
	}
	id := target.AddEventListener("ping", func(e *Event) {
		got = append(got, fmt.Sprint(e.Type, " trusted=", e.IsTrusted, " target=", e.Target() == &target, " phase=", e.EventPhase()))
		e.PreventDefault() // not cancelable: no effect
	}, ListenerOptions{})
	if !FireEvent("ping", &target) {
		t.Fatal("FireEvent: a non-cancelable event cannot be canceled")
	}
	target.RemoveListener(id)
	FireEvent("ping", &target)
	if fmt.Sprint(got) != "[ping trusted=true target=true phase=2]" {
		t.Fatal(got)
	}
	// An aborted signal without listeners still ran its algorithms; a
	// dependent with a listener gets its own event.
	c := NewAbortController()
	dep := AbortSignalAny([]*AbortSignal{c.Signal()})
	ran := false
	c.Signal().AddAlgorithm(func() { ran = true })
	dep.AddEventListener("abort", func(e *Event) { got = append(got, "dependent "+e.Type) }, ListenerOptions{})
	c.Abort(nil)
	if !ran || fmt.Sprint(got) != "[ping trusted=true target=true phase=2 dependent abort]" {
		t.Fatal(ran, got)
	}
}
