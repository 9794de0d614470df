package htmlhost

import (
	"testing"

	. "github.com/gowebengine/weblocks/weblocks"
)

// Every spelling of one DOMString names one lock: a surrogate pair written
// as two 3-byte surrogates is the supplementary character, and two
// exclusive locks on it are never held at once.
func TestNameSpellingsAreOneLock(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	pair := Name("\xed\xa0\xbd\xed\xb8\x80") // U+D83D U+DE00 as two surrogates
	h := request(t, env, "😀", Options{})
	h.await()
	if got := ifAvailableName(t, env, nil, pair); got != "null" {
		t.Fatalf("the pair spelled as two surrogates got %s while 😀 is held; want null", got)
	}
	s := query(t, env)
	if s.Held.Len() != 1 || s.Held.At(0).Name != "😀" {
		t.Fatalf("query: %+v", s)
	}
	h2 := request(t, env, "\xff", Options{})
	h2.await()
	if got := ifAvailableName(t, env, nil, "\xed\xb3\xbf"); got != "null" {
		t.Fatalf("U+DCFF while byte 0xFF is held: %s; want null (one DOMString)", got)
	}
	if got := ifAvailableName(t, env, nil, "\uFFFD"); got != "exclusive" {
		t.Fatalf("U+FFFD while byte 0xFF is held: %s; want the lock (another DOMString)", got)
	}
}
