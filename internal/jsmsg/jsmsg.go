// Package jsmsg tidies the string forms of JavaScript errors that the
// engine shows to Go callers (Window.Evaluate's errors, uncaught exceptions
// reported to the console and to Config.OnError).
package jsmsg

import "strings"

// Once returns s, the string form "Name: message" of an error, with the
// error's name said once. sobek gives the SyntaxError it throws for code
// compiled at run time (eval, Function, Runtime.RunString) the message
// "SyntaxError: …", so its string form reads "SyntaxError: SyntaxError: …";
// Once makes that "SyntaxError: …". Only a name that ends in "Error" and is
// made of ASCII letters and digits is folded; other strings are returned
// as they are.
func Once(s string) string {
	i := strings.Index(s, ": ")
	if i <= 0 || !isErrorName(s[:i]) {
		return s
	}
	prefix := s[:i+2]
	for strings.HasPrefix(s[i+2:], prefix) {
		s = s[i+2:]
	}
	return s
}

func isErrorName(name string) bool {
	if !strings.HasSuffix(name, "Error") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
