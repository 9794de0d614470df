package html

import (
	"slices"
	"sync"
	"testing"

	"github.com/gowebengine/weblocks/storage"
)

// TestBroadcastRelay: PostMessage hands every message to the user agent's
// relay (for other processes), and DeliverBroadcast queues a relayed
// message at the channels of its name and storage key only.
func TestBroadcastRelay(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	a := mustOpen(t, ua, "https://a.test/")
	other := mustOpen(t, ua, "https://other.test/")
	var mu sync.Mutex
	var got []string
	mk := func(env *EnvironmentSettingsObject, name, label string) *BroadcastChannel {
		return NewBroadcastChannel(env, name, func(m SerializedWithTransfer, origin string) bool {
			mu.Lock()
			got = append(got, label+" "+origin+" "+m.Serialized.String)
			mu.Unlock()
			return true
		})
	}
	var relayed []string
	SetBroadcastRelay(ua, func(key storage.StorageKey, name, origin string, msg *SerializedRecord) {
		relayed = append(relayed, key.String()+" "+name+" "+origin+" "+msg.String)
	})
	src := mk(a.EnvironmentSettingsObject(), "c", "src")
	mk(a.EnvironmentSettingsObject(), "d", "othername")
	mk(other.EnvironmentSettingsObject(), "c", "otherorigin")
	if err := src.PostMessage(SerializedWithTransfer{Serialized: &SerializedRecord{Kind: SerializedString, String: "m1"}}); err != nil {
		t.Fatal(err)
	}
	key := a.EnvironmentSettingsObject().ObtainAStorageKeyForNonStoragePurposes()
	if want := []string{key.String() + " c https://a.test m1"}; !slices.Equal(relayed, want) {
		t.Fatalf("relayed %v, want %v", relayed, want)
	}
	DeliverBroadcast(ua, key, "c", "https://a.test", &SerializedRecord{Kind: SerializedString, String: "m2"})
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"src https://a.test m2"}; !slices.Equal(got, want) {
		t.Fatalf("delivered %v, want %v", got, want)
	}
}
