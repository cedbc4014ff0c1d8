package annotate

import (
	"context"
	"errors"
	"fmt"

	"github.com/discspan/discspan/chart/tree"
)

// reparse replaces the tree of st, a state not yet published, by the
// Reparser's tree around st's fixed and forbidden constituents, merged with
// the annotation of the old tree (see merge). The result must respect the
// constraints.
func reparse(ctx context.Context, st *state, rp Reparser) error {
	old := st.tree
	require := make([]Fixed, len(st.fixed))
	for i, f := range st.fixed {
		require[i] = Fixed{f.Label, f.Yield.clone()}
	}
	forbid := make([]Yield, len(st.forbidden))
	for i, y := range st.forbidden {
		forbid[i] = y.clone()
	}
	got, err := rp.Reparse(ctx, old.Words(), old.Tags(), require, forbid)
	if err != nil {
		return fmt.Errorf("annotate: re-parse: %w", err)
	}
	if got == nil {
		return errors.New("annotate: re-parse: no tree")
	}
	if len(got.Tokens) != len(old.Tokens) {
		return fmt.Errorf("annotate: re-parse: %d words, want %d", len(got.Tokens), len(old.Tokens))
	}
	if err := got.Validate(); err != nil {
		return fmt.Errorf("annotate: re-parse: %w", err)
	}
	if _, missing := matchFixed(got, st.fixed); len(missing) > 0 {
		return fmt.Errorf("annotate: re-parse: the result lacks fixed constituent %s", missing[0])
	}
	if len(st.forbidden) > 0 {
		bad := make(map[string]bool, len(st.forbidden))
		for _, y := range st.forbidden {
			bad[y.String()] = true
		}
		for i, y := range got.Yields() {
			if y := YieldOf(y); len(y) > 0 && bad[y.String()] {
				return fmt.Errorf("annotate: re-parse: the result has a constituent %s over the forbidden yield %s", got.Nodes[i].Label, y)
			}
		}
	}
	st.tree = merge(old, got)
	return nil
}

// merge returns the re-parsed tree got with the annotation of old kept: the
// id, and all token fields but the parent; for a node of got with the same
// label and yield as a node of old (a multiset match in node order), the
// number, lemma, morphology and comment of the old node. Function labels
// are kept where the parent corresponds to the old parent, and secondary
// edges where their target node was matched. Other nodes get free numbers.
func merge(old, got *tree.Tree) *tree.Tree {
	oldBy := make(map[string][]int)
	for i, y := range old.Yields() {
		if len(y) > 0 {
			k := Fixed{old.Nodes[i].Label, YieldOf(y)}.String()
			oldBy[k] = append(oldBy[k], i)
		}
	}
	match := make([]int, len(got.Nodes)) // old node of each new node, or -1
	inv := make([]int, len(old.Nodes))   // new node of each old node, or -1
	for i := range inv {
		inv[i] = -1
	}
	for j, y := range got.Yields() {
		match[j] = -1
		if len(y) == 0 {
			continue
		}
		k := Fixed{got.Nodes[j].Label, YieldOf(y)}.String()
		if list := oldBy[k]; len(list) > 0 {
			match[j], inv[list[0]] = list[0], j
			oldBy[k] = list[1:]
		}
	}
	corresponds := func(oldParent, newParent int) bool {
		if newParent == tree.Root {
			return oldParent == tree.Root
		}
		return oldParent != tree.Root && match[newParent] == oldParent
	}
	sec := func(s []tree.SecEdge) []tree.SecEdge {
		var out []tree.SecEdge
		for _, e := range s {
			switch {
			case e.Parent == tree.Root:
				out = append(out, e)
			case inv[e.Parent] >= 0:
				out = append(out, tree.SecEdge{Label: e.Label, Parent: inv[e.Parent]})
			}
		}
		return out
	}
	t := &tree.Tree{ID: old.ID, BOSExtra: old.BOSExtra}
	if len(old.Tokens) > 0 {
		t.Tokens = make([]tree.Token, len(old.Tokens))
	}
	for i, ot := range old.Tokens {
		tok := ot
		tok.Parent = got.Tokens[i].Parent
		if !corresponds(ot.Parent, tok.Parent) {
			tok.Edge = ""
		}
		tok.Sec = sec(ot.Sec)
		t.Tokens[i] = tok
	}
	if len(got.Nodes) > 0 {
		t.Nodes = make([]tree.Node, len(got.Nodes))
	}
	used := make(map[int]bool)
	for j, gn := range got.Nodes {
		nd := tree.Node{Label: gn.Label, Parent: gn.Parent}
		if o := match[j]; o >= 0 {
			on := old.Nodes[o]
			nd.Lemma, nd.Morph, nd.Comment = on.Lemma, on.Morph, on.Comment
			if corresponds(on.Parent, gn.Parent) {
				nd.Edge = on.Edge
			}
			nd.Sec = sec(on.Sec)
			if on.Num >= 500 && on.Num <= 999 && !used[on.Num] {
				nd.Num = on.Num
				used[on.Num] = true
			}
		}
		t.Nodes[j] = nd
	}
	next := 500
	for j := range t.Nodes {
		if t.Nodes[j].Num != 0 {
			continue
		}
		for next <= 999 && used[next] {
			next++
		}
		if next <= 999 {
			t.Nodes[j].Num = next
			used[next] = true
		}
	}
	return t
}
