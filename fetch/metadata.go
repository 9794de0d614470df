package fetch

import (
	"net/http"

	"github.com/gowebengine/weblocks/origin"
)

// appendFetchMetadataHeaders is
// https://w3c.github.io/webappsec-fetch-metadata/#abstract-opdef-append-the-fetch-metadata-headers-for-a-request:
// the Sec-Fetch-Dest, Sec-Fetch-Mode and Sec-Fetch-Site headers of req,
// appended to h (the HTTP request's header list) when req's current URL
// is potentially trustworthy. No request here carries user activation,
// so Sec-Fetch-User is never sent.
func appendFetchMetadataHeaders(req *Request, h http.Header) {
	// 1. If r's url is not an potentially trustworthy URL, return.
	if !origin.IsURLPotentiallyTrustworthy(req.CurrentURL()) {
		return
	}
	// 2. Set the Sec-Fetch-Dest header for r.
	setSecFetchDest(req, h)
	// 3. Set the Sec-Fetch-Mode header for r.
	setSecFetchMode(req, h)
	// 4. Set the Sec-Fetch-Site header for r.
	setSecFetchSite(req, h)
	// 5. Set the Sec-Fetch-User header for r (a navigation request
	//    without user activation: nothing).
}

// setSecFetchDest is
// https://w3c.github.io/webappsec-fetch-metadata/#abstract-opdef-set-dest.
func setSecFetchDest(req *Request, h http.Header) {
	// 2-3. Let header be a Structured Header whose value is a token; if
	//    r's destination is the empty string, set header's value to the
	//    string "empty"; otherwise, to r's destination.
	dest := req.Destination
	if dest == "" {
		dest = "empty"
	}
	// 4. Set a structured field value `Sec-Fetch-Dest`/header in r's
	//    header list.
	h.Set("Sec-Fetch-Dest", dest)
}

// setSecFetchMode is
// https://w3c.github.io/webappsec-fetch-metadata/#abstract-opdef-set-mode.
func setSecFetchMode(req *Request, h http.Header) {
	// 1-2. Let header be a Structured Header whose value is a token: r's
	//    mode; set it in r's header list.
	h.Set("Sec-Fetch-Mode", req.Mode)
}

// setSecFetchSite is
// https://w3c.github.io/webappsec-fetch-metadata/#abstract-opdef-set-site.
func setSecFetchSite(req *Request, h http.Header) {
	// 1. Assert: r's url is a potentially trustworthy URL.
	// 2. Let header be a Structured Header whose value is a token.
	// 3. Set header's value to same-origin.
	value := "same-origin"
	// 4. If r is a navigation request that was explicitly caused by a
	//    user's interaction with the user agent (here: a navigation
	//    without a client, which only the embedder starts), then set
	//    header's value to none.
	if req.Mode == "navigate" && req.Client == nil {
		value = "none"
	}
	// 5. If header's value is not none, then for each url in r's url
	//    list:
	if value != "none" {
		for _, u := range req.URLList {
			// 5.1. If url is same origin with r's origin, continue.
			uo := origin.FromURL(u)
			if origin.SameOrigin(uo, req.Origin) {
				continue
			}
			// 5.2. Set header's value to same-site.
			value = "same-site"
			// 5.3. If url is not same site with r's origin, then set
			//      header's value to cross-site and break.
			if !origin.SameSiteOrigins(uo, req.Origin) {
				value = "cross-site"
				break
			}
		}
	}
	// 6. Set a structured field value `Sec-Fetch-Site`/header in r's
	//    header list.
	h.Set("Sec-Fetch-Site", value)
}
