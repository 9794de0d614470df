// Package codegen generates Go bindings from Web IDL: it merges partial
// definitions and mixins, resolves typedefs, computes overload sets and
// emits the conversions and interface glue the bindings package runs.
package codegen
