package chromium

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// A session is a DevTools session with one page that speaks only the few
// commands the runner needs. chromedp's own tab set-up enables a dozen
// domains (DOM, CSS, Network, Log...) whose events cost the browser and the
// runner time on every test; a session enables none of them.
//
// The session is attached without flattening: its commands and events
// travel inside Target.sendMessageToTarget and
// Target.receivedMessageFromTarget on the browser's own connection, which
// chromedp exposes (Browser.Call and Browser.Subscribe). chromedp routes
// flattened sessions only to the tabs it set up itself.
type session struct {
	b       *chromedp.Browser
	id      target.SessionID
	target  target.ID
	next    atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan sessionReply
	events  func(method string, params jsonv2.Value)
	done    chan struct{} // closed when the session detached
	once    sync.Once
}

// sendMessageParams are the parameters of Target.sendMessageToTarget,
// which cdproto no longer lists.
type sendMessageParams struct {
	Message   string           `json:"message"`
	SessionID target.SessionID `json:"sessionId"`
}

// sessionReply is the answer to one command.
type sessionReply struct {
	Result jsonv2.Value
	Err    error
}

// router hands the messages of the browser's sessions to their session
// objects. There is one per browser.
type router struct {
	b        *chromedp.Browser
	mu       sync.Mutex
	sessions map[target.SessionID]*session
	stop     func()
}

// newRouter starts routing the session messages of browser b until ctx
// ends or the browser goes away; then every session is detached.
func newRouter(ctx context.Context, b *chromedp.Browser) *router {
	r := &router{b: b, sessions: map[target.SessionID]*session{}}
	msgs, stopMsgs := b.Subscribe(target.ReceivedMessageFromTarget.Method)
	detached, stopDetached := b.Subscribe(target.DetachedFromTarget.Method)
	r.stop = func() { stopMsgs(); stopDetached() }
	go func() {
		defer r.closeAll()
		for {
			select {
			case <-ctx.Done():
				return
			case raw, ok := <-msgs:
				if !ok {
					return
				}
				var ev target.EventReceivedMessageFromTarget
				if jsonv2.Unmarshal(raw, &ev, chromedp.DefaultUnmarshalOptions) != nil {
					continue
				}
				if s := r.get(ev.SessionID); s != nil {
					s.receive([]byte(ev.Message))
				}
			case raw, ok := <-detached:
				if !ok {
					return
				}
				var ev target.EventDetachedFromTarget
				if jsonv2.Unmarshal(raw, &ev, chromedp.DefaultUnmarshalOptions) != nil {
					continue
				}
				if s := r.get(ev.SessionID); s != nil {
					r.remove(s)
					s.detach()
				}
			}
		}
	}()
	return r
}

func (r *router) get(id target.SessionID) *session {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sessions[id]
}

func (r *router) remove(s *session) {
	r.mu.Lock()
	delete(r.sessions, s.id)
	r.mu.Unlock()
}

func (r *router) closeAll() {
	r.stop()
	r.mu.Lock()
	all := r.sessions
	r.sessions = map[target.SessionID]*session{}
	r.mu.Unlock()
	for _, s := range all {
		s.detach()
	}
}

// attach opens a session with the target. events receives the page's
// events (on the router's goroutine: it must not block).
func (r *router) attach(ctx context.Context, id target.ID, events func(method string, params jsonv2.Value)) (*session, error) {
	flatten := false
	s := &session{b: r.b, target: id, pending: map[int64]chan sessionReply{}, events: events, done: make(chan struct{})}
	// Messages can arrive as soon as the browser answers: register the
	// session under its id before the router handles them. The router
	// runs on the browser's event subscriptions, which buffer, so holding
	// r.mu across the call only delays routing.
	r.mu.Lock()
	res, err := cdp.Call(ctx, r.b, target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: &flatten})
	if err == nil {
		s.id = res.SessionID
		r.sessions[s.id] = s
	}
	r.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return s, nil
}

// receive handles one message of the page: an event (Method) or a reply
// (ID).
func (s *session) receive(data []byte) {
	var m cdproto.Message
	if jsonv2.Unmarshal(data, &m, chromedp.DefaultUnmarshalOptions) != nil {
		return
	}
	if m.ID == 0 {
		if m.Method != "" && s.events != nil {
			s.events(string(m.Method), m.Params)
		}
		return
	}
	s.mu.Lock()
	ch := s.pending[m.ID]
	delete(s.pending, m.ID)
	s.mu.Unlock()
	if ch == nil {
		return
	}
	if m.Error != nil {
		ch <- sessionReply{Err: m.Error}
		return
	}
	ch <- sessionReply{Result: m.Result}
}

// detach ends the session: waiting commands fail with errDetached.
func (s *session) detach() { s.once.Do(func() { close(s.done) }) }

// errDetached is the error of a command whose page went away.
var errDetached = errors.New("the page's session detached")

// call sends a command to the page and decodes its result into res (nil
// to drop it).
func (s *session) call(ctx context.Context, method string, params, res any) error {
	id := s.next.Add(1)
	p, err := jsonv2.Marshal(params, chromedp.DefaultMarshalOptions)
	if err != nil {
		return err
	}
	msg, err := jsonv2.Marshal(&cdproto.Message{ID: id, Method: cdproto.MethodType(method), Params: p}, chromedp.DefaultMarshalOptions)
	if err != nil {
		return err
	}
	ch := make(chan sessionReply, 1)
	s.mu.Lock()
	s.pending[id] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
	}()
	if err := s.b.Call(ctx, "Target.sendMessageToTarget", sendMessageParams{Message: string(msg), SessionID: s.id}, nil); err != nil {
		return err
	}
	select {
	case r := <-ch:
		if r.Err != nil {
			return r.Err
		}
		if res != nil {
			return jsonv2.Unmarshal(r.Result, res, chromedp.DefaultUnmarshalOptions)
		}
		return nil
	case <-s.done:
		return errDetached
	case <-ctx.Done():
		return ctx.Err()
	}
}

// detached reports whether the page's session ended.
func (s *session) detached() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}
