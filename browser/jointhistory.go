package browser

import (
	"fmt"
	"sort"
	"sync"
)

// jointHistory is the session history of a top-level traversable as HTML
// keeps it (https://html.spec.whatwg.org/#tn-session-history-entries and
// "traverse the history by a delta"): one list of steps for the
// traversable and every navigable below it. Each frame keeps its own
// entries (navigation.go); a step records which frame moved from which of
// its entries to which when a navigation pushed an entry. history.length
// in any document of the tree is the number of steps, and a traversal by
// a delta moves to another step, traversing every frame whose entry at
// that step differs from its current one (ancestors first).
type jointHistory struct {
	mu    sync.Mutex
	steps []jointStep // steps[0] is the initial step (no frame)
	cur   int
}

// jointStep: f moved from its entry from to its entry to.
type jointStep struct {
	f        *frame
	from, to int
}

func newJointHistory() *jointHistory {
	return &jointHistory{steps: []jointStep{{}}}
}

// length is the number of steps (history.length).
func (th *jointHistory) length() int {
	th.mu.Lock()
	defer th.mu.Unlock()
	return len(th.steps)
}

// pushed records that f pushed an entry (from its entry from to the new
// entry to): the steps after the current one are dropped, and with them
// the entries after the current one of the other frames they moved (their
// cached documents are evicted).
func (th *jointHistory) pushed(f *frame, from, to int) {
	th.mu.Lock()
	dropped := append([]jointStep(nil), th.steps[th.cur+1:]...)
	th.steps = append(th.steps[:th.cur+1], jointStep{f: f, from: from, to: to})
	th.cur = len(th.steps) - 1
	th.mu.Unlock()
	seen := map[*frame]bool{f: true}
	for _, st := range dropped {
		if !seen[st.f] {
			seen[st.f] = true
			st.f.dropForwardEntries()
		}
	}
}

// removeFrame drops the steps of a destroyed frame.
func (th *jointHistory) removeFrame(f *frame) {
	th.mu.Lock()
	defer th.mu.Unlock()
	kept := th.steps[:1]
	cur := th.cur
	for k, st := range th.steps[1:] {
		if st.f == f {
			if k+1 <= th.cur {
				cur--
			}
			continue
		}
		kept = append(kept, st)
	}
	th.steps, th.cur = kept, cur
}

// traverse is "traverse the history by a delta" from the window from (of
// a frame of this traversable), run in parallel: every frame whose entry
// at the target step differs from its current one is traversed to it,
// ancestors first (a frame whose ancestor got another document is gone
// by then). done, when set, learns the outcome: the window then active in
// the outermost frame traversed.
func (th *jointHistory) traverse(from *Window, delta int, done func(*Window, error)) {
	th.mu.Lock()
	t := th.cur + delta
	if t < 0 || t >= len(th.steps) {
		n, cur := len(th.steps), th.cur
		th.mu.Unlock()
		navHistory{done: done}.finish(nil, fmt.Errorf("browser: no session history entry at %+d (there are %d, the current one is %d)", delta, n, cur+1))
		return
	}
	// The entry of each frame at step t: the last step up to t that moved
	// it, else where its first later step started.
	target := map[*frame]int{}
	for k := 1; k <= t; k++ {
		target[th.steps[k].f] = th.steps[k].to
	}
	for k := t + 1; k < len(th.steps); k++ {
		if f := th.steps[k].f; !hasKey(target, f) {
			target[f] = th.steps[k].from
		}
	}
	th.cur = t
	th.mu.Unlock()
	type move struct {
		f     *frame
		to    int
		depth int
	}
	var moves []move
	for f, to := range target {
		f.mu.Lock()
		cur, gone := f.index, f.gone
		f.mu.Unlock()
		if !gone && cur != to {
			moves = append(moves, move{f, to, f.depth()})
		}
	}
	sort.Slice(moves, func(i, j int) bool { return moves[i].depth < moves[j].depth })
	if len(moves) == 0 {
		navHistory{done: done}.finish(from, nil)
		return
	}
	for i, m := range moves {
		cb := done
		if i > 0 {
			cb = nil
		}
		f := m.f
		f.mu.Lock()
		w, delta := f.child, m.to-f.index
		gone := f.gone
		f.mu.Unlock()
		if gone || w == nil {
			navHistory{done: cb}.finish(nil, ErrClosed)
			continue
		}
		f.traverse(w, delta, cb)
	}
}

func hasKey(m map[*frame]int, f *frame) bool {
	_, ok := m[f]
	return ok
}

// depth is the number of navigables above f up to its traversable.
func (f *frame) depth() int {
	d := 0
	for p := f.parent; !f.isTraversable() && p != nil && p.frame != nil; p = p.frame.parent {
		d++
		if p.frame.isTraversable() {
			break
		}
	}
	return d
}

// isTraversable: f is a top-level traversable (a window of Browser.Open or
// a popup), not an iframe's navigable.
func (f *frame) isTraversable() bool { return f.top || f.popup }

// dropForwardEntries drops f's entries after its current one (a push in
// another frame of the traversable made them unreachable), evicting their
// cached documents.
func (f *frame) dropForwardEntries() {
	f.mu.Lock()
	var dropped []*sessionEntry
	if f.index+1 < len(f.entries) {
		dropped = append(dropped, f.entries[f.index+1:]...)
		f.entries = f.entries[: f.index+1 : f.index+1]
	}
	f.mu.Unlock()
	f.discardDropped(dropped)
}
