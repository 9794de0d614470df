package streams

import (
	"math"
)

// Promise is a promise of the host, made by one of its Host methods.
type Promise interface {
	// Resolve resolves the promise with v (a Promise of the same host
	// is adopted). It does nothing when the promise is settled.
	Resolve(v any)
	// Reject rejects the promise with reason. It does nothing when the
	// promise is settled.
	Reject(reason any)
}

// Host is what the standard takes from the JavaScript realm the streams
// belong to: promises, microtasks, errors and arrays.
type Host interface {
	// NewPromise is "a new promise".
	NewPromise() Promise
	// PromiseResolvedWith is "a promise resolved with" v: a thenable v
	// is adopted.
	PromiseResolvedWith(v any) Promise
	// PromiseRejectedWith is "a promise rejected with" reason.
	PromiseRejectedWith(reason any) Promise
	// React is "upon fulfillment" and "upon rejection" of p: one of the
	// steps (either may be nil) runs in a microtask once p settles.
	React(p Promise, onFulfilled func(v any), onRejected func(reason any))
	// MarkHandled sets p's [[PromiseIsHandled]] to true.
	MarkHandled(p Promise)
	// QueueMicrotask is "queue a microtask".
	QueueMicrotask(steps func())
	// ErrorValue is the exception value for err, as a value a promise
	// can be rejected with and a stream errored with: a new TypeError
	// for a *TypeError, a new RangeError for a *RangeError, and the
	// exception itself for an error a host function (a size algorithm,
	// a start algorithm) returned.
	ErrorValue(err error) any
	// CreateArray is CreateArrayFromList(values).
	CreateArray(values []any) any
	// StructuredClone is StructuredClone(v) (tee's cloneForBranch2): an
	// error is the exception it threw.
	StructuredClone(v any) (any, error)

	// NewArrayBuffer is Construct(%ArrayBuffer%, « n »): an error is
	// the RangeError allocation threw.
	NewArrayBuffer(n int) (any, error)
	// ArrayBufferBytes is buf's [[ArrayBufferData]] (nil when detached):
	// writes to it are writes to buf.
	ArrayBufferBytes(buf any) []byte
	// ArrayBufferByteLength is buf.[[ArrayBufferByteLength]] (0 when
	// detached).
	ArrayBufferByteLength(buf any) int
	// IsDetachedBuffer is IsDetachedBuffer(buf).
	IsDetachedBuffer(buf any) bool
	// TransferArrayBuffer is
	// https://streams.spec.whatwg.org/#transfer-array-buffer: a new
	// ArrayBuffer with buf's data, buf detached (a TypeError when it
	// cannot be).
	TransferArrayBuffer(buf any) (any, error)
	// NewAbortController is a new AbortController (a writable stream
	// controller's [[abortController]]).
	NewAbortController() AbortController

	// ViewOf is the record of a view the host made (a chunk of a byte
	// stream): an error when v is not an ArrayBufferView.
	ViewOf(v any) (ArrayBufferView, error)
	// NewView is Construct(v.Constructor, « v.Buffer, v.ByteOffset,
	// v.Length() »): the host's view object.
	NewView(v ArrayBufferView) any
}

// TypeError is a TypeError an operation throws; the host turns it into
// its own (the bindings: a JavaScript TypeError).
type TypeError struct{ Msg string }

func (e *TypeError) Error() string { return e.Msg }

// RangeError is a RangeError an operation throws.
type RangeError struct{ Msg string }

func (e *RangeError) Error() string { return e.Msg }

// SizeAlgorithm is a queuing strategy's size algorithm: an error is the
// exception it threw.
type SizeAlgorithm func(chunk any) (float64, error)

// queueEntry is a value-with-size
// (https://streams.spec.whatwg.org/#value-with-size).
type queueEntry struct {
	value any
	size  float64
}

// queueWithSizes is a container's [[queue]] and [[queueTotalSize]]
// (https://streams.spec.whatwg.org/#queue-with-sizes).
type queueWithSizes struct {
	queue          []queueEntry
	queueTotalSize float64
}

// isNonNegativeNumber is
// https://streams.spec.whatwg.org/#is-non-negative-number.
func isNonNegativeNumber(v float64) bool {
	// 1-4. (v is a Number.) If v is NaN, return false; if v < 0, return
	// false; return true.
	return !math.IsNaN(v) && v >= 0
}

// ExtractHighWaterMark is
// https://streams.spec.whatwg.org/#validate-and-normalize-high-water-mark:
// present says whether the strategy has a highWaterMark.
func ExtractHighWaterMark(hwm float64, present bool, defaultHWM float64) (float64, error) {
	// 1. If strategy["highWaterMark"] does not exist, return defaultHWM.
	if !present {
		return defaultHWM, nil
	}
	// 2. Let highWaterMark be strategy["highWaterMark"].
	// 3. If highWaterMark is NaN or highWaterMark < 0, throw a
	// RangeError exception.
	if math.IsNaN(hwm) || hwm < 0 {
		return 0, &RangeError{Msg: "The highWaterMark of the queuing strategy must be a non-negative number"}
	}
	// 4. Return highWaterMark.
	return hwm, nil
}
