package bindings

import (
	"github.com/grafana/sobek"
)

// timerState is a global object's "map of active timers" plus the nesting
// level of the timer task currently running, if any.
type timerState struct {
	active map[int32]*timerHandle
	lastID int32
	// inTimerTask is true while a task scheduled by the timer
	// initialization steps runs; nesting is that task's timer nesting
	// level.
	inTimerTask bool
	nesting     int
}

// timerHandle is the "unique internal value" identifying one scheduling
// of a timer.
type timerHandle struct{ cancel func() }

func (t *timerState) init() { t.active = map[int32]*timerHandle{} }

// newID returns an integer greater than zero that is not in the map of
// active timers.
func (t *timerState) newID() int32 {
	for {
		t.lastID++
		if t.lastID <= 0 {
			t.lastID = 1
		}
		if _, used := t.active[t.lastID]; !used {
			return t.lastID
		}
	}
}

// queueMicrotask queues a microtask that invokes callback and reports any
// exception it throws (HTML queueMicrotask method steps). It uses the
// realm's promise job queue, which is the microtask queue.
func (r *Realm) queueMicrotask(callback sobek.Value) {
	job := r.newFunction("", 0, func(sobek.FunctionCall) sobek.Value {
		_, _ = r.Call(callback, sobek.Undefined())
		return sobek.Undefined()
	})
	r.enqueueJob(job)
}

// enqueueJob queues fn as a promise job (a microtask).
func (r *Realm) enqueueJob(fn *sobek.Object) {
	if r.resolvedPromise == nil {
		p, resolve, _ := r.vm.NewPromise()
		_ = resolve(sobek.Undefined())
		r.resolvedPromise = r.vm.ToValue(p).ToObject(r.vm)
	}
	r.promiseThen(r.resolvedPromise, fn, nil)
}

// promiseThen calls the realm's original Promise.prototype.then on p
// (script cannot intercept it by patching the prototype).
func (r *Realm) promiseThen(p *sobek.Object, onFulfilled, onRejected sobek.Value) {
	if r.resolvedPromiseThen == nil {
		proto := r.vm.Get("Promise").ToObject(r.vm).Get("prototype").ToObject(r.vm)
		r.resolvedPromiseThen, _ = sobek.AssertFunction(proto.Get("then"))
	}
	if onFulfilled == nil {
		onFulfilled = sobek.Undefined()
	}
	if onRejected == nil {
		onRejected = sobek.Undefined()
	}
	_, _ = r.resolvedPromiseThen(p, onFulfilled, onRejected)
}

// timerInitializationSteps are HTML's "timer initialization steps" given
// the realm's global, handler, timeout, arguments, repeat and previousId
// (0 = not given).
func (r *Realm) timerInitializationSteps(handler sobek.Value, timeout int32, args []sobek.Value, repeat bool, previousID int32) int32 {
	t := &r.timers
	// 1. Let thisArg be global if that is a WorkerGlobalScope object;
	// otherwise let thisArg be the WindowProxy that corresponds to global.
	thisArg := r.global
	// 2. If previousId was given, let id be previousId; otherwise, let id
	// be an implementation-defined integer that is greater than zero and
	// does not already exist in global's map of active timers.
	id := previousID
	if id == 0 {
		id = t.newID()
	}
	// 3. If the surrounding agent's event loop's currently running task is
	// a task that was created by this algorithm, then let nesting level be
	// the task's timer nesting level. Otherwise, let nesting level be 0.
	nesting := 0
	if t.inTimerTask {
		nesting = t.nesting
	}
	// 4. If timeout is less than 0, then set timeout to 0.
	if timeout < 0 {
		timeout = 0
	}
	// 5. If nesting level is greater than 5, and timeout is less than 4,
	// then set timeout to 4.
	if nesting > 5 && timeout < 4 {
		timeout = 4
	}
	// 8. Let uniqueHandle be null.
	var uniqueHandle *timerHandle
	// 10. Increment nesting level by one.
	nesting++
	// 9. Let task be a task that runs the following substeps:
	task := func() {
		// 11. Set task's timer nesting level to nesting level.
		t.inTimerTask, t.nesting = true, nesting
		defer func() { t.inTimerTask, t.nesting = false, 0 }()
		// 9.1 If id does not exist in global's map of active timers,
		// then abort these steps.
		// 9.3 If global's map of active timers[id] is not uniqueHandle,
		// then abort these steps.
		if h, ok := t.active[id]; !ok || h != uniqueHandle {
			return
		}
		// 9.5 If handler is a Function, then invoke handler given
		// arguments and "report", with callback this value thisArg.
		if _, isFn := sobek.AssertFunction(handler); isFn {
			_, _ = r.Call(handler, thisArg, args...)
		} else {
			// 9.6 Otherwise: run a classic script created from
			// handler's string.
			_, _ = r.EvaluateScript("timer handler", handler.String())
		}
		// 9.7 If id does not exist in global's map of active timers,
		// then abort these steps.
		// 9.8 If global's map of active timers[id] is not uniqueHandle,
		// then abort these steps.
		if h, ok := t.active[id]; !ok || h != uniqueHandle {
			return
		}
		if repeat {
			// 9.9 If repeat is true, then perform the timer
			// initialization steps again, given global, handler,
			// timeout, arguments, true, and id.
			r.timerInitializationSteps(handler, timeout, args, true, id)
		} else {
			// 9.10 Otherwise, remove global's map of active
			// timers[id].
			delete(t.active, id)
		}
	}
	// 12. Let completionStep be an algorithm step which queues a global
	// task on the timer task source given global to run task. (startTimer
	// queues its steps as such a task itself.)
	completionStep := func() {
		if !r.closedOnLoop {
			task()
		}
	}
	// 13. Set uniqueHandle to the result of running steps after a timeout
	// given global, "setTimeout/setInterval", timeout, and completionStep.
	uniqueHandle = &timerHandle{}
	uniqueHandle.cancel = r.host.startTimer(uint64(timeout), completionStep)
	// 14. Set global's map of active timers[id] to uniqueHandle.
	t.active[id] = uniqueHandle
	// 15. Return id.
	return id
}

// clearTimer is clearTimeout/clearInterval(id): remove this's map of
// active timers[id].
func (r *Realm) clearTimer(id int32) {
	if h := r.timers.active[id]; h != nil && h.cancel != nil {
		h.cancel()
	}
	delete(r.timers.active, id)
}
