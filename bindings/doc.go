// Package bindings exposes the engine to JavaScript: realms on goja,
// WebIDL conversions, exceptions, promises and callbacks, plus the code
// generated from the IDL sources kept beside it.
package bindings
