package fetch

import (
	"net/url"
	"strconv"

	"github.com/gowebengine/weblocks/origin"
)

// badPorts is https://fetch.spec.whatwg.org/#bad-port.
var badPorts = map[int]bool{
	0: true, 1: true, 7: true, 9: true, 11: true, 13: true, 15: true, 17: true, 19: true, 20: true,
	21: true, 22: true, 23: true, 25: true, 37: true, 42: true, 43: true, 53: true, 69: true, 77: true,
	79: true, 87: true, 95: true, 101: true, 102: true, 103: true, 104: true, 109: true, 110: true,
	111: true, 113: true, 115: true, 117: true, 119: true, 123: true, 135: true, 137: true, 139: true,
	143: true, 161: true, 179: true, 389: true, 427: true, 465: true, 512: true, 513: true, 514: true,
	515: true, 526: true, 530: true, 531: true, 532: true, 540: true, 548: true, 554: true, 556: true,
	563: true, 587: true, 601: true, 636: true, 989: true, 990: true, 993: true, 995: true, 1719: true,
	1720: true, 1723: true, 2049: true, 3659: true, 4045: true, 4190: true, 5060: true, 5061: true,
	6000: true, 6566: true, 6665: true, 6666: true, 6667: true, 6668: true, 6669: true, 6679: true,
	6697: true, 10080: true,
}

// IsBadPort is https://fetch.spec.whatwg.org/#bad-port.
func IsBadPort(port int) bool { return badPorts[port] }

// shouldBlockBadPort is
// https://fetch.spec.whatwg.org/#block-bad-port ("should request be
// blocked due to a bad port").
func shouldBlockBadPort(req *Request) bool {
	// 1. Let url be request's current URL.
	u := req.CurrentURL()
	// 2. If url's scheme is an HTTP(S) scheme and url's port is a bad
	//    port, then return blocked.
	if isHTTPScheme(u.Scheme) && u.Port() != "" {
		p, err := strconv.Atoi(u.Port())
		if err != nil || IsBadPort(p) {
			return true
		}
	}
	// 3. Return allowed.
	return false
}

// shouldBlockMixedContent is
// https://w3c.github.io/webappsec-mixed-content/#should-block-fetch
// ("should fetching request be blocked as mixed content?").
func shouldBlockMixedContent(req *Request) bool {
	// 1. Return allowed if one or more of the following conditions are
	//    met:
	switch {
	// 1.1. request's URL is a potentially trustworthy URL.
	case origin.IsURLPotentiallyTrustworthy(req.CurrentURL()):
		return false
	// 1.3. "Does settings prohibit mixed security contexts?" returns
	//      "Does Not Restrict Mixed Security Contents" for request's
	//      client.
	case !prohibitsMixedSecurityContexts(req.Client):
		return false
	// 1.4. request's destination is "document", and request's target
	//      browsing context has no parent browsing context.
	case req.Destination == "document" && req.TopLevel:
		return false
	}
	// 2. Return blocked.
	return true
}

// prohibitsMixedSecurityContexts is
// https://w3c.github.io/webappsec-mixed-content/#categorize-settings-object
// as Chromium implements it: a client restricts mixed content when its
// origin's scheme is https or wss (an http://localhost page does not;
// see the package doc). Ancestor documents are not consulted: a frame's
// document could only be http under an https ancestor by loading as
// mixed content, which is blocked.
func prohibitsMixedSecurityContexts(c *Client) bool {
	if c == nil {
		return false
	}
	// 1. If settings' origin is a potentially trustworthy origin, then
	//    return "Prohibits Mixed Security Contexts".
	s := c.Origin.Scheme()
	return s == "https" || s == "wss"
}

// referrerPolicies are https://w3c.github.io/webappsec-referrer-policy/#referrer-policy.
var referrerPolicies = map[string]bool{
	"no-referrer": true, "no-referrer-when-downgrade": true, "same-origin": true, "origin": true,
	"strict-origin": true, "origin-when-cross-origin": true, "strict-origin-when-cross-origin": true,
	"unsafe-url": true,
}

// DefaultReferrerPolicy is
// https://w3c.github.io/webappsec-referrer-policy/#default-referrer-policy.
const DefaultReferrerPolicy = "strict-origin-when-cross-origin"

// determineRequestsReferrer is
// https://w3c.github.io/webappsec-referrer-policy/#determine-requests-referrer;
// nil is "no referrer".
func determineRequestsReferrer(req *Request) *url.URL {
	// 1. Let policy be request's referrer policy.
	policy := req.ReferrerPolicy
	// 2. Let environment be request's client.
	// 3. Switch on request's referrer:
	var source *url.URL
	switch req.Referrer {
	case "client":
		// The document's URL or the creation URL (nil for an opaque
		// origin document: no referrer).
		if req.Client == nil || req.Client.URL == nil {
			return nil
		}
		source = req.Client.URL
	case "no-referrer", "":
		return nil
	default:
		// a URL: let referrerSource be request's referrer.
		u, err := url.Parse(req.Referrer)
		if err != nil {
			return nil
		}
		source = u
	}
	// 4. Let referrerURL be the result of stripping referrerSource for use
	//    as a referrer.
	referrerURL := stripURLForUseAsReferrer(source, false)
	// 5. Let referrerOrigin be the result of stripping referrerSource for
	//    use as a referrer, with the origin-only flag set to true.
	referrerOrigin := stripURLForUseAsReferrer(source, true)
	if referrerURL == nil {
		return nil
	}
	// 6. If the result of serializing referrerURL is a string whose length
	//    is greater than 4096, set referrerURL to referrerOrigin.
	if len(referrerURL.String()) > 4096 {
		referrerURL = referrerOrigin
	}
	// 7. (No user agent alteration.)
	// 8. Execute the statements corresponding to the value of policy:
	current := req.CurrentURL()
	sameOrigin := origin.SameOrigin(origin.FromURL(referrerURL), origin.FromURL(current))
	downgrade := origin.IsURLPotentiallyTrustworthy(referrerURL) && !origin.IsURLPotentiallyTrustworthy(current)
	switch policy {
	case "no-referrer":
		return nil
	case "origin":
		return referrerOrigin
	case "unsafe-url":
		return referrerURL
	case "strict-origin":
		if downgrade {
			return nil
		}
		return referrerOrigin
	case "same-origin":
		if sameOrigin {
			return referrerURL
		}
		return nil
	case "origin-when-cross-origin":
		if sameOrigin {
			return referrerURL
		}
		return referrerOrigin
	case "no-referrer-when-downgrade":
		if downgrade {
			return nil
		}
		return referrerURL
	}
	// "strict-origin-when-cross-origin" (and the empty policy):
	// 1. If the origin of referrerURL and the origin of request's current
	//    URL are the same, then return referrerURL.
	if sameOrigin {
		return referrerURL
	}
	// 2. If referrerURL is a potentially trustworthy URL and request's
	//    current URL is not a potentially trustworthy URL, then return no
	//    referrer.
	if downgrade {
		return nil
	}
	// 3. Return referrerOrigin.
	return referrerOrigin
}

// stripURLForUseAsReferrer is
// https://w3c.github.io/webappsec-referrer-policy/#strip-url.
func stripURLForUseAsReferrer(u *url.URL, originOnly bool) *url.URL {
	// 1. If url is null, return no referrer.
	if u == nil {
		return nil
	}
	// 2. If url's scheme is a local scheme, then return no referrer.
	switch u.Scheme {
	case "about", "blob", "data":
		return nil
	}
	c := cloneURL(u)
	// 3-4. Set url's username and password to the empty string.
	c.User = nil
	// 5. Set url's fragment to null.
	c.Fragment, c.RawFragment = "", ""
	// 6. If the origin-only flag is true: set url's path and query to
	//    null (an origin serializes with the path "/").
	if originOnly {
		c.Path, c.RawPath, c.RawQuery, c.ForceQuery = "/", "", "", false
	}
	// 7. Return url.
	return c
}

// setReferrerPolicyOnRedirect is
// https://w3c.github.io/webappsec-referrer-policy/#set-requests-referrer-policy-on-redirect.
func setReferrerPolicyOnRedirect(req *Request, actual *Response) {
	// 1. Let policy be the result of executing "parse a referrer policy
	//    from a Referrer-Policy header" on actualResponse.
	policy := ParseReferrerPolicyHeader(actual)
	// 2. If policy is not the empty string, then set request's referrer
	//    policy to policy.
	if policy != "" {
		req.ReferrerPolicy = policy
	}
}

// IsReferrerPolicy reports whether s is a referrer policy other than the
// empty string (https://w3c.github.io/webappsec-referrer-policy/#referrer-policy):
// the keywords a referrerpolicy attribute or a Referrer-Policy header
// may hold.
func IsReferrerPolicy(s string) bool { return referrerPolicies[s] }

// ParseReferrerPolicyHeader is
// https://w3c.github.io/webappsec-referrer-policy/#parse-referrer-policy-from-header:
// the last referrer policy token of r's Referrer-Policy header values, or
// "" when there is none.
func ParseReferrerPolicyHeader(r *Response) string {
	// 1. Let policy-tokens be the result of extracting header list values
	//    given `Referrer-Policy` and response's header list.
	// 2. Let policy be the empty string.
	policy := ""
	// 3. For each token in policy-tokens, if token is a referrer policy
	//    and token is not the empty string, then set policy to token.
	for _, t := range headerTokens(r.Header, "Referrer-Policy") {
		if referrerPolicies[t] {
			policy = t
		}
	}
	// 4. Return policy.
	return policy
}
