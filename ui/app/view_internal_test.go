package app

import (
	"strings"
	"testing"

	"github.com/discspan/discspan/teach"
)

// TestTreeViewKeys: a drawing's key follows its SVG (equal drawings of a
// view share it, a selection changes it, clearing the selection gives it
// back), the tree key stays through redrawing, and keys of different
// views or different trees differ.
func TestTreeViewKeys(t *testing.T) {
	gallery := teach.Gallery()
	if len(gallery) < 2 {
		t.Fatalf("the gallery has %d examples", len(gallery))
	}
	first, err := gallery[0].Tree()
	if err != nil {
		t.Fatal(err)
	}
	second, err := gallery[1].Tree()
	if err != nil {
		t.Fatal(err)
	}
	a := newTreeView("main", "a", first, nil, nil, nil)
	again := newTreeView("main", "a", first, nil, nil, nil)
	if a.Err != "" || a.Key == "" || !strings.HasPrefix(a.Key, "main.") {
		t.Fatalf("key %q, error %q", a.Key, a.Err)
	}
	if again.Key != a.Key || again.TreeKey != a.TreeKey {
		t.Errorf("the same tree drawn twice: keys %q/%q, then %q/%q", a.Key, a.TreeKey, again.Key, again.TreeKey)
	}
	if other := newTreeView("side", "a", first, nil, nil, nil); other.Key == a.Key {
		t.Errorf("two views share the key %q", a.Key)
	}
	if other := newTreeView("main", "b", second, nil, nil, nil); other.Key == a.Key || other.TreeKey == a.TreeKey {
		t.Errorf("two trees share the key %q", a.Key)
	}
	plain, tk := a.Key, a.TreeKey
	a.setSelected(0)
	if a.Key == plain || a.TreeKey != tk {
		t.Errorf("after a selection: key %q (was %q), tree key %q (was %q)", a.Key, plain, a.TreeKey, tk)
	}
	a.setSelected(-1)
	if a.Key != plain {
		t.Errorf("selection cleared: key %q, want %q back", a.Key, plain)
	}
}
