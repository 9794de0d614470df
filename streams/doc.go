// Package streams is the Streams Standard (https://streams.spec.whatwg.org/)
// in plain Go, without a JavaScript engine: readable streams with default
// and byte controllers (ReadableStreamDefaultController,
// ReadableByteStreamController), default and BYOB readers
// (ReadableStreamBYOBRequest too), tee, pipes (pipeTo, pipeThrough),
// writable streams (WritableStream, WritableStreamDefaultWriter,
// WritableStreamDefaultController) and transform streams
// (TransformStream, TransformStreamDefaultController), with their
// abstract operations (each a Go function named after the standard's,
// with its anchor and step comments) and the queue-with-sizes operations.
// Other specifications' streams use SetUpWithByteReadingSupport,
// EnqueueBytes, Close and Error (a fetch body is a byte stream).
//
// Chunks, cancel reasons and stored errors are opaque values (any): the
// host (package bindings for JavaScript) gives them meaning. Promises,
// ArrayBuffers, views and AbortControllers are the host's (Host): the
// standard's "upon fulfillment", "a promise resolved with" and microtasks
// keep their JavaScript timing when the host is a JavaScript realm. The
// underlying source's, sink's and transformer's algorithms and the
// strategy's size function are Go functions the host supplies (the
// bindings wrap JavaScript functions in them).
//
// A stream, its controller and its readers or writers belong to one event
// loop: call everything from it.
//
// # Deviations
//
//   - A pipe reads a byte stream with a default reader (step 6 of
//     ReadableStreamPipeTo allows it).
//   - Not implemented: ReadableStream.from and transferring streams
//     (postMessage).
package streams
