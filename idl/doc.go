// Package idl tokenizes, parses, validates and writes Web IDL.
//
// The AST has a JSON encoding identical to webidl2.js's, so its output
// interoperates with the JavaScript tooling of the web platform.
package idl
