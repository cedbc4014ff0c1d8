package decode

// Item is one node of a derivation: a continuous item [I,J] (K and L are -1)
// or a discontinuous item [I,K,L,J], with its label (-1 for null), its own
// label weight, its inside score and the rule that built it.
type Item struct {
	I, K, L, J int
	Label      int
	Weight     float32
	Score      float32
	Rule       Rule
	// Left and Right index the antecedents in Derivation.Items (-1 for axioms).
	Left, Right int
}

// Discontinuous reports whether the item has a gap.
func (it Item) Discontinuous() bool { return it.K >= 0 }

// Blocks returns the item's blocks in interstice indices.
func (it Item) Blocks() [][2]int {
	if it.Discontinuous() {
		return [][2]int{{it.I, it.K}, {it.L, it.J}}
	}
	return [][2]int{{it.I, it.J}}
}

// Derivation is a decoded tree: the items of its best derivation, every
// antecedent before its consequent, the goal item [0,n] last.
type Derivation struct {
	Variant Variant
	N       int     // number of words
	Score   float32 // the goal's inside score: the tree's score
	Items   []Item
}

// Constituents returns the labelled items (the tree's nodes, null items
// spliced out), in derivation order.
func (d *Derivation) Constituents() []Constituent {
	var cs []Constituent
	for _, it := range d.Items {
		if it.Label >= 0 {
			cs = append(cs, Constituent{Label: it.Label, Blocks: it.Blocks()})
		}
	}
	return cs
}

// builder appends items to a derivation during recovery.
type builder struct {
	items []Item
}

func newBuilder(n int) builder { return builder{items: make([]Item, 0, 2*n)} }

func (b *builder) add(it Item) int {
	b.items = append(b.items, it)
	return len(b.items) - 1
}

func contItem(i, j, label int, weight, score float32, rule Rule, left, right int) Item {
	return Item{I: i, K: -1, L: -1, J: j, Label: label, Weight: weight, Score: score, Rule: rule, Left: left, Right: right}
}

func discItem(i, k, l, j, label int, weight, score float32, rule Rule, left, right int) Item {
	return Item{I: i, K: k, L: l, J: j, Label: label, Weight: weight, Score: score, Rule: rule, Left: left, Right: right}
}
