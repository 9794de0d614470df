// Package browser is the engine host: it turns the engine's core (html,
// dom, storage, weblocks) and its JavaScript bindings into a browser an
// embedder drives from Go. It knows nothing of web-platform-tests (the
// wpt-runner's go product is an adapter over it).
//
// A Browser is made from a Config: a user agent (html.UserAgent; one is
// created when nil) and a Fetcher, its network (HTTPFetcher over net/http
// by default; FSFetcher serves an fs.FS; the runner plugs in its own; see
// Loading). Open opens a
// top-level window at a URL and waits for its load event; Window.Evaluate
// runs an expression in the window's realm and awaits its promise;
// Browser.RunUntilIdle waits until nothing is loading, queued or timed;
// Close unloads every window and tears the user agent down.
//
// Config.InitWindow runs in every new window (top-level, iframe, popup) on
// its event loop before its scripts: the place to add an embedder's own
// Web IDL interfaces, generated out of tree with bindgen (codegen.Run):
// call the generated Register(reg, Statics{...}) once, then in InitWindow
// w.Realm().IDL().Install(reg) (see codegen/testdata/greeter's
// Example_browser). Misuse is an error, not a panic: the methods of a
// zero-value Browser return ErrNotCreated, those of a nil or zero-value
// *Window ErrNoWindow.
//
// # What a window does
//
// Documents are parsed with golang.org/x/net/html into dom.Document trees
// that scripts see through the generated DOM bindings (document
// instanceof Document). Scripts run as HTML's parser runs them, each in a
// task of the window's event loop, every fetch started at once: classic
// scripts without defer or async in document order (parser-blocking);
// then the scripts that execute when the document has finished parsing
// (classic with src and defer, module scripts without async) in document
// order; async ones (classic with src, module) as soon as they are ready.
// Then readystatechange and DOMContentLoaded fire, and load once the async
// scripts ran and the iframes inserted while the document loaded have
// loaded. nomodule classic scripts are skipped; other types are data
// blocks. A script whose fetch fails fires error at its element; an
// external one that ran fires load.
//
// # Module scripts
//
// modules.go implements HTML's module scripts over sobek's cyclic module
// records: a module map per environment settings object (a typed slot;
// each URL fetched and evaluated once), "fetch a module script graph",
// "fetch an inline module script graph", "fetch the descendants of and
// link a module script" (each module of a graph fetched once, the first
// parse error found depth first, then Link), "create a JavaScript module
// script" (a specifier that does not resolve is a TypeError parse error;
// html.ResolveModuleSpecifier), "run a module script" (a rejected
// evaluation promise is reported at the global, after top-level await
// too), HostLoadImportedModule for import() in windows, dedicated and
// shared workers (resolved against the calling module's or classic
// script's base URL, else the API base URL), and
// HostGetImportMetaProperties (import.meta.url and import.meta.resolve).
// Module fetches are CORS requests (see Loading) and need an ok status and
// a JavaScript MIME type. new Worker(url, {type: "module"}) and new
// SharedWorker(url, {type: "module"}) fetch a module worker script graph
// in the worker's realm (with destination "worker" or "sharedworker" and
// the owner as the client); importScripts throws TypeError there.
//
// # Loading
//
// Every load is a fetch of package fetch (loads.go, modules.go): the
// browser builds the request HTML gives it and runs fetch.Fetch, whose
// network is the Config's Fetcher (fetch_request.go) and which reads
// blob: URLs from the user agent's blob URL store. So bad ports, Mixed
// Content, CORS (fetch.CORSCheck, the one CORS check of the engine, on
// every cross-origin hop), the Fetch Standard's redirects, Referrer
// Policy and the fetch metadata headers (Sec-Fetch-Dest, -Mode, -Site)
// apply to all of them, whatever the Fetcher. A document's referrer
// policy (its response's Referrer-Policy header, overridden by a referrer
// meta element, parsed or inserted) is the policy of its loads and
// fetch() calls that set none; a classic worker's is its script
// response's Referrer-Policy header's (its owner's for a blob: or data:
// script):
//
//   - documents: navigation requests (mode "navigate", credentials
//     "include"), destination "document" for top-level windows (Open,
//     window.open, location) and "iframe" for frames, whose client is the
//     navigation's source document (the iframe's, the opener's, the
//     navigating window's; none for the embedder's navigations; for a
//     reload and a traversal that loads a document, the navigable's
//     document they leave, as HTML's apply the history step when no
//     source document is given: the fetch event's clientId, as
//     Chromium's for a reload); window.open with noreferrer sends no
//     referrer; a reload's request has the reload-navigation flag, a
//     traversal's the history-navigation flag; an http(s) navigation goes to the
//     service worker whose scope matches its URL first (its fetch event's
//     resultingClientId is the id of the environment HTML reserved for
//     the navigation, which the new document's environment takes over,
//     and which that worker then controls);
//   - classic scripts: destination "script", mode "no-cors" (an opaque
//     cross-origin script still runs, its errors muted: "Script error."
//     with no location) or "cors" with a crossorigin attribute
//     (credentials by its state), the referrerpolicy attribute;
//   - module scripts and import(): mode "cors"; a static import's
//     referrer is the importing module's URL;
//   - worker and shared worker scripts: mode "same-origin" (a redirect to
//     another origin is a network error; a cross-origin URL fires error
//     without a request, as in Chromium), destination "worker" or
//     "sharedworker", the owner's environment as the client, a JavaScript
//     MIME type required for http(s);
//   - importScripts: destination "script", mode "no-cors", the worker's
//     environment as the client; a failed fetch, an error status or
//     (over http(s), as in Chromium: HTML checks every scheme) a MIME
//     type that is not JavaScript's is a NetworkError DOMException;
//   - scripts' fetch(): the request the bindings build;
//   - elements' subresources (subresources.go and the files it names):
//     img (HTML's update the image data with select an image source over
//     srcset, sizes and a picture parent's source children; Image()),
//     SVG image and use, link rel=stylesheet, preload (destination of
//     its as attribute) and prefetch, audio and video (Range bytes=0-),
//     style elements' and style attributes' @import (style), @font-face
//     (font) and background images (image), and FontFace.load() (font,
//     cors), whose load, error, loadedmetadata and loadeddata events
//     follow their responses; their requests go to the client's active
//     service worker first, as fetch() does. Worker and shared worker
//     scripts go to the service worker whose scope matches their URL
//     (which then controls the worker: its importScripts and fetch()
//     reach it).
//
// Content Security Policy (package csp) applies to every load: a
// document's CSP list comes from its response's Content-Security-Policy
// headers and its meta elements in head, a worker's from its script's
// response (its owner's for blob: and data:); package fetch's main fetch
// blocks what the client's list forbids (csp.go).
//
// blob: and data: URLs load for each of them (a data: worker or document
// has an opaque origin), except a page's navigation of a top-level window
// to a data: URL, which is refused as Chromium and Firefox refuse it. The
// Fetcher sees one HTTP request per hop and must not follow redirects; a
// RequestFetcher gets each request whole (method, headers, body), any
// other Fetcher GET and HEAD requests by URL.
//
// Iframes (src, srcdoc, sandbox) get child navigables: an inserted iframe
// gets its initial about:blank window at once, setting src or srcdoc
// navigates it, removal destroys it; frame elements (src only) too,
// wherever they are inserted. A frame's document swap (the old window
// leaves, the new one is made) runs in one task of its container's event
// loop when both are of that agent, so no script there sees the frame
// without a window mid-navigation. window.open opens auxiliary
// top-level windows (noopener gives null); window.close closes them.
// Before a window goes away pagehide and unload fire at it and then at its
// frames' windows (parent first, as browsers do), then its documents
// unload, running their cleanup steps (which release their Web Locks).
//
// Dedicated workers, nested ones included: the bindings' Worker (classic)
// calls the browser's WorkerHooks, which run the worker: its agent and
// environment, the script fetch, its realm connected to the worker's port,
// importScripts, close; Worker.terminate terminates the agent.
// postMessage between windows, workers and MessagePorts uses the bindings'
// StructuredSerializeWithTransfer and DeliverMessage (engine-neutral
// records and ports in html), ports transfer.
//
// # Navigation, session history and the back/forward cache
//
// Every navigating member of Location (and window.location = ...) navigates
// any window (top-level windows of Open, popups, frames); Window.Current is the window then
// active in the navigable. Before the new document becomes active the old
// one is unloaded as HTML's "unload a document" does: pagehide (a
// PageTransitionEvent, persisted false) and unload fire at its window, and
// then its unloading document cleanup steps run, where Web Locks
// terminates its remaining locks and requests. Each navigable has session
// history entries, joined into the top-level traversable's session history
// (history.length; back, forward and go traverse it after the calling
// task; pushState and replaceState add and replace entries of the same
// document). A frame's first navigation away from its initial about:blank
// document, and a navigation to the document's own URL, replace the entry.
//
// A top-level window without an opener (one of Open, or a popup of
// window.open with noopener) navigated away from by a push navigation or
// a traversal is kept in the back/forward cache when its document is
// "salvageable" (HTML's term): it has no unload listener (as in Chromium).
// Auxiliary windows with an opener and frames are not cached (Chromium
// does not cache pages with an opener or frames' own navigations). The
// dedicated workers of a cached document are suspended with it (HTML's
// "suspendable worker"): their tasks wait until it is restored. Holding Web Locks does
// not make a document unsalvageable. A kept document gets pagehide with
// persisted true and no unload (its visibilityState becomes hidden, with
// visibilitychange, as on every pagehide); it is not "fully active", so its tasks
// wait and its lock requests and queries reject with InvalidStateError,
// while its held locks stay held. A traversal back to it restores the same
// window and fires pageshow with persisted true. It is evicted (HTML:
// destroyed with its descendants, releasing its locks) when another
// context's request must wait for one of its locks or queries the lock
// manager (weblocks/bfcache.go and weblocks/htmlhost, "web-locks-contention"; a lock of a shared
// worker whose owner documents are all cached counts as theirs, as in
// Chromium), when more than
// html.BFCacheSize documents are cached ("cache-limit") or when its entry
// is dropped by a new navigation. Window.NotRestoredReasons says why a
// traversal loaded a document again; Window.InBackForwardCache and
// Window.LockState / EnvironmentLockState inspect a window's cache state
// and its held locks and pending requests (from the browser side: no
// eviction). See navigation.go.
//
// From Go, Window.Navigate(ctx, url) and Window.Traverse(ctx, delta)
// navigate and traverse like location.assign and history.go, and return
// when the new document has loaded (or the same window, for a fragment
// navigation or an entry of its own document), or why they could not.
// Evaluate on a window that is not fully active fails at once with
// ErrNotFullyActive. A request waiting behind a lock that a cached page
// holds waits until that page is evicted (as in Chromium, where the
// waiting request itself evicts it; a query does too); an embedder can
// evict it with Window.EvictFromBackForwardCache, or keep no page in the
// cache with Config.DisableBackForwardCache.
//
// Shared workers (sharedworker.go): new SharedWorker(url, name) connects
// to the user agent's one worker for (url, name, storage key) or runs a new
// one, and fires connect at its global with a port entangled with the
// SharedWorker object's port. The worker is terminated (its Web Locks
// released) when its last owner document is unloaded.
//
// # One JavaScript heap per agent
//
// sobek has one realm per runtime, so every window has its own runtime, and
// the windows of one similar-origin window agent run on the agent's one
// event loop goroutine. A membrane per agent (bindings/membrane, see
// agents.go) joins them: contentWindow, contentDocument, parent, opener,
// the value of window.open and MessageEvent.source are the other window's
// own objects reached synchronously through it (functions, exceptions and
// promises cross; the same object is the same wrapper; a promise of a
// frame's navigator.locks is instanceof the frame's Promise). Windows of
// one agent but different origins get HTML's cross-origin rules
// (SecurityError except for the cross-origin properties). Windows of other
// agents are reached through a WindowProxy stand-in with HTML's
// cross-origin properties (postMessage, closed, close, location's href
// setter and replace(), the relatives).
//
// # Renderer processes
//
// Config.Process says where windows run. SingleProcess (the default)
// runs them in the embedder's process, where a page that overflows its Go
// stack (deep JSON.parse or eval) or exhausts memory kills the whole
// process: no recover catches that. RendererProcesses runs each top-level
// window of Open and Start (a new browsing context group) in a renderer
// process of its own, with its frames, popups and dedicated workers; the
// process is the embedder's own executable started with the hidden first
// argument RendererArg (MaybeRunRenderer, called first thing in main,
// turns it into a renderer), or the program RendererConfig.Command names.
// Without either, Open fails with ErrNoRendererEntry: there is no silent
// fallback to one process. A renderer has a Go stack cap and a memory
// limit with a watchdog (internal/childproc, shared with the WPT runner's
// isolation), so a hostile page ends only its renderer; the window's
// RendererErr and RendererConfig.OnExit say why ("stack overflow", "out
// of memory", "killed by a signal (killed)", "killed by the browser
// process: ..."), and every other window keeps working.
//
// The browser process (the embedder's) keeps the user agent's lock
// service (htmlhost.ServiceOf of its user agent, shared with its
// single-process windows) and serves it to the renderers over gRPC
// (package ipc, on a socket pair each renderer inherits: nothing
// listens), with a control channel (open, evaluate, close, console,
// uncaught errors, BroadcastChannel messages, which it passes on to the
// other renderers after checking their storage key's site), localStorage
// (the areas of its user agent's storage shed, bindings.LocalStorageArea,
// for the storage keys of the renderer's site) and the network: a
// renderer fetches through the browser's Fetcher. In the renderer, htmlhost.UseService makes every
// environment use ipc.RemoteService, so Web Locks contend, queue, are
// stolen, queried and evicted from the back/forward cache across
// processes; a renderer's death terminates its clients in the lock
// service (their requests aborted, their locks released, the waiters
// granted). The lock session itself (every lock request, grant, release,
// abort and query) is not on gRPC by default: a deliberate deviation from
// "over gRPC" for this one stream. Its messages (the same lockspb
// protobuf messages, checked by the same session code) are framed, length
// first, on two more socket pairs of the renderer, one per direction
// (its file descriptors 4 and 5; RendererConfig.LockTransport
// LockTransportFramed), because gRPC's
// per-message work (its reader and writer goroutines, HTTP/2 framing,
// 3-4 system calls a message on each side) costs more than a whole cycle
// may: a JS request/release cycle crossing the processes took 125-168 us
// over gRPC against Chromium's 376-504 us, and a bare gRPC-go
// request/outcome/release cycle alone 51-100 us. Measured side by side
// in one run (BenchmarkRendererLockCycleSideBySide, count 3, 2 shared
// cores, load average 16-21): framed 60-64 us per cycle (one run of 185
// us), CPU per cycle 27-28 us in the browser process and 39-49 us in the
// renderer; gRPC 105-161 us (CPU 52-68 us and 57-64 us); in-process 21-22
// us; Chromium 812-1018 us. Most of the framed cycle's CPU is the
// kernel's: system calls (each write wakes the other process) and context
// switches. LockTransportGRPC keeps the gRPC session. The browser process trusts no renderer: a call
// for another renderer's client or lock, another site's storage key, a
// malformed frame or call, or a flooding one, gets the renderer killed
// (ipc.LockServer). A flooding
// renderer never grows the browser process without bound, and one that
// stops reading holds up no other: besides the lock session's bounds
// (package ipc), the messages of the other renderers for it
// (BroadcastChannel) wait in a queue of at most 32 MiB (a sender past it
// waits; a renderer that takes none of them for 10 s is killed), its
// localStorage covers at most ipc.MaxStorageKeys storage keys, its
// service worker clients are at most 65536 and its unsettled service
// worker jobs at most 1024, and its
// calls under way (network requests, storage) at most ipc.MaxStreams
// streams. A renderer runs with GOMAXPROCS 1 unless RendererConfig.MaxProcs
// says otherwise.
//
// Messaging crosses renderers through the browser process
// (renderer_messaging.go, renderer_msg.go, renderer_sw.go). window.open
// of another site's http(s) URL opens it in a new renderer of that site
// (its window is one of the embedder's, as Open's are); the opener gets a
// WindowProxy stand-in for it, the popup one for its opener, and a message
// from a window of another renderer has one as its source (one per
// window: e.source === window.opener). A stand-in names a navigable (as a
// WindowProxy does), not a document: the browser process routes a handle
// of a top-level traversable to the renderer of its active document,
// wherever the traversable moved, and that renderer gives it to the
// navigable's active window; its length is the number of that window's
// child navigables (which its renderer reports when it changes: the
// browser process keeps it per handle and tells the renderers given the
// handle), its opener the window that opened it with window.open (else
// null), its top and parent itself for a top-level window, and for a
// frame's window (say, a frame that opened a popup) stand-ins for its
// top-level window and parent, which the renderer hosting it reports when
// it gives it a handle and the browser process grants with it. postMessage serializes in the
// sender (DataCloneError, SyntaxError for a bad targetOrigin, before
// anything is sent) and sends html's serialized record (its binary
// form) with the sender's handle and origin; the browser process checks
// that the sender hosts that window, that its origin is of the sender's
// site and that it was given the target, drops a message whose
// targetOrigin is not of the target's site, and the target's renderer
// checks the exact origin. The stand-in's cross-origin Location (its
// href setter and replace(), and the stand-in's location setter) parses
// the URL in the caller (SyntaxError) and sends the navigation of the
// handle's window to the browser process, which checks that the sender
// was given that window and that the URL is an http(s) URL (else the
// sender is refused, logged and killed), and has the window's renderer
// navigate the window's navigable (its active window), with no source
// document; a top-level traversable navigated to another site moves to
// a renderer of that site as any other cross-site navigation does. A
// transferred MessagePort becomes a link between two renderers: the
// sender keeps the port as the link's stub, the receiver makes a new
// channel; messages go either way through the browser process, and a
// port's close, or its renderer's end, disentangles the other side (whose
// port gets the close event). The browser process keeps the shared-worker
// registry: the first renderer whose window constructs a shared worker
// runs it, other renderers' documents of the site connect to it through
// links and are in its owner set until they are unloaded or their
// renderer ends (which may terminate it); the embedder's Window.Close of
// a window whose renderer runs such a worker closes only its
// traversable there, and the renderer ends once it hosts nothing. The browser process also keeps
// the service worker registrations and job queues of every storage key
// (package serviceworker's state of its user agent, whose jobs fetch the
// scripts with its Fetcher): every renderer mirrors those of its site
// (serviceworker.UseRegistry), so register(), getRegistration(s)(),
// unregister(), update() and ready see one registration map from every
// renderer; each worker runs in a renderer of its site (the one whose
// client made the site's last job), lifecycle and fetch events go to it
// there, and a client of another renderer that it controls gets its
// fetch events answered across processes; clients.claim(),
// clients.matchAll(), clients.get() and activation reach the clients of
// every renderer (their ids are their environments' ids), and
// postMessage crosses between a worker and the clients of other
// renderers (ports as links). Messages wait in the target renderer's bounded queue (the sender
// is throttled, a target that does not read is killed); a renderer's live
// links and popups are bounded. Forged handles, origins, links or storage
// keys get the renderer killed.
//
// Config.InitWindow cannot cross to a renderer: RegisterRendererInit
// registers a window init function (in an init function of a package the
// executable imports, so that its renderers have it too) that
// RendererConfig.Inits names; it may post messages to the embedder
// (RendererConfig.OnMessage). The WPT runner's go-renderer product reports
// its results that way. A Go panic of the engine in a renderer ends the
// renderer ("panic").
//
// A top-level traversable of a renderer (the window of Open, or a popup,
// with or without an opener) that navigates to another site (an http(s)
// URL whose scheme and registrable domain differ from the renderer's
// site) moves to its browsing context group's renderer of that site (a
// popup's group is its opener's): the browser process keeps, per
// traversable, which renderer holds each session history entry's
// document, per group the renderer of each of its sites (starting one
// when needed), and routes
// the handoff (navigation_swap.go, renderer_tabs.go). The document
// navigated away from stays in its renderer's back/forward cache (or is
// unloaded, releasing its locks), and a traversal back to its entry
// restores it there; a renderer left hosting nothing (no window, cached
// or not, no worker) ends, without OnExit. The embedder's Window follows
// its traversable: URL (its active document's, also after a script
// navigated it or pushed a state: the renderer reports it), Evaluate (in
// its active document), RendererErr, RendererPID and OnExit are those of
// the renderer now active. Window.Navigate and
// Window.Traverse navigate and traverse the traversable (across
// renderers when another site's document is the target) and return the
// same Window once the document then active has loaded or been
// restored; on a window whose renderer ended (crashed, killed) Navigate
// starts a fresh renderer with the new document, and the window works
// again. A traversable keeps its opener across renderers: the handles
// that named it in the renderer it leaves name it from then on (its
// opener's stand-in for it, or, for a popup of its opener's renderer, the
// opener's own reference to it, which reaches it through its handle:
// postMessage, closed and close()), and its documents in other renderers
// get a stand-in for the opener as window.opener; close() by the opener
// destroys it in every renderer holding a document of it. Window.Close
// (and the opener's close()) of a window whose renderer another
// traversable of its group uses destroys its traversable there only.
//
// A window of a renderer (Window.InRenderer) supports URL, Loaded,
// Evaluate (its value crosses as JSON: integers as int64, other numbers
// float64), Navigate, Traverse, Close, RendererErr and RendererPID; Realm
// and Document are nil and the other methods report ErrNoWindow. Start-up to the first task is
// about 13 ms and an idle renderer about 24 MB RSS here
// (BenchmarkRendererStart).
//
// # Deviations
//
//   - Subresources are fetched, not decoded or rendered: an image loads
//     when its bytes sniff as an image type (or it is SVG), media when
//     they sniff as an audio or video container, a FontFace when they
//     sniff as a font; the whole resource is read at once. The device
//     pixel ratio is 1, media queries and sizes' media conditions are
//     not evaluated, every @font-face source is fetched when its sheet
//     is (browsers wait for an element to use the font), style sheets'
//     background images are not fetched (style attributes' are, once
//     their element is connected), and images in a picture parent that is
//     not connected are updated only when a source attribute changes.
//     Elements do not delay the load event; parser-inserted ones start
//     loading when the window is installed. There is no list of
//     available images, lazy loading, MediaError, readyState or
//     networkState, and no FontFaceSet (document.fonts). A frame element
//     (in a frameset) is an iframe without srcdoc or sandbox whose
//     requests' destination is "frame".
//   - CSP reports nothing (no report-uri, report-to or
//     securitypolicyviolation events) and enforces only request URLs:
//     nonces, hashes, 'strict-dynamic' and the inline and eval checks are
//     not enforced.
//   - Only a navigation's first request reaches a service worker (fetch
//     follows redirects itself: serviceworker's doc.go); there is no
//     navigation preload. A reload's or traversal's request client
//     (the navigable's active document's) carries only its id, origin
//     and top-level site: the request keeps no referrer (HTML: the
//     entry's document state's referrer), its origin is its URL's and
//     no CSP list checks it. history.go from another frame's document
//     gives the traversed frames' requests their own active document's
//     client, not the calling document's (HTML's sourceSnapshotParams);
//     a traversal to an entry of another renderer process's has none.
//   - Import attributes (import ... with {type: "json"} or "css") do not
//     parse: sobek has no import attributes (its tc39 suite skips the
//     feature), a SyntaxError at the with keyword.
//   - window.open of an http(s) URL from a window of the same agent fetches
//     the document synchronously, and returns the new window itself (in
//     browsers the initial about:blank Window is reused for the navigated
//     document, which has the same observable effect for same-origin
//     popups: listeners added right after open() see its load event).
//   - Session history is HTML's joint session history of the top-level
//     traversable (jointhistory.go): frames' pushes are steps of it,
//     history.length counts them in every document of the tree, and a
//     traversal by a delta moves every frame whose entry differs at the
//     target step. Each frame keeps its own entries; the steps of a
//     removed frame are dropped; a frame's entries are not kept inside a
//     cached document's entry (a document loaded again gets new frames).
//   - Traversals to an entry whose document was not kept load its URL
//     again (GET, no form state, no scroll restoration). Fragment
//     navigations (every Location member), pushState and replaceState
//     (fragment.go) and traversals between entries of one document keep
//     the document and its locks; traversals fire popstate (with the
//     entry's state), then hashchange in a task when the fragment
//     changed, as HTML says and Chromium does. There is no scrolling
//     (scrollRestoration is kept per document, not per entry), no
//     navigation API, and pushState has no rate limit. A restore from the
//     back/forward cache to another entry of the cached document than its
//     last one does not update its URL.
//   - A window evicted from the back/forward cache by contention keeps its
//     (idle, never again running) realm until its entry is traversed to or
//     its traversable closes.
//   - Exceptions thrown by another window's functions reached through the
//     membrane (a cross-origin frame's postMessage called with no
//     argument) are that window's objects: instanceof the caller's
//     TypeError is false, where browsers' cross-origin wrapper functions
//     throw the caller's. The same holds for an operation or attribute of
//     one window's interface called on a platform object of another
//     window of its agent, which that window's realm performs (see
//     Window.foreignMember): its results are of the object's realm, as in
//     browsers, and so are the exceptions it throws after the brand check.
//     A platform object of another window of the agent passed as an
//     argument (a frame's fetch given its parent's AbortSignal) is that
//     window's implementation, used by the callee's realm (webidl
//     ForeignObject, Window.foreignObject); the JavaScript values it
//     holds and gives back (an abort reason, the object itself) reach the
//     callee as views through the membrane (Window.foreignValueFrom).
//     An ArrayBuffer, DataView or typed array of another window of the
//     agent is accepted the same way where an operation takes a buffer
//     source (TextDecoder.decode, a BlobPart, a fetch body); its bytes
//     are read and written in place. A ReadableByteStreamController's
//     enqueue and respond(WithNewView) still refuse such a view with a
//     TypeError, where browsers transfer its buffer.
//     Once the other window is gone (a removed frame), its objects are no
//     longer accepted as arguments (a TypeError), where browsers accept
//     them.
//   - The WindowProxy of a window of another agent (another site) is
//     bindings' remote WindowProxy: HTML's cross-origin properties, its
//     Location's href setter and replace() navigate the window
//     (navigation_remote.go; with the caller's document as the source,
//     without HTML's "allowed by sandboxing to navigate" check); its
//     window[i] follows the order in which the frames were connected,
//     which is tree order except after DOM reordering.
//   - A data: document has an opaque origin and, as HTML's secure
//     context algorithm says
//     (its top-level creation URL decides), is a secure context where
//     navigator.locks rejects with SecurityError; Chromium makes it a
//     non-secure context without navigator.locks.
//   - A message posted through the membrane is serialized in its owner's
//     realm only when the message itself is that window's object (not for
//     another window's objects nested inside one of the caller's).
//   - Module scripts: no import maps (every bare specifier is a
//     TypeError), no JSON or CSS modules and no import attributes, no
//     modulepreload, no integrity metadata. Service workers run classic
//     scripts only (import() in one is the spec's TypeError).
//   - Loads: no HTTP cache, no Content Security Policy; muted errors
//     cover the evaluation of an opaque classic script, not later
//     callbacks of its functions; a module worker's referrer policy is
//     the default one, and about:blank and blob: documents do not
//     inherit their creator's; classic scripts are decoded by
//     their response's charset (not the element's charset or the
//     document's encoding); a classic worker's URL is its script's
//     response URL (after a same-origin redirect) but its environment's
//     creation URL stays the request URL, and a module worker's URL is
//     the request URL; history traversals and reloads send no referrer.
//   - A script element's load event and the scripts after it do not wait
//     for a module's top-level await (as HTML says and Chromium does);
//     import() and importers do.
//   - new SharedWorker() whose options type differs from the running
//     worker's fires error at the SharedWorker, as HTML says, after the
//     document was already added to the worker's owner set.
//   - Script elements inserted by the DOM (scriptinsert.go) are prepared
//     once, when they are inserted: one inserted empty is not prepared
//     again when its children or src change later. Their fetches do not
//     delay the document's load event, and every external or module one
//     runs as soon as it is ready (the async attribute and "in order as
//     soon as possible" for async=false are not distinguished).
//   - An about:blank or about:srcdoc document whose creator is in another
//     agent (a sandboxed frame) falls back to the creator's URL, not to a
//     base element of the creator's document, which another event loop
//     owns.
//   - RunUntilIdle probes realms in tasks and needs two quiet rounds in a
//     row; a repeating timer keeps a browser busy forever. It does not
//     probe the windows of renderer processes.
//   - Renderer processes: the site of a renderer is the site of the URL it
//     was opened at (or navigated to). A top-level traversable's
//     cross-site navigation moves it to its browsing context group's
//     renderer of the new site, but window.open of another site's URL
//     starts a renderer of its own for the popup (which then joins the
//     group for that site if the group has none), and a popup that moved
//     into its opener's renderer reaches its opener through stand-ins
//     (a traversable of its own there, not one of the opener's agent).
//     Frames stay in the renderer of their parent whatever
//     their sites (their Web Locks requests and queries for another site
//     are rejected: its storage key is not of the renderer's site, which
//     ipc.RemoteService refuses rather than have the renderer killed).
//     The renderer of a
//     navigation is chosen by its URL before redirects. Across renderers,
//     history.length counts the entries each renderer knows of, the joint
//     session history's steps of frames in another renderer's documents
//     are not kept, and a traversal to an entry whose renderer ended
//     loads its URL again and drops the entries after it.
//     There is no Window.Current across processes.
//     Service workers (serviceworker_remote.go): a renderer sees the
//     registrations of its own site only (a frame of another site in it
//     sees none, and its register() rejects with a SecurityError); a
//     client of another
//     renderer than its worker's is known to the worker by what the
//     browser process knows of it: its url is its creation URL, a
//     window's visibility state is "visible", its focus state false and
//     its ancestor origins list empty, a shared worker's type is
//     "worker"; the browser process knows a renderer's windows of
//     secure contexts and the workers a registration controls (not the
//     other dedicated and shared workers); a client of another renderer
//     counts as fully active (one in its renderer's back/forward cache
//     keeps using its registration and may be claimed). A fetch event's
//     request and response bodies cross whole (not streamed; as in one
//     process, where the bindings read a respondWith body whole). A worker
//     whose renderer ended runs again in a renderer of its site at its
//     next fetch event or message (the ports of a message are closed
//     when it then runs in the sender's own renderer). A shared worker runs in the renderer of its
//     first client and does not outlive its crash or kill: the ports of
//     other renderers' clients are closed then, and their next new
//     SharedWorker() starts a new one (Window.Close of the first client's
//     window keeps its renderer while other renderers' documents use the
//     worker: the renderer ends once it hosts nothing); a connection of another renderer gets the close
//     of its port, not error, when the worker's script fails. A remote
//     WindowProxy (a window of another renderer) supports postMessage,
//     closed, close() (which closes only a popup whose opener is in its
//     renderer), length, opener and location's navigating members (only
//     to http(s) URLs: others are ignored and logged); its indexed
//     properties (its child navigables) throw a SecurityError, its opener
//     is null unless the window opened it, and its length (and a frame's
//     top and parent, until they arrive) lags its window's changes by a
//     trip through the browser process. A message posted while the target's navigable is between
//     two documents (or moving between renderers) is dropped. In a popup
//     that left its opener's renderer, the opener's own reference to it
//     (its first window, through the membrane) serves postMessage, closed
//     and close(), but a message from it has another stand-in as its
//     source (e.source !== popup) and its other members are those of the
//     window it was. A renderer's report of the length of a window it does
//     not host (any more) is dropped, not refused.
//     window.open of another site's URL waits, on the
//     opener's event loop, until the popup's renderer has opened its
//     window; each such popup gets a new renderer (at most 32 live ones
//     per opener's renderer, then window.open gives null). BroadcastChannel
//     messages cross renderers (the browser process passes them on), but
//     the destinations of different renderers are not ordered by creation
//     among each other. localStorage is the browser process's (one area
//     per storage key for every renderer); each operation is a call to it.
package browser
