package product

import (
	"fmt"
	"sort"
	"sync"
)

// Config holds the command-line settings products may need.
type Config struct {
	// ChromiumPath is the Chromium binary (--chromium).
	ChromiumPath string
}

// Factory describes a registered product.
type Factory struct {
	Name string
	// New creates the product; it does not start it.
	New func(cfg Config) (Product, error)
	// Available reports why the product cannot run on this machine (for
	// example "chromium not installed: apt-get install -y chromium"), or nil.
	// Nil Available means always available.
	Available func(cfg Config) error
	// Placeholder marks a stand-in that a real registration replaces.
	Placeholder bool
	// Isolate runs the product's tests in child processes (package
	// isolate) unless the command line's --isolate says otherwise: what
	// an engine running in the runner's process wants, so that a stack
	// overflow or an out-of-memory costs one test, not the run.
	Isolate bool
	// Description is one line for the command's --help.
	Description string
}

var (
	regMu    sync.Mutex
	registry = map[string]Factory{}
)

// Register adds a product. Registering a name twice panics, except that a
// real product replaces a placeholder of the same name (so the go product's
// package can register "go" from its init function over the stand-in).
func Register(f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	if f.Name == "" || f.New == nil {
		panic("product.Register: missing Name or New")
	}
	if old, ok := registry[f.Name]; ok {
		switch {
		case f.Placeholder:
			return // keep the real one
		case !old.Placeholder:
			panic(fmt.Sprintf("product.Register: %q registered twice", f.Name))
		}
	}
	registry[f.Name] = f
}

// Lookup returns the factory registered under name.
func Lookup(name string) (Factory, bool) {
	regMu.Lock()
	defer regMu.Unlock()
	f, ok := registry[name]
	return f, ok
}

// Names lists the registered products, sorted.
func Names() []string {
	regMu.Lock()
	defer regMu.Unlock()
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
