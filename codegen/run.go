package codegen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/idl"
)

// ParseDir parses every .idl file of a directory, in name order.
func ParseDir(dir string) ([]*idl.File, error) {
	return ParseFS(os.DirFS(dir), ".", dir)
}

// ParseFS parses every .idl file of dir in fsys, in name order; the files
// are named prefix/name in positions (prefix "" leaves them bare). All
// syntax errors are returned together, as an errors.Join of
// idl.ErrorLists.
func ParseFS(fsys fs.FS, dir, prefix string) ([]*idl.File, error) {
	paths, err := fs.Glob(fsys, path.Join(dir, "*.idl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var files []*idl.File
	var errs []error
	for _, p := range paths {
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		name := path.Base(p)
		if prefix != "" {
			name = filepath.Join(prefix, name)
		}
		f, err := idl.Parse(name, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files = append(files, f)
	}
	return files, errors.Join(errs...)
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
