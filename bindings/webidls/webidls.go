// Package webidls holds the Web IDL sources of package bindings, from
// which bindgen generates bindings/*_gen.go. FS embeds them, so that
// bindgen run from another module generates bindings for an integrator's
// IDL that refers to these definitions (inherits EventTarget, takes an
// AbortSignal, uses their typedefs).
//
// The go:generate directive lives here rather than in package bindings:
// go generate reads every file of a package before running its
// directives, and bindgen removes the *_gen.go file of a deleted .idl file;
// running from this package (after bindings in ./... order) keeps that
// removal from failing go generate.
package webidls

import "embed"

//go:generate go run ../../tools/bindgen

// FS holds the *.idl files of this directory and implementations.txt,
// the Go types implementing their interfaces (bindgen tells an
// integrator's IDL that inherits an interface only package bindings can
// implement).
//
//go:embed *.idl implementations.txt
var FS embed.FS
