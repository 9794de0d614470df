// Package gentest holds bindings generated from gentest.idl and the tests
// that run them in sobek realms.
package gentest

//go:generate go run ../../../tools/bindgen -in . -out . -pkg gentest -bindings=false
