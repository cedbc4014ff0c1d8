package annotate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// dataDir returns the shared data directory, or skips the test when it is
// not there.
func dataDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("skipping: treebank data not found at %s: %v", dir, err)
	}
	return dir
}

// parse reads one discbracket tree.
func parse(t testing.TB, s string) *tree.Tree {
	t.Helper()
	trees, err := treebank.ReadDiscbracket(strings.NewReader(s+"\n"), "test")
	if err != nil || len(trees) != 1 {
		t.Fatalf("parse %q: %d trees, %v", s, len(trees), err)
	}
	return trees[0]
}

// bracket writes a tree as a discbracket line without the newline.
func bracket(t testing.TB, tr *tree.Tree) string {
	t.Helper()
	var buf bytes.Buffer
	if err := treebank.WriteDiscbracket(&buf, []*tree.Tree{tr}); err != nil {
		t.Fatalf("write: %v", err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// sameTree reports the first difference between two trees, or "".
func sameTree(got, want *tree.Tree) string {
	if reflect.DeepEqual(got, want) {
		return ""
	}
	return fmt.Sprintf("\n got %+v\nwant %+v", *got, *want)
}

// fakeReparser is a deterministic Reparser for tests: it builds the tree
// whose constituents are the required ones plus a flat "FAKE" constituent
// over all words (unless that yield is forbidden or required), so that its
// result differs from the tree it was given. It counts its calls and can
// be told to fail or to cheat.
type fakeReparser struct {
	calls   int
	fail    error
	dropAll bool  // return a tree without the required constituents
	forbid  Yield // add a constituent "BAD" over this yield
	last    []Fixed
}

func (f *fakeReparser) Reparse(ctx context.Context, words, tags []string, require []Fixed, forbid []Yield) (*tree.Tree, error) {
	f.calls++
	f.last = require
	if f.fail != nil {
		return nil, f.fail
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var cons []tree.Labelled
	if !f.dropAll {
		for _, r := range require {
			cons = append(cons, tree.Labelled{Label: r.Label, Blocks: r.Yield})
		}
	}
	all := Yield{{Start: 0, End: len(words)}}
	ok := len(words) > 0
	for _, y := range forbid {
		ok = ok && !y.Equal(all)
	}
	for _, r := range require {
		ok = ok && !r.Yield.Equal(all)
	}
	if ok {
		cons = append(cons, tree.Labelled{Label: "FAKE", Blocks: all})
	}
	if f.forbid != nil {
		cons = append(cons, tree.Labelled{Label: "BAD", Blocks: f.forbid})
	}
	t, err := tree.FromConstituents(words, tags, cons)
	if err != nil {
		return nil, errors.Join(errors.New("fake reparser"), err)
	}
	return t, nil
}
