package server

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
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
