package browser

import (
	"context"
	"errors"

	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
)

// LockState is what an environment holds and waits for in the Web Locks
// lock managers of its user agent.
type LockState struct {
	Held    []weblocks.LockInfo
	Pending []weblocks.LockInfo
}

// EnvironmentLockState inspects, from the browser side, the held locks and
// pending requests of the environment env in every lock manager of ua. It
// does not count as a query: a document in the back/forward cache is not
// evicted by it.
func EnvironmentLockState(ctx context.Context, ua *html.UserAgent, env *html.EnvironmentSettingsObject) (LockState, error) {
	var st LockState
	if ua == nil || ua.Scheduler() == nil || env == nil { // nil, or a zero-value UserAgent
		return st, errors.New("browser: EnvironmentLockState needs a user agent and an environment")
	}
	id := env.ID()
	for _, m := range htmlhost.LockManagers(ua) {
		s, err := m.Snapshot(ctx)
		if err != nil {
			return st, err
		}
		for _, l := range s.Held.All() {
			if l.ClientID == id {
				st.Held = append(st.Held, l)
			}
		}
		for _, l := range s.Pending.All() {
			if l.ClientID == id {
				st.Pending = append(st.Pending, l)
			}
		}
	}
	return st, nil
}

// LockState is EnvironmentLockState for the window's environment (its
// document's, whether active, in the back/forward cache or unloaded).
func (w *Window) LockState(ctx context.Context) (LockState, error) {
	if !w.made() {
		return LockState{}, ErrNoWindow
	}
	return EnvironmentLockState(ctx, w.s.eng.ua, w.env)
}
