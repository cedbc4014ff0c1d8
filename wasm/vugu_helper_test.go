//go:build !js

package main

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite web/vugu.js from the vugu module")

// vuguHelper returns vugu's jsHelperScript, read from the source of the
// vugu module that go.mod names.
func vuguHelper(t *testing.T) string {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/vugu/vugu").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/vugu/vugu: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(dir)), "domrender", "renderer-js-script.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			if v, ok := s.(*ast.ValueSpec); ok && v.Names[0].Name == "jsHelperScript" {
				if lit, ok := v.Values[0].(*ast.BasicLit); ok {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						return s
					}
				}
			}
		}
	}
	t.Fatalf("%s: no string constant jsHelperScript", path)
	return ""
}

// TestVuguHelper: web/vugu.js holds vugu's renderer helper verbatim (after
// its comment lines), as the page must load it instead of vugu's eval.
func TestVuguHelper(t *testing.T) {
	want := vuguHelper(t)
	b, err := os.ReadFile(filepath.Join("web", "vugu.js"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var comment []string
	for len(lines) > 0 && strings.HasPrefix(lines[0], "//") {
		comment, lines = append(comment, lines[0]), lines[1:]
	}
	if *update {
		out := strings.Join(comment, "\n") + "\n" + want + "\n"
		if err := os.WriteFile(filepath.Join("web", "vugu.js"), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := strings.Join(lines, "\n"); got != want {
		t.Errorf("web/vugu.js (%d bytes of script) differs from vugu's jsHelperScript (%d bytes): run go test ./wasm -run TestVuguHelper -update", len(got), len(want))
	}
}
