package browser_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gowebengine/weblocks/browser"
)

func init() {
	// remnav23-state tells the browser process, once a window of a
	// renderer has loaded, its URL and session history length as its
	// script sees them.
	browser.RegisterRendererInit("remnav23-state", func(w *browser.Window, post func(string)) {
		go func() {
			<-w.Loaded()
			v, err := w.Evaluate(context.Background(), `location.href + ' ' + history.length`)
			if err == nil {
				post("state " + v.(string))
			}
		}()
	})
}

// navBrowser is msgBrowser whose renderers' windows also report their
// state (remnav23-state): states gets "URL historyLength" of each
// window once loaded, by its URL.
func navBrowser(t *testing.T) (*browser.Browser, *windowsByURL, *windowStates) {
	ws, states := &windowsByURL{}, &windowStates{}
	cfg := browser.Config{Fetcher: browser.FSFetcher{FS: msgSite}}
	cfg.Renderer.Inits = []string{"msg23-loaded", "remnav23-state"}
	cfg.Renderer.OnMessage = func(w *browser.Window, msg string) {
		if u, ok := strings.CutPrefix(msg, "loaded "); ok && w != nil {
			select {
			case ws.ch(u) <- w:
			default:
			}
		}
		if s, ok := strings.CutPrefix(msg, "state "); ok {
			u, _, _ := strings.Cut(s, " ")
			select {
			case states.ch(u) <- s:
			default:
			}
		}
	}
	return rendererBrowser(t, cfg), ws, states
}

type windowStates struct {
	mu   sync.Mutex
	seen map[string]chan string
}

func (s *windowStates) ch(u string) chan string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]chan string{}
	}
	c := s.seen[u]
	if c == nil {
		c = make(chan string, 1)
		s.seen[u] = c
	}
	return c
}

// wait is the state of the window of u once loaded.
func (s *windowStates) wait(t *testing.T, ctx context.Context, u string) string {
	t.Helper()
	select {
	case v := <-s.ch(u):
		return v
	case <-ctx.Done():
		t.Fatalf("no window of %s loaded", u)
		return ""
	}
}

// TestRendererNavigatePopup: an opener navigates its popup of another
// site, which runs in another renderer, through its WindowProxy
// stand-in's location setter, location.href setter and
// location.replace() (HTML's cross-origin Location members); reading the
// stand-in's location.href still throws a SecurityError, a bad URL throws
// a SyntaxError in the caller, a navigation to another site moves the
// popup to a renderer of that site, and a popup navigates its opener the
// same way.
func TestRendererNavigatePopup(t *testing.T) {
	ctx := testCtx(t)
	b, ws, states := navBrowser(t)
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	popup := openPopup(t, ctx, w1, ws)
	pid := popup.RendererPID()
	if pid == w1.RendererPID() {
		t.Fatal("the popup runs in its opener's renderer")
	}
	if v := reval(t, ctx, w1, `try { popup.location.href; 'read' } catch (e) { e.name }`); v != "SecurityError" {
		t.Fatalf("reading the popup's location.href: %v", v)
	}
	if v := reval(t, ctx, w1, `try { popup.location = 'https://[bad'; 'set' } catch (e) { e.name }`); v != "SyntaxError" {
		t.Fatalf("a bad URL: %v", v)
	}

	// The location setter.
	reval(t, ctx, w1, `popup.location = 'https://b.test/other.html?1'; 0`)
	if v := states.wait(t, ctx, "https://b.test/other.html?1"); v != "https://b.test/other.html?1 2" {
		t.Fatalf("after popup.location = url: %v", v)
	}
	// The href setter, relative to the opener's base URL.
	reval(t, ctx, w1, `popup.location.href = '//b.test/other.html?2'; 0`)
	if v := states.wait(t, ctx, "https://b.test/other.html?2"); v != "https://b.test/other.html?2 3" {
		t.Fatalf("after popup.location.href = url: %v", v)
	}
	// replace(): no new session history entry.
	reval(t, ctx, w1, `popup.location.replace('https://b.test/other.html?3'); 0`)
	if v := states.wait(t, ctx, "https://b.test/other.html?3"); v != "https://b.test/other.html?3 3" {
		t.Fatalf("after popup.location.replace(url): %v", v)
	}
	if popup.RendererPID() != pid {
		t.Fatalf("a same-site navigation moved the popup from renderer %d to %d", pid, popup.RendererPID())
	}
	if v := reval(t, ctx, w1, `try { popup.location.href; 'read' } catch (e) { e.name }`); v != "SecurityError" {
		t.Fatalf("reading the navigated popup's location.href: %v", v)
	}

	// To another site: the popup moves to a renderer of that site.
	reval(t, ctx, w1, `popup.location = 'https://c.test/other.html'; 0`)
	// (history.length is per renderer: browser/doc.go.)
	if v := states.wait(t, ctx, "https://c.test/other.html"); !strings.HasPrefix(v, "https://c.test/other.html ") {
		t.Fatalf("after popup.location = another site's URL: %v", v)
	}
	if p := popup.RendererPID(); p == pid || p == w1.RendererPID() || p == 0 {
		t.Fatalf("the popup's navigation to c.test runs in renderer %d (first %d, opener %d)", p, pid, w1.RendererPID())
	}

	// A popup navigates its opener.
	popup2 := openPopup(t, ctx, w1, ws)
	reval(t, ctx, popup2, `try { opener.location.href; 'read' } catch (e) { opener.location.href = 'https://a.test/other.html?opener'; e.name }`)
	if v := states.wait(t, ctx, "https://a.test/other.html?opener"); v != "https://a.test/other.html?opener 2" {
		t.Fatalf("after opener.location.href = url: %v", v)
	}
}
