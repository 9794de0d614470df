// Package serviceworker is Service Workers
// (https://w3c.github.io/ServiceWorker/) without a JavaScript engine:
// service workers and their registrations, the user agent's registration
// map, jobs and job queues (Create Job, Schedule Job, Run Job, Finish
// Job, Resolve and Reject Job Promise), Start Register, Register, Update
// (the script fetched through package fetch), Install, Activate, Try
// Activate, Unregister, Try Clear Registration and Clear Registration,
// Update Registration State and Update Worker State, Match Service Worker
// Registration, clients' active service workers, Clients.claim()'s
// steps, Handle Service Worker Client Unload, and Handle Fetch with
// Create Fetch Event and Dispatch.
//
// State hangs off html's typed data slots: a user agent's registration
// map and job queues, an environment's active service worker. Running a
// worker's script, firing its lifecycle and fetch events and closing its
// realm are the embedder's (Host: the browser over package bindings);
// a service worker runs in a service worker agent of its own
// (html.NewStandaloneWorkerEnvironment). The bindings follow the state
// through snapshots (Subscribe), which stand for the tasks Update
// Registration State, Update Worker State and Notify Controller Change
// queue.
//
// An embedder with several processes keeps the registration map and the
// job queues in one (its user agent's state, with clients of the other
// processes as external clients) and has the others mirror it
// (remote.go: UseRegistry, ApplyState, RunMirrored).
//
// # The script fetch
//
// Update fetches the script with a request of destination
// "serviceworker", mode "same-origin", credentials "same-origin", the
// job's client, a `Service-Worker: script` header, service-workers mode
// "none" and redirect mode "error". A response that is not JavaScript
// (a network error among them, so a redirect: its header list is empty),
// or a scope outside the maximum scope (the script's directory, or the
// Service-Worker-Allowed header's path when it is same origin), rejects
// the job with a SecurityError; a status that is not ok with a TypeError. Start Register refuses script and scope URLs whose scheme is
// not http or https (blob: and data: among them) with a TypeError, and
// Register refuses an origin that is not potentially trustworthy, or
// another origin than the client's, with a SecurityError.
//
// # Deviations
//
//   - Registrations are keyed and matched by their storage key's origin
//     (not its top-level site): a page and its same-origin frames share
//     them.
//   - Jobs of every scope run one after another on a goroutine of the user
//     agent's, each to its end (an install is followed by its activation
//     before the next job runs); Run Job queues no task first.
//   - A status that is not ok is a TypeError even when the response is not
//     JavaScript (HTML's status check comes after Update's MIME type check
//     in the standard; Chromium and web-platform-tests check the status
//     first). A network error that is not a redirect (a refused
//     connection) is a SecurityError as the standard's steps give;
//     Chromium says TypeError.
//   - Classic scripts only (module service workers are refused by the
//     bindings); no importScripts() update check, no HTTP cache (the
//     cache mode is not set), no last update check time, so no Soft
//     Update (a registration is never stale) and no update on navigation.
//   - A worker runs from its first run until it is redundant (no idle
//     termination); extendable events are not tracked after they settle,
//     so Service Worker Has No Pending Events is always true.
//   - Handle Fetch sees only the first request of a fetch (package
//     fetch follows redirects itself, navigations' included): a
//     navigation redirected to a URL of another scope is not handed to
//     that scope's worker (HTML's reserved client is reset on a redirect
//     to another origin: html's Navigable.Navigate then makes a new
//     environment, which no service worker controls). No navigation
//     preload, router rules or race responses.
//   - Navigations (HandleFetchNonSubresource with the navigation's
//     reserved environment, html.Navigable.ReserveEnvironment), worker
//     and shared worker scripts (with the worker's environment) and
//     subresource requests (HandleFetch: fetch() and the browser's
//     element loads) go through Handle Fetch. A window client's active
//     service worker is set as the window client case of Control and
//     Use says (WindowClientCreated): the one Handle Fetch matched for a
//     navigation fetched over HTTP, else its creator document's when
//     their origins are the same (about:blank, about:srcdoc and blob:
//     documents), null for an opaque origin (data:, sandboxed iframes,
//     whose navigations no registration matches). A document the
//     embedder gives without a fetch gets the worker matching its URL,
//     without a fetch event (HandleFetchReservedClient).
package serviceworker
