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
	if RegisteredEndpoints()[0].Identifier == "changed" {
		t.Error("RegisteredEndpoints returned the registry itself")
	}
}
