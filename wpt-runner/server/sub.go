package server

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

var subRe = regexp.MustCompile(`{{([^{}]*)}}`)

// escapeHTML escapes like Python's html.escape(quote=True), which wptserve's
// sub pipe applies to every substituted value.
var escapeHTML = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;").Replace

// substitute performs wptserve's "sub" pipe on body for request r: every
// {{expression}} is replaced by its (HTML-escaped) value. Supported
// expressions: host, domains[sub], hosts[alt][sub], ports[scheme][i],
// GET[key], location[part], headers[name], uuid(), url_base, and variables
// {{$name:expression}} (defines and outputs) and {{$name}}.
func (s *Server) substitute(body []byte, r *http.Request) ([]byte, error) {
	vars := map[string]string{}
	var firstErr error
	out := subRe.ReplaceAllFunc(body, func(m []byte) []byte {
		expr := strings.TrimSpace(string(m[2 : len(m)-2]))
		v, err := s.evalSub(expr, r, vars, 0)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("{{%s}}: %v", expr, err)
			}
			return m
		}
		return []byte(escapeHTML(v))
	})
	return out, firstErr
}

// maxSubDepth bounds nested variable definitions ({{$a:$b:$c:uuid()}}).
const maxSubDepth = 16

func (s *Server) evalSub(expr string, r *http.Request, vars map[string]string, depth int) (string, error) {
	if depth > maxSubDepth {
		return "", fmt.Errorf("variable definitions nested more than %d deep", maxSubDepth)
	}
	if name, ok := strings.CutPrefix(expr, "$"); ok {
		name, def, hasDef := strings.Cut(name, ":")
		name = strings.TrimSpace(name)
		if !hasDef {
			v, ok := vars[name]
			if !ok {
				return "", fmt.Errorf("undefined variable $%s", name)
			}
			return v, nil
		}
		v, err := s.evalSub(strings.TrimSpace(def), r, vars, depth+1)
		if err != nil {
			return "", err
		}
		vars[name] = v
		return v, nil
	}
	// name, then (args) or [key]...
	i := strings.IndexAny(expr, "[(")
	name, rest := expr, ""
	if i >= 0 {
		name, rest = strings.TrimSpace(expr[:i]), expr[i:]
	}
	if strings.HasPrefix(rest, "(") {
		if !strings.HasSuffix(rest, ")") {
			return "", fmt.Errorf("unterminated call")
		}
		switch name {
		case "uuid":
			return uuid.NewString(), nil
		case "header_or_default":
			args := strings.Split(rest[1:len(rest)-1], ",")
			if len(args) != 2 {
				return "", fmt.Errorf("header_or_default takes 2 arguments")
			}
			h := strings.Trim(strings.TrimSpace(args[0]), `"'`)
			if v := r.Header.Get(h); v != "" {
				return v, nil
			}
			return strings.Trim(strings.TrimSpace(args[1]), `"'`), nil
		}
		return "", fmt.Errorf("unknown function %s()", name)
	}
	var keys []string
	for rest != "" {
		if rest[0] != '[' {
			return "", fmt.Errorf("unexpected %q", rest)
		}
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			return "", fmt.Errorf("unterminated [")
		}
		keys = append(keys, strings.Trim(strings.TrimSpace(rest[1:j]), `"'`))
		rest = strings.TrimSpace(rest[j+1:])
	}
	need := func(n int) error {
		if len(keys) != n {
			return fmt.Errorf("%s takes %d key(s), got %d", name, n, len(keys))
		}
		return nil
	}
	switch name {
	case "host":
		return s.host(false, ""), need(0)
	case "url_base":
		return "/", need(0)
	case "domains":
		if err := need(1); err != nil {
			return "", err
		}
		if !s.knownSub(keys[0]) {
			return "", fmt.Errorf("unknown subdomain %q", keys[0])
		}
		return s.host(false, keys[0]), nil
	case "hosts":
		if err := need(2); err != nil {
			return "", err
		}
		if keys[0] != "" && keys[0] != "alt" {
			return "", fmt.Errorf("unknown host set %q", keys[0])
		}
		if !s.knownSub(keys[1]) {
			return "", fmt.Errorf("unknown subdomain %q", keys[1])
		}
		return s.host(keys[0] == "alt", keys[1]), nil
	case "ports":
		if err := need(2); err != nil {
			return "", err
		}
		var ports []int
		switch keys[0] {
		case "http":
			ports = s.httpPorts
		case "https":
			ports = s.httpsPorts
		case "ws", "wss", "h2":
			// wptserve always has these servers; this runner has none.
			// Helpers that merely mention them (service-workers'
			// test-helpers.sub.js builds a wss:// URL) must still load, so
			// they get the HTTP(S) server's ports: a WebSocket or HTTP/2
			// connection there fails its handshake (an error event), as
			// with a server that does not speak the protocol.
			if keys[0] == "ws" {
				ports = s.httpPorts
			} else {
				ports = s.httpsPorts
			}
		default:
			return "", fmt.Errorf("no %s server in this runner", keys[0])
		}
		n, err := strconv.Atoi(keys[1])
		if err != nil || n < 0 || n >= len(ports) {
			return "", fmt.Errorf("no %s port %q", keys[0], keys[1])
		}
		return strconv.Itoa(ports[n]), nil
	case "GET":
		if err := need(1); err != nil {
			return "", err
		}
		return r.URL.Query().Get(keys[0]), nil
	case "headers":
		if err := need(1); err != nil {
			return "", err
		}
		return r.Header.Get(keys[0]), nil
	case "location":
		if err := need(1); err != nil {
			return "", err
		}
		return location(r, keys[0])
	}
	return "", fmt.Errorf("unknown substitution %q", name)
}

func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// location gives the parts of the request URL that wptserve's {{location}} offers.
func location(r *http.Request, part string) (string, error) {
	host := r.Host
	hostname, port := host, ""
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		hostname, port = host[:i], host[i+1:]
	}
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme(r)]
	}
	query := ""
	if r.URL.RawQuery != "" {
		query = "?" + r.URL.RawQuery
	}
	switch part {
	case "scheme":
		return scheme(r), nil
	case "host":
		return host, nil
	case "hostname":
		return hostname, nil
	case "port":
		return port, nil
	case "path", "pathname":
		return r.URL.EscapedPath(), nil
	case "query":
		return query, nil
	case "server":
		return scheme(r) + "://" + host, nil
	case "href":
		return scheme(r) + "://" + host + r.URL.EscapedPath() + query, nil
	}
	return "", fmt.Errorf("unknown location part %q", part)
}
