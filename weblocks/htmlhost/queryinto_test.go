package htmlhost

import (
	"errors"
	"testing"

	"github.com/gowebengine/weblocks/html"
	. "github.com/gowebengine/weblocks/weblocks"
)

func TestQueryIntoErrors(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	var err1, err2 error
	onLoop(t, env, func() {
		_, err1 = QueryInto(env, nil)
		_, err2 = (*Manager)(nil).QueryInto(env, &Snapshot{})
	})
	if !errors.Is(err1, errNilSnapshot) || !errors.Is(err2, errNilManager) {
		t.Fatalf("got %v and %v", err1, err2)
	}
	var wg *html.WrongGoroutineError
	if _, err := Query(env); !errors.As(err, &wg) {
		t.Fatalf("Query from the wrong goroutine: %v", err)
	}
}
