package htmlhost

import (
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/gowebengine/weblocks/html"
	. "github.com/gowebengine/weblocks/weblocks"
)

func TestClosedUserAgentIsCollected(t *testing.T) {
	mk := func() (weak.Pointer[html.UserAgent], weak.Pointer[LockManager]) {
		ua := html.NewUserAgent()
		env := openWindow(t, ua, "https://a.test/")
		var m *LockManager
		onLoop(t, env, func() {
			q, _ := Query(env)
			r, _ := Request(env, "x", Options{}, func(*Lock) Waiting { return nil })
			_, _ = q, r
			m = LockManagers(ua)[0]
		})
		wm := weak.Make(m)
		ua.Close()
		return weak.Make(ua), wm
	}
	wua, wm := mk()
	for i := 0; i < 20 && (wua.Value() != nil || wm.Value() != nil); i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if wua.Value() != nil || wm.Value() != nil {
		t.Fatalf("closed user agent collected: %v, its lock manager collected: %v (want both)", wua.Value() == nil, wm.Value() == nil)
	}
}
