package storage

import "testing"

// WebLocks is the endpoint the tests use; package weblocks registers it in
// a real program.
const WebLocks = "web-locks"

func init() {
	if err := RegisterEndpoint(Endpoint{Identifier: WebLocks, Types: []StorageType{Local}}); err != nil {
		panic(err)
	}
}

func TestRegisterEndpoint(t *testing.T) {
	if err := RegisterEndpoint(Endpoint{Identifier: WebLocks, Types: []StorageType{Local}}); err == nil {
		t.Error("registering an identifier twice succeeded")
	}
	if err := RegisterEndpoint(Endpoint{Identifier: "x"}); err == nil {
		t.Error("registering an endpoint without types succeeded")
	}
	eps := RegisteredEndpoints()
	eps[0].Identifier = "changed"
	eps[0].Types[0] = Session
	if again := RegisteredEndpoints()[0]; again.Identifier == "changed" || again.Types[0] == Session {
		t.Error("RegisteredEndpoints returned the registry itself")
	}
}
