package jsmsg

import "testing"

func TestOnce(t *testing.T) {
	for in, want := range map[string]string{
		"SyntaxError: SyntaxError: (anonymous): Line 1:2 Unexpected end of input": "SyntaxError: (anonymous): Line 1:2 Unexpected end of input",
		"SyntaxError: SyntaxError: SyntaxError: x":                                "SyntaxError: x",
		"SyntaxError: x":                      "SyntaxError: x",
		"TypeError: TypeError":                "TypeError: TypeError",
		"TypeError: SyntaxError: x":           "TypeError: SyntaxError: x",
		"a: a: b":                             "a: a: b",
		"My Error: My Error: b":               "My Error: My Error: b",
		"5":                                   "5",
		"":                                    "",
		": : x":                               ": : x",
		"DataCloneError: DataCloneError: foo": "DataCloneError: foo",
	} {
		if got := Once(in); got != want {
			t.Errorf("Once(%q) = %q, want %q", in, got, want)
		}
	}
}
