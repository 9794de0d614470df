// Package tools holds the project's command-line tools in subdirectories:
// webidl (parse, check and format Web IDL) and bindgen (the bindings
// generator).
package tools
