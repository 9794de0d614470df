// Package fetch is the Fetch Standard (https://fetch.spec.whatwg.org/)
// in plain Go, without a JavaScript engine: request and response records,
// header lists, fetch, main fetch, scheme fetch, HTTP fetch, HTTP-redirect
// fetch (redirect count limit, redirect-tainted origin, CORS check of
// every response in CORS mode, removal of Authorization on a cross-origin
// redirect and of the request-body headers on a method change),
// HTTP-network-or-cache fetch's header steps (Origin, Referer and the
// fetch metadata headers),
// CORS-preflight fetch and the CORS check, the bad port list, Mixed
// Content blocking, Referrer Policy (default
// strict-origin-when-cross-origin) and the CORS-preflight cache.
//
// The network is the embedder's Network: it sends one request and returns
// the response as the server gave it, never following a redirect.
// HTTPNetwork is the net/http one. Bindings (fetch(), Request, Response,
// Headers) and the browser (documents, iframes, classic and module
// scripts, worker scripts, importScripts) call Fetch; the JavaScript
// objects stay in package bindings.
//
// Fetch blocks until the response's headers are in: call it off the
// event loop, then run the response's Load.
//
// # Deviations
//
//   - A response from the network is available when its headers are;
//     Load reads its body (at most MaxResponseBytes) without
//     backpressure, keeping the bytes: consumers wait for all of it
//     (OnLoad) or take each read's bytes as they arrive (Subscribe; the
//     bindings make the chunks of Response.body's ReadableStream, package
//     streams, from them). A fed body (NewFedBody) is streamed the same
//     way from bytes another party pushes: a service worker's response
//     body, read in the worker's realm, for the fetch of its client.
//   - about:blank, data: (the data: URL processor), blob: (through
//     Params.BlobURLs, the user agent's store in package fileapi; no range
//     requests, and no partition check beyond the blob URL's origin) and
//     http(s) URLs are fetched; file: URLs are network errors.
//   - The CORS-preflight cache (CORSPreflightCache, one per user agent,
//     given to each fetch in Params) caps max-age at two hours, as
//     Chromium does, and holds at most 4096 entries (those closest to
//     expiry go first).
//   - The HTTP cache (HTTPCache, one per user agent, given to each fetch
//     in Params) is a private in-memory cache of GET responses, keyed by
//     network partition key and URL (Vary honoured, Vary: * never
//     reused), bounded in bytes (least recently used entries go first;
//     a body over MaxEntryBytes is not stored). No stale-while-revalidate,
//     no range requests or partial content, no invalidation through
//     Location or Content-Location, and a stored response's body is kept
//     only once it was read whole. The browser gives it to scripts'
//     fetch() calls only.
//   - There is no Content Security Policy, no
//     Cross-Origin-Resource-Policy, no integrity metadata and no timing
//     info. Of the fetch metadata headers, Sec-Fetch-Dest, Sec-Fetch-Mode
//     and Sec-Fetch-Site are sent (to potentially trustworthy URLs);
//     Sec-Fetch-User never is (no request carries user activation), and
//     a navigation without a client (the embedder's) counts as the
//     user's (Sec-Fetch-Site: none).
//   - Mixed Content: a client prohibits mixed security contexts when its
//     origin's scheme is https or wss, as Chromium does; the standard also
//     counts other potentially trustworthy origins (http://localhost), and
//     ancestors' origins, which are not consulted.
//   - A request body from a ReadableStream has a null source
//     (Body.Upload): the network reads it as it sends the request, only
//     over HTTP/2 (HTTPNetwork closes an HTTP/1.x connection net/http
//     picked for it before writing: ErrStreamingUploadHTTP1); a
//     redirect other than 303 of it, or a 401 to it, is a network
//     error. Handle Fetch gives a service worker no such body, and a
//     renderer process does not send one.
//   - Fetch groups (Client.FetchGroup) hold the fetch records the
//     keepalive quota counts (64 KiB of keepalive request bodies in
//     flight); terminating a fetch group is the caller's (its
//     non-keepalive fetches' contexts end), and a record's request is
//     done once its response's body is read. No deferred fetches.
//   - A response's Location header: the first one is used.
//   - Handle Fetch (a service worker) runs only for the first request of
//     a fetch (package bindings' hook): HTTP fetch sets the
//     service-workers mode to "none" before following a network
//     redirect, as the standard says, and a redirect the service worker
//     answered with is followed over the network.
package fetch
