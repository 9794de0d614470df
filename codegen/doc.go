// Package codegen generates Go bindings from Web IDL. The idl package's
// semantic layer (idl.Analyze) merges partial definitions and mixins,
// resolves typedefs and computes overload sets and distinguishability;
// codegen maps the result to Go types and emits the conversions and
// interface glue the bindings package runs. Run (used by bindgen)
// validates its input with idl.Validate first, as webidl check does.
package codegen
