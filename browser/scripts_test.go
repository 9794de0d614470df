package browser

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// The script cache is bounded: compiling the scripts of 10,000 test files
// keeps the live heap flat.
func TestScriptCacheBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles 10,000 scripts")
	}
	p := &ScriptCache{MaxBytes: 512 << 10}
	body := strings.Repeat("x = x + 1; // padding padding padding padding\n", 12) // about 600 bytes
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var after1k uint64
	for i := 0; i < 10000; i++ {
		name := fmt.Sprintf("https://web-platform.test/t/%d.any.js", i)
		if _, err := p.compile(name, fmt.Sprintf("var x%d = 0;\n", i)+body); err != nil {
			t.Fatal(err)
		}
		if i == 999 {
			after1k = live()
		}
	}
	end := live()
	if p.bytes > p.MaxBytes {
		t.Errorf("cache holds %d bytes, over its bound %d", p.bytes, p.MaxBytes)
	}
	// Without the bound the 9,000 further programs hold tens of MB.
	if end > after1k+4<<20 {
		t.Errorf("live heap grew from %d to %d KB over 9,000 more scripts", after1k>>10, end>>10)
	}
	t.Logf("%d programs cached; live heap %d KB after 1,000 scripts, %d KB after 10,000", p.Len(), after1k>>10, end>>10)

	// Recently used entries stay; the oldest went first.
	first := "https://web-platform.test/t/0.any.js"
	if _, ok := p.m[first]; ok {
		t.Error("the least recently used program is still cached")
	}
	last := "https://web-platform.test/t/9999.any.js"
	e, ok := p.m[last]
	if !ok {
		t.Fatal("the most recent program is not cached")
	}
	prg, _ := p.compile(last, e.Value.(*compiled).src)
	if prg != e.Value.(*compiled).prg {
		t.Error("a cached program was compiled again")
	}
}
