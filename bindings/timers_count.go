package bindings

// ActiveTimers is the number of entries in the global's map of active
// timers: setTimeout and setInterval timers not yet run or cleared. Call it
// only inside tasks of the realm's event loop. Embedders use it to decide
// whether a realm can still make progress on its own ("run until idle").
func (r *Realm) ActiveTimers() int { return len(r.timers.active) }
