package codegen

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/idl"
)

// ParseDir parses every .idl file of a directory, in name order.
func ParseDir(dir string) ([]*idl.File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.idl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var files []*idl.File
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f, err := idl.Parse(filepath.Base(p), src)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		files = append(files, f)
	}
	return files, nil
}

// ErrorReport formats the errors of a generation, one definition a line,
// sorted by name.
func (g *Generator) ErrorReport() string {
	var names []string
	for n := range g.Errors {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		for _, e := range g.Errors[n] {
			fmt.Fprintf(&b, "%s: %v\n", n, e)
		}
	}
	return b.String()
}

// WriteOutputs writes generated files into dir, removing *_gen.go files
// there that this run did not produce.
func WriteOutputs(dir string, outs []Output) error {
	keep := map[string]bool{}
	for _, o := range outs {
		keep[o.Name] = true
		p := filepath.Join(dir, o.Name)
		if old, err := os.ReadFile(p); err == nil && string(old) == string(o.Src) {
			continue
		}
		if err := os.WriteFile(p, o.Src, 0o644); err != nil {
			return err
		}
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*_gen.go"))
	for _, p := range old {
		if !keep[filepath.Base(p)] {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	return nil
}
