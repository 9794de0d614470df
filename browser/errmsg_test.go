package browser

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestErrorMessagesSayTheNameOnce: a SyntaxError of code compiled at run
// time (eval, Function, Evaluate's own expression) reads "SyntaxError: …",
// not "SyntaxError: SyntaxError: …", in Evaluate's errors and in the
// uncaught exceptions reported to Config.OnError and the console.
func TestErrorMessagesSayTheNameOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	reported := make(chan string, 4)
	b := New(Config{
		Fetcher: FSFetcher{FS: fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><script>eval("(")</script>`)}}},
		OnError: func(e *ScriptError) { reported <- e.Error() },
	})
	defer b.Close()
	w, err := b.Open(ctx, "https://example.test/")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-reported:
		if !strings.HasPrefix(msg, "Uncaught SyntaxError: ") || strings.Contains(msg, "SyntaxError: SyntaxError") {
			t.Errorf("OnError: %q", msg)
		}
	case <-ctx.Done():
		t.Fatal("no error reported")
	}
	for _, expr := range []string{"(", "new Function('(')", "Promise.reject(new SyntaxError('x'))"} {
		_, err := w.Evaluate(ctx, expr)
		if err == nil || !strings.Contains(err.Error(), "SyntaxError: ") || strings.Contains(err.Error(), "SyntaxError: SyntaxError") {
			t.Errorf("Evaluate(%q) = %v", expr, err)
		}
	}
	if err := b.RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
}
