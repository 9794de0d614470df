// Package codegen generates Go bindings from Web IDL. The idl package's
// semantic layer (idl.Analyze) merges partial definitions and mixins,
// resolves typedefs and computes overload sets and distinguishability;
// codegen maps the result to Go types and emits the conversions and
// interface glue the bindings package runs. Run (used by bindgen)
// validates its input with idl.Validate first, as webidl check does.
//
// Registration: the generated Register(reg, Statics{...}) adds every
// definition to a registry and fails when a Statics field is nil. With
// Options.SelfRegister (bindgen -self-register; always on for package
// bindings itself) the package calls it from a generated init, the
// statics of interface X being the zero value of the hand-written struct
// type xStatics (UnexportedName): each interface's own file declares its
// statics, and a missing or incomplete one fails to compile.
// Nothing outside such a package needs its registration, so it is
// unexported there: idlRegister, idlStatics and, per interface,
// idlXStatics.
//
// Implementations: Options.Impls (bindgen -impls FILE, a file of
// "Interface *goType" lines; bindings/webidls/implementations.txt for
// package bindings) names the Go type implementing each interface. The
// generator then writes, beside each XMethods interface, `var _ XMethods
// = (*goType)(nil)` and the same for X's ancestors, so that a missing or
// misspelled method is a compile error, and the typed wrappers
// idlWrapX(r, impl XMethods) and idlWrapNewX(r, impl, storage) that
// hand-written code calls instead of the untyped (*webidl.Realm).Wrap. An
// interface without an entry, or an entry naming no generated interface,
// is a generation error. When one Go type implements an interface and
// every interface generated that inherits from it (AbortSignal, Blob,
// Request in package bindings; not Node or Event), XMethods also has
// the unexported method idlImpl() returning that type, generated on it:
// a value from JavaScript (an argument, a dictionary member, a union
// member, a sequence element) gives hand-written code its own type
// without a type assertion (options.Signal.idlImpl().sig), and no other
// type, in the package or outside it, can implement XMethods. Every
// definition's InterfaceDef.Implements checks its Methods interfaces, so
// that no platform object is ever made with another implementation and
// the generated brand checks' type assertions (webidl.Self, webidl.As)
// cannot fail.
//
// Typedefs: a typedef of a union type is a Go type named after the
// typedef, wherever it is used (sequence<BlobPart> is []BlobPart).
package codegen
