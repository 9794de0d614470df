package bindings

import "testing"

// new QuotaExceededError() runs the constructor steps (its statics are
// registered with the rest), in windows and workers.
func TestQuotaExceededErrorConstructor(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const e = new QuotaExceededError("m", {quota: 2, requested: 5});
			log(e.name, e.message, e.code, e.quota, e.requested, e instanceof DOMException, e instanceof Error);
			const d = new QuotaExceededError();
			log(d.message === "", d.quota, d.requested);
			for (const opts of [{quota: -1}, {requested: -1}, {quota: 5, requested: 2}]) {
				try { new QuotaExceededError("x", opts); log("no throw"); } catch (x) { log(x.name); }
			}
			done();
		`)
		expectLog(t, j, "QuotaExceededError m 22 2 5 true true", "true null null", "RangeError", "RangeError", "RangeError")
	})
}
