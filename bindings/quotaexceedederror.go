package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

// quotaExceededErrorImpl is the Go implementation behind a
// QuotaExceededError object: a DOMException with a quota and a requested
// amount.
type quotaExceededErrorImpl struct {
	*domExceptionImpl
	quota, requested webidl.Nullable[float64]
}

// https://webidl.spec.whatwg.org/#dom-quotaexceedederror-quotaexceedederror
//
// newQuotaExceededError implements the new QuotaExceededError(message,
// options) constructor steps.
func newQuotaExceededError(message webidl.DOMString, options QuotaExceededErrorOptions) (*quotaExceededErrorImpl, error) {
	// 1. Set this's name to "QuotaExceededError".
	// 2. Set this's message to message.
	q := &quotaExceededErrorImpl{
		domExceptionImpl: &domExceptionImpl{ex: dom.NewDOMException(string(message), dom.QuotaExceededError)},
		quota:            webidl.Null[float64](),
		requested:        webidl.Null[float64](),
	}
	// 3. If options["quota"] is present: if it is less than 0, throw a
	// RangeError; set this's quota to it.
	if options.Quota.Present {
		if options.Quota.Value < 0 {
			return nil, webidl.NewRangeError("Failed to construct 'QuotaExceededError': quota must not be negative")
		}
		q.quota = webidl.NonNull(options.Quota.Value)
	}
	// 4. The same for options["requested"] and this's requested.
	if options.Requested.Present {
		if options.Requested.Value < 0 {
			return nil, webidl.NewRangeError("Failed to construct 'QuotaExceededError': requested must not be negative")
		}
		q.requested = webidl.NonNull(options.Requested.Value)
	}
	// 5. If this's quota and requested are not null and requested is less
	// than quota, throw a RangeError.
	if !q.quota.Null && !q.requested.Null && q.requested.Value < q.quota.Value {
		return nil, webidl.NewRangeError("Failed to construct 'QuotaExceededError': requested must not be less than quota")
	}
	return q, nil
}

func (q *quotaExceededErrorImpl) Quota() (webidl.Nullable[float64], error) { return q.quota, nil }

func (q *quotaExceededErrorImpl) Requested() (webidl.Nullable[float64], error) {
	return q.requested, nil
}

type quotaExceededErrorStatics struct{}

// new QuotaExceededError(message, options)
func (quotaExceededErrorStatics) Constructor(r *webidl.Realm, message webidl.DOMString, options QuotaExceededErrorOptions) (QuotaExceededErrorMethods, error) {
	return newQuotaExceededError(message, options)
}
