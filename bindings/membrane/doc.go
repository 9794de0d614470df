// Package membrane lets the goja runtimes of one agent reach each other's
// objects synchronously. (Full documentation below.)
package membrane
