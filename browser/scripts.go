package browser

import (
	"sync"

	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings"
)

// ScriptCache compiles classic scripts once: pages that load the same
// scripts (a test harness in every test page) share the compiled program,
// and compiling a large script costs more than running many pages. A *goja.Program is not
// tied to a runtime, so realms of concurrent tests share it. Goroutine-safe.
type ScriptCache struct {
	mu sync.Mutex
	m  map[string]compiled // by script name (its URL)
}

type compiled struct {
	src string
	prg *goja.Program
}

// compile returns src compiled as a classic script named name, or
// goja.Compile's error. A name whose source changed (a substituted file
// served differently) is compiled again.
func (p *ScriptCache) compile(name, src string) (*goja.Program, error) {
	p.mu.Lock()
	c, ok := p.m[name]
	p.mu.Unlock()
	if ok && c.src == src {
		return c.prg, nil
	}
	prg, err := goja.Compile(name, src, false)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.m == nil {
		p.m = map[string]compiled{}
	}
	p.m[name] = compiled{src, prg}
	p.mu.Unlock()
	return prg, nil
}

// evaluate is realm.EvaluateScript(name, src) with the compiled program
// shared; a script that does not compile goes through EvaluateScript,
// which reports its syntax error.
func (p *ScriptCache) evaluate(realm *bindings.Realm, name, src string) {
	prg, err := p.compile(name, src)
	if err != nil {
		_, _ = realm.EvaluateScript(name, src)
		return
	}
	_, _ = realm.EvaluateProgram(prg)
}
