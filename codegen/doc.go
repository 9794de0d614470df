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
// bindings itself) the package also calls it from a generated init, the
// statics of interface X being the zero value of the hand-written struct
// type xStatics (UnexportedName): each interface's own file declares its
// statics, and a missing or incomplete one fails to compile.
package codegen
