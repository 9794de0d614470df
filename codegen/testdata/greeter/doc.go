// Package greeter is an example of an integrator's own Web IDL interface,
// generated and implemented outside the engine's module and installed into
// realms made by package bindings, without a fork:
//
//   - idl/greeter.idl refers to the engine's definitions (EventTarget,
//     AbortSignal, DOMHighResTimeStamp, TimerHandler);
//   - go generate runs bindgen, which writes *_gen.go here (package
//     greeter, importing package bindings for those definitions);
//   - greeter.go implements GreeterMethods and GreeterStatics;
//     implementations.txt names its Go type, so that a missing or
//     misspelled method fails to compile; Install
//     registers them (Register fails when a Statics implementation is
//     missing) and installs the registry into a realm.
package greeter

//go:generate go run github.com/gowebengine/weblocks/tools/bindgen -in idl -out . -pkg greeter -impls implementations.txt
