package dom

import "weak"

// AlgorithmID identifies an abort algorithm added to an AbortSignal.
type AlgorithmID uint64

// AbortAlgorithm is an abort algorithm given as a value (AddAlgorithmValue):
// a typed pointer the caller already has, so adding it binds no closure.
type AbortAlgorithm interface{ RunAbortAlgorithm() }

// funcAlgorithm is an abort algorithm given as a func (AddAlgorithm). A
// func value is pointer-shaped: boxing it allocates nothing.
type funcAlgorithm func()

func (f funcAlgorithm) RunAbortAlgorithm() { f() }

type abortAlgorithm struct {
	id  AlgorithmID
	alg AbortAlgorithm
}

// AbortSignal is the DOM Standard's AbortSignal. It belongs to one event
// loop: call its methods on that loop's goroutine only. A signal bound to
// its loop (EventTarget.BindToLoop; the Web Locks API binds a request's
// signal to the requester's loop) panics with a message naming the loop
// when SignalAbort (AbortController.Abort), AddAlgorithm or RemoveAlgorithm
// is called from another goroutine. Aborted and Reason only read.
type AbortSignal struct {
	EventTarget

	aborted    bool
	reason     any
	algorithms []abortAlgorithm
	nextAlgID  AlgorithmID

	dependent     bool
	sourceSignals []*AbortSignal
	// dependentSignals hold dependents weakly, as the DOM Standard's garbage
	// collection rules allow, except while a dependent has abort algorithms
	// or abort listeners (then entry.strong pins it). Entries of collected
	// dependents are pruned as the list grows.
	dependentSignals []*depEntry
	prunedLen        int
	// entries are this (dependent) signal's entries in its sources' lists.
	entries []*depEntry
	pinned  bool
}

type depEntry struct {
	weak   weak.Pointer[AbortSignal]
	strong *AbortSignal
}

func (e *depEntry) get() *AbortSignal {
	if e.strong != nil {
		return e.strong
	}
	return e.weak.Value()
}

// NewAbortSignal returns a new, not aborted signal.
func NewAbortSignal() *AbortSignal {
	s := &AbortSignal{}
	s.Owner = s
	s.EventTarget.hook = s
	return s
}

func (s *AbortSignal) listenersChanged() { s.updatePin() }

// updatePin keeps a dependent signal reachable from its sources while it
// is not aborted and has abort algorithms or abort event listeners.
func (s *AbortSignal) updatePin() {
	if !s.dependent {
		return
	}
	need := !s.aborted && len(s.entries) > 0 && (len(s.algorithms) > 0 || s.HasListeners("abort"))
	if need == s.pinned {
		return
	}
	s.pinned = need
	for _, e := range s.entries {
		if need {
			e.strong = s
		} else {
			e.strong = nil
		}
	}
}

// dependentCount is the length of the dependent signals list (tests).
func (s *AbortSignal) dependentCount() int { return len(s.dependentSignals) }

// Aborted reports whether the signal is aborted (its abort reason is not
// undefined).
func (s *AbortSignal) Aborted() bool { return s.aborted }

// Reason returns the abort reason (nil until aborted).
func (s *AbortSignal) Reason() any { return s.reason }

// ThrowIfAborted returns the abort reason as an error when aborted (a
// reason that is not an error is wrapped in AbortReasonError).
func (s *AbortSignal) ThrowIfAborted() error {
	if !s.aborted {
		return nil
	}
	return ReasonError(s.reason)
}

// AbortReasonError wraps a non-error abort reason.
type AbortReasonError struct{ Reason any }

func (e *AbortReasonError) Error() string { return "aborted" }

// ReasonError returns reason as an error: itself if it is one, otherwise
// wrapped in *AbortReasonError.
func ReasonError(reason any) error {
	if err, ok := reason.(error); ok {
		return err
	}
	return &AbortReasonError{Reason: reason}
}

// AddAlgorithm is https://dom.spec.whatwg.org/#abortsignal-add, the DOM
// "add" for abort algorithms: it does nothing (and returns 0) if the
// signal is already aborted.
func (s *AbortSignal) AddAlgorithm(steps func()) AlgorithmID {
	return s.AddAlgorithmValue(funcAlgorithm(steps))
}

// AddAlgorithmValue is https://dom.spec.whatwg.org/#abortsignal-add
// (AddAlgorithm) for an algorithm given as a value.
func (s *AbortSignal) AddAlgorithmValue(algorithm AbortAlgorithm) AlgorithmID {
	s.checkLoop()
	// 1. If signal is aborted, then return.
	if s.aborted {
		return 0
	}
	// 2. Append algorithm to signal's abort algorithms.
	s.nextAlgID++
	s.algorithms = append(s.algorithms, abortAlgorithm{id: s.nextAlgID, alg: algorithm})
	s.updatePin()
	return s.nextAlgID
}

// RemoveAlgorithm is the DOM "remove": remove algorithm from signal's abort
// algorithms.
func (s *AbortSignal) RemoveAlgorithm(id AlgorithmID) {
	s.checkLoop()
	if id == 0 {
		return
	}
	for i, a := range s.algorithms {
		if a.id == id {
			copy(s.algorithms[i:], s.algorithms[i+1:])
			s.algorithms[len(s.algorithms)-1] = abortAlgorithm{}
			s.algorithms = s.algorithms[:len(s.algorithms)-1]
			s.updatePin()
			return
		}
	}
}

// NewAbortReason returns the default abort reason: a new "AbortError"
// DOMException. An embedder that gives SignalAbort a reason of its own
// representing the default one (e.g. a JavaScript object made up front)
// uses this for its Go side.
func NewAbortReason() *DOMException {
	return NewDOMException("signal is aborted without reason", AbortError)
}

// SignalAbort is https://dom.spec.whatwg.org/#abortsignal-signal-abort,
// "signal abort". A nil reason means "not given": the reason
// becomes a new "AbortError" DOMException.
func (s *AbortSignal) SignalAbort(reason any) {
	s.checkLoop()
	// 1. If signal is aborted, then return.
	if s.aborted {
		return
	}
	// 2. Set signal's abort reason to reason if it is given; otherwise to a
	//    new "AbortError" DOMException.
	if reason == nil {
		reason = NewAbortReason()
	}
	s.aborted = true
	s.reason = reason
	// 3. Let dependentSignalsToAbort be a new list.
	var toAbort []*AbortSignal
	// 4. For each dependentSignal of signal's dependent signals:
	for _, e := range s.dependentSignals {
		d := e.get()
		// 4.1. If dependentSignal is not aborted, then:
		if d != nil && !d.aborted {
			// 4.1.1. Set dependentSignal's abort reason to signal's abort reason.
			d.aborted = true
			d.reason = s.reason
			// 4.1.2. Append dependentSignal to dependentSignalsToAbort.
			toAbort = append(toAbort, d)
		}
	}
	// 5. Run the abort steps for signal.
	s.runAbortSteps()
	// 6. For each dependentSignal of dependentSignalsToAbort, run the abort
	//    steps for dependentSignal.
	for _, d := range toAbort {
		d.runAbortSteps()
	}
}

// runAbortSteps is https://dom.spec.whatwg.org/#run-the-abort-steps for a
// signal.
func (s *AbortSignal) runAbortSteps() {
	// 1. For each algorithm of signal's abort algorithms: run algorithm.
	// 2. Empty signal's abort algorithms.
	// (The list is emptied before running so that removals made by the
	// algorithms themselves cannot disturb the iteration.)
	algs := s.algorithms
	s.algorithms = nil
	for i := range algs {
		algs[i].alg.RunAbortAlgorithm()
	}
	// 3. Fire an event named abort at signal.
	FireEvent("abort", &s.EventTarget)
	s.dropLinks()
}

// dropLinks forgets source and dependent signals once aborted: an aborted
// signal never aborts again, so the links can no longer matter.
func (s *AbortSignal) dropLinks() {
	s.sourceSignals = nil
	s.dependentSignals = nil
	for _, e := range s.entries {
		e.strong = nil
	}
	s.entries = nil
	s.pinned = false
}

// AbortController is the DOM Standard's AbortController.
type AbortController struct {
	signal *AbortSignal
}

// NewAbortController is new AbortController(): it has a new AbortSignal.
func NewAbortController() *AbortController {
	// 1. Let signal be a new AbortSignal object.
	// 2. Set this's signal to signal.
	return &AbortController{signal: NewAbortSignal()}
}

// Signal returns the controller's signal.
func (c *AbortController) Signal() *AbortSignal { return c.signal }

// Abort is abort(reason): signal abort on the controller's signal (nil
// reason = not given).
func (c *AbortController) Abort(reason any) { c.signal.SignalAbort(reason) }

// AbortSignalAbort is https://dom.spec.whatwg.org/#dom-abortsignal-abort,
// the static AbortSignal.abort(reason).
func AbortSignalAbort(reason any) *AbortSignal {
	// 1. Let signal be a new AbortSignal object.
	s := NewAbortSignal()
	// 2. Set signal's abort reason to reason if it is given; otherwise to a
	//    new "AbortError" DOMException.
	if reason == nil {
		reason = NewAbortReason()
	}
	s.aborted = true
	s.reason = reason
	// 3. Return signal.
	return s
}

// Timers is what AbortSignal.timeout needs from the HTML timers:
// RunStepsAfterTimeout runs steps, as a task on the event loop the signal
// belongs to, after ms milliseconds. html.EventLoop implements it.
type Timers interface {
	RunStepsAfterTimeout(ms uint64, steps func())
}

// AbortSignalTimeout is the static AbortSignal.timeout(milliseconds).
func AbortSignalTimeout(t Timers, ms uint64) *AbortSignal {
	// 1. Let signal be a new AbortSignal object.
	s := NewAbortSignal()
	if l, ok := t.(Loop); ok {
		s.BindToLoop(l) // the timer's event loop is the signal's
	}
	// 2. Let global be signal's relevant global object.
	// 3. Run steps after a timeout given global, "AbortSignal-timeout",
	//    milliseconds, and the following step:
	t.RunStepsAfterTimeout(ms, func() {
		// 3.1. Queue a global task on the timer task source given global to
		//      signal abort given signal and a new "TimeoutError"
		//      DOMException. (Timers run steps as a timer task already.)
		s.SignalAbort(NewDOMException("signal timed out", TimeoutError))
	})
	// 4. Return signal.
	return s
}

// AbortSignalAny is the static AbortSignal.any(signals): "create a
// dependent abort signal" from signals.
func AbortSignalAny(signals []*AbortSignal) *AbortSignal {
	return CreateADependentAbortSignal(signals)
}

// CreateADependentAbortSignal is the DOM "create a dependent abort signal".
func CreateADependentAbortSignal(signals []*AbortSignal) *AbortSignal {
	// 1. Let resultSignal be a new object implementing signalInterface.
	result := NewAbortSignal()
	for _, s := range signals {
		result.BindToLoop(s.loop) // the sources' loop is the result's
	}
	// 2. For each signal of signals: if signal is aborted, then set
	//    resultSignal's abort reason to signal's abort reason and return
	//    resultSignal.
	for _, s := range signals {
		if s.aborted {
			result.aborted = true
			result.reason = s.reason
			return result
		}
	}
	// 3. Set resultSignal's dependent to true.
	result.dependent = true
	// 4. For each signal of signals:
	for _, s := range signals {
		// 4.1. If signal's dependent is false, then:
		if !s.dependent {
			// 4.1.1. Append signal to resultSignal's source signals.
			// 4.1.2. Append resultSignal to signal's dependent signals.
			result.linkSource(s)
			continue
		}
		// 4.2. Otherwise, for each sourceSignal of signal's source signals:
		for _, src := range s.sourceSignals {
			// 4.2.1. Assert: sourceSignal is not aborted and not dependent.
			// 4.2.2. Append sourceSignal to resultSignal's source signals.
			// 4.2.3. Append resultSignal to sourceSignal's dependent signals.
			result.linkSource(src)
		}
	}
	// 5. Return resultSignal.
	return result
}

// linkSource appends src to s's source signals and s to src's dependent
// signals (sets: no duplicates).
func (s *AbortSignal) linkSource(src *AbortSignal) {
	for _, x := range s.sourceSignals {
		if x == src {
			return
		}
	}
	s.sourceSignals = append(s.sourceSignals, src)
	e := &depEntry{weak: weak.Make(s)}
	s.entries = append(s.entries, e)
	src.dependentSignals = append(src.dependentSignals, e)
	if len(src.dependentSignals) >= 2*src.prunedLen+16 {
		src.pruneDependents()
	}
}

// pruneDependents drops entries of dependents that were garbage collected
// or are aborted (amortized O(1) per append).
func (s *AbortSignal) pruneDependents() {
	kept := s.dependentSignals[:0]
	for _, e := range s.dependentSignals {
		if d := e.get(); d != nil && !d.aborted {
			kept = append(kept, e)
		}
	}
	clear(s.dependentSignals[len(kept):])
	s.dependentSignals = kept
	s.prunedLen = len(kept)
}

// Dependent reports whether the signal is a dependent signal.
func (s *AbortSignal) Dependent() bool { return s.dependent }

// SourceSignals returns the signal's source signals (for tests/inspection).
func (s *AbortSignal) SourceSignals() []*AbortSignal {
	return append([]*AbortSignal(nil), s.sourceSignals...)
}
