// Package greeting is the Greeting interface of the example third-party
// wpt-runner product (examples/wptproduct): its Web IDL in idl/, the
// bindings bindgen generates from it (*_gen.go) and their implementation.
// Registry returns a registry holding it, for goproduct.Options.Interfaces.
package greeting

//go:generate go run github.com/gowebengine/weblocks/tools/bindgen -in idl -out . -pkg greeting
