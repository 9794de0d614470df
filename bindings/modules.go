package bindings

// Done returns a channel closed when the realm is closed (Close, or its
// document unloaded): work an embedder waits for on the realm's behalf (a
// module script graph being fetched) is abandoned then. Safe for any
// goroutine.
func (r *Realm) Done() <-chan struct{} { return r.closedCh }
