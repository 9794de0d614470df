package html

import (
	"context"
	"errors"
	"testing"
)

// TestMisuseIsAnError: a nil or zero-value UserAgent, and navigables and
// documents that belong to none, give ErrNoUserAgent instead of panicking.
func TestMisuseIsAnError(t *testing.T) {
	for name, ua := range map[string]*UserAgent{"zero": {}, "nil": nil} {
		if d, err := ua.OpenWindowURL("https://a.test/"); d != nil || !errors.Is(err, ErrNoUserAgent) {
			t.Errorf("%s UserAgent: OpenWindowURL = %v, %v; want ErrNoUserAgent", name, d, err)
		}
		if d, err := ua.OpenWindow(mustURL(t, "https://a.test/")); d != nil || !errors.Is(err, ErrNoUserAgent) {
			t.Errorf("%s UserAgent: OpenWindow = %v, %v", name, d, err)
		}
		if a := ua.Agents(); len(a) != 0 {
			t.Errorf("%s UserAgent: Agents = %v", name, a)
		}
		if err := ua.CloseContext(context.Background()); err != nil {
			t.Errorf("%s UserAgent: CloseContext = %v", name, err)
		}
		ua.Close()
	}
	for name, n := range map[string]*Navigable{"zero": {}, "nil": nil, "of a zero UserAgent": (&UserAgent{}).NewTopLevelTraversable()} {
		if d, err := n.Navigate(mustURL(t, "https://a.test/"), NavigateOptions{}); d != nil || !errors.Is(err, ErrNoUserAgent) {
			t.Errorf("%s Navigable: Navigate = %v, %v", name, d, err)
		}
		if d, err := n.OpenAuxiliary(mustURL(t, "https://a.test/")); d != nil || !errors.Is(err, ErrNoUserAgent) {
			t.Errorf("%s Navigable: OpenAuxiliary = %v, %v", name, d, err)
		}
		if err := n.Restore(nil, false); !errors.Is(err, ErrNoUserAgent) {
			t.Errorf("%s Navigable: Restore = %v", name, err)
		}
	}
	for _, n := range []*Navigable{{}, nil} {
		n.Destroy() // nothing to destroy
	}
	if env, err := NewStandaloneWorkerEnvironment(&UserAgent{}, ServiceWorkerAgent, mustURL(t, "https://a.test/sw.js")); env != nil || !errors.Is(err, ErrNoUserAgent) {
		t.Errorf("NewStandaloneWorkerEnvironment(zero UserAgent) = %v, %v", env, err)
	}
	real := NewUserAgent()
	defer real.Close()
	if env, err := NewStandaloneWorkerEnvironment(real, ServiceWorkerAgent, nil); env != nil || err == nil {
		t.Errorf("NewStandaloneWorkerEnvironment(ua, kind, nil) = %v, %v", env, err)
	}
	if env, err := NewStandaloneWorkerEnvironment(real, SimilarOriginWindowAgent, mustURL(t, "https://a.test/sw.js")); env != nil || err == nil {
		t.Errorf("NewStandaloneWorkerEnvironment(ua, window agent, url) = %v, %v", env, err)
	}
	env, err := NewStandaloneWorkerEnvironment(real, ServiceWorkerAgent, mustURL(t, "https://a.test/app/sw.js"))
	if err != nil || env.Kind() != StandaloneWorkerEnvironment || env.Agent().Kind() != ServiceWorkerAgent ||
		env.Origin().Serialize() != "https://a.test" || !env.IsSecureContext() || env.Owner() != nil {
		t.Errorf("NewStandaloneWorkerEnvironment = %+v, %v", env, err)
	} else if envs := env.Agent().Environments(); len(envs) != 1 || envs[0] != env {
		t.Errorf("the agent's environments: %v", envs)
	}
	if QueueAGlobalTask(NewTaskSource("t"), nil, func() { t.Error("ran") }) {
		t.Error("QueueAGlobalTask(nil env) queued")
	}
	for name, d := range map[string]*Document{"zero": {}, "nil": nil} {
		if c, err := d.CreateChildNavigableURL("https://b.test/", ChildNavigableOptions{}); c != nil || !errors.Is(err, ErrNoUserAgent) {
			t.Errorf("%s Document: CreateChildNavigableURL = %v, %v", name, c, err)
		}
	}
}
