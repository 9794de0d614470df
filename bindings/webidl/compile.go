package webidl

import (
	"github.com/grafana/sobek"
	"github.com/grafana/sobek/parser"
)

// parserOptions are the options every script of the engine is parsed
// with. Source maps are never loaded: sobek's default loader opens the
// file a "//# sourceMappingURL=" comment names on the local disk, so a
// page could otherwise make the engine read (or fail on) a local file.
var parserOptions = []parser.Option{parser.WithDisableSourceMaps}

// Compile compiles src as a classic script named name, like
// sobek.Compile but with the engine's parser options. A syntax error is a
// *sobek.CompilerSyntaxError.
func Compile(name, src string, strict bool) (*sobek.Program, error) {
	ast, err := sobek.Parse(name, src, parserOptions...)
	if err != nil {
		return nil, err
	}
	return sobek.CompileAST(ast, strict)
}

// NewRuntime returns a new sobek runtime whose own parsing (eval,
// Function, RunString) uses the engine's parser options.
func NewRuntime() *sobek.Runtime {
	vm := sobek.New()
	vm.SetParserOptions(parserOptions...)
	return vm
}
