// Package xhr is the XMLHttpRequest Standard (https://xhr.spec.whatwg.org/)
// in plain Go: the XMLHttpRequest object's state machine (open,
// setRequestHeader, send, abort, the request error steps, handle errors,
// handle response end-of-body, the timeout, the progress events and their
// order, upload events), its response (status, headers, the final MIME
// type and charset, the text response), and the FormData entry list with
// the encodings and parsers a FormData body needs — HTML's
// multipart/form-data encoding algorithm, the URL Standard's
// application/x-www-form-urlencoded parser and serializer, and the
// multipart/form-data parser of the Fetch Standard's formData() (RFC 7578).
// The request goes through package fetch (main fetch, CORS, redirects).
// The JavaScript objects (XMLHttpRequest, XMLHttpRequestUpload,
// ProgressEvent, FormData, File) are package bindings' and wrap these
// records; the host (Host) queues tasks, starts fetches and fires events.
//
// # Deviations
//
//   - The network sends a request's whole body before the response's
//     headers come: the upload progress events (progress, load, loadend
//     at the upload object) fire when the headers do, with the body's
//     whole length.
//   - The text response decodes UTF-8, or UTF-16 when a BOM or the final
//     charset says so; other charsets are decoded as UTF-8 (the engine
//     has no other decoder). An XML response's encoding declaration is
//     not read.
//   - The "document" response type gives null, and responseXML is null:
//     no document is built from a response. A Document as send()'s body
//     converts to a string (XMLHttpRequestBodyInit's USVString).
//   - Synchronous requests block the event loop of their global, in a
//     window as in a worker, as the standard says; the URL's username
//     and password are set as open() says but fetch does not use them
//     (no HTTP authentication).
//   - FormData's constructor takes no form: constructing the entry list
//     of a form element is not implemented (HTMLFormElement is not).
//   - Multipart bodies are parsed with the rules of RFC 7578 as Chromium
//     applies them: a part needs a Content-Disposition of form-data with
//     a name; Content-Transfer-Encoding is ignored (it is deprecated), and
//     a body that is not well-formed is failure.
package xhr
