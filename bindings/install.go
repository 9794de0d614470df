package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

// installGenerated installs the generated interfaces exposed in the realm.
var installGenerated = func(r *webidl.Realm) error { return nil }
