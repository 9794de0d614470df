// Package fetch is the Fetch Standard (https://fetch.spec.whatwg.org/)
// in plain Go, without a JavaScript engine: request and response records,
// header lists, fetch, main fetch, scheme fetch, HTTP fetch, HTTP-redirect
// fetch (redirect count limit, redirect-tainted origin, CORS check of
// every response in CORS mode, removal of Authorization on a cross-origin
// redirect and of the request-body headers on a method change),
// HTTP-network-or-cache fetch's header steps (Origin and Referer),
// CORS-preflight fetch and the CORS check, the bad port list, Mixed
// Content blocking and Referrer Policy (default
// strict-origin-when-cross-origin).
//
// The network is the embedder's Network: it sends one request and returns
// the response as the server gave it, never following a redirect.
// HTTPNetwork is the net/http one. Bindings (fetch(), Request, Response,
// Headers) and the browser (documents, module scripts) call Fetch; the
// JavaScript objects stay in package bindings.
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
//     streams, from them).
//   - about:blank, data: (the data: URL processor), blob: (through
//     Params.BlobURLs, the user agent's store in package fileapi; no range
//     requests, and no partition check beyond the blob URL's origin) and
//     http(s) URLs are fetched; file: URLs are network errors.
//   - There is no HTTP cache, no CORS-preflight cache (every preflight is
//     sent), no Content Security Policy, no Cross-Origin-Resource-Policy,
//     no integrity metadata, no fetch metadata (Sec-Fetch-*) headers and
//     no timing info.
//   - Mixed Content: a client prohibits mixed security contexts when its
//     origin's scheme is https or wss, as Chromium does; the standard also
//     counts other potentially trustworthy origins (http://localhost), and
//     ancestors' origins, which are not consulted.
//   - A response's Location header: the first one is used.
//   - Handle Fetch (a service worker) runs only for the first request of
//     a fetch (package bindings' hook): HTTP fetch sets the
//     service-workers mode to "none" before following a network
//     redirect, as the standard says, and a redirect the service worker
//     answered with is followed over the network.
package fetch
