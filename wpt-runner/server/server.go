// Package server serves a web-platform-tests tree the way wptserve does,
// on loopback only: test wrappers generated from .any.js/.window.js/
// .worker.js sources, .sub. substitutions, .headers files, the stash-like
// /common/dispatcher/dispatcher.py endpoint, and the runner's own
// /resources/testharnessreport.js through which products hand back results.
// It listens on two http and two https ports and answers for every WPT host
// (web-platform.test, its subdomains, not-web-platform.test and its
// subdomains); HTTPS uses an ECDSA certificate generated at start-up.
package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// The WPT host names.
const (
	MainHost = "web-platform.test"
	AltHost  = "not-web-platform.test"
)

// Subdomains of both hosts, as in WPT's default configuration: the key is
// what {{domains[...]}} takes, the value the DNS label.
var subdomains = []struct{ key, label string }{
	{"www", "www"},
	{"www1", "www1"},
	{"www2", "www2"},
	{"天気の良い日", "xn--n8j6ds53lwwkrqhv28a"},
	{"élève", "xn--lve-6lad"},
}

// Config configures a Server.
type Config struct {
	// Root is the WPT tree to serve (for example the embedded suite).
	// Dir, when set, is a directory on disk to serve instead: it is opened
	// with os.OpenRoot, so every path, symlinks included, must resolve to a
	// file inside Dir (a link to /etc/passwd, or a relative "../x" link
	// leading out of the tree, is not found).
	Root fs.FS
	Dir  string
	// StashLimits bound the dispatcher.py stash; zero fields take the
	// defaults (DefaultStashLimits).
	StashLimits StashLimits
	// TimeoutMultiplier is passed to testharness.js (setup's
	// timeout_multiplier) by the served testharnessreport.js; 0 means 1.
	TimeoutMultiplier float64
	// Logf receives diagnostics (server errors); nil discards them.
	Logf func(format string, args ...any)
}

// Server is a running WPT server.
type Server struct {
	cfg        Config
	httpPorts  []int
	httpsPorts []int
	hosts      []string
	certs      *certs
	servers    []*http.Server
	stash      *stash
	kv         kvStash // wptserve's stash, for the fetch handlers (fetchhandlers.go)
	client     *http.Client
	root       *os.Root // nil unless Config.Dir

	originsMu sync.Mutex
	origins   map[string]bool // every origin a request came for

	holdsMu sync.Mutex
	holds   map[string]chan struct{} // hold-body.py's releases, by uuid
}

// Start starts the server on free loopback ports.
func Start(cfg Config) (*Server, error) {
	var root *os.Root
	if cfg.Dir != "" {
		r, err := os.OpenRoot(cfg.Dir)
		if err != nil {
			return nil, fmt.Errorf("server: %v", err)
		}
		root = r
		cfg.Root = r.FS()
	}
	if cfg.Root == nil {
		return nil, errors.New("server: no tree to serve")
	}
	if cfg.TimeoutMultiplier <= 0 {
		cfg.TimeoutMultiplier = 1
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	s := &Server{cfg: cfg, stash: newStash(cfg.StashLimits), root: root}
	for _, base := range []string{MainHost, AltHost} {
		s.hosts = append(s.hosts, base)
		for _, sd := range subdomains {
			s.hosts = append(s.hosts, sd.label+"."+base)
		}
	}
	var err error
	if s.certs, err = newCerts(s.hosts); err != nil {
		return nil, fmt.Errorf("server: certificate: %v", err)
	}
	listen := func(tlsOn bool) (int, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		hs := &http.Server{Handler: s, ReadHeaderTimeout: 30 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
		if tlsOn {
			hs.TLSConfig = &tls.Config{Certificates: []tls.Certificate{s.certs.leaf}, NextProtos: []string{"http/1.1"}}
			ln = tls.NewListener(ln, hs.TLSConfig)
		}
		s.servers = append(s.servers, hs)
		go hs.Serve(ln)
		return ln.Addr().(*net.TCPAddr).Port, nil
	}
	for i := 0; i < 2; i++ {
		p, err := listen(false)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.httpPorts = append(s.httpPorts, p)
		p, err = listen(true)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.httpsPorts = append(s.httpsPorts, p)
	}
	s.client = &http.Client{
		Transport: &http.Transport{
			Proxy:           nil,
			DialContext:     s.dialLoopback,
			TLSClientConfig: &tls.Config{RootCAs: s.certs.pool},
			MaxIdleConns:    100,
		},
		Timeout: 2 * time.Minute,
	}
	return s, nil
}

// dialLoopback connects to 127.0.0.1 for every WPT host (the Go equivalent
// of Chromium's host resolver rules).
func (s *Server) dialLoopback(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if !s.isWPTHost(host) {
		return nil, fmt.Errorf("wpt-runner: host %q does not resolve (only the WPT hosts do)", host)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
}

func (s *Server) isWPTHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "localhost" || h == "127.0.0.1" {
		return true
	}
	for _, x := range s.hosts {
		if x == h {
			return true
		}
	}
	return false
}

// Close stops all listeners.
func (s *Server) Close() {
	for _, hs := range s.servers {
		hs.Close()
	}
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
	if s.root != nil {
		s.root.Close()
	}
}

// HTTPPorts and HTTPSPorts are the listening ports ({{ports[http][i]}}).
func (s *Server) HTTPPorts() []int  { return append([]int(nil), s.httpPorts...) }
func (s *Server) HTTPSPorts() []int { return append([]int(nil), s.httpsPorts...) }

// Hosts lists every WPT host name the server answers for.
func (s *Server) Hosts() []string { return append([]string(nil), s.hosts...) }

// HostResolverRules is the value of Chromium's --host-resolver-rules that
// wptrunner uses: nonexistent subdomains fail, every other .test name maps
// to 127.0.0.1.
func (s *Server) HostResolverRules() string {
	return "MAP nonexistent.*.test ^NOTFOUND, MAP *.test 127.0.0.1"
}

// Client is an HTTP client that reaches every WPT host on loopback and
// trusts the start-up certificate.
func (s *Server) Client() *http.Client { return s.client }

// SPKIHash is the base64 SHA-256 of the leaf certificate's public key.
func (s *Server) SPKIHash() string { return s.certs.spkiHash }

func (s *Server) host(alt bool, sub string) string {
	base := MainHost
	if alt {
		base = AltHost
	}
	if sub == "" {
		return base
	}
	for _, sd := range subdomains {
		if sd.key == sub || sd.label == sub {
			return sd.label + "." + base
		}
	}
	return sub + "." + base
}

func (s *Server) knownSub(sub string) bool {
	if sub == "" {
		return true
	}
	for _, sd := range subdomains {
		if sd.key == sub || sd.label == sub {
			return true
		}
	}
	return false
}

// URL is the absolute URL of a test: https when the test needs it, on the
// www subdomain for .www. tests.
func (s *Server) URL(t manifest.Test) string {
	host := MainHost
	if t.WWW {
		host = "www." + MainHost
	}
	if t.HTTPS {
		return "https://" + host + ":" + strconv.Itoa(s.httpsPorts[0]) + t.ID
	}
	return "http://" + host + ":" + strconv.Itoa(s.httpPorts[0]) + t.ID
}

// sawOrigin records the origin a request was made to.
func (s *Server) sawOrigin(r *http.Request) {
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	o := scheme + strings.ToLower(r.Host)
	s.originsMu.Lock()
	if s.origins == nil {
		s.origins = map[string]bool{}
	}
	s.origins[o] = true
	s.originsMu.Unlock()
}

// Origins lists, sorted, every origin (scheme://host:port) the server has
// had a request for so far: a document or worker can only store data for
// an origin whose pages or scripts came from the server, so these are all
// the origins a test may have stored data for. The list only grows (at
// most the WPT hosts, localhost and 127.0.0.1 on the server's ports).
func (s *Server) Origins() []string {
	s.originsMu.Lock()
	out := make([]string, 0, len(s.origins))
	for o := range s.origins {
		out = append(out, o)
	}
	s.originsMu.Unlock()
	sort.Strings(out)
	return out
}

// Env describes the server to products.
func (s *Server) Env(jobs int, logf func(string, ...any)) *product.Env {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &product.Env{
		Hosts:             s.Hosts(),
		HTTPPorts:         s.HTTPPorts(),
		HTTPSPorts:        s.HTTPSPorts(),
		HostResolverRules: s.HostResolverRules(),
		CertPool:          s.certs.pool,
		CACert:            append([]byte(nil), s.certs.caDER...),
		SPKIHash:          s.certs.spkiHash,
		HTTPClient:        s.client,
		Origins:           s.Origins,
		Jobs:              jobs,
		Logf:              logf,
	}
}

// allowedHost reports whether the request's Host header names the server
// (a WPT host, localhost or 127.0.0.1, on any port): a page of another
// site that a DNS-rebinding attack points at 127.0.0.1 gets nothing.
func (s *Server) allowedHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return host != "" && s.isWPTHost(host)
}

// ServeHTTP serves the tree.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.allowedHost(r.Host) {
		http.Error(w, "wpt-runner: unknown host "+strconv.Quote(r.Host)+" (only the WPT hosts are served)", http.StatusMisdirectedRequest)
		return
	}
	s.sawOrigin(r)
	p := path.Clean("/" + r.URL.Path)
	switch p {
	case "/resources/testharnessreport.js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, s.testharnessReport())
		return
	case "/common/dispatcher/dispatcher.py":
		s.stash.serveDispatcher(w, r)
		return
	case "/resources/WebIDLParser.js":
		p = "/resources/webidl2/lib/webidl2.js"
	}
	if strings.HasSuffix(p, ".py") {
		if h, ok := pyHandlers[p]; ok {
			if info, err := fs.Stat(s.cfg.Root, strings.TrimPrefix(p, "/")); err == nil && info.Mode().IsRegular() {
				h(s, w, r)
				return
			}
		}
		http.Error(w, "wpt-runner does not run Python handlers ("+p+")", http.StatusNotImplemented)
		return
	}
	name := strings.TrimPrefix(p, "/")
	if name == "" {
		name = "."
	}
	if info, err := fs.Stat(s.cfg.Root, name); err == nil {
		if info.IsDir() {
			s.serveDir(w, r, name)
			return
		}
		s.serveFile(w, r, name)
		return
	}
	if kind, src, ok := wrapperFor(p); ok {
		srcName := strings.TrimPrefix(src, "/")
		if data, err := s.readSmall(srcName); err == nil {
			meta, _ := manifest.ParseMeta(data)
			query := ""
			if r.URL.RawQuery != "" {
				query = "?" + r.URL.RawQuery
			}
			body, ctype := renderWrapper(kind, meta, src, query)
			h := w.Header()
			h.Set("Content-Type", ctype)
			s.applyHeaderFiles(h, srcName)
			io.WriteString(w, body)
			return
		}
	}
	http.NotFound(w, r)
}

func (s *Server) serveDir(w http.ResponseWriter, r *http.Request, name string) {
	if !strings.HasSuffix(r.URL.Path, "/") {
		http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
		return
	}
	entries, err := fs.ReadDir(s.cfg.Root, name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b bytes.Buffer
	b.WriteString("<!doctype html><meta charset=utf-8><title>Index of /" + escapeHTML(strings.TrimPrefix(name, ".")) + "</title><ul>\n")
	for _, e := range entries {
		// Stat follows symlinks, inside the tree only: an entry that leads
		// out of it is not listed.
		info, err := fs.Stat(s.cfg.Root, path.Join(name, e.Name()))
		if err != nil {
			continue
		}
		n := e.Name()
		if info.IsDir() {
			n += "/"
		}
		href := url.PathEscape(e.Name())
		if info.IsDir() {
			href += "/"
		}
		fmt.Fprintf(&b, "<li><a href=\"%s\">%s</a>\n", escapeHTML(href), escapeHTML(n))
	}
	b.WriteString("</ul>\n")
	w.Write(b.Bytes())
}

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8",
	".xhtml": "application/xhtml+xml", ".xht": "application/xhtml+xml", ".svg": "image/svg+xml",
	".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8", ".json": "application/json", ".txt": "text/plain; charset=utf-8",
	".xml": "application/xml", ".png": "image/png", ".gif": "image/gif", ".jpg": "image/jpeg",
	".jpeg": "image/jpeg", ".webp": "image/webp", ".wasm": "application/wasm", ".ico": "image/x-icon",
	".wav": "audio/wav", ".mp3": "audio/mpeg", ".ogg": "application/ogg", ".mp4": "video/mp4",
	".webm": "video/webm", ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf",
	".pdf": "application/pdf", ".wbn": "application/webbundle", ".py": "text/plain; charset=utf-8",
}

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	f, size, err := s.openRegular(name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	defer f.Close()
	h := w.Header()
	ctype, ok := contentTypes[strings.ToLower(path.Ext(name))]
	if !ok {
		ctype = "application/octet-stream"
	}
	h.Set("Content-Type", ctype)
	s.applyHeaderFiles(h, name)

	status, pipeSub, ok := s.applyPipes(w, r)
	if !ok {
		return
	}
	sub := pipeSub
	for _, f := range manifest.Flags(name) {
		if f == "sub" {
			sub = true
		}
	}
	if !sub {
		// Streamed: a huge file costs no memory.
		h.Set("Content-Length", strconv.FormatInt(size, 10))
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			io.Copy(w, io.LimitReader(f, size))
		}
		return
	}
	if size > maxSmallFile {
		http.Error(w, fmt.Sprintf("%s: %d bytes is too large for substitution (limit %d)", name, size, maxSmallFile), http.StatusForbidden)
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSmallFile))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	data, err = s.substitute(data, r)
	if err != nil {
		s.cfg.Logf("server: %s: %v", name, err)
		http.Error(w, "substitution failed in "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

// applyPipes applies the request's ?pipe= (wptserve's header(), status()
// and sub) to the response headers. It returns the status to send, whether
// sub was asked for, and false after answering a malformed pipe with 400.
func (s *Server) applyPipes(w http.ResponseWriter, r *http.Request) (status int, sub, ok bool) {
	h := w.Header()
	status = http.StatusOK
	pipes, err := parsePipes(r.URL.Query().Get("pipe"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return 0, false, false
	}
	for _, p := range pipes {
		switch p.name {
		case "sub":
			sub = true
		case "header":
			if len(p.args) < 2 {
				http.Error(w, "pipe header() needs a name and a value", http.StatusBadRequest)
				return 0, false, false
			}
			if len(p.args) > 2 && p.args[2] == "True" {
				h.Add(p.args[0], p.args[1])
			} else {
				h.Set(p.args[0], p.args[1])
			}
		case "status":
			if len(p.args) != 1 {
				http.Error(w, "pipe status() needs one code", http.StatusBadRequest)
				return 0, false, false
			}
			n, err := strconv.Atoi(p.args[0])
			if err != nil || n < 100 || n > 999 {
				http.Error(w, "bad status "+p.args[0], http.StatusBadRequest)
				return 0, false, false
			}
			status = n
		default:
			// trickle, slice, gzip, ...: not supported; serve as is.
			s.cfg.Logf("server: pipe %s() not supported for %s", p.name, r.URL)
		}
	}
	return status, sub, true
}

// maxSmallFile bounds the files the server reads whole: .sub. files, test
// sources it wraps and .headers files.
const maxSmallFile = 16 << 20

// openRegular opens name for streaming. Only regular files are served: a
// FIFO (whose open would block), a device such as /dev/zero, or a socket is
// refused. With Config.Dir, symlinks were resolved inside the tree by
// os.Root.
func (s *Server) openRegular(name string) (fs.File, int64, error) {
	info, err := fs.Stat(s.cfg.Root, name)
	if err != nil {
		return nil, 0, err
	}
	if !info.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file (%v)", name, info.Mode().Type())
	}
	f, err := s.cfg.Root.Open(name)
	if err != nil {
		return nil, 0, err
	}
	// The file may have been replaced between Stat and Open.
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s is not a regular file", name)
	}
	return f, info.Size(), nil
}

// readSmall reads a regular file of at most maxSmallFile bytes.
func (s *Server) readSmall(name string) ([]byte, error) {
	f, size, err := s.openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > maxSmallFile {
		return nil, fmt.Errorf("%s: %d bytes is too large (limit %d)", name, size, maxSmallFile)
	}
	return io.ReadAll(io.LimitReader(f, maxSmallFile))
}

type pipe struct {
	name string
	args []string
}

// parsePipes parses wptserve's ?pipe= syntax: name(arg,arg)|name.
func parsePipes(v string) ([]pipe, error) {
	var out []pipe
	for v != "" {
		i := strings.IndexAny(v, "(|")
		if i < 0 {
			out = append(out, pipe{name: strings.TrimSpace(v)})
			break
		}
		name := strings.TrimSpace(v[:i])
		if v[i] == '|' {
			out = append(out, pipe{name: name})
			v = v[i+1:]
			continue
		}
		j := strings.IndexByte(v[i:], ')')
		if j < 0 {
			return nil, fmt.Errorf("bad pipe %q", v)
		}
		var args []string
		for _, a := range strings.Split(v[i+1:i+j], ",") {
			args = append(args, strings.TrimSpace(a))
		}
		out = append(out, pipe{name: name, args: args})
		v = strings.TrimPrefix(strings.TrimSpace(v[i+j+1:]), "|")
	}
	return out, nil
}

// applyHeaderFiles adds the headers of <dir>/__dir__.headers and then of
// <name>.headers (the later file wins for a header both set).
func (s *Server) applyHeaderFiles(h http.Header, name string) {
	for _, f := range []string{path.Join(path.Dir(name), "__dir__.headers"), name + ".headers"} {
		data, err := s.readSmall(f)
		if err != nil {
			continue
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				s.cfg.Logf("server: %s: bad header line %q", f, line)
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !seen[http.CanonicalHeaderKey(k)] {
				h.Del(k)
				seen[http.CanonicalHeaderKey(k)] = true
			}
			h.Add(k, v)
		}
	}
}

// StashLimits bound the dispatcher.py stash.
type StashLimits struct {
	// MaxMessage is the largest message body; a larger POST fails with 413.
	MaxMessage int64
	// MaxTotal bounds the bytes of all queued messages; a POST that would
	// exceed it fails with 507.
	MaxTotal int64
	// TTL is how long a queue lives after its last POST; older queues are
	// dropped (tests read their messages within seconds).
	TTL time.Duration
}

// DefaultStashLimits: 64 MiB per message, 256 MiB in all, 10 minutes.
var DefaultStashLimits = StashLimits{MaxMessage: 64 << 20, MaxTotal: 256 << 20, TTL: 10 * time.Minute}

// stash is the per-uuid message queue of /common/dispatcher/dispatcher.py.
type stash struct {
	lim    StashLimits
	now    func() time.Time
	mu     sync.Mutex
	queues map[string]*stashQueue
	total  int64
}

type stashQueue struct {
	msgs    [][]byte
	touched time.Time
}

func newStash(lim StashLimits) *stash {
	d := DefaultStashLimits
	if lim.MaxMessage <= 0 {
		lim.MaxMessage = d.MaxMessage
	}
	if lim.MaxTotal <= 0 {
		lim.MaxTotal = d.MaxTotal
	}
	if lim.TTL <= 0 {
		lim.TTL = d.TTL
	}
	return &stash{lim: lim, now: time.Now, queues: map[string]*stashQueue{}}
}

// expire drops the queues not posted to within the TTL. st.mu is held.
func (st *stash) expire() {
	cut := st.now().Add(-st.lim.TTL)
	for id, q := range st.queues {
		if q.touched.Before(cut) {
			for _, m := range q.msgs {
				st.total -= int64(len(m))
			}
			delete(st.queues, id)
		}
	}
}

// put queues body under id, or says why it cannot.
func (st *stash) put(id string, body []byte) (int, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.expire()
	if st.total+int64(len(body)) > st.lim.MaxTotal {
		return http.StatusInsufficientStorage, fmt.Errorf("dispatcher stash full: %d bytes queued, limit %d", st.total, st.lim.MaxTotal)
	}
	q := st.queues[id]
	if q == nil {
		q = &stashQueue{}
		st.queues[id] = q
	}
	q.msgs = append(q.msgs, body)
	q.touched = st.now()
	st.total += int64(len(body))
	return 0, nil
}

// take pops the oldest message of id (nil when there is none).
func (st *stash) take(id string) []byte {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.expire()
	q := st.queues[id]
	if q == nil || len(q.msgs) == 0 {
		return nil
	}
	msg := q.msgs[0]
	q.msgs[0] = nil
	q.msgs = q.msgs[1:]
	if len(q.msgs) == 0 {
		delete(st.queues, id)
	}
	st.total -= int64(len(msg))
	return msg
}

// serveDispatcher: POST appends the body to the queue of ?uuid= and answers
// "done"; GET pops the oldest entry or answers "not ready". Like WPT's
// dispatcher.py, it reflects the request's Origin (or "*") with
// credentials allowed: executors on other WPT origins must reach it. The
// reflection is confined to this endpoint, and the server answers only
// requests whose Host is a WPT host.
func (st *stash) serveDispatcher(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Allow-Methods", "OPTIONS, GET, POST")
	h.Set("Access-Control-Allow-Headers", "Content-Type")
	origin := r.Header.Get("Origin")
	if origin == "" {
		origin = "*"
	}
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	if r.Method == http.MethodOptions {
		return
	}
	id := r.URL.Query().Get("uuid")
	if id == "" {
		http.Error(w, "missing uuid", http.StatusBadRequest)
		return
	}
	switch r.Method {
	case http.MethodPost:
		if r.ContentLength > st.lim.MaxMessage {
			http.Error(w, fmt.Sprintf("dispatcher message of %d bytes is over the limit of %d", r.ContentLength, st.lim.MaxMessage), http.StatusRequestEntityTooLarge)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, st.lim.MaxMessage+1))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if int64(len(body)) > st.lim.MaxMessage {
			http.Error(w, fmt.Sprintf("dispatcher message over the limit of %d bytes", st.lim.MaxMessage), http.StatusRequestEntityTooLarge)
			return
		}
		if code, err := st.put(id, body); err != nil {
			http.Error(w, err.Error(), code)
			return
		}
		io.WriteString(w, "done")
	case http.MethodGet, http.MethodHead:
		msg := st.take(id)
		if msg == nil {
			io.WriteString(w, "not ready")
			return
		}
		w.Write(msg)
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// testharnessReport is the served /resources/testharnessreport.js.
func (s *Server) testharnessReport() string {
	return fmt.Sprintf(testharnessReportJS, strconv.FormatFloat(s.cfg.TimeoutMultiplier, 'g', -1, 64))
}

const testharnessReportJS = `// wpt-runner's testharnessreport.js: configures testharness.js and hands
// the harness result to the product that loaded the page. The report is
// JSON: {status, message, stack, tests: [{name, status, message, stack}]}
// with testharness.js's numeric statuses. It is passed to
// self.__wptrunner_report(json) when the product defined that function,
// stored in self.__wptrunner_result, and resolves self.__wptrunner_done.
(function (global) {
  "use strict";
  var resolveDone;
  global.__wptrunner_done = new Promise(function (resolve) { resolveDone = resolve; });
  global.__wptrunner_result = null;
  if (typeof add_completion_callback !== "function") {
    var missing = JSON.stringify({status: 1, message: "testharness.js was not loaded before testharnessreport.js (does the tree have /resources/testharness.js?)", stack: null, tests: []});
    global.__wptrunner_result = missing;
    resolveDone(missing);
    if (typeof global.__wptrunner_report === "function") {
      try { global.__wptrunner_report(missing); } catch (e) {}
    }
    return;
  }
  function text(v) { return v === undefined || v === null ? null : String(v); }
  add_completion_callback(function (tests, status) {
    var report = JSON.stringify({
      status: status.status,
      message: text(status.message),
      stack: text(status.stack),
      tests: tests.map(function (t) {
        return {name: String(t.name), status: t.status, message: text(t.message), stack: text(t.stack)};
      })
    });
    global.__wptrunner_result = report;
    resolveDone(report);
    if (typeof global.__wptrunner_report === "function") {
      try { global.__wptrunner_report(report); } catch (e) {}
    }
  });
  setup({output: false, timeout_multiplier: %s});
})(self);
`
