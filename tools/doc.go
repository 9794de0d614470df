// Package tools holds the project's command-line tools in subdirectories:
// webidl (parse, check and format Web IDL), bindgen (the bindings
// generator) and perfcompare (Web Locks workloads timed side by side in
// this engine and in Chromium).
package tools
