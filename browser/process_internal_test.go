package browser

import (
	"context"
	"errors"
	"net/url"
	"testing"
)

// TestRendererProcessesNeedAnEntry: RendererProcesses without
// MaybeRunRenderer in main or a Command is a clear error, never a window
// in the embedder's process.
func TestRendererProcessesNeedAnEntry(t *testing.T) {
	was := rendererEntry.Swap(false)
	defer rendererEntry.Store(was)
	b := New(Config{Process: RendererProcesses, Fetcher: FSFetcher{}})
	defer b.Close()
	if _, err := b.Open(context.Background(), "https://a.test/"); !errors.Is(err, ErrNoRendererEntry) {
		t.Fatalf("Open: %v", err)
	}
	u, _ := url.Parse("https://a.test/")
	if _, err := b.StartHTML(u, "<title>x</title>"); !errors.Is(err, ErrNoRendererEntry) {
		t.Fatalf("StartHTML: %v", err)
	}
	if got := RendererProcesses.String() + ", " + SingleProcess.String(); got != "renderer processes, single process" {
		t.Fatal(got)
	}
}
