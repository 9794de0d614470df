package xhr

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/encoding"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
)

// State is an XMLHttpRequest's state (https://xhr.spec.whatwg.org/#concept-xmlhttprequest-state),
// numbered as readyState reports it.
type State uint16

// The states of an XMLHttpRequest.
const (
	Unsent State = iota
	Opened
	HeadersReceived
	Loading
	Done
)

// Target is where an XMLHttpRequest fires an event: the object itself or
// its upload object.
type Target uint8

// The targets of an XMLHttpRequest's events.
const (
	TargetXHR Target = iota
	TargetUpload
)

// Progress is a progress event's data
// (https://xhr.spec.whatwg.org/#concept-event-fire-progress).
type Progress struct {
	Loaded, Total    uint64
	LengthComputable bool
}

// Host is what an XMLHttpRequest needs from its global object's side
// (package bindings implements it over a realm).
type Host interface {
	// QueueTask queues steps on the XMLHttpRequest's event loop (the
	// networking task source), from any goroutine; false when the loop
	// no longer runs tasks.
	QueueTask(steps func()) bool
	// StartFetch runs fetch.Fetch(ctx, p) off the event loop (the host
	// supplies the network, caches and cookies), calls done once with the
	// response, from any goroutine, at its headers, and then runs the
	// response's Load.
	StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response))
	// FireEvent fires an event named typ at the target, on the event
	// loop: a ProgressEvent when p is not nil, an Event otherwise.
	FireEvent(target Target, typ string, p *Progress)
	// UploadHasListeners reports whether event listeners are registered
	// on the upload object.
	UploadHasListeners() bool
	// IsWindow reports whether the relevant global object is a Window.
	IsWindow() bool
	// DocumentFullyActive reports whether a Window's associated Document
	// is fully active (true for other globals).
	DocumentFullyActive() bool
}

// progressInterval is the "roughly 50ms" between two progress events.
const progressInterval = 50 * time.Millisecond

// XMLHttpRequest is an XMLHttpRequest object's state
// (https://xhr.spec.whatwg.org/#interface-xmlhttprequest) and algorithms,
// run on its event loop. The JavaScript object is package bindings'.
type XMLHttpRequest struct {
	host Host

	state                  State
	sendFlag               bool
	timeout                uint32
	crossOriginCredentials bool
	method                 string
	url                    *url.URL
	synchronous            bool
	authorHeaders          fetch.HeaderList
	requestBody            *fetch.Body
	uploadComplete         bool
	uploadListener         bool
	timedOut               bool
	response               *fetch.Response
	received               []byte
	responseType           string
	overrideMIME           *mimeType
	// responseObject is the response object (bindings' converted value)
	// and responseFailure marks it failure.
	responseObject  any
	responseFailure bool

	// gen identifies the current fetch: a task of an earlier fetch
	// (terminated or aborted) finds gen changed and does nothing.
	gen    uint64
	cancel context.CancelFunc
	// sendTime is when the current fetch started; timer fires at
	// sendTime+timeout.
	sendTime time.Time
	timer    *time.Timer
	// lastUploadProgress and lastProgress are when the progress events
	// were last fired.
	lastUploadProgress, lastProgress time.Time
}

// New returns an XMLHttpRequest in the unsent state with its response a
// network error.
func New(host Host) *XMLHttpRequest {
	return &XMLHttpRequest{host: host, response: fetch.NetworkError(nil)}
}

// State is the state (readyState).
func (x *XMLHttpRequest) State() State { return x.state }

// ResponseObject is the cached response object (nil: null) and whether
// it is failure.
func (x *XMLHttpRequest) ResponseObject() (obj any, failure bool) {
	return x.responseObject, x.responseFailure
}

// SetResponseObject caches the response object (bindings' value), or
// failure.
func (x *XMLHttpRequest) SetResponseObject(obj any, failure bool) {
	x.responseObject, x.responseFailure = obj, failure
}

func domError(name, msg string) error { return dom.NewDOMException(msg, name) }

// isMethod is https://fetch.spec.whatwg.org/#concept-method: a token.
func isMethod(m string) bool { return m != "" && isToken(m) }

// Open is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-open; parse
// is the URL parser relative to the relevant settings object's API base
// URL. async is true when omitted; username and password are nil for
// null or omitted.
func (x *XMLHttpRequest) Open(method, rawURL string, parse func(string) (*url.URL, error), async bool, username, password *string) error {
	// 1. If this's relevant global object is a Window object and its
	//    associated Document is not fully active, then throw an
	//    "InvalidStateError" DOMException.
	if x.host.IsWindow() && !x.host.DocumentFullyActive() {
		return domError(dom.InvalidStateError, "Failed to execute 'open' on 'XMLHttpRequest': The document is not fully active.")
	}
	// 2. If method is not a method, then throw a "SyntaxError"
	//    DOMException.
	if !isMethod(method) {
		return domError(dom.SyntaxError, "Failed to execute 'open' on 'XMLHttpRequest': '"+method+"' is not a valid HTTP method.")
	}
	// 3. If method is a forbidden method, then throw a "SecurityError"
	//    DOMException.
	if fetch.IsForbiddenMethod(method) {
		return domError(dom.SecurityError, "Failed to execute 'open' on 'XMLHttpRequest': '"+method+"' HTTP method is unsupported.")
	}
	// 4. Normalize method.
	method = fetch.NormalizeMethod(method)
	// 5-6. Let parsedURL be the result of encoding-parsing a URL url,
	//    relative to this's relevant settings object; if it is failure,
	//    throw a "SyntaxError" DOMException.
	parsed, err := parse(rawURL)
	if err != nil {
		return domError(dom.SyntaxError, "Failed to execute 'open' on 'XMLHttpRequest': Invalid URL")
	}
	// 7. If the async argument is omitted, set async to true, and set
	//    username and password to null. (The caller's.)
	// 8. If parsedURL's host is non-null, then: if username is not null,
	//    set the username given parsedURL and username; if password is not
	//    null, set the password given parsedURL and password.
	if parsed.Host != "" && (username != nil || password != nil) {
		user, pass := "", ""
		hasPass := false
		if parsed.User != nil {
			user = parsed.User.Username()
			pass, hasPass = parsed.User.Password()
		}
		if username != nil {
			user = *username
		}
		if password != nil {
			pass, hasPass = *password, true
		}
		if hasPass && pass != "" {
			parsed.User = url.UserPassword(user, pass)
		} else if user != "" {
			parsed.User = url.User(user)
		} else {
			parsed.User = nil
		}
	}
	// 9. If async is false, the current global object is a Window object,
	//    and either this's timeout is not 0 or this's response type is not
	//    the empty string, then throw an "InvalidAccessError" DOMException.
	if !async && x.host.IsWindow() && (x.timeout != 0 || x.responseType != "") {
		return domError(dom.InvalidAccessError, "Failed to execute 'open' on 'XMLHttpRequest': Synchronous requests from a document must not set a response type or a timeout.")
	}
	// 10. Terminate this's fetch controller.
	x.terminateFetch()
	// 11. (Associated network activity ends with the fetch.)
	// 12. Set variables associated with the object.
	x.sendFlag = false
	x.uploadListener = false
	x.method = method
	x.url = parsed
	x.synchronous = !async
	x.authorHeaders = nil
	x.response = fetch.NetworkError(nil)
	x.received = nil
	x.responseObject, x.responseFailure = nil, false
	// 13. If this's state is not opened, then: set this's state to opened
	//     and fire an event named readystatechange at this.
	if x.state != Opened {
		x.state = Opened
		x.host.FireEvent(TargetXHR, "readystatechange", nil)
	}
	return nil
}

// SetRequestHeader is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-setrequestheader.
func (x *XMLHttpRequest) SetRequestHeader(name, value string) error {
	// 1. If this's state is not opened, then throw an "InvalidStateError"
	//    DOMException.
	if x.state != Opened {
		return domError(dom.InvalidStateError, "Failed to execute 'setRequestHeader' on 'XMLHttpRequest': The object's state must be OPENED.")
	}
	// 2. If this's send() flag is set, then throw an "InvalidStateError"
	//    DOMException.
	if x.sendFlag {
		return domError(dom.InvalidStateError, "Failed to execute 'setRequestHeader' on 'XMLHttpRequest': The request has been sent.")
	}
	// 3. Normalize value.
	value = fetch.NormalizeHeaderValue(value)
	// 4. If name is not a header name or value is not a header value, then
	//    throw a "SyntaxError" DOMException.
	if !fetch.IsHeaderName(name) {
		return domError(dom.SyntaxError, "Failed to execute 'setRequestHeader' on 'XMLHttpRequest': '"+name+"' is not a valid HTTP header field name.")
	}
	if !fetch.IsHeaderValue(value) {
		return domError(dom.SyntaxError, "Failed to execute 'setRequestHeader' on 'XMLHttpRequest': '"+value+"' is not a valid HTTP header field value.")
	}
	// 5. If (name, value) is a forbidden request-header, then return.
	if fetch.IsForbiddenRequestHeader(name, value) {
		return nil
	}
	// 6. Combine (name, value) in this's author request headers.
	if v, ok := x.authorHeaders.Get(name); ok {
		x.authorHeaders.Set(name, v+", "+value)
	} else {
		x.authorHeaders.Append(name, value)
	}
	return nil
}

// Timeout is the timeout getter, in milliseconds.
func (x *XMLHttpRequest) Timeout() uint32 { return x.timeout }

// SetTimeout is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-timeout
// (the setter). A fetch in progress times out timeout milliseconds after
// it started.
func (x *XMLHttpRequest) SetTimeout(ms uint32) error {
	// 1. If the current global object is a Window object and this's
	//    synchronous flag is set, then throw an "InvalidAccessError"
	//    DOMException.
	if x.host.IsWindow() && x.synchronous {
		return domError(dom.InvalidAccessError, "Failed to set the 'timeout' property on 'XMLHttpRequest': Timeouts cannot be set for synchronous requests made from a document.")
	}
	// 2. Set this's timeout to the given value.
	x.timeout = ms
	if x.sendFlag && !x.synchronous {
		x.armTimer()
	}
	return nil
}

// WithCredentials is the withCredentials getter: the cross-origin
// credentials.
func (x *XMLHttpRequest) WithCredentials() bool { return x.crossOriginCredentials }

// SetWithCredentials is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-withcredentials (the setter).
func (x *XMLHttpRequest) SetWithCredentials(v bool) error {
	// 1. If this's state is not unsent or opened, then throw an
	//    "InvalidStateError" DOMException.
	if x.state != Unsent && x.state != Opened {
		return domError(dom.InvalidStateError, "Failed to set the 'withCredentials' property on 'XMLHttpRequest': The value may only be set if the object's state is UNSENT or OPENED.")
	}
	// 2. If this's send() flag is set, then throw an "InvalidStateError"
	//    DOMException.
	if x.sendFlag {
		return domError(dom.InvalidStateError, "Failed to set the 'withCredentials' property on 'XMLHttpRequest': The value may not be set during the request.")
	}
	// 3. Set this's cross-origin credentials to the given value.
	x.crossOriginCredentials = v
	return nil
}

// SendBody is send()'s body argument once extracted
// (https://fetch.spec.whatwg.org/#concept-bodyinit-extract).
type SendBody struct {
	Source []byte
	// ContentType is the extracted type; "" for null.
	ContentType string
	// IsString says the body was a USVString (or a Document): a charset
	// in the author's Content-Type becomes UTF-8.
	IsString bool
}

// Client is the request's client (the relevant settings object) as
// fetch reads it.
type Client struct {
	Fetch  *fetch.Client
	Origin origin.Origin
}

// Send is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-send; body is
// nil for null. A synchronous request blocks until the response's body
// is in (or the timeout), and returns the exception of a failed one.
func (x *XMLHttpRequest) Send(client Client, body *SendBody) error {
	// 1. If this's state is not opened, then throw an "InvalidStateError"
	//    DOMException.
	if x.state != Opened {
		return domError(dom.InvalidStateError, "Failed to execute 'send' on 'XMLHttpRequest': The object's state must be OPENED.")
	}
	// 2. If this's send() flag is set, then throw an "InvalidStateError"
	//    DOMException.
	if x.sendFlag {
		return domError(dom.InvalidStateError, "Failed to execute 'send' on 'XMLHttpRequest': The object's state must be OPENED.")
	}
	// 3. If this's request method is `GET` or `HEAD`, then set body to
	//    null.
	if x.method == "GET" || x.method == "HEAD" {
		body = nil
	}
	x.requestBody = nil
	// 4. If body is not null, then:
	if body != nil {
		// 4.1-4.2. Set this's request body to the extracted body.
		x.requestBody = &fetch.Body{Source: body.Source}
		// 4.3. If this's author request headers contains `Content-Type`:
		if ct, ok := x.authorHeaders.Get("Content-Type"); ok {
			// 4.3.1. If body is a Document or a USVString, then: let
			//        contentTypeRecord be the result of parsing
			//        originalAuthorContentType; if it is not failure, its
			//        parameters["charset"] exists, and it is not an ASCII
			//        case-insensitive match for "UTF-8", then set it to
			//        "UTF-8" and set `Content-Type` to the serialization.
			if body.IsString {
				if rec, ok := parseMIMEType(ct); ok {
					if cs, has := rec.param("charset"); has && !strings.EqualFold(cs, "UTF-8") {
						for i := range rec.params {
							if rec.params[i][0] == "charset" {
								rec.params[i][1] = "UTF-8"
							}
						}
						x.authorHeaders.Set("Content-Type", rec.String())
					}
				}
			}
		} else if body.ContentType != "" {
			// 4.4. Otherwise: if extractedContentType is not null, set
			//      `Content-Type` to extractedContentType in this's author
			//      request headers.
			x.authorHeaders.Set("Content-Type", body.ContentType)
		}
	}
	// 5. If one or more event listeners are registered on this's upload
	//    object, then set this's upload listener flag.
	if x.host.UploadHasListeners() {
		x.uploadListener = true
	}
	// 6. Let req be a new request.
	req := fetch.NewRequest(x.url, client.Fetch)
	req.Method = x.method
	req.Header = x.authorHeaders.Clone()
	req.UnsafeRequest = true
	req.Body = x.requestBody
	req.Origin = client.Origin
	req.Mode = "cors"
	req.UseCORSPreflight = x.uploadListener
	req.Credentials = "same-origin"
	if x.crossOriginCredentials {
		req.Credentials = "include"
	}
	req.Destination = ""
	if client.Fetch == nil {
		req.Referrer = "no-referrer"
	}
	// 7. Unset this's upload complete flag. 8. Unset this's timed out
	//    flag.
	x.uploadComplete = false
	x.timedOut = false
	// 9. If req's body is null, then set this's upload complete flag.
	if req.Body == nil {
		x.uploadComplete = true
	}
	// 10. Set this's send() flag.
	x.sendFlag = true
	if x.synchronous {
		return x.sendSync(req)
	}
	x.sendAsync(req)
	return nil
}

// sendAsync is step 11 of send(): the asynchronous request.
func (x *XMLHttpRequest) sendAsync(req *fetch.Request) {
	// 11.1. Fire a progress event named loadstart at this with 0 and 0.
	x.fireProgress(TargetXHR, "loadstart", 0, 0)
	// 11.2. Let requestBodyTransmitted be 0.
	// 11.3. Let requestBodyLength be req's body's length, if req's body
	//       is non-null; otherwise 0.
	var requestBodyLength uint64
	if req.Body != nil {
		requestBodyLength = uint64(len(req.Body.Source))
	}
	// 11.5. If this's upload complete flag is unset and this's upload
	//       listener flag is set, then fire a progress event named
	//       loadstart at this's upload object with requestBodyTransmitted
	//       and requestBodyLength.
	if !x.uploadComplete && x.uploadListener {
		x.fireProgress(TargetUpload, "loadstart", 0, requestBodyLength)
	}
	// 11.6. If this's state is not opened or this's send() flag is unset,
	//       then return.
	if x.state != Opened || !x.sendFlag {
		return
	}
	x.gen++
	gen := x.gen
	ctx, cancel := context.WithCancel(context.Background())
	x.cancel = cancel
	// 11.10. Set this's fetch controller to the result of fetching req
	//        with processRequestBodyChunkLength, processRequestEndOfBody
	//        and processResponse. (The network sends the whole body
	//        before the response's headers come: the request's body has
	//        been transmitted when they do.)
	x.host.StartFetch(ctx, &fetch.Params{Request: req}, func(resp *fetch.Response) {
		x.host.QueueTask(func() {
			if x.gen != gen {
				return
			}
			if !x.uploadComplete {
				x.processRequestBodyChunkLength(requestBodyLength, requestBodyLength)
				x.processRequestEndOfBody(requestBodyLength)
			}
			x.processResponse(gen, resp)
		})
	})
	// 11.11-11.12. Let now be the present time; run the timeout steps in
	//       parallel.
	x.sendTime = time.Now()
	x.armTimer()
}

// armTimer (re)starts the timer of the current fetch: it fires timeout
// milliseconds after the fetch started (step 11.12 of send()).
func (x *XMLHttpRequest) armTimer() {
	if x.timer != nil {
		x.timer.Stop()
		x.timer = nil
	}
	if x.timeout == 0 {
		return
	}
	gen := x.gen
	d := time.Until(x.sendTime.Add(time.Duration(x.timeout) * time.Millisecond))
	x.timer = time.AfterFunc(max(d, 0), func() {
		x.host.QueueTask(func() {
			// 11.12. If req's done flag is unset, then set this's timed
			//        out flag and terminate this's fetch controller.
			if x.gen != gen || !x.sendFlag {
				return
			}
			x.timedOut = true
			x.terminateFetch()
			// (The terminated fetch's processResponse or body error runs
			// handle errors; the fetch's tasks are dropped now, so run
			// it here.)
			x.response = fetch.NetworkError(nil)
			x.handleErrors() //nolint:errcheck // asynchronous: no exception
		})
	})
}

// processRequestBodyChunkLength is step 11.7 of send().
func (x *XMLHttpRequest) processRequestBodyChunkLength(transmitted, length uint64) {
	// 11.7.1. Increase requestBodyTransmitted by bytesLength.
	// 11.7.2. If not roughly 50ms have passed since these steps were last
	//         invoked, then return.
	now := time.Now()
	if !x.lastUploadProgress.IsZero() && now.Sub(x.lastUploadProgress) < progressInterval {
		return
	}
	x.lastUploadProgress = now
	// 11.7.3. If this's upload listener flag is set, then fire a progress
	//         event named progress at this's upload object with
	//         requestBodyTransmitted and requestBodyLength.
	if x.uploadListener {
		x.fireProgress(TargetUpload, "progress", transmitted, length)
	}
}

// processRequestEndOfBody is step 11.8 of send().
func (x *XMLHttpRequest) processRequestEndOfBody(length uint64) {
	// 11.8.1. Set this's upload complete flag.
	x.uploadComplete = true
	// 11.8.2. If this's upload listener flag is unset, then return.
	if !x.uploadListener {
		return
	}
	// 11.8.3-5. Fire progress events named progress, load and loadend at
	//           this's upload object with requestBodyTransmitted and
	//           requestBodyLength.
	x.fireProgress(TargetUpload, "progress", length, length)
	x.fireProgress(TargetUpload, "load", length, length)
	x.fireProgress(TargetUpload, "loadend", length, length)
}

// processResponse is step 11.9 of send().
func (x *XMLHttpRequest) processResponse(gen uint64, resp *fetch.Response) {
	// 11.9.1. Set this's response to response.
	x.response = resp
	// 11.9.2. Handle errors for this. 11.9.3. If this's response is a
	//         network error, then return.
	if resp.IsNetworkError() {
		x.handleErrors() //nolint:errcheck // asynchronous: no exception
		return
	}
	// 11.9.4. Set this's state to headers received.
	x.state = HeadersReceived
	// 11.9.5. Fire an event named readystatechange at this.
	x.host.FireEvent(TargetXHR, "readystatechange", nil)
	// 11.9.6. If this's state is not headers received, then return.
	if x.state != HeadersReceived || x.gen != gen {
		return
	}
	// 11.9.7. If this's response's body is null, then run handle response
	//         end-of-body for this and return.
	b := resp.Body
	if b == nil {
		x.handleResponseEndOfBody() //nolint:errcheck // asynchronous: no exception
		return
	}
	// 11.9.8-9. Let length be the result of extracting a length from
	//         this's response's header list; 0 when not an integer.
	length, _ := extractLength(resp.Header)
	// 11.9.13. Incrementally read this's response's body: each chunk and
	//         the end are queued as tasks of the event loop.
	onChunk := func(chunk []byte) {
		x.host.QueueTask(func() {
			if x.gen == gen {
				x.processBodyChunk(chunk, length)
			}
		})
	}
	onEnd := func(err error) {
		x.host.QueueTask(func() {
			if x.gen != gen {
				return
			}
			if err != nil {
				// 11.9.12. processBodyError: set this's response to a
				//          network error and run handle errors for this.
				x.response = fetch.NetworkError(err)
				x.handleErrors() //nolint:errcheck // asynchronous: no exception
				return
			}
			// 11.9.11. processEndOfBody: run handle response end-of-body
			//          for this.
			x.handleResponseEndOfBody() //nolint:errcheck // asynchronous: no exception
		})
	}
	sofar, ended, err := b.Subscribe(onChunk, onEnd)
	if len(sofar) > 0 {
		x.processBodyChunk(bytes.Clone(sofar), length)
	}
	if ended {
		onEnd(err)
	}
}

// processBodyChunk is step 11.9.10 of send(): processBodyChunk given
// bytes.
func (x *XMLHttpRequest) processBodyChunk(chunk []byte, length uint64) {
	// 11.9.10.1. Append bytes to this's received bytes.
	x.received = append(x.received, chunk...)
	// 11.9.10.2. If not roughly 50ms have passed since these steps were
	//            last invoked, then return.
	now := time.Now()
	if !x.lastProgress.IsZero() && now.Sub(x.lastProgress) < progressInterval {
		return
	}
	x.lastProgress = now
	// 11.9.10.3. If this's state is headers received, then set this's
	//            state to loading.
	if x.state == HeadersReceived {
		x.state = Loading
	}
	// 11.9.10.4. Fire an event named readystatechange at this.
	x.host.FireEvent(TargetXHR, "readystatechange", nil)
	// 11.9.10.5. Fire a progress event named progress at this with this's
	//            received bytes's length and length.
	x.fireProgress(TargetXHR, "progress", uint64(len(x.received)), length)
}

// sendSync is step 12 of send(): the synchronous request, which blocks
// the event loop until the response's body is in, or the timeout.
func (x *XMLHttpRequest) sendSync(req *fetch.Request) error {
	x.gen++
	ctx, cancel := context.WithCancel(context.Background())
	x.cancel = cancel
	defer cancel()
	// 12.1-12.3. Let processedResponse be false; fetch req with
	//       processResponseConsumeBody (the response and its whole body)
	//       and wait until processedResponse is true or this's timeout is
	//       not 0 and this's timeout milliseconds have passed.
	type result struct {
		resp *fetch.Response
		body []byte
		err  error
	}
	got := make(chan result, 1)
	x.host.StartFetch(ctx, &fetch.Params{Request: req}, func(resp *fetch.Response) {
		if resp.Body == nil {
			got <- result{resp: resp}
			return
		}
		resp.Body.OnLoad(func() {
			data, err := resp.Body.Result()
			got <- result{resp, data, err}
		})
	})
	var expired <-chan time.Time
	if x.timeout != 0 {
		t := time.NewTimer(time.Duration(x.timeout) * time.Millisecond)
		defer t.Stop()
		expired = t.C
	}
	select {
	case r := <-got:
		x.response, x.received = r.resp, r.body
		if r.err != nil {
			// processResponseConsumeBody with failure: a network error.
			x.response = fetch.NetworkError(r.err)
		}
	case <-expired:
		// 12.4. If processedResponse is false, then set this's timed out
		//       flag and terminate this's fetch controller.
		x.timedOut = true
		x.terminateFetch()
		x.response = fetch.NetworkError(nil)
	}
	// 12.6. Run handle response end-of-body for this.
	return x.handleResponseEndOfBody()
}

// handleResponseEndOfBody is https://xhr.spec.whatwg.org/#handle-response-end-of-body.
func (x *XMLHttpRequest) handleResponseEndOfBody() error {
	// 1. Handle errors for this. 2. If this's response is a network
	//    error, then return.
	if err := x.handleErrors(); err != nil || x.response.IsNetworkError() {
		return err
	}
	// 3. Let transmitted be this's received bytes's length.
	transmitted := uint64(len(x.received))
	// 4. Let length be the result of extracting a length from this's
	//    response's header list; 0 when not an integer.
	length, _ := extractLength(x.response.Header)
	// 5. If this's synchronous flag is unset, then fire a progress event
	//    named progress at this with transmitted and length.
	if !x.synchronous {
		x.fireProgress(TargetXHR, "progress", transmitted, length)
	}
	// 6. Set this's state to done. 7. Unset this's send() flag.
	x.state = Done
	x.sendFlag = false
	x.stopTimer()
	// 8. Fire an event named readystatechange at this.
	x.host.FireEvent(TargetXHR, "readystatechange", nil)
	// 9-10. Fire progress events named load and loadend at this with
	//       transmitted and length.
	x.fireProgress(TargetXHR, "load", transmitted, length)
	x.fireProgress(TargetXHR, "loadend", transmitted, length)
	return nil
}

// handleErrors is https://xhr.spec.whatwg.org/#handle-errors; it returns
// the exception a synchronous request throws.
func (x *XMLHttpRequest) handleErrors() error {
	// 1. If this's send() flag is unset, then return.
	if !x.sendFlag {
		return nil
	}
	switch {
	case x.timedOut:
		// 2. If this's timed out flag is set, then run the request error
		//    steps for this, timeout, and "TimeoutError" DOMException.
		return x.requestErrorSteps("timeout", dom.TimeoutError)
	case x.response.IsNetworkError():
		// 4. Otherwise, if this's response is a network error, then run
		//    the request error steps for this, error, and "NetworkError"
		//    DOMException. (3, an aborted response, is abort()'s.)
		return x.requestErrorSteps("error", dom.NetworkError)
	}
	return nil
}

// requestErrorSteps is https://xhr.spec.whatwg.org/#request-error-steps.
func (x *XMLHttpRequest) requestErrorSteps(event, exception string) error {
	// 1. Set this's state to done. 2. Unset this's send() flag.
	x.state = Done
	x.sendFlag = false
	x.stopTimer()
	// 3. Set this's response to a network error.
	x.response = fetch.NetworkError(nil)
	// 4. If this's synchronous flag is set, then throw exception.
	if x.synchronous {
		return domError(exception, "Failed to execute 'send' on 'XMLHttpRequest': Failed to load '"+x.url.String()+"'.")
	}
	// 5. Fire an event named readystatechange at this.
	x.host.FireEvent(TargetXHR, "readystatechange", nil)
	// 6. If this's upload complete flag is unset, then:
	if !x.uploadComplete {
		// 6.1. Set this's upload complete flag.
		x.uploadComplete = true
		// 6.2. If this's upload listener flag is set, then fire progress
		//      events named event and loadend at this's upload object
		//      with 0 and 0.
		if x.uploadListener {
			x.fireProgress(TargetUpload, event, 0, 0)
			x.fireProgress(TargetUpload, "loadend", 0, 0)
		}
	}
	// 7-8. Fire progress events named event and loadend at this with 0
	//      and 0.
	x.fireProgress(TargetXHR, event, 0, 0)
	x.fireProgress(TargetXHR, "loadend", 0, 0)
	return nil
}

// Abort is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-abort.
func (x *XMLHttpRequest) Abort() {
	// 1. Abort this's fetch controller.
	x.terminateFetch()
	// 2. If this's state is opened with this's send() flag set, headers
	//    received, or loading, then run the request error steps for this
	//    and abort.
	if x.state == Opened && x.sendFlag || x.state == HeadersReceived || x.state == Loading {
		x.requestErrorSteps("abort", dom.AbortError) //nolint:errcheck // abort() never throws
	}
	// 3. If this's state is done, then set this's state to unsent and
	//    this's response to a network error. (No readystatechange event
	//    is dispatched.)
	if x.state == Done {
		x.state = Unsent
		x.response = fetch.NetworkError(nil)
	}
}

// terminateFetch terminates (or aborts) the fetch controller: the fetch
// ends and its pending tasks do nothing.
func (x *XMLHttpRequest) terminateFetch() {
	x.gen++
	if x.cancel != nil {
		x.cancel()
		x.cancel = nil
	}
	x.stopTimer()
}

func (x *XMLHttpRequest) stopTimer() {
	if x.timer != nil {
		x.timer.Stop()
		x.timer = nil
	}
}

// fireProgress is https://xhr.spec.whatwg.org/#concept-event-fire-progress.
func (x *XMLHttpRequest) fireProgress(t Target, typ string, transmitted, length uint64) {
	x.host.FireEvent(t, typ, &Progress{Loaded: transmitted, Total: length, LengthComputable: length != 0})
}

// ResponseURL is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-responseurl.
func (x *XMLHttpRequest) ResponseURL() string {
	// Return the empty string if this's response's URL is null; otherwise
	// its serialization with the exclude fragment flag set.
	u := x.response.URL()
	if u == nil {
		return ""
	}
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// Status is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-status.
func (x *XMLHttpRequest) Status() uint16 { return uint16(x.response.Status) }

// StatusText is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-statustext.
func (x *XMLHttpRequest) StatusText() string { return x.response.StatusText }

// GetResponseHeader is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-getresponseheader:
// getting name from this's response's header list; false for null.
func (x *XMLHttpRequest) GetResponseHeader(name string) (string, bool) {
	return x.response.Header.Get(name)
}

// GetAllResponseHeaders is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-getallresponseheaders.
func (x *XMLHttpRequest) GetAllResponseHeaders() string {
	// 1. Let output be an empty byte sequence.
	var out strings.Builder
	// 2. Let initialHeaders be the result of running sort and combine
	//    with this's response's header list. 3. Let headers be the result
	//    of sorting initialHeaders in ascending order by the
	//    legacy-uppercased names (the names are lowercase: uppercased,
	//    the order of "_" changes).
	headers := x.response.Header.SortAndCombine()
	sortLegacyUppercased(headers)
	// 4. For each header in headers, append header's name, followed by a
	//    0x3A 0x20 byte pair, followed by header's value, followed by a
	//    0x0D 0x0A byte pair, to output.
	for _, h := range headers {
		out.WriteString(h.Name + ": " + h.Value + "\r\n")
	}
	// 5. Return output.
	return out.String()
}

func sortLegacyUppercased(h []fetch.Header) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && strings.ToUpper(h[j].Name) < strings.ToUpper(h[j-1].Name); j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

// OverrideMimeType is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-overridemimetype.
func (x *XMLHttpRequest) OverrideMimeType(mime string) error {
	// 1. If this's state is loading or done, then throw an
	//    "InvalidStateError" DOMException.
	if x.state == Loading || x.state == Done {
		return domError(dom.InvalidStateError, "Failed to execute 'overrideMimeType' on 'XMLHttpRequest': MimeType cannot be overridden when the state is LOADING or DONE.")
	}
	// 2. Set this's override MIME type to the result of parsing mime.
	// 3. If this's override MIME type is failure, then set it to
	//    application/octet-stream.
	m, ok := parseMIMEType(mime)
	if !ok {
		m = mimeType{essence: "application/octet-stream"}
	}
	x.overrideMIME = &m
	return nil
}

// ResponseType is the responseType getter.
func (x *XMLHttpRequest) ResponseType() string { return x.responseType }

// SetResponseType is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-responsetype
// (the setter).
func (x *XMLHttpRequest) SetResponseType(v string) error {
	// 1. If the current global object is not a Window object and the
	//    given value is "document", then return.
	if !x.host.IsWindow() && v == "document" {
		return nil
	}
	// 2. If this's state is loading or done, then throw an
	//    "InvalidStateError" DOMException.
	if x.state == Loading || x.state == Done {
		return domError(dom.InvalidStateError, "Failed to set the 'responseType' property on 'XMLHttpRequest': The response type cannot be set if the object's state is LOADING or DONE.")
	}
	// 3. If the current global object is a Window object and this's
	//    synchronous flag is set, then throw an "InvalidAccessError"
	//    DOMException.
	if x.host.IsWindow() && x.synchronous {
		return domError(dom.InvalidAccessError, "Failed to set the 'responseType' property on 'XMLHttpRequest': The response type cannot be changed for synchronous requests made from a document.")
	}
	// 4. Set this's response type to the given value.
	x.responseType = v
	return nil
}

// responseMIMEType is https://xhr.spec.whatwg.org/#response-mime-type.
func (x *XMLHttpRequest) responseMIMEType() mimeType {
	// 1. Let mimeType be the result of extracting a MIME type from this's
	//    response's header list. 2. If mimeType is failure, then set it
	//    to text/xml. 3. Return mimeType.
	m, ok := extractMIMEType(x.response.Header)
	if !ok {
		return mimeType{essence: "text/xml"}
	}
	return m
}

// FinalMIMEType is https://xhr.spec.whatwg.org/#final-mime-type,
// serialized.
func (x *XMLHttpRequest) FinalMIMEType() string { return x.finalMIMEType().String() }

func (x *XMLHttpRequest) finalMIMEType() mimeType {
	// 1. If this's override MIME type is null, return the result of get a
	//    response MIME type for this. 2. Return this's override MIME type.
	if x.overrideMIME == nil {
		return x.responseMIMEType()
	}
	return *x.overrideMIME
}

// finalCharset is https://xhr.spec.whatwg.org/#final-charset; "" for
// null.
func (x *XMLHttpRequest) finalCharset() string {
	// 1. Let label be null. 2. Let responseMIME be the result of get a
	//    response MIME type for this. 3. If responseMIME's
	//    parameters["charset"] exists, then set label to it.
	label, _ := x.responseMIMEType().param("charset")
	// 4. If this's override MIME type's parameters["charset"] exists, then
	//    set label to it.
	if x.overrideMIME != nil {
		if cs, ok := x.overrideMIME.param("charset"); ok {
			label = cs
		}
	}
	// 5-6. If label is null, return null; return the result of getting an
	//    encoding from label.
	return strings.ToLower(strings.Trim(label, "\t\n\f\r "))
}

// ReceivedBytes is the response's body bytes received so far.
func (x *XMLHttpRequest) ReceivedBytes() []byte { return x.received }

// TextResponse is https://xhr.spec.whatwg.org/#text-response.
func (x *XMLHttpRequest) TextResponse() string {
	// 1. If this's response's body is null, then return the empty string.
	if x.response.Body == nil {
		return ""
	}
	// 2. Let charset be the result of get a final encoding for this.
	// 3-4. (An XML response's encoding declaration is not read.)
	// 5. If charset is null, then set charset to UTF-8.
	// 6. Return the result of running decode on this's received bytes
	//    using fallback encoding charset (a BOM wins; UTF-16 labels
	//    decode UTF-16, every other charset as UTF-8, the one other
	//    encoding this engine has).
	return decode(x.received, x.finalCharset())
}

// decode is https://encoding.spec.whatwg.org/#decode: a BOM selects
// its encoding, else the fallback label: UTF-16 for "utf-16be",
// "utf-16le" and "utf-16", UTF-8 otherwise.
func decode(b []byte, fallback string) string {
	bomBE := len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF
	bomLE := len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return encoding.UTF8Decode(b)
	}
	if bomBE || bomLE || fallback == "utf-16be" || fallback == "utf-16le" || fallback == "utf-16" || fallback == "unicodefffe" {
		be := bomBE || !bomLE && (fallback == "utf-16be" || fallback == "unicodefffe")
		if bomBE || bomLE {
			b = b[2:]
		}
		u := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			if be {
				u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
			} else {
				u = append(u, uint16(b[i+1])<<8|uint16(b[i]))
			}
		}
		s := string(utf16Decode(u))
		if len(b)%2 == 1 {
			s += "\uFFFD"
		}
		return s
	}
	return encoding.UTF8Decode(b)
}

func utf16Decode(u []uint16) []rune {
	out := make([]rune, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c >= 0xD800 && c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000:
			out = append(out, (rune(c)-0xD800)<<10|(rune(u[i+1])-0xDC00)+0x10000)
			i++
		case c >= 0xD800 && c < 0xE000:
			out = append(out, 0xFFFD)
		default:
			out = append(out, rune(c))
		}
	}
	return out
}

// JSONText is the text a "json" response parses
// (https://infra.spec.whatwg.org/#parse-json-bytes-to-a-javascript-value:
// UTF-8 decode, a BOM stripped); false when the response's body is null.
func (x *XMLHttpRequest) JSONText() (string, bool) {
	if x.response.Body == nil {
		return "", false
	}
	return encoding.UTF8Decode(x.received), true
}
