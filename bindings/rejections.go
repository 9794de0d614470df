package bindings

import (
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// rejectionState is an environment settings object's "about-to-be-notified
// rejected promises list" and "outstanding rejected promises weak set"
// (strongly held here: sobek has no weak references; the set only holds
// promises that were reported unhandled, which is rare).
type rejectionState struct {
	aboutToBeNotified []*sobek.Promise
	// handled marks promises of aboutToBeNotified (or of a notification
	// task not yet run) that got a handler in the meantime.
	handled     map[*sobek.Promise]bool
	outstanding map[*sobek.Promise]bool
}

// trackRejection is the HostPromiseRejectionTracker(promise, operation).
func (r *Realm) trackRejection(p *sobek.Promise, op sobek.PromiseRejectionOperation) {
	s := &r.rejections
	if s.handled == nil {
		s.handled = map[*sobek.Promise]bool{}
		s.outstanding = map[*sobek.Promise]bool{}
	}
	switch op {
	case sobek.PromiseRejectionReject:
		// 1. If operation is "reject", append promise to the settings
		// object's about-to-be-notified rejected promises list.
		s.aboutToBeNotified = append(s.aboutToBeNotified, p)
		delete(s.handled, p)
	case sobek.PromiseRejectionHandle:
		// 2.1 If the list contains promise, remove it and return.
		for i, q := range s.aboutToBeNotified {
			if q == p {
				s.aboutToBeNotified = append(s.aboutToBeNotified[:i], s.aboutToBeNotified[i+1:]...)
				return
			}
		}
		// 2.2 If the outstanding rejected promises weak set does not
		// contain promise, then return. (It may still be in a queued
		// notification task's list: mark it handled for that task.)
		if !s.outstanding[p] {
			s.handled[p] = true
			return
		}
		// 2.3 Remove promise from the outstanding set.
		delete(s.outstanding, p)
		// 2.4-5 Queue a global task on the DOM manipulation task source
		// to fire an event named rejectionhandled at global, using
		// PromiseRejectionEvent, with promise and reason initialized.
		r.queueTask(html.DOMManipulationTaskSource, func() {
			r.firePromiseRejectionEvent("rejectionhandled", p, false)
		})
	}
}

// notifyAboutRejectedPromises is HTML's "notify about rejected promises"
// for the realm's settings object, run at the end of every microtask
// checkpoint of its event loop.
func (r *Realm) notifyAboutRejectedPromises() {
	s := &r.rejections
	// 1. Let list be a clone of the about-to-be-notified list.
	// 2. If list is empty, then return.
	if len(s.aboutToBeNotified) == 0 {
		return
	}
	list := s.aboutToBeNotified
	// 3. Empty the about-to-be-notified list.
	s.aboutToBeNotified = nil
	// 4. Queue a global task on the DOM manipulation task source to run
	// the following substeps:
	r.queueTask(html.DOMManipulationTaskSource, func() {
		// 4.1 For each promise p of list:
		for _, p := range list {
			// 4.1.1 If p.[[PromiseIsHandled]] is true, then continue.
			if s.handled[p] {
				delete(s.handled, p)
				continue
			}
			// 4.1.2 Let notCanceled be the result of firing an event
			// named unhandledrejection at global, using
			// PromiseRejectionEvent, with cancelable true and promise
			// and reason initialized.
			notCanceled := r.firePromiseRejectionEvent("unhandledrejection", p, true)
			// 4.1.3 If notCanceled is true, the user agent may report
			// p.[[PromiseResult]] to a developer console.
			if notCanceled {
				se := r.scriptErrorOf(r.throwValue(p.Result()))
				r.printer(ConsoleError, "Uncaught (in promise) "+se.Error())
				if r.opts.OnUnhandledRejection != nil {
					r.opts.OnUnhandledRejection(p.Result(), se)
				}
			}
			// 4.1.4 If p.[[PromiseIsHandled]] is false, add p to the
			// outstanding rejected promises weak set.
			if !s.handled[p] {
				s.outstanding[p] = true
			}
			delete(s.handled, p)
		}
	})
}
