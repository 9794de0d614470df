package fetch

import "github.com/gowebengine/weblocks/csp"

// shouldRequestBeBlockedByCSP is main fetch's "should request be blocked
// by Content Security Policy?" (https://w3c.github.io/webappsec-csp/#should-block-request)
// for req: its client's CSP list (its policy container's) decides.
func shouldRequestBeBlockedByCSP(req *Request) bool {
	if req.Client == nil || len(req.Client.CSP) == 0 {
		return false
	}
	return req.Client.CSP.ShouldRequestBeBlocked(csp.Request{URL: req.CurrentURL(), Destination: req.Destination,
		Initiator: req.Initiator, RedirectCount: req.RedirectCount, NestedDocument: req.Destination == "document" && !req.TopLevel})
}
