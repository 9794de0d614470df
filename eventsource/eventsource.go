package eventsource

import (
	"context"
	"net/url"
	"time"

	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
)

// ReadyState is an EventSource's readyState.
type ReadyState uint16

// The ready states.
const (
	Connecting ReadyState = iota
	Open
	Closed
)

// DefaultReconnectionTime is the reconnection time a new EventSource
// starts with.
const DefaultReconnectionTime = 3 * time.Second

// Host is what an EventSource needs from its global's side (package
// bindings implements it over a realm).
type Host interface {
	// QueueTask queues steps on the event loop (the remote event task
	// source), from any goroutine; false when the loop runs no more
	// tasks.
	QueueTask(steps func()) bool
	// StartFetch runs fetch.Fetch(ctx, p) off the event loop, calls done
	// once, from any goroutine, at the response's headers, then runs the
	// response's Load.
	StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response))
	// FireEvent fires an event at the EventSource object, on the event
	// loop: a simple event named typ (open, error) when ev is nil, else
	// a MessageEvent named ev.Type with ev's data and last event ID and
	// the origin given.
	FireEvent(typ string, ev *Event, origin string)
}

// Client is the request's client (the relevant settings object) as
// fetch reads it.
type Client struct {
	Fetch  *fetch.Client
	Origin origin.Origin
}

// EventSource is an EventSource object's connection
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface),
// run on its event loop.
type EventSource struct {
	host            Host
	client          Client
	url             *url.URL
	withCredentials bool
	state           ReadyState
	// ReconnectionTime is the event source's reconnection time.
	ReconnectionTime time.Duration
	parser           Parser
	// gen identifies the current fetch: tasks of an earlier one do
	// nothing.
	gen    uint64
	cancel context.CancelFunc
	timer  *time.Timer
}

// New is steps 5-15 of the EventSource(url, eventSourceInitDict)
// constructor (https://html.spec.whatwg.org/multipage/server-sent-events.html#dom-eventsource)
// for the parsed URL u: it starts the fetch.
func New(host Host, client Client, u *url.URL, withCredentials bool) *EventSource {
	// 5. Set ev's url to urlRecord. 6-7. withCredentials: the CORS
	//    attribute state is Use Credentials, else Anonymous.
	ev := &EventSource{host: host, client: client, url: u, withCredentials: withCredentials,
		ReconnectionTime: DefaultReconnectionTime}
	// 14-15. Fetch request.
	ev.fetch()
	return ev
}

// URL is the url attribute: the serialization of ev's url.
func (ev *EventSource) URL() string { return ev.url.String() }

// WithCredentials is the withCredentials attribute.
func (ev *EventSource) WithCredentials() bool { return ev.withCredentials }

// ReadyState is the readyState attribute.
func (ev *EventSource) ReadyState() ReadyState { return ev.state }

// LastEventID is the event source's last event ID string.
func (ev *EventSource) LastEventID() string { return ev.parser.LastEventID() }

// request is steps 8-13 of the constructor, plus the Last-Event-ID
// header of a reestablished connection.
func (ev *EventSource) request() *fetch.Request {
	// 8. Let request be the result of creating a potential-CORS request
	//    given urlRecord, the empty string, and corsAttributeState.
	req := fetch.NewRequest(ev.url, ev.client.Fetch)
	req.Origin = ev.client.Origin
	req.Mode = "cors"
	req.Credentials = "same-origin"
	if ev.withCredentials {
		req.Credentials = "include"
	}
	if ev.client.Fetch == nil {
		req.Referrer = "no-referrer"
	}
	// 10. User agents may set (`Accept`, `text/event-stream`) in
	//     request's header list.
	req.Header.Set("Accept", "text/event-stream")
	// 11. Set request's cache mode to "no-store" (there is no HTTP cache).
	// Reestablishing, step 5.3: if the event source's last event ID
	// string is not the empty string, set (`Last-Event-ID`, it
	// isomorphic encoded) in request's header list.
	if id := ev.parser.LastEventID(); id != "" {
		req.Header.Set("Last-Event-ID", isomorphicEncode(id))
	}
	return req
}

// isomorphicEncode is https://infra.spec.whatwg.org/#isomorphic-encode
// for a string whose code points above U+00FF are replaced (the UTF-8
// bytes of the string otherwise).
func isomorphicEncode(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			// (Not a byte: a header value keeps the UTF-8 bytes.)
			b = append(b, string(r)...)
			continue
		}
		b = append(b, byte(r))
	}
	return string(b)
}

// fetch is step 15 of the constructor: fetch request with
// processResponse and processResponseEndOfBody.
func (ev *EventSource) fetch() {
	ev.gen++
	gen := ev.gen
	ctx, cancel := context.WithCancel(context.Background())
	ev.cancel = cancel
	ev.parser.Reset()
	ev.host.StartFetch(ctx, &fetch.Params{Request: ev.request()}, func(res *fetch.Response) {
		ev.host.QueueTask(func() {
			if ev.gen == gen {
				ev.processResponse(gen, res)
			}
		})
	})
}

// processResponse is step 15's processResponse.
func (ev *EventSource) processResponse(gen uint64, res *fetch.Response) {
	// 15.1. If res is an aborted network error, then fail the connection
	//       (close() aborts: its tasks are dropped).
	// 15.2. Otherwise, if res is a network error, then reestablish the
	//       connection.
	if res.IsNetworkError() {
		ev.reestablishTheConnection()
		return
	}
	// 15.3. Otherwise, if res's status is not 200, or if res's
	//       `Content-Type` is not `text/event-stream`, then fail the
	//       connection.
	ct, _ := res.Header.Get("Content-Type")
	if res.Status != 200 || fetch.MIMEEssence(ct) != "text/event-stream" {
		ev.failTheConnection()
		return
	}
	// 15.4. Otherwise, announce the connection and interpret res's body
	//       line by line.
	ev.announceTheConnection()
	if ev.state != Open || res.Body == nil {
		if res.Body == nil {
			ev.reestablishTheConnection()
		}
		return
	}
	origin := origin.FromURL(res.URL()).Serialize()
	feed := func(chunk []byte) {
		ok := ev.parser.Feed(chunk, func(e Event) {
			// Dispatch the event: if the readyState attribute is not
			// CLOSED, dispatch the event.
			if ev.state != Closed && ev.gen == gen {
				ev.host.FireEvent(e.Type, &e, origin)
			}
		}, func(ms uint64) {
			ev.ReconnectionTime = time.Duration(min(ms, uint64(1<<62)/uint64(time.Millisecond))) * time.Millisecond
		})
		if !ok && ev.gen == gen {
			// (A line or event too large: drop this stream.)
			ev.abortFetch()
			ev.reestablishTheConnection()
		}
	}
	sofar, ended, _ := res.Body.Subscribe(func(chunk []byte) {
		ev.host.QueueTask(func() {
			if ev.gen == gen {
				feed(chunk)
			}
		})
	}, func(error) {
		ev.host.QueueTask(func() {
			// processEventSourceEndOfBody (and a body's read error):
			// reestablish the connection.
			if ev.gen == gen {
				ev.reestablishTheConnection()
			}
		})
	})
	if len(sofar) > 0 {
		feed(sofar)
	}
	if ended && ev.gen == gen {
		ev.reestablishTheConnection()
	}
}

// announceTheConnection is https://html.spec.whatwg.org/multipage/server-sent-events.html#announce-the-connection.
func (ev *EventSource) announceTheConnection() {
	// Queue a task that, if the readyState attribute is set to a value
	// other than CLOSED, sets the readyState attribute to OPEN and fires
	// an event named open at the EventSource object. (This runs in a
	// task already.)
	if ev.state != Closed {
		ev.state = Open
		ev.host.FireEvent("open", nil, "")
	}
}

// reestablishTheConnection is https://html.spec.whatwg.org/multipage/server-sent-events.html#reestablish-the-connection.
func (ev *EventSource) reestablishTheConnection() {
	ev.abortFetch()
	// 1. Queue a task to run the following steps: if the readyState
	//    attribute is set to CLOSED, abort the task; set it to
	//    CONNECTING; fire an event named error at the EventSource object.
	if ev.state == Closed {
		return
	}
	ev.state = Connecting
	ev.host.FireEvent("error", nil, "")
	if ev.state != Connecting {
		return
	}
	// 2. Wait a delay equal to the reconnection time of the event source.
	// 3. (No extra delay.)
	gen := ev.gen
	ev.timer = time.AfterFunc(ev.ReconnectionTime, func() {
		// 5. Queue a task to run the following steps:
		ev.host.QueueTask(func() {
			// 5.1. If the EventSource object's readyState attribute is
			//      not set to CONNECTING, then return.
			if ev.state != Connecting || ev.gen != gen {
				return
			}
			// 5.2-5.4. Let request be the EventSource object's request
			//      (with Last-Event-ID); fetch request and process the
			//      response as in the constructor.
			ev.fetch()
		})
	})
}

// failTheConnection is https://html.spec.whatwg.org/multipage/server-sent-events.html#fail-the-connection.
func (ev *EventSource) failTheConnection() {
	ev.abortFetch()
	// Queue a task that, if the readyState attribute is set to a value
	// other than CLOSED, sets it to CLOSED and fires an event named error
	// at the EventSource object.
	if ev.state != Closed {
		ev.state = Closed
		ev.host.FireEvent("error", nil, "")
	}
}

// Close is https://html.spec.whatwg.org/multipage/server-sent-events.html#dom-eventsource-close:
// abort any instances of the fetch algorithm started for this
// EventSource object, and set the readyState attribute to CLOSED.
func (ev *EventSource) Close() {
	ev.abortFetch()
	ev.state = Closed
}

// abortFetch ends the current fetch and the reconnection timer; their
// pending tasks do nothing.
func (ev *EventSource) abortFetch() {
	ev.gen++
	if ev.cancel != nil {
		ev.cancel()
		ev.cancel = nil
	}
	if ev.timer != nil {
		ev.timer.Stop()
		ev.timer = nil
	}
}
