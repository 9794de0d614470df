package xhr

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
)

// testHost is an xhr.Host whose event loop is the test goroutine
// (run), whose network is net, and which records the events.
type testHost struct {
	tasks    chan func()
	net      fetch.Network
	events   []string
	x        *XMLHttpRequest
	loaded   chan struct{} // a fetch's body read ended (its tasks are queued)
	upload   bool
	window   bool
	lastSent *fetch.Request
}

func newTestHost(net fetch.Network) *testHost {
	h := &testHost{tasks: make(chan func(), 1024), net: net, loaded: make(chan struct{}, 16)}
	h.x = New(h)
	return h
}

func (h *testHost) QueueTask(steps func()) bool { h.tasks <- steps; return true }
func (h *testHost) StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response)) {
	p.Network = h.net
	sent := *p.Request
	sent.Header = sent.Header.Clone()
	h.lastSent = &sent
	go func() {
		resp := fetch.Fetch(ctx, p)
		done(resp)
		resp.Load()
		h.loaded <- struct{}{}
	}()
}
func (h *testHost) FireEvent(t Target, typ string, p *Progress) {
	e := typ
	if t == TargetUpload {
		e = "upload." + typ
	}
	if typ == "readystatechange" {
		e += fmt.Sprint(h.x.State())
	}
	if p != nil && typ != "progress" {
		e += fmt.Sprintf("(%d/%d)", p.Loaded, p.Total)
	}
	// Consecutive progress events (their number depends on timing) are
	// recorded once.
	if typ == "progress" && len(h.events) > 0 && h.events[len(h.events)-1] == e {
		return
	}
	h.events = append(h.events, e)
}
func (h *testHost) UploadHasListeners() bool  { return h.upload }
func (h *testHost) IsWindow() bool            { return h.window }
func (h *testHost) DocumentFullyActive() bool { return true }

// run runs the queued tasks until the request is done (or unsent).
func (h *testHost) run(t *testing.T) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for h.x.sendFlag {
		select {
		case task := <-h.tasks:
			task()
		case <-deadline:
			t.Fatalf("the request never ended; events %v", h.events)
		}
	}
}

var client = Client{Fetch: &fetch.Client{Origin: origin.Parse("https://a.test"), URL: mustParse("https://a.test/page")},
	Origin: origin.Parse("https://a.test")}

func mustParse(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func parse(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	u = mustParse("https://a.test/page").ResolveReference(u)
	if u.Scheme == "" || u.Host == "" && u.Scheme != "data" && u.Scheme != "blob" {
		return nil, errors.New("invalid URL")
	}
	return u, nil
}

func serve(body string, header http.Header) fetch.NetworkFunc {
	return func(ctx context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
		h := http.Header{"Content-Type": {"text/plain"}, "Content-Length": {fmt.Sprint(len(body))}}
		for k, v := range header {
			h[k] = v
		}
		return &fetch.NetworkResponse{Status: 200, StatusText: "OK", Header: h, Body: []byte(body)}, nil
	}
}

func domName(err error) string {
	var de *dom.DOMException
	if errors.As(err, &de) {
		return de.Name
	}
	return fmt.Sprint(err)
}

func TestOpenAndSetRequestHeaderErrors(t *testing.T) {
	h := newTestHost(serve("", nil))
	x := h.x
	if err := x.SetRequestHeader("a", "b"); domName(err) != dom.InvalidStateError {
		t.Errorf("setRequestHeader before open: %v, want InvalidStateError", err)
	}
	for _, tc := range []struct{ method, url, want string }{
		{"GE T", "/x", dom.SyntaxError},
		{"", "/x", dom.SyntaxError},
		{"CONNECT", "/x", dom.SecurityError},
		{"trace", "/x", dom.SecurityError},
		{"GET", "http://[::1", dom.SyntaxError},
	} {
		if err := x.Open(tc.method, tc.url, parse, true, nil, nil); domName(err) != tc.want {
			t.Errorf("open(%q, %q): %v, want %s", tc.method, tc.url, err, tc.want)
		}
	}
	if x.State() != Unsent || len(h.events) != 0 {
		t.Fatalf("a failed open changed the state: %v %v", x.State(), h.events)
	}
	if err := x.Open("post", "/x", parse, true, nil, nil); err != nil {
		t.Fatal(err)
	}
	if x.method != "POST" || h.events[0] != "readystatechange1" {
		t.Errorf("method %q, events %v", x.method, h.events)
	}
	for _, v := range []string{"x\x00x", "x\nx", "x\rx", "\x00"} {
		if err := x.SetRequestHeader("v", v); domName(err) != dom.SyntaxError {
			t.Errorf("value %q: %v, want SyntaxError", v, err)
		}
	}
	if err := x.SetRequestHeader("a b", "v"); domName(err) != dom.SyntaxError {
		t.Errorf("name with a space: %v, want SyntaxError", err)
	}
	for _, hv := range [][2]string{{"X-A", " 1\t"}, {"x-a", "2"}, {"Cookie", "c=1"}, {"Sec-Foo", "1"}, {"Content-Type", "text/plain;charset=latin1"}} {
		if err := x.SetRequestHeader(hv[0], hv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := x.authorHeaders.Get("x-a"); v != "1, 2" {
		t.Errorf("combined X-A = %q, want %q", v, "1, 2")
	}
	if x.authorHeaders.Contains("Cookie") || x.authorHeaders.Contains("Sec-Foo") {
		t.Errorf("forbidden request headers kept: %v", x.authorHeaders)
	}
	// send() with a string body: the charset of the author's
	// Content-Type becomes UTF-8.
	if err := x.Send(client, &SendBody{Source: []byte("hi"), ContentType: "text/plain;charset=UTF-8", IsString: true}); err != nil {
		t.Fatal(err)
	}
	if ct, _ := h.lastSent.Header.Get("Content-Type"); ct != "text/plain;charset=UTF-8" {
		t.Errorf("Content-Type sent %q", ct)
	}
	if h.lastSent.Mode != "cors" || h.lastSent.Destination != "" || h.lastSent.Credentials != "same-origin" || !h.lastSent.UnsafeRequest {
		t.Errorf("request: mode %q destination %q credentials %q unsafe %v", h.lastSent.Mode, h.lastSent.Destination, h.lastSent.Credentials, h.lastSent.UnsafeRequest)
	}
	if err := x.Send(client, nil); domName(err) != dom.InvalidStateError {
		t.Errorf("send() twice: %v, want InvalidStateError", err)
	}
	if err := x.SetRequestHeader("a", "b"); domName(err) != dom.InvalidStateError {
		t.Errorf("setRequestHeader after send: %v, want InvalidStateError", err)
	}
	if err := x.SetWithCredentials(true); domName(err) != dom.InvalidStateError {
		t.Errorf("withCredentials during send: %v, want InvalidStateError", err)
	}
	h.run(t)
}

func TestAsyncEventsAndResponse(t *testing.T) {
	h := newTestHost(serve("héllo", http.Header{"X-B": {"2"}, "x-a": {"1"}, "Set-Cookie": {"s=1"}}))
	x := h.x
	if err := x.Open("GET", "/r#frag", parse, true, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := x.Send(client, &SendBody{Source: []byte("dropped for GET")}); err != nil {
		t.Fatal(err)
	}
	h.run(t)
	want := "readystatechange1 loadstart(0/0) readystatechange2 readystatechange3 progress readystatechange4 load(6/6) loadend(6/6)"
	if got := strings.Join(h.events, " "); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if h.lastSent.Body != nil {
		t.Errorf("a GET sent a body")
	}
	if x.Status() != 200 || x.StatusText() != "OK" || x.ResponseURL() != "https://a.test/r" {
		t.Errorf("status %d %q url %q", x.Status(), x.StatusText(), x.ResponseURL())
	}
	if got := x.TextResponse(); got != "héllo" {
		t.Errorf("text %q", got)
	}
	if got, want := x.GetAllResponseHeaders(), "content-length: 6\r\ncontent-type: text/plain\r\nx-a: 1\r\nx-b: 2\r\n"; got != want {
		t.Errorf("getAllResponseHeaders %q, want %q", got, want)
	}
	if _, ok := x.GetResponseHeader("set-cookie"); ok {
		t.Errorf("Set-Cookie exposed")
	}
	if err := x.SetResponseType("json"); domName(err) != dom.InvalidStateError {
		t.Errorf("responseType when done: %v", err)
	}
	if err := x.OverrideMimeType("text/plain"); domName(err) != dom.InvalidStateError {
		t.Errorf("overrideMimeType when done: %v", err)
	}
	// abort() when done: unsent, no event.
	n := len(h.events)
	x.Abort()
	if x.State() != Unsent || len(h.events) != n || x.Status() != 0 {
		t.Errorf("abort when done: state %v, status %d, events %v", x.State(), x.Status(), h.events[n:])
	}
}

// blockingNetwork answers with headers, then never ends the body
// until the fetch is aborted.
func blockingNetwork(started chan<- struct{}) fetch.NetworkFunc {
	return func(ctx context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
		pr, pw := io.Pipe()
		go func() {
			pw.Write([]byte("partial"))
			if started != nil {
				close(started)
			}
			<-ctx.Done()
			pw.CloseWithError(ctx.Err())
		}()
		return &fetch.NetworkResponse{Status: 200, Header: http.Header{}, Stream: pr}, nil
	}
}

func TestAbortAndTimeout(t *testing.T) {
	t.Run("abort", func(t *testing.T) {
		h := newTestHost(blockingNetwork(nil))
		h.upload = true
		x := h.x
		x.Open("POST", "/slow", parse, true, nil, nil)
		x.Send(client, &SendBody{Source: []byte("abc")})
		// Run until loading, then abort.
		for x.State() != Loading {
			(<-h.tasks)()
		}
		h.events = nil
		x.Abort()
		want := "readystatechange4 abort(0/0) loadend(0/0)"
		if got := strings.Join(h.events, " "); got != want {
			t.Errorf("events\n got %s\nwant %s", got, want)
		}
		if x.State() != Unsent {
			t.Errorf("state after abort %v", x.State())
		}
		// The aborted fetch's tasks do nothing.
		<-h.loaded
		drain(h)
		if got := strings.Join(h.events, " "); got != want {
			t.Errorf("events after the abort: %s", got)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		h := newTestHost(blockingNetwork(nil))
		x := h.x
		x.Open("GET", "/slow", parse, true, nil, nil)
		x.SetTimeout(20)
		x.Send(client, nil)
		h.run(t)
		want := "readystatechange1 loadstart(0/0) readystatechange2 readystatechange3 progress readystatechange4 timeout(0/0) loadend(0/0)"
		if got := strings.Join(h.events, " "); got != want {
			t.Errorf("events\n got %s\nwant %s", got, want)
		}
	})
	t.Run("upload", func(t *testing.T) {
		h := newTestHost(serve("ok", nil))
		h.upload = true
		x := h.x
		x.Open("POST", "/u", parse, true, nil, nil)
		x.Send(client, &SendBody{Source: []byte("abcd")})
		h.run(t)
		want := "readystatechange1 loadstart(0/0) upload.loadstart(0/4) upload.progress upload.load(4/4) upload.loadend(4/4) readystatechange2 readystatechange3 progress readystatechange4 load(2/2) loadend(2/2)"
		if got := strings.Join(h.events, " "); got != want {
			t.Errorf("events\n got %s\nwant %s", got, want)
		}
		if !h.lastSent.UseCORSPreflight {
			t.Errorf("upload listeners did not set the use-CORS-preflight flag")
		}
	})
}

// drain runs the tasks already queued.
func drain(h *testHost) {
	for {
		select {
		case task := <-h.tasks:
			task()
		default:
			return
		}
	}
}

func TestNetworkErrorAndSync(t *testing.T) {
	fail := fetch.NetworkFunc(func(context.Context, *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
		return nil, errors.New("connection refused")
	})
	h := newTestHost(fail)
	x := h.x
	x.Open("GET", "/x", parse, true, nil, nil)
	x.Send(client, nil)
	h.run(t)
	want := "readystatechange1 loadstart(0/0) readystatechange4 error(0/0) loadend(0/0)"
	if got := strings.Join(h.events, " "); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}

	// Synchronous: the exception, no events but readystatechange.
	h = newTestHost(fail)
	x = h.x
	x.Open("GET", "/x", parse, false, nil, nil)
	if err := x.Send(client, nil); domName(err) != dom.NetworkError {
		t.Errorf("sync send to a failing network: %v, want NetworkError", err)
	}
	if x.State() != Done {
		t.Errorf("state %v", x.State())
	}
	h = newTestHost(serve("sync body", nil))
	x = h.x
	x.Open("GET", "/x", parse, false, nil, nil)
	if err := x.Send(client, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(h.events, " "), "readystatechange1 readystatechange4 load(9/9) loadend(9/9)"; got != want {
		t.Errorf("sync events %s, want %s", got, want)
	}
	if x.TextResponse() != "sync body" {
		t.Errorf("sync text %q", x.TextResponse())
	}
	// A synchronous timeout (workers) throws TimeoutError.
	h = newTestHost(blockingNetwork(nil))
	x = h.x
	x.Open("GET", "/x", parse, false, nil, nil)
	x.SetTimeout(20)
	if err := x.Send(client, nil); domName(err) != dom.TimeoutError {
		t.Errorf("sync timeout: %v, want TimeoutError", err)
	}
	// In a window, a synchronous request takes no timeout or response
	// type.
	h = newTestHost(fail)
	h.window = true
	x = h.x
	x.Open("GET", "/x", parse, false, nil, nil)
	if err := x.SetTimeout(5); domName(err) != dom.InvalidAccessError {
		t.Errorf("timeout for a sync request in a window: %v", err)
	}
	if err := x.SetResponseType("json"); domName(err) != dom.InvalidAccessError {
		t.Errorf("responseType for a sync request in a window: %v", err)
	}
	// Outside a window, "document" is ignored.
	h = newTestHost(fail)
	h.x.SetResponseType("document")
	if h.x.ResponseType() != "" {
		t.Errorf("responseType document in a worker: %q", h.x.ResponseType())
	}
}

func TestResponseMIMETypeAndText(t *testing.T) {
	for _, tc := range []struct {
		ct, override, body, wantMIME, wantText string
	}{
		{"", "", "abc", "text/xml", "abc"},
		{"text/html; charset=\"utf-8\"", "", "abc", "text/html;charset=utf-8", "abc"},
		{"text/plain;charset=utf-16le", "", "a\x00b\x00", "text/plain;charset=utf-16le", "ab"},
		{"text/plain", "application/x-foo;charset=utf-16be", "\x00a", "application/x-foo;charset=utf-16be", "a"},
		{"text/plain", "not a mime type", "\xEF\xBB\xBFx", "application/octet-stream", "x"},
		{"text/plain, */*", "", "\xFF", "text/plain", "\uFFFD"},
	} {
		hdr := http.Header{}
		if tc.ct != "" {
			hdr.Set("Content-Type", tc.ct)
		}
		h := newTestHost(fetch.NetworkFunc(func(context.Context, *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
			return &fetch.NetworkResponse{Status: 200, Header: hdr, Body: []byte(tc.body)}, nil
		}))
		x := h.x
		x.Open("GET", "/m", parse, true, nil, nil)
		if tc.override != "" {
			x.OverrideMimeType(tc.override)
		}
		x.Send(client, nil)
		h.run(t)
		if got := x.FinalMIMEType(); got != tc.wantMIME {
			t.Errorf("%q/%q: final MIME type %q, want %q", tc.ct, tc.override, got, tc.wantMIME)
		}
		if got := x.TextResponse(); got != tc.wantText {
			t.Errorf("%q/%q: text %q, want %q", tc.ct, tc.override, got, tc.wantText)
		}
	}
}

func TestExtractLength(t *testing.T) {
	for _, tc := range []struct {
		v    []string
		want uint64
		ok   bool
	}{
		{nil, 0, false}, {[]string{"12"}, 12, true}, {[]string{"12, 12"}, 12, true}, {[]string{"12", "13"}, 0, false},
		{[]string{"-1"}, 0, false}, {[]string{"99999999999999999999999"}, 0, false}, {[]string{""}, 0, false},
	} {
		var l fetch.HeaderList
		for _, v := range tc.v {
			l.Append("Content-Length", v)
		}
		if got, ok := extractLength(l); got != tc.want || ok != tc.ok {
			t.Errorf("extract a length from %q: %d %v, want %d %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}
