package fetch

import (
	"context"
	"errors"
	"io"
	"sync"
)

// BodyFeed is the producing end of a body whose bytes another party gives
// as it gets them (NewFedBody): a service worker's response body, read in
// the worker's realm, handed to the fetch of its client
// (https://w3c.github.io/ServiceWorker/#fetch-event-respondwith step
// 10.2: the pull algorithm reads a chunk of the worker's stream, the
// cancel algorithm cancels it). The body is streamed: Load reads the
// chunks as they are pushed, and the fetch's consumers get them as they
// would a network body's (Subscribe).
//
// Push, End and Cancel may be called from any goroutine.
type BodyFeed struct {
	mu      sync.Mutex
	chunks  [][]byte
	cur     []byte   // the chunk being read
	next    []func() // the Push callbacks of chunks and cur, in order
	ended   bool
	err     error // End's error; io.EOF at a clean end
	stopped error // non-nil once the reading side stopped (Cancel, Close)
	wake    chan struct{}
	// onCancel runs once when the reading side stops before End.
	onCancel func(error)
}

// errBodyClosed is the reason a fed body's producer is told to stop when
// its reader closes it early (Load's size limit).
var errBodyClosed = errors.New("fetch: the body's reader stopped")

// NewFedBody returns a streamed body and its feed: the body's bytes are
// the chunks pushed into the feed, then its end. onCancel, if not nil,
// runs once (from any goroutine) when the body's reading stops before the
// feed ended: its fetch was aborted (CancelWhenDone) or Load gave up.
func NewFedBody(onCancel func(error)) (*Body, *BodyFeed) {
	f := &BodyFeed{wake: make(chan struct{}, 1), onCancel: onCancel}
	return newStreamBody(feedReader{f}), f
}

// Push appends a chunk to the body (the feed owns it from now on). next,
// if not nil, runs (from the reading goroutine, or at once when the body
// is no longer read) once the chunk has been read: the producer's cue to
// give the next chunk, as a pull would (an empty chunk is read at once).
// Push reports false, and drops the chunk, once the body ended or its
// reading stopped.
func (f *BodyFeed) Push(chunk []byte, next func()) bool {
	f.mu.Lock()
	if len(chunk) == 0 || f.ended || f.stopped != nil {
		ok := len(chunk) == 0 && !f.ended && f.stopped == nil
		f.mu.Unlock()
		if next != nil {
			next()
		}
		return ok
	}
	f.chunks = append(f.chunks, chunk)
	f.next = append(f.next, next)
	f.mu.Unlock()
	f.signal()
	return true
}

// End ends the body after the chunks pushed: cleanly for a nil err,
// else with err as the read's error (the body's loading fails).
func (f *BodyFeed) End(err error) {
	f.mu.Lock()
	if f.ended || f.stopped != nil {
		f.mu.Unlock()
		return
	}
	if err == nil {
		err = io.EOF
	}
	f.ended, f.err = true, err
	f.mu.Unlock()
	f.signal()
}

// Cancel stops the body's reading with err, as an aborted fetch does:
// the pushed chunks not read yet are dropped, Load ends with err and the
// producer is told (onCancel) unless the feed had ended.
func (f *BodyFeed) Cancel(err error) {
	if err == nil {
		err = errBodyClosed
	}
	f.mu.Lock()
	if f.stopped != nil {
		f.mu.Unlock()
		return
	}
	f.stopped = err
	ended := f.ended
	f.chunks, f.cur = nil, nil
	next := f.next
	f.next = nil
	f.mu.Unlock()
	f.signal()
	for _, n := range next {
		if n != nil {
			n()
		}
	}
	if !ended && f.onCancel != nil {
		f.onCancel(err)
	}
}

func (f *BodyFeed) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// read is the body's Read: it waits for a chunk, the end or a stop.
func (f *BodyFeed) read(p []byte) (int, error) {
	for {
		f.mu.Lock()
		if f.stopped != nil {
			err := f.stopped
			f.mu.Unlock()
			return 0, err
		}
		if len(f.cur) == 0 && len(f.chunks) > 0 {
			f.cur, f.chunks = f.chunks[0], f.chunks[1:]
		}
		if len(f.cur) > 0 {
			n := copy(p, f.cur)
			f.cur = f.cur[n:]
			var done func()
			if len(f.cur) == 0 {
				done, f.next = f.next[0], f.next[1:]
			}
			f.mu.Unlock()
			if done != nil {
				done()
			}
			return n, nil
		}
		if len(f.chunks) == 0 && f.ended {
			err := f.err
			f.mu.Unlock()
			return 0, err
		}
		f.mu.Unlock()
		<-f.wake
	}
}

// feedReader is a fed body's stream as Load reads it.
type feedReader struct{ f *BodyFeed }

func (r feedReader) Read(p []byte) (int, error) { return r.f.read(p) }

// Close is Load's close at the end of its read: after the end it does
// nothing; before it (the size limit), the body stops.
func (r feedReader) Close() error {
	r.f.Cancel(nil)
	return nil
}

// CancelWhenDone ties the reading of b to ctx, the context of the fetch
// that hands b on: when ctx ends before the body does (the fetch was
// aborted), a fed body (NewFedBody) stops with ctx's error and its
// producer is told. Other bodies end with their network read, which ctx
// already governs.
func (b *Body) CancelWhenDone(ctx context.Context) {
	if b == nil {
		return
	}
	b.mu.Lock()
	fr, ok := b.stream.(feedReader)
	b.mu.Unlock()
	if !ok {
		return
	}
	stop := context.AfterFunc(ctx, func() { fr.f.Cancel(context.Cause(ctx)) })
	b.OnLoad(func() { stop() })
}
