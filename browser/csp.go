package browser

import (
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/csp"
	"github.com/gowebengine/weblocks/csp/container"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
	xhtml "golang.org/x/net/html"
)

// This file gives documents and workers the CSP list of their policy
// container (package csp/container): their response's
// Content-Security-Policy headers, and a document's meta elements; their
// requests' clients carry it (loads.go), and package fetch's main fetch
// blocks what it forbids.

// responseCSPList is the CSP list of response r (at URL u): the policies
// of its Content-Security-Policy and Content-Security-Policy-Report-Only
// headers, whose self-origin is u's origin.
// https://w3c.github.io/webappsec-csp/#parse-response-csp
func responseCSPList(r *fetch.Response, u *url.URL) csp.List {
	var enforced, reportOnly []string
	if v, ok := r.Header.Get("Content-Security-Policy"); ok {
		enforced = append(enforced, v)
	}
	if v, ok := r.Header.Get("Content-Security-Policy-Report-Only"); ok {
		reportOnly = append(reportOnly, v)
	}
	if enforced == nil && reportOnly == nil {
		return nil
	}
	self := origin.NewOpaque()
	if u != nil {
		self = origin.FromURL(u)
	}
	return csp.ParseResponsePolicies(enforced, reportOnly, self)
}

// workerCSPList is the CSP list of the policy container "initialize a
// worker global scope's policy container" gives a worker whose script's
// response is l: its owner's (fetchClient's) for a local scheme, else its
// response's.
// https://html.spec.whatwg.org/multipage/workers.html#initialize-worker-policy-container
func workerCSPList(owner *fetch.Client, l loaded) csp.List {
	switch strings.ToLower(l.url.Scheme) {
	case "about", "blob", "data":
		if owner != nil {
			return owner.CSP
		}
		return nil
	}
	return l.csp
}

// setHeaderCSP gives w's document the CSP list of its response, before
// its scripts run (the policies of its meta elements, processed when the
// window was installed, follow them).
func (w *Window) setHeaderCSP(list csp.List) {
	if w.env != nil && len(list) > 0 {
		container.SetList(w.env, append(append(csp.List(nil), list...), container.ListOf(w.env)...))
	}
}

// processCSPMeta is the Content-Security-Policy state of the http-equiv
// attribute for meta element el of w's parsed document: a meta element
// in head with a content attribute adds its enforced policy.
// https://html.spec.whatwg.org/multipage/semantics.html#attr-meta-http-equiv-content-security-policy
func (w *Window) processCSPMeta(el *xhtml.Node) {
	// 1. If the meta element is not a child of a head element, return.
	if p := el.Parent; p == nil || p.Type != xhtml.ElementNode || p.Data != "head" || p.Namespace != "" {
		return
	}
	httpEquiv, _ := getAttr(el, "http-equiv")
	// 2. If the meta element has no content attribute, or if that
	//    attribute's value is the empty string, then return.
	content, _ := getAttr(el, "content")
	if !strings.EqualFold(strings.TrimSpace(httpEquiv), "content-security-policy") || content == "" || w.env == nil {
		return
	}
	// 3-7. Parse the policy (source "meta", disposition "enforce") and
	//    enforce it.
	container.AddMetaPolicy(w.env, content, w.env.Origin())
}
