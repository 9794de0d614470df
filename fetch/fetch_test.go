package fetch

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/origin"
)

// seen is one request a test server received.
type seen struct {
	Method, Path string
	Header       http.Header
	Body         string
}

// server is an httptest server on loopback standing for the host name
// Host (the test network dials every host at 127.0.0.1), logging what it
// receives.
type server struct {
	*httptest.Server
	Host string // "a.test:port"
	mu   sync.Mutex
	log  []seen
}

func (s *server) got() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.log...)
}

// url is the server's URL for path under its host name.
func (s *server) url(path string) string { return "http://" + s.Host + path }

func newServer(t *testing.T, name string, h http.HandlerFunc) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.log = append(s.log, seen{r.Method, r.URL.RequestURI(), r.Header.Clone(), string(b)})
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	s.Host = name + ":" + port
	return s
}

// loopbackNetwork is HTTPNetwork dialing every host name at 127.0.0.1
// (same port); sent counts the requests it was asked to send.
type loopbackNetwork struct {
	HTTPNetwork
	mu   sync.Mutex
	sent []string
}

func newLoopbackNetwork(t *testing.T) *loopbackNetwork {
	d := &net.Dialer{}
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		_, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
	}}
	t.Cleanup(tr.CloseIdleConnections)
	// The client would follow redirects by itself; HTTPNetwork must not.
	return &loopbackNetwork{HTTPNetwork: HTTPNetwork{Client: &http.Client{Transport: tr}}}
}

func (n *loopbackNetwork) Send(ctx context.Context, req *NetworkRequest) (*NetworkResponse, error) {
	n.mu.Lock()
	n.sent = append(n.sent, req.Method+" "+req.URL.String())
	n.mu.Unlock()
	return n.HTTPNetwork.Send(ctx, req)
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// scriptRequest is a fetch() request (unsafe-request flag, mode "cors",
// credentials "same-origin") from a document at page.
func scriptRequest(t *testing.T, page, target string) *Request {
	pu := mustURL(t, page)
	req := NewRequest(mustURL(t, target), &Client{Origin: origin.FromURL(pu), URL: pu})
	req.Mode, req.UnsafeRequest = "cors", true
	return req
}

func redirectTo(loc string, status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", loc)
		w.WriteHeader(status)
	}
}

// A same-origin request with Authorization and a custom header,
// redirected to another origin: the second origin gets a preflight for
// the custom header only, then the request with Origin, without
// Authorization, and with the origin alone as Referer.
func TestCrossOriginRedirectDropsAuthorization(t *testing.T) {
	b := newServer(t, "b.test", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Headers", "x-custom")
			return
		}
		io.WriteString(w, "target")
	})
	a := newServer(t, "a.test", func(w http.ResponseWriter, r *http.Request) {
		redirectTo(b.url("/target"), http.StatusFound)(w, r)
	})
	req := scriptRequest(t, a.url("/page.html?q#f"), a.url("/redirect"))
	req.Header.Append("Authorization", "Bearer secret")
	req.Header.Append("X-Custom", "1")
	resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)})
	if resp.IsNetworkError() {
		t.Fatalf("network error: %v", resp.Err)
	}
	if resp.Type != "cors" || resp.URL().String() != b.url("/target") || !resp.Redirected() || string(resp.Body.Source) != "target" {
		t.Errorf("response %s %v redirected=%v %q", resp.Type, resp.URL(), resp.Redirected(), resp.Body.Source)
	}
	ag := a.got()
	if len(ag) != 1 || ag[0].Header.Get("Authorization") != "Bearer secret" || ag[0].Header.Get("Origin") != "" ||
		ag[0].Header.Get("Referer") != a.url("/page.html?q") {
		t.Errorf("a.test got %+v", ag)
	}
	bg := b.got()
	if len(bg) != 2 {
		t.Fatalf("b.test got %d requests, want a preflight and the request: %+v", len(bg), bg)
	}
	pre, got := bg[0], bg[1]
	if pre.Method != "OPTIONS" || pre.Header.Get("Access-Control-Request-Headers") != "x-custom" ||
		pre.Header.Get("Access-Control-Request-Method") != "GET" || pre.Header.Get("Origin") != "http://"+a.Host {
		t.Errorf("preflight %+v", pre)
	}
	if got.Method != "GET" || got.Header.Get("Authorization") != "" || got.Header.Get("X-Custom") != "1" ||
		got.Header.Get("Origin") != "http://"+a.Host || got.Header.Get("Referer") != "http://"+a.Host+"/" {
		t.Errorf("request at b.test %+v", got)
	}
}

// A cross-origin CORS request redirected to a third origin: the redirect
// must pass the CORS check, and from then on the origin is tainted
// (Origin: null in the preflight and the request; ACAO must be null or *).
func TestRedirectTaintsOrigin(t *testing.T) {
	c := newServer(t, "c.test", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		w.Header().Set("Access-Control-Allow-Headers", "x-custom")
	})
	b := newServer(t, "b.test", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Headers", "x-custom")
		if r.Method != http.MethodOptions {
			redirectTo(c.url("/end"), http.StatusTemporaryRedirect)(w, r)
		}
	})
	req := scriptRequest(t, "http://a.test/", b.url("/start"))
	req.Header.Append("X-Custom", "1")
	resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)})
	if resp.IsNetworkError() {
		t.Fatalf("network error: %v", resp.Err)
	}
	var methods []string
	for _, s := range c.got() {
		methods = append(methods, s.Method+" "+s.Header.Get("Origin"))
	}
	if got := strings.Join(methods, ","); got != "OPTIONS null,GET null" {
		t.Errorf("c.test got %s", got)
	}
	if len(b.got()) != 2 {
		t.Errorf("b.test got %+v", b.got())
	}
}

// A redirect response without Access-Control-Allow-Origin to a CORS
// request is a network error: its Location is never requested.
func TestRedirectWithoutACAOIsNetworkError(t *testing.T) {
	c := newServer(t, "c.test", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
	})
	b := newServer(t, "b.test", redirectTo(c.url("/steal?token=1"), http.StatusFound))
	a := newServer(t, "a.test", redirectTo(b.url("/hop"), http.StatusFound))
	for _, start := range []string{b.url("/hop"), a.url("/same-origin-first")} {
		req := scriptRequest(t, a.url("/"), start)
		resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)})
		if !resp.IsNetworkError() {
			t.Errorf("%s: got a %s response, want a network error", start, resp.Type)
		}
	}
	if got := c.got(); len(got) != 0 {
		t.Errorf("the redirect target got %+v", got)
	}
}

// A redirect loop ends with a network error after 20 redirects.
func TestRedirectLoopIsBounded(t *testing.T) {
	var a *server
	a = newServer(t, "a.test", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if max, _ := strconv.Atoi(r.URL.Query().Get("max")); max > 0 && n >= max {
			io.WriteString(w, "done")
			return
		}
		redirectTo(a.url("/loop?n="+strconv.Itoa(n+1)+"&max="+r.URL.Query().Get("max")), http.StatusFound)(w, r)
	})
	req := scriptRequest(t, a.url("/"), a.url("/loop?n=0"))
	if resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)}); !resp.IsNetworkError() {
		t.Fatalf("got %s %d, want a network error", resp.Type, resp.Status)
	}
	if n := len(a.got()); n != 21 {
		t.Errorf("%d requests, want 21 (the first and 20 redirects)", n)
	}
	// 20 redirects are fine.
	req = scriptRequest(t, a.url("/"), a.url("/loop?n=0&max=20"))
	resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)})
	if resp.IsNetworkError() || len(resp.URLList) != 21 || string(resp.Body.Source) != "done" {
		t.Errorf("20 redirects: %s %v %d", resp.Type, resp.Err, len(resp.URLList))
	}
}

// Redirect modes: "error" is a network error, "manual" an opaque-redirect
// filtered response; neither requests the Location.
func TestRedirectModes(t *testing.T) {
	b := newServer(t, "b.test", func(w http.ResponseWriter, r *http.Request) {})
	a := newServer(t, "a.test", redirectTo(b.url("/x"), http.StatusMovedPermanently))
	req := scriptRequest(t, a.url("/"), a.url("/r"))
	req.Redirect = "error"
	if resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)}); !resp.IsNetworkError() {
		t.Errorf("error: got %s", resp.Type)
	}
	req = scriptRequest(t, a.url("/"), a.url("/r"))
	req.Redirect = "manual"
	resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)})
	if resp.Type != "opaqueredirect" || resp.Status != 0 || len(resp.Header) != 0 || resp.Body != nil || resp.URL().String() != a.url("/r") {
		t.Errorf("manual: got %s %d %v %v", resp.Type, resp.Status, resp.Header, resp.URL())
	}
	if len(b.got()) != 0 {
		t.Errorf("the Location was requested: %+v", b.got())
	}
}

// A 303 turns a POST into a GET without body and request-body headers;
// a 307 keeps them.
func TestRedirectMethodChange(t *testing.T) {
	var a *server
	a = newServer(t, "a.test", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/303":
			redirectTo(a.url("/end"), http.StatusSeeOther)(w, r)
		case "/307":
			redirectTo(a.url("/end"), http.StatusTemporaryRedirect)(w, r)
		}
	})
	for _, tc := range []struct{ path, want string }{{"/303", "GET  "}, {"/307", "POST text/plain body"}} {
		req := scriptRequest(t, a.url("/"), a.url(tc.path))
		req.Method, req.Body = "POST", &Body{Source: []byte("body")}
		req.Header.Append("Content-Type", "text/plain")
		if resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)}); resp.IsNetworkError() {
			t.Fatal(resp.Err)
		}
		log := a.got()
		last := log[len(log)-1]
		if got := last.Method + " " + last.Header.Get("Content-Type") + " " + last.Body; got != tc.want {
			t.Errorf("%s: the redirected request is %q, want %q", tc.path, got, tc.want)
		}
	}
}

// Referrer Policy: the default strict-origin-when-cross-origin, others
// from the request, and a Referrer-Policy header on a redirect.
func TestReferrerPolicy(t *testing.T) {
	var b *server
	b = newServer(t, "b.test", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.URL.Path == "/policy" {
			w.Header().Set("Referrer-Policy", "no-referrer, bogus")
			redirectTo(b.url("/end"), http.StatusFound)(w, r)
		}
	})
	page := "http://a.test/dir/page.html?x=1"
	for _, tc := range []struct{ policy, path, want string }{
		{"", "/", "http://a.test/"},
		{"unsafe-url", "/", page},
		{"no-referrer", "/", ""},
		{"origin", "/", "http://a.test/"},
		{"same-origin", "/", ""},
		{"", "/policy", ""},
	} {
		req := scriptRequest(t, page, b.url(tc.path))
		req.ReferrerPolicy = tc.policy
		if resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)}); resp.IsNetworkError() {
			t.Fatal(resp.Err)
		}
		log := b.got()
		if got := log[len(log)-1].Header.Get("Referer"); got != tc.want {
			t.Errorf("policy %q %s: Referer %q, want %q", tc.policy, tc.path, got, tc.want)
		}
	}
	// https to http: no referrer under the default policy.
	req := NewRequest(mustURL(t, "http://b.test/"), &Client{Origin: origin.Parse("https://a.test"), URL: mustURL(t, "https://a.test/p")})
	if u := determineRequestsReferrer(req); u != nil {
		t.Errorf("downgrade: referrer %v", u)
	}
}

// recordingNetwork records the requests it is asked to send and answers
// 200 with ACAO *.
type recordingNetwork struct{ sent []string }

func (n *recordingNetwork) Send(_ context.Context, req *NetworkRequest) (*NetworkResponse, error) {
	n.sent = append(n.sent, req.URL.String())
	return &NetworkResponse{Status: 200, Header: http.Header{"Access-Control-Allow-Origin": {"*"}}}, nil
}

// Bad ports are network errors: nothing is sent.
func TestBadPorts(t *testing.T) {
	for _, tc := range []struct {
		url string
		bad bool
	}{
		{"http://a.test:1/", true}, {"http://a.test:22/", true}, {"https://a.test:25/", true},
		{"http://a.test:6666/", true}, {"http://a.test:10080/", true}, {"http://a.test:0/", true},
		{"http://a.test:6000/", true}, {"http://a.test:4190/", true}, {"http://a.test:6679/", true},
		{"http://a.test:80/", false}, {"http://a.test/", false}, {"https://a.test:443/", false},
		{"http://a.test:8000/", false}, {"http://a.test:6670/", false}, {"http://a.test:21000/", false},
	} {
		n := &recordingNetwork{}
		for _, mode := range []string{"no-cors", "cors"} {
			req := scriptRequest(t, "http://a.test/", tc.url)
			req.Mode, req.Method, req.Body = mode, "POST", &Body{Source: []byte("x")}
			resp := FetchWhole(context.Background(), &Params{Request: req, Network: n})
			if resp.IsNetworkError() != tc.bad {
				t.Errorf("%s %s: network error %v, want %v (%v)", mode, tc.url, resp.IsNetworkError(), tc.bad, resp.Err)
			}
		}
		if tc.bad && len(n.sent) != 0 {
			t.Errorf("%s: sent %v", tc.url, n.sent)
		}
	}
	// A bad port reached by a redirect is refused too.
	n := &recordingNetwork{}
	redirect := NetworkFunc(func(ctx context.Context, req *NetworkRequest) (*NetworkResponse, error) {
		if req.URL.Port() == "6667" {
			return n.Send(ctx, req)
		}
		return &NetworkResponse{Status: 302, Header: http.Header{"Location": {"http://a.test:6667/"}}}, nil
	})
	if resp := FetchWhole(context.Background(), &Params{Request: scriptRequest(t, "http://a.test/", "http://a.test/r"), Network: redirect}); !resp.IsNetworkError() || len(n.sent) != 0 {
		t.Errorf("redirect to a bad port: %s, sent %v", resp.Type, n.sent)
	}
}

// A service listening on a bad port of 127.0.0.1 receives no connection:
// the first connection it accepts after the fetch is the test's own.
func TestBadPortListenerGetsNoConnection(t *testing.T) {
	tried := 0
	for _, port := range []int{6666, 6665, 6667, 6668, 6669, 6679, 6697, 10080, 6000, 5060, 5061, 4190, 2049} {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue // in use
		}
		if tried++; tried > 3 {
			l.Close()
			break
		}
		req := scriptRequest(t, "http://a.test/", "http://127.0.0.1:"+strconv.Itoa(port)+"/")
		req.Mode, req.Method, req.Body = "no-cors", "POST", &Body{Source: []byte("QUIT\r\n")}
		// (The listener never answers: if the request went out, the
		// timeout ends it instead of a hang.)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		resp := FetchWhole(ctx, &Params{Request: req, Network: HTTPNetwork{}})
		cancel()
		if !resp.IsNetworkError() || errors.Is(resp.Err, context.DeadlineExceeded) {
			t.Errorf("port %d: got %s (%v)", port, resp.Type, resp.Err)
		}
		mine, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		if c.RemoteAddr().String() != mine.LocalAddr().String() {
			t.Errorf("port %d: accepted a connection from %s before the test's", port, c.RemoteAddr())
		}
		c.Close()
		mine.Close()
		l.Close()
	}
	if tried == 0 {
		t.Skip("no bad port was free on 127.0.0.1")
	}
}

// Mixed content: an https client's requests to http URLs are network
// errors, except to potentially trustworthy (loopback) hosts.
func TestMixedContent(t *testing.T) {
	for _, tc := range []struct {
		page, target string
		blocked      bool
	}{
		{"https://a.test/", "http://a.test/x", true},
		{"https://a.test/", "http://b.test/x", true},
		{"https://a.test/", "https://b.test/x", false},
		{"https://a.test/", "http://127.0.0.1:8000/x", false},
		{"https://a.test/", "http://localhost:8000/x", false},
		{"https://a.test/", "http://[::1]:8000/x", false},
		{"http://a.test/", "http://b.test/x", false},
		{"http://127.0.0.1/", "http://b.test/x", false},
	} {
		for _, mode := range []string{"no-cors", "cors"} {
			n := &recordingNetwork{}
			req := scriptRequest(t, tc.page, tc.target)
			req.Mode = mode
			resp := FetchWhole(context.Background(), &Params{Request: req, Network: n})
			if resp.IsNetworkError() != tc.blocked || tc.blocked && len(n.sent) != 0 {
				t.Errorf("%s from %s (%s): network error %v (%v), sent %v; want blocked %v", tc.target, tc.page, mode, resp.IsNetworkError(), resp.Err, n.sent, tc.blocked)
			}
		}
	}
	// A redirect from https to http is blocked at the hop.
	n := &recordingNetwork{}
	redirect := NetworkFunc(func(ctx context.Context, req *NetworkRequest) (*NetworkResponse, error) {
		if req.URL.Scheme == "http" {
			return n.Send(ctx, req)
		}
		return &NetworkResponse{Status: 302, Header: http.Header{"Location": {"http://b.test/"}, "Access-Control-Allow-Origin": {"*"}}}, nil
	})
	if resp := FetchWhole(context.Background(), &Params{Request: scriptRequest(t, "https://a.test/", "https://b.test/r"), Network: redirect}); !resp.IsNetworkError() || len(n.sent) != 0 {
		t.Errorf("redirect to http: %s, sent %v", resp.Type, n.sent)
	}
	// A top-level navigation is not mixed content.
	req := NewRequest(mustURL(t, "http://b.test/"), &Client{Origin: origin.Parse("https://a.test")})
	req.Mode, req.Destination, req.TopLevel = "navigate", "document", true
	if resp := FetchWhole(context.Background(), &Params{Request: req, Network: &recordingNetwork{}}); resp.IsNetworkError() {
		t.Errorf("navigation: %v", resp.Err)
	}
}

// Modes, preflight failures and filtered responses.
func TestModesAndCORS(t *testing.T) {
	b := newServer(t, "b.test", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/acao":
			w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
			w.Header().Set("Access-Control-Expose-Headers", "x-exposed")
		case "/creds":
			w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
			w.Header().Set("Access-Control-Allow-Credentials", "true")
		case "/star":
			w.Header().Set("Access-Control-Allow-Origin", "*")
			w.Header().Set("Access-Control-Allow-Headers", "*")
			w.Header().Set("Access-Control-Allow-Methods", "*")
		}
		w.Header().Set("X-Exposed", "1")
		w.Header().Set("X-Hidden", "1")
		w.Header().Add("Set-Cookie", "a=1")
		io.WriteString(w, "body")
	})
	page := "http://a.test/"
	run := func(req *Request) *Response {
		return FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)})
	}
	req := scriptRequest(t, page, b.url("/acao"))
	resp := run(req)
	if resp.Type != "cors" || !resp.Header.Contains("x-exposed") || resp.Header.Contains("x-hidden") || resp.Header.Contains("set-cookie") {
		t.Errorf("cors: %s %v", resp.Type, resp.Header)
	}
	req = scriptRequest(t, page, b.url("/plain"))
	if resp := run(req); !resp.IsNetworkError() {
		t.Errorf("no ACAO: %s", resp.Type)
	}
	req = scriptRequest(t, page, b.url("/plain"))
	req.Mode = "no-cors"
	if resp := run(req); resp.Type != "opaque" || resp.Status != 0 || resp.Body != nil || resp.URL() != nil || len(resp.Header) != 0 {
		t.Errorf("no-cors: %s %d", resp.Type, resp.Status)
	}
	req = scriptRequest(t, page, b.url("/acao"))
	req.Mode = "same-origin"
	if resp := run(req); !resp.IsNetworkError() {
		t.Errorf("same-origin: %s", resp.Type)
	}
	req = scriptRequest(t, page, b.url("/acao"))
	req.Credentials = "include"
	if resp := run(req); !resp.IsNetworkError() {
		t.Errorf("credentials without ACAC: %s", resp.Type)
	}
	req = scriptRequest(t, page, b.url("/creds"))
	req.Credentials = "include"
	if resp := run(req); resp.Type != "cors" {
		t.Errorf("credentials with ACAC: %s %v", resp.Type, resp.Err)
	}
	// "*" allows any header but Authorization, which must be listed.
	req = scriptRequest(t, page, b.url("/star"))
	req.Method = "PUT"
	req.Header.Append("X-Any", "1")
	if resp := run(req); resp.Type != "cors" {
		t.Errorf("wildcard preflight: %s %v", resp.Type, resp.Err)
	}
	req = scriptRequest(t, page, b.url("/star"))
	req.Header.Append("Authorization", "x")
	if resp := run(req); !resp.IsNetworkError() {
		t.Errorf("Authorization under a wildcard: %s", resp.Type)
	}
	// Same origin: basic, Set-Cookie filtered out.
	req = scriptRequest(t, b.url("/"), b.url("/plain"))
	if resp := run(req); resp.Type != "basic" || !resp.Header.Contains("x-hidden") || resp.Header.Contains("set-cookie") {
		t.Errorf("basic: %s %v", resp.Type, resp.Header)
	}
	// Cross-origin with a non-HTTP scheme, and about:blank.
	if resp := run(scriptRequest(t, page, "ftp://b.test/")); !resp.IsNetworkError() {
		t.Errorf("ftp: %s", resp.Type)
	}
	req = scriptRequest(t, page, "about:blank")
	req.Mode = "navigate"
	if resp := run(req); resp.Type != "basic" || resp.Status != 200 {
		t.Errorf("about:blank: %s %v", resp.Type, resp.Err)
	}
}

// The network's errors and a canceled context are network errors.
func TestNetworkErrors(t *testing.T) {
	fail := NetworkFunc(func(context.Context, *NetworkRequest) (*NetworkResponse, error) {
		return nil, errors.New("refused")
	})
	if resp := FetchWhole(context.Background(), &Params{Request: scriptRequest(t, "http://a.test/", "http://a.test/"), Network: fail}); !resp.IsNetworkError() || resp.Err == nil {
		t.Errorf("got %s", resp.Type)
	}
	if resp := FetchWhole(context.Background(), &Params{Request: scriptRequest(t, "http://a.test/", "http://a.test/")}); !resp.IsNetworkError() {
		t.Errorf("no network: got %s", resp.Type)
	}
	bad := NetworkFunc(func(context.Context, *NetworkRequest) (*NetworkResponse, error) {
		return &NetworkResponse{Status: 1000}, nil
	})
	if resp := FetchWhole(context.Background(), &Params{Request: scriptRequest(t, "http://a.test/", "http://a.test/"), Network: bad}); !resp.IsNetworkError() {
		t.Errorf("status 1000: got %s", resp.Type)
	}
	for _, loc := range []string{"http://[::1", "data:,x"} {
		n := NetworkFunc(func(context.Context, *NetworkRequest) (*NetworkResponse, error) {
			return &NetworkResponse{Status: 302, Header: http.Header{"Location": {loc}}}, nil
		})
		if resp := FetchWhole(context.Background(), &Params{Request: scriptRequest(t, "http://a.test/", "http://a.test/"), Network: n}); !resp.IsNetworkError() {
			t.Errorf("Location %q: got %s", loc, resp.Type)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if resp := FetchWhole(ctx, &Params{Request: scriptRequest(t, "http://a.test/", "http://a.test/"), Network: HTTPNetwork{}}); !resp.IsNetworkError() {
		t.Errorf("canceled: got %s", resp.Type)
	}
}

// A response is available when its headers are; its body is read by
// Load; ending the context mid-body stops the read and the server sees
// the connection go.
func TestStreamingBody(t *testing.T) {
	release := make(chan struct{})
	gone := make(chan struct{})
	a := newServer(t, "a.test", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "start ")
		w.(http.Flusher).Flush()
		if r.URL.Path == "/slow" {
			<-release
			io.WriteString(w, "end")
			return
		}
		<-r.Context().Done()
		close(gone)
	})
	n := newLoopbackNetwork(t)
	resp := Fetch(context.Background(), &Params{Request: scriptRequest(t, a.url("/"), a.url("/slow")), Network: n})
	if resp.IsNetworkError() || resp.Body.Loaded() {
		t.Fatalf("response %s %v, loaded %v: want it at the headers", resp.Type, resp.Err, resp.Body.Loaded())
	}
	loaded := make(chan struct{})
	resp.Body.OnLoad(func() { close(loaded) })
	close(release)
	resp.Load()
	<-loaded
	if b, err := resp.Body.Result(); err != nil || string(b) != "start end" {
		t.Errorf("body %q, %v", b, err)
	}

	// Abort mid-body.
	ctx, cancel := context.WithCancel(context.Background())
	resp = Fetch(ctx, &Params{Request: scriptRequest(t, a.url("/"), a.url("/slow2")), Network: n})
	if resp.IsNetworkError() {
		t.Fatal(resp.Err)
	}
	done := make(chan struct{})
	go func() { resp.Load(); close(done) }()
	cancel()
	<-done
	<-gone
	if b, err := resp.Body.Result(); err == nil {
		t.Errorf("aborted body read %q without error", b)
	}
}

// HTTP fetch's service worker step: a response from Handle Fetch is
// checked against the request, filtered by main fetch, and a redirect it
// gives is followed; nil goes to the network.
func TestHandleFetch(t *testing.T) {
	n := &recordingNetwork{}
	calls := 0
	hook := func(resp *Response) func(context.Context, *Request) *Response {
		return func(_ context.Context, req *Request) *Response {
			calls++
			if req.RedirectCount > 0 {
				return nil
			}
			return resp
		}
	}
	run := func(mode string, resp *Response) *Response {
		req := scriptRequest(t, "http://a.test/", "http://a.test/x")
		req.Mode = mode
		return FetchWhole(context.Background(), &Params{Request: req, Network: n, HandleFetch: hook(resp)})
	}
	ok := &Response{Type: "default", Status: 200, Header: HeaderList{{"Set-Cookie", "a"}, {"X-A", "1"}}, Body: &Body{Source: []byte("sw")}}
	if r := run("cors", ok); r.Type != "basic" || r.Header.Contains("set-cookie") || string(r.Body.Source) != "sw" || r.URL().String() != "http://a.test/x" {
		t.Errorf("default response: %s %v %v", r.Type, r.Header, r.URL())
	}
	if r := run("cors", &Response{Type: "opaque"}); !r.IsNetworkError() {
		t.Errorf("opaque for a cors request: %s", r.Type)
	}
	if r := run("no-cors", &Response{Type: "opaque"}); r.Type != "opaque" {
		t.Errorf("opaque for a no-cors request: %s %v", r.Type, r.Err)
	}
	if r := run("cors", NetworkError(nil)); !r.IsNetworkError() {
		t.Errorf("network error: %s", r.Type)
	}
	if r := run("cors", nil); r.IsNetworkError() || len(n.sent) != 1 {
		t.Errorf("no answer: %s, sent %v", r.Type, n.sent)
	}
	redirect := &Response{Type: "default", Status: 302, Header: HeaderList{{"Location", "http://a.test/y"}}}
	if r := run("cors", redirect); r.IsNetworkError() || r.URL().String() != "http://a.test/y" || len(n.sent) != 2 {
		t.Errorf("redirect: %s %v, sent %v", r.Type, r.URL(), n.sent)
	}
	if calls != 7 {
		t.Errorf("Handle Fetch ran %d times, want 7", calls)
	}
}

func TestForbiddenRequestHeader(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"Accept-Charset", "x", true},
		{"proxy-x", "", true},
		{"Sec-Foo", "", true},
		{"X-Custom", "TRACE", false},
		{"X-HTTP-Method-Override", "GET", false},
		{"x-http-method-override", "TRACE", true},
		{"X-HTTP-METHOD", "track", true},
		{"x-method-override", "get, connect", true},
		{"x-method-override", "trace,", true},
		{"x-method-override", `"trace"`, false},
		{"x-method-override", `"a,trace", get`, false},
		{"x-method-override", `"a\"b", TRACE`, true},
		{"x-method-override", ` TRACE `, true},
	} {
		if got := IsForbiddenRequestHeader(tc.name, tc.value); got != tc.want {
			t.Errorf("(%s, %q): %v, want %v", tc.name, tc.value, got, tc.want)
		}
	}
	for in, want := range map[string][]string{
		"":              {""},
		"a, b":          {"a", "b"},
		`"a,b", c`:      {`"a,b"`, "c"},
		`x"q\"z"y, w,`:  {`x"q\"z"y`, "w", ""},
		`"unterminated`: {`"unterminated`},
	} {
		if got := getDecodeAndSplit(in); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("getDecodeAndSplit(%q) = %q, want %q", in, got, want)
		}
	}
}

// A Location with raw UTF-8 (or invalid) bytes is percent-encoded as
// UTF-8 bytes, as the URL parser does (and Chromium, for invalid bytes).
func TestLocationEscaping(t *testing.T) {
	base := mustURL(t, "http://a.test/r")
	for loc, want := range map[string]string{
		"/top.txt?\xe2\x98\x83":          "http://a.test/top.txt?%E2%98%83",
		"/top.txt?\xe2\x98\x83%e2%98%83": "http://a.test/top.txt?%E2%98%83%e2%98%83",
		"/top.txt?%\xe2\x98\x83":         "http://a.test/top.txt?%%E2%98%83",
		"/top.txt?\xff":                  "http://a.test/top.txt?%FF",
		"/\xc3\xa9/x":                    "http://a.test/%C3%A9/x",
	} {
		var h HeaderList
		h.Append("Location", loc)
		u, err := locationURL(&Response{Status: 302, Header: h}, base, "")
		if err != nil || u.String() != want {
			t.Errorf("%q: %v %v, want %s", loc, u, err, want)
		}
	}
}

// A script-like request is blocked on an audio/image/video or text/csv
// response, and with nosniff on anything but a JavaScript MIME type;
// other destinations are not.
func TestBlockedDueToMIMEType(t *testing.T) {
	for _, tc := range []struct {
		dest, ct, nosniff string
		blocked           bool
	}{
		{"script", "text/csv", "", true},
		{"script", "image/png", "", true},
		{"worker", "Audio/Wav;x=y", "", true},
		{"script", "video/mp4, text/csv", "", true},
		{"script", "text/plain", "", false},
		{"", "text/csv", "", false},
		{"image", "image/png", "", false},
		{"script", "text/plain", "nosniff", true},
		{"script", "text/javascript", "NoSniff, x", false},
		{"sharedworker", "", "nosniff", true},
		{"style", "text/plain", "nosniff", true},
		{"style", "text/css", "nosniff", false},
		{"", "text/plain", "nosniff", false},
	} {
		n := NetworkFunc(func(context.Context, *NetworkRequest) (*NetworkResponse, error) {
			h := http.Header{}
			if tc.ct != "" {
				h.Set("Content-Type", tc.ct)
			}
			if tc.nosniff != "" {
				h.Set("X-Content-Type-Options", tc.nosniff)
			}
			return &NetworkResponse{Status: 200, Header: h, Body: []byte("x")}, nil
		})
		req := scriptRequest(t, "http://a.test/", "http://a.test/r")
		req.Destination = tc.dest
		resp := FetchWhole(context.Background(), &Params{Request: req, Network: n})
		if resp.IsNetworkError() != tc.blocked {
			t.Errorf("%+v: network error %v, want %v", tc, resp.IsNetworkError(), tc.blocked)
		}
	}
}

func TestIncludesCredentials(t *testing.T) {
	for s, want := range map[string]bool{
		"http://a.test/":     false,
		"http://@a.test/":    false,
		"http://:@a.test/":   false,
		"http://u@a.test/":   true,
		"http://:p@a.test/":  true,
		"http://u:p@a.test/": true,
	} {
		if got := includesCredentials(mustURL(t, s)); got != want {
			t.Errorf("%s: %v, want %v", s, got, want)
		}
	}
}

// A URL's credentials become a Basic Authorization header only when the
// request includes credentials; the network never sees them otherwise.
func TestURLCredentials(t *testing.T) {
	var mu sync.Mutex
	var auth []string
	b := newServer(t, "a.test", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
	})
	for _, tc := range []struct {
		url, creds, want string
	}{
		{"http://u:p@" + b.Host + "/", "include", "Basic dTpw"},
		{"http://u:p@" + b.Host + "/", "same-origin", "Basic dTpw"},
		{"http://u:p@" + b.Host + "/", "omit", ""},
		{"http://@" + b.Host + "/", "include", ""},
		{"http://u%40x:@" + b.Host + "/", "include", "Basic dUB4Og=="},
	} {
		req := scriptRequest(t, "http://"+b.Host+"/", tc.url)
		req.Credentials = tc.creds
		resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t)})
		if resp.IsNetworkError() {
			t.Fatalf("%+v: %v", tc, resp.Err)
		}
		mu.Lock()
		got := auth[len(auth)-1]
		mu.Unlock()
		if got != tc.want {
			t.Errorf("%s (%s): Authorization %q, want %q", tc.url, tc.creds, got, tc.want)
		}
	}
}

// A request with integrity metadata gets the response only if the whole
// body matches; an opaque response (no readable body) is a network error.
func TestIntegrity(t *testing.T) {
	n := NetworkFunc(func(context.Context, *NetworkRequest) (*NetworkResponse, error) {
		return &NetworkResponse{Status: 200, Header: http.Header{"Access-Control-Allow-Origin": {"*"}}, Stream: io.NopCloser(strings.NewReader("hello"))}, nil
	})
	// sha256 of "hello".
	const good = "sha256-LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ="
	for _, tc := range []struct {
		integrity, mode, target string
		ok                      bool
	}{
		{good, "cors", "http://a.test/r", true},
		{"sha256-AAAA", "cors", "http://a.test/r", false},
		{"", "no-cors", "http://b.test/r", true},
		{good, "no-cors", "http://b.test/r", false},
		{good, "cors", "http://b.test/r", true},
	} {
		req := scriptRequest(t, "http://a.test/", tc.target)
		req.Mode, req.Integrity = tc.mode, tc.integrity
		resp := FetchWhole(context.Background(), &Params{Request: req, Network: n})
		if resp.IsNetworkError() == tc.ok {
			t.Errorf("%+v: %s %v", tc, resp.Type, resp.Err)
		}
		if tc.ok && resp.Type != "opaque" {
			if b, _ := resp.Body.Result(); string(b) != "hello" {
				t.Errorf("%+v: body %q", tc, b)
			}
		}
	}
}

// Fetch appends Accept and Accept-Language unless the request has them.
func TestDefaultAcceptHeaders(t *testing.T) {
	var got []http.Header
	n := NetworkFunc(func(_ context.Context, r *NetworkRequest) (*NetworkResponse, error) {
		got = append(got, r.Header.Clone())
		return &NetworkResponse{Status: 200}, nil
	})
	FetchWhole(context.Background(), &Params{Request: scriptRequest(t, "http://a.test/", "http://a.test/x"), Network: n})
	req := scriptRequest(t, "http://a.test/", "http://a.test/x")
	req.Header.Append("Accept-Language", "bzh")
	FetchWhole(context.Background(), &Params{Request: req, Network: n})
	if len(got) != 2 || got[0].Get("Accept") != "*/*" || got[0].Get("Accept-Language") != AcceptLanguage || got[1].Get("Accept-Language") != "bzh" {
		t.Errorf("headers sent: %v", got)
	}
	if !IsCORSSafelistedRequestHeader("Accept-Language", AcceptLanguage) {
		t.Error("the default Accept-Language would need a preflight")
	}
}

// Requests that include credentials send the cookie store's cookies and
// store Set-Cookie; others neither send nor store.
func TestCookieStore(t *testing.T) {
	var mu sync.Mutex
	var seenCookies []string
	srv := newServer(t, "a.test", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seenCookies = append(seenCookies, r.Header.Get("Cookie"))
		mu.Unlock()
		if v := r.URL.Query().Get("set"); v != "" {
			w.Header().Add("Set-Cookie", v+"; Path=/")
		}
		w.Header().Set("Access-Control-Allow-Origin", "http://b.test")
		w.Header().Set("Access-Control-Allow-Credentials", "true")
	})
	jar, _ := cookiejar.New(nil)
	run := func(page, query, creds string) string {
		req := scriptRequest(t, page, srv.url("/"+query))
		req.Credentials = creds
		resp := FetchWhole(context.Background(), &Params{Request: req, Network: newLoopbackNetwork(t), Cookies: jar})
		if resp.IsNetworkError() {
			t.Fatalf("%s %s: %v", query, creds, resp.Err)
		}
		mu.Lock()
		defer mu.Unlock()
		return seenCookies[len(seenCookies)-1]
	}
	same := "http://" + srv.Host + "/"
	run(same, "?set=a=1", "omit")
	if got := run(same, "", "same-origin"); got != "" {
		t.Errorf("a cookie set without credentials was stored: %q", got)
	}
	run(same, "?set=a=2", "same-origin")
	if got := run(same, "", "omit"); got != "" {
		t.Errorf("credentials omit sent %q", got)
	}
	if got := run(same, "", "same-origin"); got != "a=2" {
		t.Errorf("same-origin: %q, want a=2", got)
	}
	if got := run("http://b.test/", "", "same-origin"); got != "" {
		t.Errorf("cross-origin with same-origin credentials sent %q", got)
	}
	if got := run("http://b.test/", "?set=b=3", "include"); got != "a=2" {
		t.Errorf("cross-origin include: %q, want a=2", got)
	}
	if got := run(same, "", "include"); got != "a=2; b=3" {
		t.Errorf("after a cross-origin include set: %q", got)
	}
}

// Subscribe gives a streamed body's bytes as they arrive: each chunk
// before the next is written, the bytes already in (returned) to a late
// subscriber, then the end or the read's error.
func TestBodySubscribe(t *testing.T) {
	pr, pw := io.Pipe()
	b := newStreamBody(pr)
	type event struct {
		chunk string
		end   bool
		err   error
	}
	sub := func() (chan event, string, bool) {
		ch := make(chan event, 8)
		sofar, ended, err := b.Subscribe(func(c []byte) { ch <- event{chunk: string(c)} }, func(err error) { ch <- event{end: true, err: err} })
		if err != nil {
			t.Fatalf("Subscribe: %v", err)
		}
		return ch, string(sofar), ended
	}
	first, sofar, ended := sub()
	if sofar != "" || ended {
		t.Fatalf("before the load: %q, ended %v", sofar, ended)
	}
	go b.Load()
	io.WriteString(pw, "ab")
	if e := <-first; e.chunk != "ab" {
		t.Fatalf("first chunk %+v, want ab before more is written", e)
	}
	late, sofar, _ := sub()
	if sofar != "ab" {
		t.Fatalf("a late subscriber got %q so far, want the bytes already in", sofar)
	}
	io.WriteString(pw, "cd")
	pw.Close()
	for _, ch := range []chan event{first, late} {
		if e := <-ch; e.chunk != "cd" {
			t.Fatalf("second chunk %+v, want cd", e)
		}
		if e := <-ch; !e.end || e.err != nil {
			t.Fatalf("end %+v, want the end without error", e)
		}
	}
	if _, sofar, ended := sub(); sofar != "abcd" || !ended {
		t.Fatalf("a subscriber after the load got %q, ended %v, want the whole body, ended", sofar, ended)
	}

	// A failed read ends the subscribers with its error.
	pr, pw = io.Pipe()
	b = newStreamBody(pr)
	ch, _, _ := sub()
	go b.Load()
	boom := errors.New("boom")
	pw.CloseWithError(boom)
	if e := <-ch; !e.end || e.err != boom {
		t.Fatalf("end %+v, want the read's error", e)
	}
	if _, ended, err := b.Subscribe(nil, nil); !ended || err != boom {
		t.Fatalf("Subscribe after a failed read: ended %v, %v", ended, err)
	}
}

// TestStreamBodyRedirectAnd401: a request body whose source is null
// (Body.Upload) cannot be sent again: a 301, 302, 307 or 308 redirect is
// a network error, a 303 is followed as a GET without it; a 401 to a
// request with credentials is a network error. (This network reads
// streamed bodies as an HTTP/2 one would.)
func TestStreamBodyRedirectAnd401(t *testing.T) {
	network := NetworkFunc(func(ctx context.Context, nr *NetworkRequest) (*NetworkResponse, error) {
		if nr.BodyStream != nil {
			if _, err := io.ReadAll(nr.BodyStream); err != nil {
				return nil, err
			}
		}
		switch nr.URL.Path {
		case "/auth":
			return &NetworkResponse{Status: 401}, nil
		case "/to":
			return &NetworkResponse{Status: 200, Body: []byte(nr.Method)}, nil
		}
		code, _ := strconv.Atoi(strings.TrimPrefix(nr.URL.Path, "/"))
		return &NetworkResponse{Status: code, Header: http.Header{"Location": {"/to"}}}, nil
	})
	client := &Client{Origin: origin.Parse("https://a.test")}
	for path, want := range map[string]string{"/301": "error", "/302": "error", "/303": "GET", "/307": "error", "/308": "error", "/auth": "error"} {
		u, _ := url.Parse("https://a.test" + path)
		req := NewRequest(u, client)
		req.Method, req.Mode, req.Body = "POST", "cors", &Body{Upload: strings.NewReader("data")}
		resp := FetchWhole(context.Background(), &Params{Request: req, Network: network})
		got := "error"
		if !resp.IsNetworkError() {
			b, _ := resp.Body.Result()
			got = string(b)
		}
		if got != want {
			t.Errorf("%s: %s (%v), want %s", path, got, resp.Err, want)
		}
		// A body with a source is sent again.
		req = NewRequest(u, client)
		req.Method, req.Mode, req.Body = "PUT", "cors", &Body{Source: []byte("data")}
		if resp := FetchWhole(context.Background(), &Params{Request: req, Network: network}); resp.IsNetworkError() {
			t.Errorf("%s with a source: %v", path, resp.Err)
		}
	}
}

// TestKeepaliveQuota: the bodies of a fetch group's keepalive requests in
// flight total at most 64 KiB: a request at the quota goes, one over it
// is a network error, and the quota comes back when a response's body is
// read; requests without keepalive do not count.
func TestKeepaliveQuota(t *testing.T) {
	release := make(chan struct{})
	network := NetworkFunc(func(ctx context.Context, nr *NetworkRequest) (*NetworkResponse, error) {
		if nr.URL.Path == "/slow" {
			pr, pw := io.Pipe()
			go func() { <-release; pw.Close() }()
			return &NetworkResponse{Status: 200, Stream: pr}, nil
		}
		return &NetworkResponse{Status: 200, Body: []byte("ok")}, nil
	})
	group := &FetchGroup{}
	client := &Client{Origin: origin.Parse("https://a.test"), FetchGroup: group}
	fetchN := func(path string, n int, keepalive bool) *Response {
		u, _ := url.Parse("https://a.test" + path)
		req := NewRequest(u, client)
		req.Method, req.Mode, req.Keepalive = "POST", "cors", keepalive
		req.Body = &Body{Source: make([]byte, n)}
		return Fetch(context.Background(), &Params{Request: req, Network: network})
	}
	if r := fetchN("/", KeepaliveQuota+1, true); !r.IsNetworkError() {
		t.Errorf("a keepalive body over the quota: %d", r.Status)
	}
	if r := fetchN("/", KeepaliveQuota+1, false); r.IsNetworkError() {
		t.Errorf("a body over the quota without keepalive: %v", r.Err)
	}
	slow := fetchN("/slow", KeepaliveQuota-1, true)
	if slow.IsNetworkError() {
		t.Fatal(slow.Err)
	}
	if r := fetchN("/", 2, true); !r.IsNetworkError() {
		t.Errorf("2 bytes with %d in flight: %d", KeepaliveQuota-1, r.Status)
	}
	r := fetchN("/", 1, true)
	if r.IsNetworkError() {
		t.Errorf("1 byte with %d in flight: %v", KeepaliveQuota-1, r.Err)
	}
	r.Load()
	// The slow response's body is read: its quota comes back.
	close(release)
	slow.Load()
	if r := fetchN("/", KeepaliveQuota, true); r.IsNetworkError() {
		t.Errorf("at the quota once the others are done: %v", r.Err)
	}
	if n := group.inflightKeepaliveBytes(nil); n != 0 {
		t.Errorf("%d keepalive bytes in flight at the end", n)
	}
}
