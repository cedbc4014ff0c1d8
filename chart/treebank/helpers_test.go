package treebank

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// dataDir returns the shared data directory, or skips the test when it is
// not there.
func dataDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("skipping: treebank data not found at %s: %v", dir, err)
	}
	return dir
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, gl, wl)
		}
	}
	return "no difference"
}

// treesEqual compares two tree lists field by field, ignoring IDs when
// ignoreID is set; it returns a description of the first difference.
func treesEqual(got, want []*tree.Tree, ignoreID bool) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d trees, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i].Clone(), want[i].Clone()
		if ignoreID {
			g.ID, w.ID = "", ""
		}
		if !reflect.DeepEqual(g, w) {
			return fmt.Sprintf("tree %d:\n got %+v\nwant %+v", i, *g, *w)
		}
	}
	return ""
}

// bracketing returns the words, the tags and the sorted list of
// "label:yield" constituents of t, for comparing trees across formats.
func bracketing(t *tree.Tree, word func(string) string) (words, tags, consts []string) {
	for _, tok := range t.Tokens {
		words = append(words, word(tok.Word))
		tags = append(tags, tok.Tag)
	}
	for i, y := range t.Yields() {
		consts = append(consts, fmt.Sprintf("%s:%v", t.Nodes[i].Label, y))
	}
	sort.Strings(consts)
	return words, tags, consts
}

// mustRead reads text in format f or fails the test.
func mustRead(t *testing.T, text string, f Format) []*tree.Tree {
	t.Helper()
	trees, err := ReadAll(strings.NewReader(text), "test", f)
	if err != nil {
		t.Fatalf("read %v: %v", f, err)
	}
	return trees
}

// mustWrite writes trees in format f or fails the test.
func mustWrite(t *testing.T, trees []*tree.Tree, f Format) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, trees, f); err != nil {
		t.Fatalf("write %v: %v", f, err)
	}
	return buf.String()
}
