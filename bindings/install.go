package bindings

import (
	"sync"

	"github.com/gowebengine/weblocks/bindings/webidl"
)

var (
	registryOnce sync.Once
	registry     *webidl.Registry
)

// installGenerated installs the interfaces exposed in the realm.
func installGenerated(r *webidl.Realm) error {
	registryOnce.Do(func() { registry = fallbackRegistry() })
	return r.Install(registry)
}
