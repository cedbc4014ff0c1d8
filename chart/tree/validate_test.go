package tree

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// chain returns a tree of one word under a unary chain of depth nodes, the
// root last (node i's parent is i+1), or first when rootFirst is set.
func chain(depth int, rootFirst bool) *Tree {
	t := &Tree{Tokens: []Token{{Word: "w", Tag: "N"}}, Nodes: make([]Node, depth)}
	for i := range t.Nodes {
		t.Nodes[i] = Node{Label: "X", Parent: i + 1}
		if rootFirst {
			t.Nodes[i].Parent = i - 1
		}
	}
	if rootFirst {
		t.Nodes[0].Parent = Root
		t.Tokens[0].Parent = depth - 1
	} else {
		t.Nodes[depth-1].Parent = Root
		t.Tokens[0].Parent = 0
	}
	return t
}

func TestValidate(t *testing.T) {
	cyclic := chain(5, false)
	cyclic.Nodes[4].Parent = 2 // 2 -> 3 -> 4 -> 2
	self := chain(3, false)
	self.Nodes[1].Parent = 1
	tests := []struct {
		name string
		tree *Tree
		want string // part of the error; "" for none
	}{
		{"deep chain, root last", chain(100000, false), ""},
		{"deep chain, root first", chain(100000, true), ""},
		{"cycle", cyclic, "node 0 (X): parent links form a cycle"},
		{"self loop", self, "node 0 (X): parent links form a cycle"},
		{"parent out of range", &Tree{Tokens: []Token{{Parent: 3}}}, "token 0: parent index 3 out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.tree.Validate()
			if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Validate() = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCycleNodeLinear counts the parent links cycleNode follows on deep
// chains: at most two per node (following every node's links to the root
// would take depth²/2).
func TestCycleNodeLinear(t *testing.T) {
	for _, rootFirst := range []bool{false, true} {
		tr := chain(20000, rootFirst)
		follows := 0
		got := cycleNode(len(tr.Nodes), func(i int) int { follows++; return tr.Nodes[i].Parent })
		if got != -1 || follows > 2*len(tr.Nodes) {
			t.Errorf("root first %v: cycleNode = %d after %d follows, want -1 after at most %d", rootFirst, got, follows, 2*len(tr.Nodes))
		}
	}
}

// TestCycleNodeOracle compares cycleNode with following every node's
// links for len(nodes) steps, on random parent arrays of up to 8 nodes.
func TestCycleNodeOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := 1 + rng.IntN(8)
		parent := make([]int, n)
		for i := range parent {
			parent[i] = rng.IntN(n+1) - 1 // -1 is Root
		}
		want := -1
	nodes:
		for i := range n {
			p := parent[i]
			for steps := 0; p != Root; steps++ {
				if steps > n {
					want = i
					break nodes
				}
				p = parent[p]
			}
		}
		if got := cycleNode(n, func(i int) int { return parent[i] }); got != want {
			t.Fatalf("parents %v: cycleNode = %d, want %d", parent, got, want)
		}
	}
}

func BenchmarkValidate_DeepChain_100000(b *testing.B) {
	tr := chain(100000, false)
	for b.Loop() {
		if err := tr.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}
