package suite

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/grafana/sobek"
)

// TestScriptsCompileInGoja parses every script of the tree with sobek, the
// engine of the go product: the suite must not use syntax sobek lacks.
func TestScriptsCompileInGoja(t *testing.T) {
	root := Root()
	n := 0
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		n++
		// Module scripts (resources named module-*.js) parse as modules.
		if strings.HasPrefix(path.Base(p), "module-") {
			if _, err := sobek.ParseModule(p, string(b), nil); err != nil {
				t.Errorf("%s: %v", p, err)
			}
			return nil
		}
		if _, err := sobek.Compile(p, string(b), false); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d scripts compile", n)
}
