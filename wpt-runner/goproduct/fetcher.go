package goproduct

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// DefaultHosts are the host names of the WPT host set: web-platform.test,
// its www, www1 and www2 subdomains, and not-web-platform.test.
var DefaultHosts = []string{
	"web-platform.test",
	"www.web-platform.test",
	"www1.web-platform.test",
	"www2.web-platform.test",
	"not-web-platform.test",
	"www.not-web-platform.test",
	"www1.not-web-platform.test",
	"www2.not-web-platform.test",
}

// FetcherOptions configure the runner's fetcher.
type FetcherOptions struct {
	// Hosts are the names mapped to Loopback; DefaultHosts when empty.
	Hosts []string
	// Loopback is the IP the hosts resolve to; "127.0.0.1" when empty.
	Loopback string
	// RootCAs is the pool the HTTPS client trusts (the runner's certificate).
	RootCAs *x509.CertPool
}

// NewFetcher returns the browser fetcher of the go product: requests to the
// WPT host names are dialed on the loopback address at the same port, and
// HTTPS trusts the runner's generated certificate; any other host is
// refused, so a test never reaches the network. The returned func releases
// idle connections.
func NewFetcher(o FetcherOptions) (browser.HTTPFetcher, func()) {
	hosts := o.Hosts
	if len(hosts) == 0 {
		hosts = DefaultHosts
	}
	loop := o.Loopback
	if loop == "" {
		loop = "127.0.0.1"
	}
	allowed := map[string]bool{}
	for _, h := range hosts {
		allowed[strings.ToLower(h)] = true
	}
	// "localhost" and loopback literals are always allowed: they are local.
	allowed["localhost"] = true
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		h := strings.ToLower(host)
		if ip := net.ParseIP(h); ip != nil {
			if !ip.IsLoopback() {
				return nil, fmt.Errorf("goproduct: refusing non-loopback address %s", addr)
			}
			return dialer.DialContext(ctx, network, addr)
		}
		if !allowed[h] {
			return nil, fmt.Errorf("goproduct: host %q is not a WPT host", host)
		}
		return dialer.DialContext(ctx, network, net.JoinHostPort(loop, port))
	}
	tr := &http.Transport{
		DialContext:         dial,
		TLSClientConfig:     &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		MaxIdleConnsPerHost: 8,
		IdleConnTimeout:     30 * time.Second,
		Proxy:               nil,
		ForceAttemptHTTP2:   false,
	}
	client := &http.Client{
		Transport: tr,
		// The client never follows a redirect: package fetch does, as the
		// Fetch Standard says (the browser's HTTPFetcher replaces this
		// policy too).
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return browser.HTTPFetcher{Client: client}, client.CloseIdleConnections
}
