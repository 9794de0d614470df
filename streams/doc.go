// Package streams is the Streams Standard's readable streams
// (https://streams.spec.whatwg.org/#rs) in plain Go, without a JavaScript
// engine: ReadableStream, ReadableStreamDefaultController and
// ReadableStreamDefaultReader with their abstract operations (each a Go
// function named after the standard's, with its anchor and step
// comments), the queue-with-sizes operations, and tee.
//
// Chunks, cancel reasons and stored errors are opaque values (any): the
// host (package bindings for JavaScript) gives them meaning. Promises are
// the host's (Host): the standard's "upon fulfillment", "a promise
// resolved with" and microtasks keep their JavaScript timing when the
// host is a JavaScript realm. The underlying source's start, pull and
// cancel and the strategy's size function are Go functions the host
// supplies (the bindings wrap JavaScript functions in them).
//
// A stream, its controller and its readers belong to one event loop: call
// everything from it.
//
// # Not implemented
//
//   - Readable byte streams (ReadableByteStreamController,
//     ReadableStreamBYOBReader, ReadableStreamBYOBRequest): a stream is
//     always a default stream; the bindings reject type "bytes" and
//     getReader({mode: "byob"}) with a TypeError.
//   - WritableStream, TransformStream, pipeTo, pipeThrough and
//     ReadableStream.from.
package streams
