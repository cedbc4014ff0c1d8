package oracle

import (
	"fmt"
	"math"

	"github.com/discspan/discspan/chart/decode"
)

// The constrained searches below read decode.Constraints literally: a tree
// satisfies them when, for every requirement, one of its labelled
// constituents has the required yield and label, and none of its labelled
// constituents has a forbidden yield. They do not reason about which items
// may cross which: the deduction search tracks, per item, which
// requirements its sub-derivation has met, and the tree search filters
// whole trees.

// constraintSet is a decode.Constraints with yields as bit sets.
type constraintSet struct {
	req      []uint64 // required yields
	reqLabel []int    // their labels
	forb     []uint64
}

// readConstraints converts c for a sentence of n words; it reports
// malformed blocks and labels outside 0..labels-1.
func readConstraints(n, labels int, c *decode.Constraints) (constraintSet, error) {
	var cs constraintSet
	if c == nil {
		return cs, nil
	}
	if len(c.Require) > 30 {
		return cs, fmt.Errorf("%d requirements (the oracle handles 30)", len(c.Require))
	}
	for i, r := range c.Require {
		if r.Unscored {
			return cs, fmt.Errorf("require[%d]: unscored (the oracle weighs every requirement by its label)", i)
		}
		y, err := yieldOf(n, decode.Constituent{Label: r.Label, Blocks: r.Blocks})
		if err != nil {
			return cs, fmt.Errorf("require[%d]: %v", i, err)
		}
		if r.Label < 0 || r.Label >= labels {
			return cs, fmt.Errorf("require[%d]: label %d outside 0..%d", i, r.Label, labels-1)
		}
		cs.req = append(cs.req, y)
		cs.reqLabel = append(cs.reqLabel, r.Label)
	}
	for i, f := range c.Forbid {
		y, err := yieldOf(n, decode.Constituent{Blocks: f.Blocks})
		if err != nil {
			return cs, fmt.Errorf("forbid[%d]: %v", i, err)
		}
		cs.forb = append(cs.forb, y)
	}
	return cs, nil
}

// all returns the bit set of every requirement.
func (cs constraintSet) all() uint32 { return uint32(1)<<len(cs.req) - 1 }

// forbidden reports whether yield y is forbidden.
func (cs constraintSet) forbidden(y uint64) bool {
	for _, f := range cs.forb {
		if f == y {
			return true
		}
	}
	return false
}

// met returns the requirements that a constituent of yield y and label a
// meets.
func (cs constraintSet) met(y uint64, a int) uint32 {
	var bits uint32
	for r, ry := range cs.req {
		if ry == y && cs.reqLabel[r] == a {
			bits |= 1 << r
		}
	}
	return bits
}

// option is the best score of a (sub-)derivation that meets exactly the
// requirements in met.
type option struct {
	met   uint32
	score float64
}

// keepBest merges o into opts, keeping the best score per set of met
// requirements.
func keepBest(opts []option, o option) []option {
	for i := range opts {
		if opts[i].met == o.met {
			if o.score > opts[i].score {
				opts[i].score = o.score
			}
			return opts
		}
	}
	return append(opts, o)
}

// subsetEngine is the deduction search of engine, refined by the set of
// requirements met: best(it) lists, for every set of requirements that
// some derivation of it meets, the best score of such a derivation. Every
// item chooses its label freely (null, weight 0, or any label a, weight
// labelWeight), except that an item with a forbidden yield is null.
type subsetEngine struct {
	n     int
	rules []*rule
	s     *decode.Scores
	cs    constraintSet
	memo  map[item][]option
}

// own lists the label choices of it: null, and every label unless its
// yield is forbidden.
func (e *subsetEngine) own(it item) []option {
	opts := []option{{0, 0}}
	y := it.mask()
	if e.cs.forbidden(y) {
		return opts
	}
	for a := 0; a < e.s.L; a++ {
		opts = keepBest(opts, option{e.cs.met(y, a), labelWeight(e.s, it, a)})
	}
	return opts
}

func (e *subsetEngine) best(it item) []option {
	if opts, ok := e.memo[it]; ok {
		return opts
	}
	if !it.valid(e.n) {
		return nil
	}
	e.memo[it] = nil // an item never derives itself; see engine.best
	var inner []option
	if it.isAxiom() {
		inner = []option{{0, 0}}
	}
	var bind [8]int
	for _, r := range e.rules {
		if len(r.cons) != it.len {
			continue
		}
		for p, v := range r.cons {
			bind[v] = it.x[p]
		}
		total := 1
		for f := len(r.cons); f < r.nvars; f++ {
			total *= e.n + 1
		}
		for code := 0; code < total; code++ {
			c := code
			for v := len(r.cons); v < r.nvars; v++ {
				bind[v] = c % (e.n + 1)
				c /= e.n + 1
			}
			if !chainsHold(r.chains, &bind) {
				continue
			}
			a, b := instantiate(r.ants[0], &bind), instantiate(r.ants[1], &bind)
			if !a.valid(e.n) || !b.valid(e.n) {
				continue
			}
			for _, x := range e.best(a) {
				for _, y := range e.best(b) {
					inner = keepBest(inner, option{x.met | y.met, x.score + y.score})
				}
			}
		}
	}
	var opts []option
	for _, in := range inner {
		for _, o := range e.own(it) {
			opts = keepBest(opts, option{in.met | o.met, in.score + o.score})
		}
	}
	e.memo[it] = opts
	return opts
}

// BestConstrainedDeduction returns the best score of a derivation of the
// goal in variant v's deduction system (as BestDeduction) whose labelled
// items satisfy c: every requirement is met by an item of its yield
// labelled with its label, and every item of a forbidden yield is null.
// Labels are chosen per item, so a required item may carry a label of
// negative weight. It returns -Inf when no derivation satisfies c, and
// panics on malformed scores or constraints or more than 30 requirements.
//
// Cost: BestDeduction's, times the product of the numbers of requirement
// sets two antecedents can meet (1 for items that contain no required
// yield); a few milliseconds for n = 6 and three requirements.
func BestConstrainedDeduction(v decode.Variant, s *decode.Scores, c *decode.Constraints) float64 {
	if err := s.Check(); err != nil {
		panic("oracle: " + err.Error())
	}
	cs, err := readConstraints(s.N, s.L, c)
	if err != nil {
		panic("oracle: " + err.Error())
	}
	if s.N == 0 {
		return 0 // readConstraints accepts no block when n = 0
	}
	e := &subsetEngine{n: s.N, rules: rulesOf(v), s: s, cs: cs, memo: map[item][]option{}}
	for _, o := range e.best(cont(0, s.N)) {
		if o.met == cs.all() {
			return o.score
		}
	}
	return math.Inf(-1)
}

// BestConstrainedTree is BestTree restricted to the trees that satisfy c:
// every tree of the family is scored, with each required yield carrying
// its required label and each forbidden yield scoring 0 (null), and kept
// only when it holds every required yield and no yield is both required
// and forbidden or required with two labels. It returns -Inf when no tree
// is kept, and the errors of BestTree and of malformed constraints.
func BestConstrainedTree(v decode.Variant, s *decode.Scores, c *decode.Constraints) (float64, error) {
	if err := s.Check(); err != nil {
		return 0, err
	}
	cs, err := readConstraints(s.N, s.L, c)
	if err != nil {
		return 0, err
	}
	maxBlocks := 0
	switch v {
	case decode.Continuous:
		maxBlocks = 1
	case decode.N3, decode.N4:
		maxBlocks = 2
	default:
		return 0, fmt.Errorf("oracle: no tree enumeration for variant %v", v)
	}
	if s.N > maxTreeWords[maxBlocks] {
		return 0, fmt.Errorf("oracle: tree enumeration for %v limited to %d words, got %d", v, maxTreeWords[maxBlocks], s.N)
	}
	if s.N == 0 {
		return 0, nil
	}
	f := familyOf(s.N, maxBlocks)
	// Per yield: its weight in a satisfying tree, the requirements it
	// meets, and whether no tree holding it can satisfy c.
	w := make([]float64, len(f.yields))
	met := make([]uint32, len(f.yields))
	bad := make([]bool, len(f.yields))
	for i, y := range f.yields {
		it, _ := itemOf(y)
		w[i] = itemWeight(s, it)
		label := -1
		for r, ry := range cs.req {
			if ry != y {
				continue
			}
			if label >= 0 && label != cs.reqLabel[r] {
				bad[i] = true
			}
			label = cs.reqLabel[r]
			met[i] |= 1 << r
		}
		switch {
		case label >= 0 && cs.forbidden(y):
			bad[i] = true
		case label >= 0:
			w[i] = labelWeight(s, it, label)
		case cs.forbidden(y):
			w[i] = 0
		}
	}
	best := math.Inf(-1)
	for _, tree := range f.trees {
		score, have, ok := 0.0, uint32(0), true
		for _, y := range tree {
			score += w[y]
			have |= met[y]
			ok = ok && !bad[y]
		}
		if ok && have == cs.all() && score > best {
			best = score
		}
	}
	return best, nil
}

// Satisfies reports the first constraint of c that the tree cs violates, or
// nil when it satisfies them all.
func Satisfies(cs []decode.Constituent, c *decode.Constraints) error {
	key := func(b [][2]int) string { return fmt.Sprint(b) }
	labels := map[string][]int{}
	for _, k := range cs {
		labels[key(k.Blocks)] = append(labels[key(k.Blocks)], k.Label)
	}
	for i, r := range c.Require {
		found := false
		for _, a := range labels[key(r.Blocks)] {
			found = found || a == r.Label
		}
		if !found {
			return fmt.Errorf("require[%d] (label %d over %v) is not a constituent (labels there: %v)",
				i, r.Label, r.Blocks, labels[key(r.Blocks)])
		}
	}
	for i, f := range c.Forbid {
		if got := labels[key(f.Blocks)]; len(got) > 0 {
			return fmt.Errorf("forbid[%d] %v carries label(s) %v", i, f.Blocks, got)
		}
	}
	return nil
}
