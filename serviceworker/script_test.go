package serviceworker

import (
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
)

// recorder is a server that records every request and answers from
// routes (path → handler); other paths are 404s.
type recorder struct {
	mu       sync.Mutex
	requests []*http.Request
	routes   map[string]http.HandlerFunc
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec.mu.Lock()
	rec.requests = append(rec.requests, r.Clone(r.Context()))
	h := rec.routes[r.URL.Path]
	rec.mu.Unlock()
	if h == nil {
		http.NotFound(w, r)
		return
	}
	h(w, r)
}

// seen lists the paths requested.
func (rec *recorder) seen() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []string
	for _, r := range rec.requests {
		out = append(out, r.URL.Path)
	}
	return out
}

func (rec *recorder) last(path string) *http.Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i := len(rec.requests) - 1; i >= 0; i-- {
		if rec.requests[i].URL.Path == path {
			return rec.requests[i]
		}
	}
	return nil
}

func script(contentType, allowed string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		if allowed != "" {
			w.Header().Set("Service-Worker-Allowed", allowed)
		}
		_, _ = w.Write([]byte("// a service worker"))
	}
}

// TestScriptFetch: Update fetches the script through package fetch with
// the Service-Worker header and the client's cookies; a redirect, a
// status that is not ok and a script that is not JavaScript fail the job
// with the standard's errors; the scope must be under the maximum scope
// (the script's directory or the Service-Worker-Allowed header).
func TestScriptFetch(t *testing.T) {
	rec := &recorder{routes: map[string]http.HandlerFunc{
		"/app/sw.js":            script("text/javascript; charset=utf-8", ""),
		"/app/plain.js":         script("text/plain", ""),
		"/app/allowed.js":       script("application/javascript", "/"),
		"/app/other-allowed.js": script("text/javascript", "https://b.test/"),
		"/app/redirect.js": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/app/sw.js", http.StatusFound)
		},
		"/app/cookie": func(w http.ResponseWriter, _ *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "c", Value: "1", Path: "/"})
		},
	}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	hc := srv.Client()
	hc.Jar, _ = cookiejar.New(nil)
	if resp, err := hc.Get(srv.URL + "/app/cookie"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	ua, _ := newUA(t, fetch.HTTPNetwork{Client: hc})
	// (http://127.0.0.1 is potentially trustworthy: a secure context.)
	client := openWindow(t, ua, srv.URL+"/app/page.html").EnvironmentSettingsObject()
	if !client.IsSecureContext() {
		t.Fatal("the page is not a secure context")
	}

	reg, err := register(t, client, srv.URL+"/app/sw.js", "")
	if err != nil {
		t.Fatal(err)
	}
	req := rec.last("/app/sw.js")
	if got := req.Header.Get("Service-Worker"); got != "script" {
		t.Errorf("Service-Worker header %q, want script", got)
	}
	if c, err := req.Cookie("c"); err != nil || c.Value != "1" {
		t.Errorf("cookie: %v %v, want the credentials of a same-origin request", c, err)
	}
	if req.Method != http.MethodGet {
		t.Errorf("method %s", req.Method)
	}
	if got := req.Header.Get("Referer"); got != srv.URL+"/app/page.html" {
		t.Errorf("Referer %q, want the client's URL", got)
	}
	waitIdle(ua)
	if _, _, a := reg.Workers(); a == nil || string(a.Script()) != "// a service worker" {
		t.Fatalf("the worker's script: %v", a)
	}

	for _, c := range []struct {
		script, scope string
		want          string // "TypeError" or a DOMException name
		requested     []string
	}{
		// A redirect is a network error (redirect mode "error"), whose
		// empty header list has no JavaScript MIME type: its target is
		// never requested.
		{"/app/redirect.js", "", dom.SecurityError, []string{"/app/redirect.js"}},
		{"/app/missing.js", "", "TypeError", []string{"/app/missing.js"}},
		{"/app/plain.js", "", dom.SecurityError, []string{"/app/plain.js"}},
		// The scope is checked after the fetch, against the script's
		// directory or Service-Worker-Allowed (same origin only).
		{"/app/sw.js", "/", dom.SecurityError, []string{"/app/sw.js"}},
		{"/app/other-allowed.js", "/", dom.SecurityError, []string{"/app/other-allowed.js"}},
		// The origins are checked before: nothing is requested.
		{"https://b.test/app/sw.js", "", dom.SecurityError, nil},
		{"LOCALHOST/app/sw.js", "/app/", dom.SecurityError, nil},
		{"/app/sw.js", "https://b.test/", dom.SecurityError, nil},
	} {
		before := len(rec.seen())
		scope := ""
		if c.scope != "" {
			scope = c.scope
			if strings.HasPrefix(scope, "/") {
				scope = srv.URL + scope
			}
		}
		u := strings.Replace(c.script, "LOCALHOST", strings.Replace(srv.URL, "127.0.0.1", "localhost", 1), 1)
		if strings.HasPrefix(u, "/") {
			u = srv.URL + u
		}
		_, err := register(t, client, u, scope)
		var te *TypeError
		var de *dom.DOMException
		switch {
		case c.want == "TypeError" && !errors.As(err, &te):
			t.Errorf("%s (scope %q): %v, want a TypeError", c.script, c.scope, err)
		case c.want != "TypeError" && (!errors.As(err, &de) || de.Name != c.want):
			t.Errorf("%s (scope %q): %v, want %s", c.script, c.scope, err, c.want)
		}
		if got := rec.seen()[before:]; strings.Join(got, ",") != strings.Join(c.requested, ",") {
			t.Errorf("%s (scope %q): requested %v, want %v", c.script, c.scope, got, c.requested)
		}
	}
	// Service-Worker-Allowed: / lets a script in /app/ have the scope /.
	if _, err := register(t, client, srv.URL+"/app/allowed.js", srv.URL+"/"); err != nil {
		t.Errorf("Service-Worker-Allowed: /: %v", err)
	}

	// blob: and data: scripts, and non-HTTP scopes, are refused by Start
	// Register with a TypeError before anything is fetched.
	before := len(rec.seen())
	for _, c := range [][2]string{{"blob:" + srv.URL + "/0b1e0b1e", srv.URL + "/"}, {"data:text/javascript,", srv.URL + "/"},
		{srv.URL + "/app/sw.js", "data:text/html,"}, {srv.URL + "/app/%2fsw.js", ""}} {
		var te *TypeError
		if _, err := register(t, client, c[0], c[1]); !errors.As(err, &te) || !strings.Contains(te.Message, "Failed to register a ServiceWorker: The ") {
			t.Errorf("%s (scope %q): %v, want Start Register's TypeError", c[0], c[1], err)
		}
	}
	if got := rec.seen()[before:]; len(got) != 0 {
		t.Errorf("refused scripts were requested: %v", got)
	}
}

// TestScriptRequest: the request Update makes.
func TestScriptRequest(t *testing.T) {
	c := &fetch.Client{}
	r := scriptRequest(mustURL(t, "https://a.test/sw.js"), c)
	if r.Destination != "serviceworker" || r.Mode != "same-origin" || r.Credentials != "same-origin" ||
		r.Redirect != "error" || r.ServiceWorkersMode != "none" || r.Client != c || r.Method != "GET" {
		t.Fatalf("request %+v", r)
	}
	if v, _ := r.Header.Get("Service-Worker"); v != "script" {
		t.Fatalf("Service-Worker header %q", v)
	}
}
