package tree

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestChartDependsOnNothingElse: no file of chart/ (tests aside, every
// build tag included) imports a package of the project outside chart/, as
// style.md fixes (the network, WebGPU, UI and server depend on chart,
// never the reverse). It reads the import lists from the sources, so it
// also covers files the host does not build.
func TestChartDependsOnNothingElse(t *testing.T) {
	const module = "github.com/discspan/discspan/"
	root := filepath.Join("..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if strings.HasPrefix(p, module) && !strings.HasPrefix(p, module+"chart/") {
				t.Errorf("%s imports %s, outside chart/", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("read %d files of chart/; the walk missed the tree", files)
	}
}
