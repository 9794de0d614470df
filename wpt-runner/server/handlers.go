package server

import (
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"
)

// pyHandler is a Go equivalent of one of WPT's Python request handlers
// (wptserve runs a .py file's main(request, response); the runner runs no
// Python, so the few handlers the pages it serves need are rewritten here).
// It is consulted only when the tree holds the .py file at that path; any
// other .py request gets 501 Not Implemented.
type pyHandler func(s *Server, w http.ResponseWriter, r *http.Request)

// pyHandlers maps a handler's path in the tree to its Go equivalent.
var pyHandlers = map[string]pyHandler{
	"/html/browsers/browsing-the-web/remote-context-helper/resources/executor-window.py": serveRemoteContextWindowExecutor,
	"/fetch/resources/record-request.py":                                                 serveRecordRequest,
	"/fetch/resources/hold-body.py":                                                      serveHoldBody,
}

// serveRemoteContextWindowExecutor answers the RemoteContextHelper's window
// executor page: an HTML document that loads the dispatcher and the
// executor scripts next to it, records the request's headers in
// window.requestHeaders (a Headers object, names lower-cased, one append
// per value) and starts the executor. The query (uuid, script, startOn,
// pipe) is read by the page's own scripts from location.search.
func serveRemoteContextWindowExecutor(s *Server, w http.ResponseWriter, r *http.Request) {
	var init strings.Builder
	names := make([]string, 0, len(r.Header)+1)
	for name := range r.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	appendHeader := func(name, value string) {
		n, _ := json.Marshal(strings.ToLower(name))
		v, _ := json.Marshal(value)
		init.WriteString("window.requestHeaders.append(" + string(n) + ", " + string(v) + ");\n")
	}
	// net/http moves Host out of the header map; wptserve's request
	// headers include it.
	if r.Host != "" {
		appendHeader("host", r.Host)
	}
	for _, name := range names {
		for _, value := range r.Header[name] {
			appendHeader(name, value)
		}
	}
	body := "\n<!DOCTYPE HTML>\n" +
		"<script src=\"/common/dispatcher/dispatcher.js\"></script>\n" +
		"<script src=\"./executor-common.js\"></script>\n" +
		"<script src=\"./executor-window.js\"></script>\n\n" +
		"<body>\n<script>\nwindow.requestHeaders = new Headers();\n" +
		// json.Marshal escapes <, > and & as \u003c etc., so a header value
		// cannot close the script element.
		init.String() +
		"\nrequestExecutor();\n</script>\n"
	h := w.Header()
	h.Set("Content-Type", "text/html")
	h.Set("Cache-Control", "no-store")
	status, _, ok := s.applyPipes(w, r)
	if !ok {
		return
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write([]byte(body))
	}
}

// serveRecordRequest answers /fetch/resources/record-request.py (the
// bundled suite's handler; record-request.py beside it is the wptserve
// version): it appends a JSON record of the request (method, and the
// Origin, Authorization, Referer, X-Custom, Access-Control-Request-Method,
// Access-Control-Request-Headers, Service-Worker, Sec-Fetch-Dest,
// Sec-Fetch-Mode, Sec-Fetch-Site, If-None-Match, Cache-Control and Pragma
// headers, null when absent) to the dispatcher stash queue ?uuid=, then
// answers (with ?etag=, a response with that ETag and no freshness, and
// 304 with X-Revalidated: yes to a request whose If-None-Match is it;
// without, Cache-Control: no-store) ?body= (default "recorded")
// with the Content-Type ?type= (default text/plain; with ?script=1,
// the JavaScript comment "// recorded" as text/javascript), with
// Access-Control-Allow-Origin per ?acao= ("star": *, "origin": the
// request's Origin, else none) and ?allow-headers= as
// Access-Control-Allow-Headers. The fetch tests read the records through
// /common/dispatcher/dispatcher.py to see what the server received; with
// type and body, the recorder is a script, worker or document of their
// own.
func serveRecordRequest(s *Server, w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id := q.Get("uuid")
	if id == "" {
		http.Error(w, "missing uuid", http.StatusBadRequest)
		return
	}
	rec := map[string]any{"method": r.Method}
	for _, name := range []string{"Origin", "Authorization", "Referer", "X-Custom", "Access-Control-Request-Method", "Access-Control-Request-Headers",
		"Service-Worker", "Sec-Fetch-Dest", "Sec-Fetch-Mode", "Sec-Fetch-Site", "If-None-Match", "Cache-Control", "Pragma", "Range"} {
		if v, ok := r.Header[http.CanonicalHeaderKey(name)]; ok {
			rec[strings.ToLower(name)] = strings.Join(v, ", ")
		} else {
			rec[strings.ToLower(name)] = nil
		}
	}
	b, _ := json.Marshal(rec)
	if code, err := s.stash.put(id, b); err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	h := w.Header()
	switch q.Get("acao") {
	case "star":
		h.Set("Access-Control-Allow-Origin", "*")
	case "origin":
		h.Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
	}
	if v := q.Get("allow-headers"); v != "" {
		h.Set("Access-Control-Allow-Headers", v)
	}
	if etag := q.Get("etag"); etag != "" {
		// A cacheable response with that ETag (no explicit freshness:
		// every reuse is revalidated); a 304 when the request has it.
		h.Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			h.Set("X-Revalidated", "yes")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	} else {
		h.Set("Cache-Control", "no-store")
	}
	typ, body := "text/plain", "recorded"
	if q.Get("script") == "1" {
		typ, body = "text/javascript", "// recorded"
	}
	if v := q.Get("type"); v != "" {
		typ = v
	}
	if q.Has("body") {
		body = q.Get("body")
	}
	h.Set("Content-Type", typ)
	io.WriteString(w, body)
}

// maxHolds bounds the pending releases of hold-body.py.
const maxHolds = 1024

// holdTimeout bounds how long hold-body.py holds a body back.
const holdTimeout = 5 * time.Second

// hold returns the release channel of id, made when absent; nil when
// too many are pending.
func (s *Server) hold(id string) chan struct{} {
	s.holdsMu.Lock()
	defer s.holdsMu.Unlock()
	if s.holds == nil {
		s.holds = map[string]chan struct{}{}
	}
	ch, ok := s.holds[id]
	if !ok {
		if len(s.holds) >= maxHolds {
			return nil
		}
		ch = make(chan struct{})
		s.holds[id] = ch
	}
	return ch
}

// serveHoldBody answers /fetch/resources/hold-body.py (the bundled
// suite's handler; the .py beside it only marks the path): with ?uuid=
// it sends the headers and "start ", then holds the rest of the body
// until a request with ?uuid=&release=1 comes ("end"), at most
// holdTimeout ("timeout"); if the client goes away first, it appends
// {"state":"closed"} to the dispatcher stash queue of the uuid. The
// streaming tests read that to see a read stopped.
func serveHoldBody(s *Server, w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id := q.Get("uuid")
	ch := s.hold(id)
	if id == "" || ch == nil {
		http.Error(w, "missing uuid, or too many holds", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	// (Chromium holds back a text/plain response it may sniff, XMLHttpRequest's
	// included, until 512 bytes or the end; nosniff hands it on at once.)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if q.Get("release") != "" {
		s.holdsMu.Lock()
		select {
		case <-ch:
		default:
			close(ch)
		}
		s.holdsMu.Unlock()
		io.WriteString(w, "released")
		return
	}
	defer func() {
		s.holdsMu.Lock()
		delete(s.holds, id)
		s.holdsMu.Unlock()
	}()
	io.WriteString(w, "start ")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	t := time.NewTimer(holdTimeout)
	defer t.Stop()
	select {
	case <-ch:
		io.WriteString(w, "end")
	case <-r.Context().Done():
		s.stash.put(id, []byte(`{"state":"closed"}`))
	case <-t.C:
		io.WriteString(w, "timeout")
	}
}
