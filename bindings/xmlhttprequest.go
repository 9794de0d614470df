package bindings

import (
	"bytes"
	"context"
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/fileapi"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/gowebengine/weblocks/xhr"
	"github.com/grafana/sobek"
)

// This file is XMLHttpRequest, XMLHttpRequestUpload and ProgressEvent
// (https://xhr.spec.whatwg.org/) over package xhr, which runs the
// request's state machine; here are the JavaScript objects, the
// conversions of send()'s body and of the response, and the events.

// xmlHttpRequestImpl is an XMLHttpRequest object.
type xmlHttpRequestImpl struct {
	*xhrEventTargetImpl
	x      *xhr.XMLHttpRequest
	upload *xhrEventTargetImpl
}

func (o *xmlHttpRequestImpl) WebIDLInterface() string { return "XMLHttpRequest" }

type xmlhttpRequestStatics struct{}

// Constructor is https://xhr.spec.whatwg.org/#dom-xmlhttprequest: a new
// XMLHttpRequest with a new XMLHttpRequestUpload.
func (xmlhttpRequestStatics) Constructor(wr *webidl.Realm) (XMLHTTPRequestMethods, error) {
	r := realmOf(wr)
	t := &dom.EventTarget{}
	o := &xmlHttpRequestImpl{xhrEventTargetImpl: &xhrEventTargetImpl{r.newEventTargetImpl(t)}}
	t.Owner = o
	ut := &dom.EventTarget{}
	o.upload = &xhrEventTargetImpl{r.newEventTargetImpl(ut)}
	ut.Owner = o.upload
	o.x = xhr.New(xhrHost{o})
	return o, nil
}

// xhrHost is the xhr.Host of an XMLHttpRequest object.
type xhrHost struct{ o *xmlHttpRequestImpl }

func (h xhrHost) QueueTask(steps func()) bool { return h.o.realm.fetchTask(steps) }

func (h xhrHost) IsWindow() bool { return h.o.realm.kind == WindowGlobal }

func (h xhrHost) DocumentFullyActive() bool {
	f := h.o.realm.hooks.History.FullyActive
	return f == nil || f()
}

func (h xhrHost) UploadHasListeners() bool {
	for _, typ := range []string{"loadstart", "progress", "abort", "error", "load", "timeout", "loadend"} {
		if h.o.upload.target.HasListeners(typ) {
			return true
		}
	}
	return false
}

// FireEvent fires a trusted Event, or ProgressEvent, at the object or
// its upload object.
func (h xhrHost) FireEvent(target xhr.Target, typ string, p *xhr.Progress) {
	r := h.o.realm
	t := h.o.target
	if target == xhr.TargetUpload {
		t = h.o.upload.target
	}
	if !t.Receives(typ) {
		return
	}
	base := r.newEvent(typ, false, false, false)
	base.ev.IsTrusted = true
	if p != nil {
		base.ev.Detail = &progressEventImpl{eventImpl: base, lengthComputable: p.LengthComputable,
			loaded: float64(p.Loaded), total: float64(p.Total)}
	}
	t.DispatchEvent(base.ev)
}

// StartFetch starts the fetch as fetch() does; the fetch ends with the
// realm.
func (h xhrHost) StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response)) {
	h.o.realm.startParamsFetch(ctx, p, true, done)
}

// startParamsFetch starts fetch.Fetch for p as fetch() does: the host's
// network, the realm's blob URL store and service worker. With
// endWithRealm, the fetch ends when the realm closes (a keepalive fetch
// goes on).
func (r *Realm) startParamsFetch(ctx context.Context, p *fetch.Params, endWithRealm bool, done func(*fetch.Response)) {
	host := r.fetchHost()
	if host == nil {
		go done(fetch.NetworkError(nil))
		return
	}
	if endWithRealm {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		go func() {
			select {
			case <-r.closedCh:
			case <-ctx.Done():
			}
			cancel()
		}()
	}
	if r.env != nil {
		p.BlobURLs = fileapi.StoreOf(r.env.UserAgent())
		if serviceworker.ActiveServiceWorker(r.env) != nil {
			p.HandleFetch = r.serviceWorkerHook()
		}
	}
	host.StartFetch(ctx, p, done)
}

// xhrClient is the request's client: this realm's settings object.
func (r *Realm) xhrClient() xhr.Client {
	c := r.fetchClient()
	return xhr.Client{Fetch: c, Origin: c.Origin}
}

func (o *xmlHttpRequestImpl) Onreadystatechange() (*EventHandlerNonNull, error) {
	return o.handlerGet("readystatechange"), nil
}
func (o *xmlHttpRequestImpl) SetOnreadystatechange(v *EventHandlerNonNull) error {
	o.handlerSet("readystatechange", v)
	return nil
}

func (o *xmlHttpRequestImpl) ReadyState() (uint16, error) { return uint16(o.x.State()), nil }

// Open is the open(method, url[, async, username, password]) method.
func (o *xmlHttpRequestImpl) Open(method webidl.ByteString, rawURL string, async webidl.Optional[bool], username, password webidl.Nullable[string]) error {
	base := o.realm.fetchBaseURL()
	parse := func(s string) (*url.URL, error) { return ParseURL(s, base) }
	a := true
	var user, pass *string
	if async.Present {
		a = async.Value
		if !username.Null {
			user = &username.Value
		}
		if !password.Null {
			pass = &password.Value
		}
	}
	return o.x.Open(string(method), rawURL, parse, a, user, pass)
}

func (o *xmlHttpRequestImpl) SetRequestHeader(name, value webidl.ByteString) error {
	return o.x.SetRequestHeader(string(name), string(value))
}

func (o *xmlHttpRequestImpl) Timeout() (uint32, error)  { return o.x.Timeout(), nil }
func (o *xmlHttpRequestImpl) SetTimeout(v uint32) error { return o.x.SetTimeout(v) }
func (o *xmlHttpRequestImpl) WithCredentials() (bool, error) {
	return o.x.WithCredentials(), nil
}
func (o *xmlHttpRequestImpl) SetWithCredentials(v bool) error { return o.x.SetWithCredentials(v) }

func (o *xmlHttpRequestImpl) Upload() (XMLHTTPRequestUploadMethods, error) { return o.upload, nil }

// Send is the send(body) method: body extracted
// (https://fetch.spec.whatwg.org/#concept-bodyinit-extract), then
// package xhr's send.
func (o *xmlHttpRequestImpl) Send(b webidl.Nullable[XMLHTTPRequestBodyInit]) error {
	var body *xhr.SendBody
	if !b.Null {
		body = extractXHRBody(b.Value)
	}
	return o.x.Send(o.realm.xhrClient(), body)
}

// extractXHRBody extracts an XMLHttpRequestBodyInit as extractBody does
// a BodyInit.
func extractXHRBody(v XMLHTTPRequestBodyInit) *xhr.SendBody {
	switch v.Type {
	case XMLHTTPRequestBodyInitIsBlob:
		bl := v.Blob.idlImpl()
		return &xhr.SendBody{Source: bl.data, ContentType: bl.typ}
	case XMLHTTPRequestBodyInitIsFormData:
		boundary := xhr.NewBoundary()
		return &xhr.SendBody{Source: xhr.MultipartFormDataEncode(v.FormData.idlImpl().list, boundary),
			ContentType: "multipart/form-data; boundary=" + boundary}
	case XMLHTTPRequestBodyInitIsURLSearchParams:
		s, _ := v.URLSearchParams.Stringifier()
		return &xhr.SendBody{Source: []byte(s), ContentType: "application/x-www-form-urlencoded;charset=UTF-8"}
	case XMLHTTPRequestBodyInitIsUSVString:
		return &xhr.SendBody{Source: []byte(v.USVString), ContentType: "text/plain;charset=UTF-8", IsString: true}
	}
	for _, buf := range []webidl.BufferSource{v.Int8Array, v.Int16Array, v.Int32Array, v.Uint8Array, v.Uint16Array,
		v.Uint32Array, v.Uint8ClampedArray, v.BigInt64Array, v.BigUint64Array, v.Float32Array,
		v.Float64Array, v.DataView, v.ArrayBuffer} {
		if buf.Object != nil {
			return &xhr.SendBody{Source: bytes.Clone(buf.Bytes())}
		}
	}
	return &xhr.SendBody{}
}

func (o *xmlHttpRequestImpl) Abort() error {
	o.x.Abort()
	return nil
}

func (o *xmlHttpRequestImpl) ResponseURL() (string, error) { return o.x.ResponseURL(), nil }
func (o *xmlHttpRequestImpl) Status() (uint16, error)      { return o.x.Status(), nil }
func (o *xmlHttpRequestImpl) StatusText() (webidl.ByteString, error) {
	return webidl.ByteString(o.x.StatusText()), nil
}

func (o *xmlHttpRequestImpl) GetResponseHeader(name webidl.ByteString) (webidl.Nullable[webidl.ByteString], error) {
	v, ok := o.x.GetResponseHeader(string(name))
	if !ok {
		return webidl.Nullable[webidl.ByteString]{Null: true}, nil
	}
	return webidl.NonNull(webidl.ByteString(v)), nil
}

func (o *xmlHttpRequestImpl) GetAllResponseHeaders() (webidl.ByteString, error) {
	return webidl.ByteString(o.x.GetAllResponseHeaders()), nil
}

func (o *xmlHttpRequestImpl) OverrideMimeType(mime webidl.DOMString) error {
	return o.x.OverrideMimeType(string(mime))
}

func (o *xmlHttpRequestImpl) ResponseType() (XMLHTTPRequestResponseType, error) {
	return XMLHTTPRequestResponseType(o.x.ResponseType()), nil
}

func (o *xmlHttpRequestImpl) SetResponseType(v XMLHTTPRequestResponseType) error {
	return o.x.SetResponseType(string(v))
}

// Response is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-response.
func (o *xmlHttpRequestImpl) Response() (sobek.Value, error) {
	x := o.x
	r := o.realm
	typ := x.ResponseType()
	// 1. If this's response type is the empty string or "text", then: if
	//    this's state is not loading or done, return the empty string;
	//    return the result of getting a text response for this.
	if typ == "" || typ == "text" {
		if s := x.State(); s != xhr.Loading && s != xhr.Done {
			return r.vm.ToValue(""), nil
		}
		return r.vm.ToValue(x.TextResponse()), nil
	}
	// 2. If this's state is not done, then return null.
	if x.State() != xhr.Done {
		return sobek.Null(), nil
	}
	// 3. If this's response object is failure, then return null. 4. If
	//    this's response object is non-null, then return it.
	if obj, failure := x.ResponseObject(); failure {
		return sobek.Null(), nil
	} else if v, ok := obj.(sobek.Value); ok {
		return v, nil
	}
	switch typ {
	case "arraybuffer":
		// 5. Set this's response object to a new ArrayBuffer object
		//    representing this's received bytes.
		v := r.vm.ToValue(r.vm.NewArrayBuffer(bytes.Clone(x.ReceivedBytes())))
		x.SetResponseObject(v, false)
		return v, nil
	case "blob":
		// 6. Set this's response object to a new Blob object
		//    representing this's received bytes with type set to the
		//    result of get a final MIME type for this.
		v := idlWrapBlob(r.idl, &blobImpl{realm: r, data: bytes.Clone(x.ReceivedBytes()), typ: x.FinalMIMEType()})
		x.SetResponseObject(v, false)
		return v, nil
	case "json":
		// 8.1. If this's response's body is null, then return null.
		text, ok := x.JSONText()
		if !ok {
			return sobek.Null(), nil
		}
		// 8.2-8.3. Let jsonObject be the result of running parse JSON
		//    from bytes on this's received bytes; if that threw an
		//    exception, then return null.
		v, err := r.parseJSON(text)
		if err != nil {
			x.SetResponseObject(nil, true)
			return sobek.Null(), nil
		}
		// 8.4. Set this's response object to jsonObject.
		x.SetResponseObject(v, false)
		return v, nil
	}
	// 7. (A document response: this engine builds no document.)
	x.SetResponseObject(nil, true)
	return sobek.Null(), nil
}

// parseJSON is JSON.parse of this realm on text.
func (r *Realm) parseJSON(text string) (v sobek.Value, err error) {
	parse, ok := sobek.AssertFunction(r.vm.Get("JSON").ToObject(r.vm).Get("parse"))
	if !ok {
		return nil, webidl.NewTypeError("JSON.parse is not a function")
	}
	return parse(sobek.Undefined(), r.vm.ToValue(text))
}

// ResponseText is https://xhr.spec.whatwg.org/#dom-xmlhttprequest-responsetext.
func (o *xmlHttpRequestImpl) ResponseText() (string, error) {
	x := o.x
	// 1. If this's response type is not the empty string or "text", then
	//    throw an "InvalidStateError" DOMException.
	if t := x.ResponseType(); t != "" && t != "text" {
		return "", dom.NewDOMException("Failed to read the 'responseText' property from 'XMLHttpRequest': The value is only accessible if the object's 'responseType' is '' or 'text' (was '"+t+"').", dom.InvalidStateError)
	}
	// 2. If this's state is not loading or done, then return the empty
	//    string.
	if s := x.State(); s != xhr.Loading && s != xhr.Done {
		return "", nil
	}
	// 3. Return the result of getting a text response for this.
	return x.TextResponse(), nil
}

// ResponseXML is null: this engine builds no document from a response.
func (o *xmlHttpRequestImpl) ResponseXML() (DocumentMethods, error) { return nil, nil }
