package fetch

import "sync"

// KeepaliveQuota is the most bytes the bodies of a fetch group's
// keepalive requests in flight may total (64 KiB, as the standard says
// in HTTP-network-or-cache fetch).
const KeepaliveQuota = 64 << 10

// FetchGroup is https://fetch.spec.whatwg.org/#concept-fetch-group: the
// fetch records of an environment settings object's fetches (Client's
// FetchGroup), which the keepalive quota counts. Its zero value is ready
// to use; it is safe for concurrent use.
type FetchGroup struct {
	mu      sync.Mutex
	records map[*fetchRecord]struct{}
}

// fetchRecord is https://fetch.spec.whatwg.org/#concept-fetch-record:
// the request (its keepalive flag and body length) until its done flag
// is set.
type fetchRecord struct {
	group     *FetchGroup
	request   *Request
	keepalive bool
	bodyLen   int
}

// appendFetchRecord appends a fetch record for req to g (fetch, step
// "append a fetch record"); its finish removes it once the request's
// done flag is set (the response's body read, or a network error).
func (g *FetchGroup) appendFetchRecord(req *Request) *fetchRecord {
	rec := &fetchRecord{group: g, request: req, keepalive: req.Keepalive, bodyLen: req.Body.length()}
	g.mu.Lock()
	if g.records == nil {
		g.records = map[*fetchRecord]struct{}{}
	}
	g.records[rec] = struct{}{}
	g.mu.Unlock()
	return rec
}

// finish sets the record's request's done flag: it leaves the group.
func (rec *fetchRecord) finish() {
	rec.group.mu.Lock()
	delete(rec.group.records, rec)
	rec.group.mu.Unlock()
}

// inflightKeepaliveBytes is the sum of the body lengths of g's records
// whose request's keepalive is true and done flag unset, but req's own.
func (g *FetchGroup) inflightKeepaliveBytes(req *Request) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for rec := range g.records {
		if rec.keepalive && rec.request != req {
			n += rec.bodyLen
		}
	}
	return n
}

// length is https://fetch.spec.whatwg.org/#concept-body-total-bytes for
// a request body: 0 for null, or for a body whose source is null.
func (b *Body) length() int {
	if b == nil {
		return 0
	}
	return len(b.Source)
}

// finishWith sets the done flag of rec (nil: none) once resp's body is
// read (at once for a network error or a null body).
func (rec *fetchRecord) finishWith(resp *Response) {
	if rec == nil {
		return
	}
	body := resp.Body
	if resp.Internal != nil && resp.Internal.Body != nil {
		body = resp.Internal.Body
	}
	if resp.IsNetworkError() || body == nil {
		rec.finish()
		return
	}
	body.OnLoad(rec.finish)
}
