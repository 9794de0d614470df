package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file holds Go equivalents of the request handlers of WPT's
// fetch/api/resources/ (wptserve runs them as Python; the runner answers
// them here when the tree holds the .py file), so that the upstream
// fetch/api tests that need them run in both products. Each follows the
// behaviour of the handler of the same name: the query parameters it
// reads, the headers and status it answers with, and what it keeps in
// wptserve's stash between requests.

func init() {
	const dir = "/fetch/api/resources/"
	for name, h := range map[string]pyHandler{
		"redirect.py":                  serveRedirectPy,
		"inspect-headers.py":           serveInspectHeadersPy,
		"preflight.py":                 servePreflightPy,
		"clean-stash.py":               serveCleanStashPy,
		"stash-put.py":                 serveStashPutPy,
		"stash-take.py":                serveStashTakePy,
		"trickle.py":                   serveTricklePy,
		"status.py":                    serveStatusPy,
		"method.py":                    serveMethodPy,
		"echo-content.py":              serveEchoContentPy,
		"cache.py":                     serveCachePy,
		"authentication.py":            serveAuthenticationPy,
		"dump-authorization-header.py": serveDumpAuthorizationPy,
		"redirect-empty-location.py":   serveRedirectEmptyLocationPy,
		"script-with-header.py":        serveScriptWithHeaderPy,
		"infinite-slow-response.py":    serveInfiniteSlowResponsePy,
		"bad-chunk-encoding.py":        serveBadChunkEncodingPy,
	} {
		pyHandlers[dir+name] = h
	}
}

// kvStash is wptserve's stash: values under (path, key), where path is
// the handler's URL path unless the handler names another one; take
// removes the value. It is bounded: at most maxKVEntries values, each
// dropped kvTTL after it was put.
type kvStash struct {
	mu      sync.Mutex
	entries map[string]kvEntry
}

type kvEntry struct {
	v   any
	put time.Time
}

const (
	maxKVEntries = 10000
	kvTTL        = 10 * time.Minute
)

func (st *kvStash) put(p, key string, v any) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := time.Now()
	if st.entries == nil {
		st.entries = map[string]kvEntry{}
	}
	for k, e := range st.entries {
		if now.Sub(e.put) > kvTTL {
			delete(st.entries, k)
		}
	}
	k := p + "\x00" + key
	if _, ok := st.entries[k]; ok {
		return fmt.Errorf("the stash already holds a value for %q", key)
	}
	if len(st.entries) >= maxKVEntries {
		return fmt.Errorf("the stash is full (%d values)", maxKVEntries)
	}
	st.entries[k] = kvEntry{v, now}
	return nil
}

func (st *kvStash) take(p, key string) (any, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	k := p + "\x00" + key
	e, ok := st.entries[k]
	delete(st.entries, k)
	return e.v, ok
}

// query is a request's query string as wptserve's request.GET sees it:
// the names in the order of their first appearance, each with its
// values.
type query struct {
	names  []string
	values map[string][]string
}

func parseQuery(raw string) query {
	q := query{values: map[string][]string{}}
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		k, err1 := url.QueryUnescape(k)
		v, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			continue
		}
		if _, ok := q.values[k]; !ok {
			q.names = append(q.names, k)
		}
		q.values[k] = append(q.values[k], v)
	}
	return q
}

func (q query) has(k string) bool { _, ok := q.values[k]; return ok }

// first is request.GET.first(k, def).
func (q query) first(k, def string) string {
	if v, ok := q.values[k]; ok {
		return v[0]
	}
	return def
}

// intParam reads an integer parameter, bounded to [lo, hi].
func (q query) intParam(k string, def, lo, hi int) int {
	n, err := strconv.Atoi(q.first(k, strconv.Itoa(def)))
	if err != nil {
		return def
	}
	return min(max(n, lo), hi)
}

// sleepMS sleeps ms milliseconds (at most 10 s), or until the client
// goes away; false then.
func sleepMS(r *http.Request, ms float64) bool {
	d := time.Duration(min(ms, 10000) * float64(time.Millisecond))
	if d <= 0 {
		return r.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// requestHeader is request.headers.get(name, def).
func requestHeader(r *http.Request, name, def string) string {
	if strings.EqualFold(name, "Host") {
		return r.Host
	}
	if v, ok := r.Header[http.CanonicalHeaderKey(name)]; ok {
		return strings.Join(v, ", ")
	}
	return def
}

func hasRequestHeader(r *http.Request, name string) bool {
	if strings.EqualFold(name, "Host") {
		return true
	}
	_, ok := r.Header[http.CanonicalHeaderKey(name)]
	return ok
}

// readBody reads the request's body (at most 64 MiB).
func readBody(r *http.Request) []byte {
	b, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	return b
}

// reply writes a wptserve-style (status, headers, body) answer: headers
// are name/value pairs, added in order.
func reply(w http.ResponseWriter, r *http.Request, status int, headers []string, body []byte) {
	h := w.Header()
	for i := 0; i+1 < len(headers); i += 2 {
		h[http.CanonicalHeaderKey(headers[i])] = append(h[http.CanonicalHeaderKey(headers[i])], headers[i+1])
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// redirectState is what redirect.py keeps per token.
type redirectState struct {
	count     int
	preflight string
}

// serveRedirectPy is fetch/api/resources/redirect.py: a redirect (302 or
// ?redirect_status=, also read from a form body) to ?location= carrying
// the request's query parameters and a count (unless ?simple), ACAO
// reflecting Origin with credentials (or *), preflights answered 200
// unless ?redirect_preflight; with ?token= it counts requests in the
// stash and, past ?max_count=, answers the number of redirects made.
func serveRedirectPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	st := redirectState{preflight: "0"}
	status := http.StatusFound
	headers := []string{"Content-Type", "text/plain", "Cache-Control", "no-cache", "Pragma", "no-cache"}
	if o, ok := r.Header["Origin"]; ok {
		headers = append(headers, "Access-Control-Allow-Origin", strings.Join(o, ", "), "Access-Control-Allow-Credentials", "true")
	} else {
		headers = append(headers, "Access-Control-Allow-Origin", "*")
	}
	token := q.first("token", "")
	if token != "" {
		if v, ok := s.kv.take(r.URL.Path, token); ok {
			if d, ok := v.(redirectState); ok {
				st = d
			}
		}
	}
	store := func() {
		if token != "" {
			s.kv.put(r.URL.Path, token, st)
		}
	}
	if r.Method == http.MethodOptions {
		if q.has("allow_headers") {
			headers = append(headers, "Access-Control-Allow-Headers", q.first("allow_headers", ""))
		}
		st.preflight = "1"
		if !q.has("redirect_preflight") {
			store()
			reply(w, r, http.StatusOK, headers, nil)
			return
		}
	}
	if q.has("redirect_status") {
		status = q.intParam("redirect_status", status, 100, 999)
	} else if r.Method == http.MethodPost && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if form, err := url.ParseQuery(string(readBody(r))); err == nil && form.Has("redirect_status") {
			if n, err := strconv.Atoi(form.Get("redirect_status")); err == nil && n >= 100 && n <= 999 {
				status = n
			}
		}
	}
	st.count++
	if q.has("location") {
		loc := q.first("location", "")
		if !q.has("simple") {
			if u, err := url.Parse(loc); err != nil || u.Scheme == "" || u.Scheme == "http" || u.Scheme == "https" {
				if strings.Contains(loc, "?") {
					loc += "&"
				} else {
					loc += "?"
				}
				// Keep the query parameters in the location (the first
				// value of each), and the count, so that the location
				// changes along a redirect loop.
				parts := make([]string, 0, len(q.names)+1)
				for _, k := range q.names {
					parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(q.values[k][0]))
				}
				loc += strings.Join(parts, "&") + "&count=" + strconv.Itoa(st.count)
			}
		}
		headers = append(headers, "Location", loc)
	}
	if q.has("redirect_referrerpolicy") {
		headers = append(headers, "Referrer-Policy", q.first("redirect_referrerpolicy", ""))
	}
	if q.has("delay") {
		ms, _ := strconv.ParseFloat(q.first("delay", "0"), 64)
		if !sleepMS(r, ms) {
			return
		}
	}
	if token != "" {
		store()
		if q.has("max_count") && st.count > q.intParam("max_count", 0, 0, 1<<20) {
			// Stop redirecting: the number of redirects made so far.
			reply(w, r, http.StatusOK, nil, []byte(strconv.Itoa(st.count-1)))
			return
		}
	}
	reply(w, r, status, headers, nil)
}

// serveInspectHeadersPy is fetch/api/resources/inspect-headers.py: each
// request header named in ?headers= (|-separated) is echoed as
// x-request-<name>; with ?cors, CORS headers allowing and exposing them.
func serveInspectHeadersPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	var headers, checked []string
	if q.has("headers") {
		checked = strings.Split(q.first("headers", ""), "|")
		for _, name := range checked {
			if hasRequestHeader(r, name) {
				headers = append(headers, "x-request-"+name, requestHeader(r, name, ""))
			}
		}
	}
	if q.has("cors") {
		if o, ok := r.Header["Origin"]; ok {
			headers = append(headers, "Access-Control-Allow-Origin", strings.Join(o, ", "))
		} else {
			headers = append(headers, "Access-Control-Allow-Origin", "*")
		}
		headers = append(headers, "Access-Control-Allow-Credentials", "true", "Access-Control-Allow-Methods", "GET, POST, HEAD")
		exposed := make([]string, len(checked))
		for i, name := range checked {
			exposed[i] = "x-request-" + name
		}
		headers = append(headers, "Access-Control-Expose-Headers", strings.Join(exposed, ", "))
		if q.has("allow_headers") {
			headers = append(headers, "Access-Control-Allow-Headers", q.first("allow_headers", ""))
		} else {
			names := []string{"host"}
			for name := range r.Header {
				names = append(names, strings.ToLower(name))
			}
			headers = append(headers, "Access-Control-Allow-Headers", strings.Join(names, ", "))
		}
	}
	headers = append(headers, "content-type", "text/plain")
	reply(w, r, http.StatusOK, headers, nil)
}

// preflightState is what preflight.py keeps per token.
type preflightState struct {
	controlRequestHeaders *string // nil: None
	preflight             string
	referrer              string
	userAgent             string
}

// servePreflightPy is fetch/api/resources/preflight.py: ACAO per
// ?origin= (", "-separated, one header each) or *, ACAC with
// ?credentials; a preflight (which must carry
// Access-Control-Request-Method and Accept: */*) is answered with
// ?max_age=, ?allow_headers=, ?allow_methods= and ?preflight_status=, and
// recorded under ?token=; the actual request reports in x-did-preflight,
// x-control-request-headers, x-preflight-referrer, x-referrer and
// x-origin what the preflight and it carried. ?clear-stash takes the
// token's record ("1" if there was one).
func servePreflightPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	headers := []string{"Content-Type", "text/plain"}
	empty := ""
	st := preflightState{controlRequestHeaders: &empty, preflight: "0"}
	token := q.first("token", "")
	if q.has("origin") {
		for _, o := range strings.Split(q.first("origin", ""), ", ") {
			headers = append(headers, "Access-Control-Allow-Origin", o)
		}
	} else {
		headers = append(headers, "Access-Control-Allow-Origin", "*")
	}
	if q.has("clear-stash") {
		if _, ok := s.kv.take(r.URL.Path, token); ok {
			reply(w, r, http.StatusOK, headers, []byte("1"))
		} else {
			reply(w, r, http.StatusOK, headers, []byte("0"))
		}
		return
	}
	if q.has("credentials") {
		headers = append(headers, "Access-Control-Allow-Credentials", "true")
	}
	if r.Method == http.MethodOptions {
		if !hasRequestHeader(r, "Access-Control-Request-Method") {
			reply(w, r, http.StatusBadRequest, nil, []byte("ERROR: No access-control-request-method in preflight!"))
			return
		}
		if requestHeader(r, "Accept", "") != "*/*" {
			reply(w, r, http.StatusBadRequest, nil, []byte("ERROR: Invalid access in preflight!"))
			return
		}
		if q.has("control_request_headers") {
			if v, ok := r.Header["Access-Control-Request-Headers"]; ok {
				s := strings.Join(v, ", ")
				st.controlRequestHeaders = &s
			} else {
				st.controlRequestHeaders = nil
			}
		}
		for _, p := range [][2]string{{"max_age", "Access-Control-Max-Age"}, {"allow_headers", "Access-Control-Allow-Headers"}, {"allow_methods", "Access-Control-Allow-Methods"}} {
			if q.has(p[0]) {
				headers = append(headers, p[1], q.first(p[0], ""))
			}
		}
		status := q.intParam("preflight_status", http.StatusOK, 100, 999)
		st.preflight = "1"
		st.referrer = requestHeader(r, "Referer", "")
		st.userAgent = requestHeader(r, "User-Agent", "")
		if token != "" {
			s.kv.take(r.URL.Path, token)
			s.kv.put(r.URL.Path, token, st)
		}
		reply(w, r, status, headers, nil)
		return
	}
	if token != "" {
		if v, ok := s.kv.take(r.URL.Path, token); ok {
			if d, ok := v.(preflightState); ok {
				st = d
			}
		}
	}
	if q.has("checkUserAgentHeaderInPreflight") && requestHeader(r, "User-Agent", "\x00none") != st.userAgent {
		reply(w, r, http.StatusBadRequest, headers, []byte("ERROR: No user-agent header in preflight"))
		return
	}
	headers = append(headers, "Access-Control-Expose-Headers", "x-did-preflight, x-control-request-headers, x-referrer, x-preflight-referrer, x-origin",
		"x-did-preflight", st.preflight)
	if st.controlRequestHeaders != nil {
		headers = append(headers, "x-control-request-headers", *st.controlRequestHeaders)
	}
	headers = append(headers, "x-preflight-referrer", st.referrer, "x-referrer", requestHeader(r, "Referer", ""),
		"x-origin", requestHeader(r, "Origin", ""))
	if token != "" {
		s.kv.put(r.URL.Path, token, st)
	}
	reply(w, r, http.StatusOK, headers, nil)
}

// serveCleanStashPy is fetch/api/resources/clean-stash.py: it takes
// ?token= from its own stash path and answers "1" if it held a value.
func serveCleanStashPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	_, ok := s.kv.take(r.URL.Path, q.first("token", ""))
	body := "0"
	if ok {
		body = "1"
	}
	reply(w, r, http.StatusOK, nil, []byte(body))
}

// urlDir is the directory of the request's path, with a trailing slash:
// the stash path stash-put.py, stash-take.py and
// infinite-slow-response.py share.
func urlDir(r *http.Request) string { return path.Dir(r.URL.Path) + "/" }

// serveStashPutPy is fetch/api/resources/stash-put.py: it stores ?value=
// under ?key= in its directory's stash (preflights answered with
// wildcards, ACAO * unless ?disallow_cross_origin, in which case a
// cross-origin request in a mode other than no-cors stores nothing).
func serveStashPutPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	h := w.Header()
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "*")
		h.Set("Access-Control-Allow-Headers", "*")
		io.WriteString(w, "done")
		return
	}
	if !q.has("disallow_cross_origin") {
		h.Set("Access-Control-Allow-Origin", "*")
	} else if q.first("mode", "") != "no-cors" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		if q.first("frame_origin", "") != scheme+"://"+r.Host {
			io.WriteString(w, "not stashing for cors request")
			return
		}
	}
	dir := urlDir(r)
	s.kv.take(dir, q.first("key", ""))
	if err := s.kv.put(dir, q.first("key", ""), q.first("value", "")); err != nil {
		http.Error(w, err.Error(), http.StatusInsufficientStorage)
		return
	}
	io.WriteString(w, "done")
}

// serveStashTakePy is fetch/api/resources/stash-take.py: the value under
// ?key= in its directory's stash, taken, as JSON (null when none).
func serveStashTakePy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	v, _ := s.kv.take(urlDir(r), q.first("key", ""))
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// serveTricklePy is fetch/api/resources/trickle.py: after ?ms=
// milliseconds (500) the headers, then ?count= (50) lines
// "TEST_TRICKLE\n", each after another ?ms=.
func serveTricklePy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	ms, err := strconv.ParseFloat(q.first("ms", "500"), 64)
	if err != nil {
		ms = 500
	}
	count := q.intParam("count", 50, 0, 10000)
	readBody(r)
	if !sleepMS(r, ms) {
		return
	}
	if !q.has("notype") {
		w.Header().Set("Content-Type", "text/plain")
	}
	w.WriteHeader(http.StatusOK)
	flush(w)
	if !sleepMS(r, ms) {
		return
	}
	for i := 0; i < count; i++ {
		io.WriteString(w, "TEST_TRICKLE\n")
		flush(w)
		if !sleepMS(r, ms) {
			return
		}
	}
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// serveStatusPy is fetch/api/resources/status.py: status ?code= (200)
// with ?content= as the body and ?type= as Content-Type, and the request
// method in X-Request-Method. (The reason phrase, ?text=, is the
// standard one: net/http does not send another.)
func serveStatusPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	reply(w, r, q.intParam("code", http.StatusOK, 100, 999),
		[]string{"Content-Type", q.first("type", ""), "X-Request-Method", r.Method}, []byte(q.first("content", "")))
}

// serveMethodPy is fetch/api/resources/method.py: the request's method
// and content headers echoed in x-request-* headers ("NO" when absent),
// the body echoed; with ?cors, CORS headers for it.
func serveMethodPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	var headers []string
	if q.has("cors") {
		headers = append(headers, "Access-Control-Allow-Origin", "*", "Access-Control-Allow-Credentials", "true",
			"Access-Control-Allow-Methods", "GET, POST, PUT, FOO", "Access-Control-Allow-Headers", "x-test, x-foo",
			"Access-Control-Expose-Headers", "x-request-method")
	}
	body := readBody(r)
	headers = append(headers, "x-request-method", r.Method,
		"x-request-content-type", requestHeader(r, "Content-Type", "NO"),
		"x-request-content-length", contentLength(r),
		"x-request-content-encoding", requestHeader(r, "Content-Encoding", "NO"),
		"x-request-content-language", requestHeader(r, "Content-Language", "NO"),
		"x-request-content-location", requestHeader(r, "Content-Location", "NO"))
	reply(w, r, http.StatusOK, headers, body)
}

// contentLength is the request's Content-Length header ("NO" when it
// had none; net/http moves it out of the header map).
func contentLength(r *http.Request) string {
	if v, ok := r.Header["Content-Length"]; ok {
		return strings.Join(v, ", ")
	}
	if r.ContentLength >= 0 && (r.ContentLength > 0 || len(r.TransferEncoding) == 0 && r.Method != http.MethodGet && r.Method != http.MethodHead && r.Body != http.NoBody) {
		return strconv.FormatInt(r.ContentLength, 10)
	}
	return "NO"
}

// serveEchoContentPy is fetch/api/resources/echo-content.py: the body
// echoed as text/plain with the method, Content-Length and Content-Type
// in X-Request-* headers.
func serveEchoContentPy(s *Server, w http.ResponseWriter, r *http.Request) {
	body := readBody(r)
	reply(w, r, http.StatusOK, []string{"X-Request-Method", r.Method, "X-Request-Content-Length", contentLength(r),
		"X-Request-Content-Type", requestHeader(r, "Content-Type", "NO"), "Content-Type", "text/plain"}, body)
}

// serveCachePy is fetch/api/resources/cache.py: a fixed text with an
// ETag, and 304 to a request whose If-None-Match is that ETag.
func serveCachePy(s *Server, w http.ResponseWriter, r *http.Request) {
	const etag = `"123abc"`
	if r.Header.Get("If-None-Match") == etag {
		reply(w, r, http.StatusNotModified, []string{"X-HTTP-STATUS", "304"}, nil)
		return
	}
	reply(w, r, http.StatusOK, []string{"ETag", etag, "Content-Type", "text/plain"}, []byte("lorem ipsum dolor sit amet"))
}

// serveAuthenticationPy is fetch/api/resources/authentication.py: Basic
// credentials user/password are accepted; otherwise 401 with a Basic
// challenge for ?realm= ("test").
func serveAuthenticationPy(s *Server, w http.ResponseWriter, r *http.Request) {
	if u, p, ok := r.BasicAuth(); ok && u == "user" && p == "password" {
		reply(w, r, http.StatusOK, nil, []byte("Authentication done"))
		return
	}
	q := parseQuery(r.URL.RawQuery)
	reply(w, r, http.StatusUnauthorized, []string{"WWW-Authenticate", `Basic realm="` + q.first("realm", "test") + `"`},
		[]byte("Please login with credentials 'user' and 'password'"))
}

// serveDumpAuthorizationPy is
// fetch/api/resources/dump-authorization-header.py: the request's
// Authorization header as the body ("none"), with CORS headers allowing
// it; with ?strip_auth_header, a preflight asking for Authorization
// fails (500).
func serveDumpAuthorizationPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	headers := []string{"Content-Type", "text/html", "Cache-Control", "no-cache"}
	if q.first("strip_auth_header", "") != "" && r.Method == http.MethodOptions &&
		strings.Contains(strings.ToLower(r.Header.Get("Access-Control-Request-Headers")), "authorization") {
		reply(w, r, http.StatusInternalServerError, headers, []byte("fail"))
		return
	}
	if o, ok := r.Header["Origin"]; ok {
		headers = append(headers, "Access-Control-Allow-Origin", strings.Join(o, ", "), "Access-Control-Allow-Credentials", "true")
	} else {
		headers = append(headers, "Access-Control-Allow-Origin", "*")
	}
	headers = append(headers, "Access-Control-Allow-Headers", "Authorization")
	reply(w, r, http.StatusOK, headers, []byte(requestHeader(r, "Authorization", "none")))
}

// serveRedirectEmptyLocationPy is
// fetch/api/resources/redirect-empty-location.py: 302 with an empty
// Location.
func serveRedirectEmptyLocationPy(s *Server, w http.ResponseWriter, r *http.Request) {
	w.Header()["Location"] = []string{""}
	w.WriteHeader(http.StatusFound)
}

// serveScriptWithHeaderPy is fetch/api/resources/script-with-header.py: a
// script (empty with ?content=empty) served with ?mime= as Content-Type.
func serveScriptWithHeaderPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	body := "console.log('Script loaded')"
	if q.first("content", "") == "empty" {
		body = ""
	}
	reply(w, r, http.StatusOK, []string{"Content-Type", q.first("mime", "")}, []byte(body))
}

// serveInfiniteSlowResponsePy is
// fetch/api/resources/infinite-slow-response.py: 2 KiB of dots, then a
// dot every 10 ms until the client goes away or ?abortKey= appears in the
// directory's stash; ?stateKey= is set to "open", then "closed" there.
// (It stops on its own after a minute.)
func serveInfiniteSlowResponsePy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	dir := urlDir(r)
	stateKey, abortKey := q.first("stateKey", ""), q.first("abortKey", "")
	setState := func(v string) {
		if stateKey != "" {
			s.kv.take(dir, stateKey)
			s.kv.put(dir, stateKey, v)
		}
	}
	setState("open")
	defer setState("closed")
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, strings.Repeat(".", 2048)); err != nil {
		return
	}
	flush(w)
	for i := 0; i < 6000; i++ {
		if _, err := io.WriteString(w, "."); err != nil {
			return
		}
		flush(w)
		if abortKey != "" {
			if v, ok := s.kv.take(dir, abortKey); ok && v != nil && v != "" {
				return
			}
		}
		if !sleepMS(r, 10) {
			return
		}
	}
}

// serveBadChunkEncodingPy is fetch/api/resources/bad-chunk-encoding.py:
// a chunked body whose chunks are malformed ("a\r\nTEST_CHUNK\r\n" as
// content of ?count= chunks, then "garbage"), each after ?ms= (1000)
// milliseconds. The connection is hijacked to write the raw bytes.
func serveBadChunkEncodingPy(s *Server, w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.RawQuery)
	ms, err := strconv.ParseFloat(q.first("ms", "1000"), 64)
	if err != nil {
		ms = 1000
	}
	count := q.intParam("count", 50, 0, 1000)
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "cannot write raw chunks over this connection", http.StatusInternalServerError)
		return
	}
	if !sleepMS(r, ms) {
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	buf.WriteString("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
	buf.Flush()
	for i := 0; i < count; i++ {
		time.Sleep(time.Duration(min(ms, 10000) * float64(time.Millisecond)))
		if _, err := buf.WriteString("a\r\nTEST_CHUNK\r\n"); err != nil || buf.Flush() != nil {
			return
		}
	}
	buf.WriteString("garbage")
	buf.Flush()
}
