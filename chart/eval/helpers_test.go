package eval

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// mk builds a tree from discbracket notation for hand-written tests. The
// outermost bracket is the virtual root (whatever its label); preterminals are
// (TAG index=word). It is a test helper only, not a treebank reader.
func mk(t testing.TB, s string) *tree.Tree {
	t.Helper()
	tr, err := parseDisc(s)
	if err != nil {
		t.Fatalf("mk(%q): %v", s, err)
	}
	return tr
}

// unesc undoes the #LRB# / #RRB# escapes of bracket notation.
func unesc(s string) string {
	return strings.NewReplacer("#LRB#", "(", "#RRB#", ")").Replace(s)
}

func tokenize(s string) []string {
	s = strings.NewReplacer("(", " ( ", ")", " ) ").Replace(s)
	return strings.Fields(s)
}

func parseDisc(s string) (*tree.Tree, error) {
	toks := tokenize(s)
	pos := 0
	next := func() (string, error) {
		if pos >= len(toks) {
			return "", fmt.Errorf("unexpected end")
		}
		pos++
		return toks[pos-1], nil
	}
	type leaf struct {
		idx       int
		word, tag string
		parent    int
	}
	var leaves []leaf
	tr := &tree.Tree{}
	// parse reads "( LABEL ...children )" with the "(" already consumed.
	var parse func(parent int, isRoot bool) error
	parse = func(parent int, isRoot bool) error {
		label, err := next()
		if err != nil {
			return err
		}
		if pos < len(toks) && toks[pos] != "(" && toks[pos] != ")" {
			// preterminal
			lw, _ := next()
			i, w, ok := strings.Cut(lw, "=")
			if !ok {
				return fmt.Errorf("leaf %q lacks index=", lw)
			}
			n, err := strconv.Atoi(i)
			if err != nil {
				return err
			}
			leaves = append(leaves, leaf{n, unesc(w), unesc(label), parent})
			if c, _ := next(); c != ")" {
				return fmt.Errorf("expected ) after leaf %q", lw)
			}
			return nil
		}
		self := parent
		if !isRoot {
			tr.Nodes = append(tr.Nodes, tree.Node{Label: label, Parent: parent})
			self = len(tr.Nodes) - 1
		}
		for {
			c, err := next()
			if err != nil {
				return err
			}
			if c == ")" {
				return nil
			}
			if c != "(" {
				return fmt.Errorf("unexpected %q", c)
			}
			if err := parse(self, false); err != nil {
				return err
			}
		}
	}
	if c, err := next(); err != nil || c != "(" {
		return nil, fmt.Errorf("tree must start with (")
	}
	if err := parse(tree.Root, true); err != nil {
		return nil, err
	}
	tr.Tokens = make([]tree.Token, len(leaves))
	seen := make([]bool, len(leaves))
	for _, l := range leaves {
		if l.idx < 0 || l.idx >= len(leaves) || seen[l.idx] {
			return nil, fmt.Errorf("bad leaf index %d", l.idx)
		}
		seen[l.idx] = true
		tr.Tokens[l.idx] = tree.Token{Word: l.word, Tag: l.tag, Parent: l.parent}
	}
	return tr, tr.Validate()
}

func TestHelperParseDisc(t *testing.T) {
	tr := mk(t, "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John)) (? 3=?))")
	if got := strings.Join(tr.Words(), " "); got != "is John rich ?" {
		t.Fatalf("words %q", got)
	}
	if len(tr.Nodes) != 2 || tr.Nodes[0].Label != "S" || tr.Nodes[1].Label != "VP" || tr.Nodes[1].Parent != 0 {
		t.Fatalf("nodes %+v", tr.Nodes)
	}
	if tr.Tokens[3].Parent != tree.Root || tr.Tokens[1].Tag != "NP" || tr.Tokens[1].Parent != 0 {
		t.Fatalf("tokens %+v", tr.Tokens)
	}
}
