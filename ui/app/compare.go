package app

import (
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
)

// exact compares brackets as they are: every label whole, no token
// deleted.
var exact = eval.Params{Name: "exact", Labeled: true, KeepFunctionTags: true}

// compareTrees marks the nodes of a and b that have no identical partner
// (same label, same words) in the other tree with the class "extra", for
// drawing two variants' trees side by side.
func compareTrees(a, b *tree.Tree) (ca, cb map[int]string) {
	r, err := eval.NewEvaluator(exact).Add(a, b)
	if err != nil {
		return nil, nil
	}
	return classMap(r.GoldUnmatched, "extra"), classMap(r.CandUnmatched, "extra")
}

// classMap gives every node of nodes the class c.
func classMap(nodes []int, c string) map[int]string {
	m := make(map[int]string, len(nodes))
	for _, n := range nodes {
		m[n] = c
	}
	return m
}
