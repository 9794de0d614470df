package browser

import (
	"container/list"
	"errors"
	"sync"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

// ScriptCache compiles classic scripts once: pages that load the same
// scripts (a test harness in every test page) share the compiled program,
// and compiling a large script costs more than running many pages. A
// *sobek.Program is not tied to a runtime, so realms of concurrent browsers
// share it. Goroutine-safe; the zero value is ready to use.
//
// The cache is keyed by script name (its URL) and bounded: past MaxBytes
// (an estimate of the memory the entries hold) the least recently used
// entries are dropped, so a run of thousands of pages, each with scripts of
// its own, keeps a flat heap.
type ScriptCache struct {
	// MaxBytes bounds the cache; 0 means DefaultScriptCacheBytes.
	MaxBytes int64

	mu    sync.Mutex
	bytes int64
	lru   list.List // of *compiled, most recently used first
	m     map[string]*list.Element
}

// DefaultScriptCacheBytes is the default bound of a ScriptCache.
const DefaultScriptCacheBytes = 32 << 20

// programCost estimates the memory of a compiled script: its source plus
// the program, a few times the source's size.
func programCost(src string) int64 { return 4*int64(len(src)) + 512 }

type compiled struct {
	name string
	src  string
	prg  *sobek.Program
	cost int64
}

// compile returns src compiled as a classic script named name, or
// sobek.Compile's error. A name whose source changed (a substituted file
// served differently) is compiled again.
func (p *ScriptCache) compile(name, src string) (*sobek.Program, error) {
	p.mu.Lock()
	if e, ok := p.m[name]; ok {
		if c := e.Value.(*compiled); c.src == src {
			p.lru.MoveToFront(e)
			p.mu.Unlock()
			return c.prg, nil
		}
	}
	p.mu.Unlock()
	prg, err := webidl.Compile(name, src, false)
	if err != nil {
		return nil, err
	}
	p.add(&compiled{name: name, src: src, prg: prg, cost: programCost(src)})
	return prg, nil
}

// add caches c, dropping the least recently used entries past the bound.
func (p *ScriptCache) add(c *compiled) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]*list.Element{}
		p.lru.Init()
	}
	limit := p.MaxBytes
	if limit <= 0 {
		limit = DefaultScriptCacheBytes
	}
	if c.cost > limit {
		return // larger than the whole cache: not kept
	}
	if old, ok := p.m[c.name]; ok {
		p.remove(old)
	}
	p.m[c.name] = p.lru.PushFront(c)
	p.bytes += c.cost
	for p.bytes > limit {
		p.remove(p.lru.Back())
	}
}

func (p *ScriptCache) remove(e *list.Element) {
	c := p.lru.Remove(e).(*compiled)
	delete(p.m, c.name)
	p.bytes -= c.cost
}

// Len is the number of cached programs.
func (p *ScriptCache) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.m)
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

// evaluateMuted is evaluate for a classic script whose errors are muted
// (its response was CORS-cross-origin): an uncaught exception, or a
// syntax error, is reported as HTML's "report an exception" does for
// such a script -- message "Script error.", no location, a null error --
// and the whole error only goes to log.
// https://html.spec.whatwg.org/multipage/webappapis.html#report-an-exception
func (p *ScriptCache) evaluateMuted(realm *bindings.Realm, name, src string, log func(string)) {
	prg, err := p.compile(name, src)
	if err == nil {
		_, err = realm.Runtime().RunProgram(prg)
		var ie *sobek.InterruptedError
		if errors.As(err, &ie) {
			// Interrupted (Close or Interrupt): not a script error.
			realm.Runtime().ClearInterrupt()
			return
		}
	}
	if err == nil {
		return
	}
	log("script " + name + " (errors muted): " + err.Error())
	// 4. If script is a classic script and script's muted errors is
	//    true, then set message to "Script error.", urlString to the
	//    empty string, line and col to 0, and errorValue to null.
	realm.ReportScriptError(&bindings.ScriptError{Message: "Script error."})
}
