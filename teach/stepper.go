package teach

import (
	"context"
	"fmt"

	"github.com/discspan/discspan/chart/decode"
)

// MaxStepperWords bounds the sentences the stepper replays: its chart keeps
// every item with all the rule instances tried, which is meant for display.
const MaxStepperWords = 12

// Item is a chart item: continuous [I,J] (K and L are -1) or discontinuous
// [I,K,L,J], in interstice indices.
type Item struct{ I, K, L, J int }

func contItem(i, j int) Item       { return Item{I: i, K: -1, L: -1, J: j} }
func discItem(i, k, l, j int) Item { return Item{I: i, K: k, L: l, J: j} }

// Continuous reports whether the item has no gap.
func (it Item) Continuous() bool { return it.K < 0 }

// Blocks returns the item's blocks.
func (it Item) Blocks() [][2]int {
	if it.Continuous() {
		return [][2]int{{it.I, it.J}}
	}
	return [][2]int{{it.I, it.K}, {it.L, it.J}}
}

// String writes the item as decoder.md does.
func (it Item) String() string {
	if it.Continuous() {
		return fmt.Sprintf("[%d,%d]", it.I, it.J)
	}
	return fmt.Sprintf("[%d,%d,%d,%d]", it.I, it.K, it.L, it.J)
}

// Step is one item as the stepper finalises it: its best way of being
// built and what that costs.
type Step struct {
	Item   Item
	Label  int     // best label, -1 for the null label
	Weight float32 // the label's weight (0 for null)
	Inside float32 // best score of a derivation of the item
	Rule   decode.Rule
	// Left and Right index the antecedents in Trace.Steps (-1 for axioms).
	Left, Right int
	// Instances counts the rule instances that can build the item.
	Instances int
}

// Trace is a replay of one deduction system on one sentence: every
// derivable item in the order a bottom-up chart finalises it (by outer
// extent, then left end; within an extent the discontinuous items by
// decreasing gap, then the continuous item), then the best derivation.
type Trace struct {
	Variant decode.Variant
	N       int
	Steps   []Step
	// Best lists the steps of the best derivation from the goal down
	// (each item before its antecedents, left before right).
	Best  []int
	Score float32 // the goal's inside score
}

// compiled is a rule ready for matching: the positions in Order of the
// consequent's and the antecedents' variables.
type compiled struct {
	rule              decode.Rule
	cons, left, right []int
	vars              int
	discConsequent    bool
}

func compile(info RuleInfo) compiled {
	pos := map[string]int{}
	for x, name := range info.Order {
		pos[name] = x
	}
	idx := func(s Shape) []int {
		out := make([]int, len(s))
		for x, name := range s {
			out[x] = pos[name]
		}
		return out
	}
	return compiled{rule: info.Rule, cons: idx(info.Consequent), left: idx(info.Left), right: idx(info.Right),
		vars: len(info.Order), discConsequent: !info.Consequent.Continuous()}
}

func itemOf(vals []int, at []int) Item {
	if len(at) == 2 {
		return contItem(vals[at[0]], vals[at[1]])
	}
	return discItem(vals[at[0]], vals[at[1]], vals[at[2]], vals[at[3]])
}

// stepper holds the chart of a replay.
type stepper struct {
	s     *decode.Scores
	steps []Step
	index map[Item]int
	rules []compiled
	vals  []int
	fixed []bool
}

// Replay runs variant v's deduction system on the scores step by step. N3
// is replayed with the rules of N4: the two search the same space and find
// the same trees, N3 with items that forget one gap boundary (the paper's
// create partial disc. and complete disc.), which the stepper does not
// show. Sentences longer than
// MaxStepperWords are refused.
func Replay(ctx context.Context, v decode.Variant, s *decode.Scores) (*Trace, error) {
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("teach: %w", err)
	}
	if s.N > MaxStepperWords {
		return nil, fmt.Errorf("teach: the stepper replays sentences of at most %d words, this one has %d", MaxStepperWords, s.N)
	}
	if v < decode.Continuous || v > decode.N6 {
		return nil, fmt.Errorf("teach: unknown variant %d", int(v))
	}
	if s.N == 0 {
		return nil, fmt.Errorf("teach: empty sentence")
	}
	st := &stepper{s: s, index: map[Item]int{}}
	for _, info := range Rules() {
		if v.Has(info.Rule) {
			st.rules = append(st.rules, compile(info))
		}
	}
	n := s.N
	for span := 1; span <= n; span++ {
		for i := 0; i+span <= n; i++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			j := i + span
			if span == 1 {
				label, w := st.weight(contItem(i, j))
				st.add(Step{Item: contItem(i, j), Label: label, Weight: w, Inside: w, Rule: decode.Axiom, Left: -1, Right: -1})
				continue
			}
			if v != decode.Continuous {
				for g := span - 2; g >= 1; g-- {
					for k := i + 1; k+g <= j-1; k++ {
						st.build(discItem(i, k, k+g, j))
					}
				}
			}
			st.build(contItem(i, j))
		}
	}
	goal, ok := st.index[contItem(0, n)]
	if !ok {
		return nil, fmt.Errorf("teach: %s derives no goal item", v)
	}
	t := &Trace{Variant: v, N: n, Steps: st.steps, Score: st.steps[goal].Inside}
	var walk func(x int)
	walk = func(x int) {
		t.Best = append(t.Best, x)
		if st.steps[x].Left >= 0 {
			walk(st.steps[x].Left)
			walk(st.steps[x].Right)
		}
	}
	walk(goal)
	return t, nil
}

func (st *stepper) add(step Step) {
	st.index[step.Item] = len(st.steps)
	st.steps = append(st.steps, step)
}

// build finalises one item from every instance of every rule that has it as
// consequent; it adds no step when no instance applies.
func (st *stepper) build(it Item) {
	best := Step{Item: it, Left: -1, Right: -1}
	found := false
	for _, r := range st.rules {
		if r.discConsequent == it.Continuous() {
			continue
		}
		st.vals = append(st.vals[:0], make([]int, r.vars)...)
		st.fixed = append(st.fixed[:0], make([]bool, r.vars)...)
		bound := []int{it.I, it.J}
		if !it.Continuous() {
			bound = []int{it.I, it.K, it.L, it.J}
		}
		for x, v := range bound {
			st.vals[r.cons[x]], st.fixed[r.cons[x]] = v, true
		}
		st.instances(r, 0, -1, func() {
			a, okA := st.index[itemOf(st.vals, r.left)]
			b, okB := st.index[itemOf(st.vals, r.right)]
			if !okA || !okB {
				return
			}
			best.Instances++
			inside := st.steps[a].Inside + st.steps[b].Inside
			if !found || inside > best.Inside {
				found = true
				best.Inside, best.Rule, best.Left, best.Right = inside, r.rule, a, b
			}
		})
	}
	if !found {
		return
	}
	best.Label, best.Weight = st.weight(it)
	best.Inside += best.Weight
	st.add(best)
}

// instances calls f for every strictly increasing assignment of the rule's
// free variables (positions p.. of its order) within 0..n that agrees with
// the fixed ones.
func (st *stepper) instances(r compiled, p, prev int, f func()) {
	if p == r.vars {
		f()
		return
	}
	if st.fixed[p] {
		if st.vals[p] > prev {
			st.instances(r, p+1, st.vals[p], f)
		}
		return
	}
	for x := prev + 1; x <= st.s.N; x++ {
		st.vals[p] = x
		st.instances(r, p+1, x, f)
	}
}

// weight returns the best label of an item and its weight: the lowest label
// with the largest strictly positive score, or the null label (-1, 0).
func (st *stepper) weight(it Item) (int, float32) {
	s := st.s
	label, best := -1, float32(0)
	for a := 0; a < s.L; a++ {
		var v float32
		if it.Continuous() {
			v = s.Cont[s.Index(it.I, it.J-1, a)]
		} else {
			v = s.Disc[s.Index(it.I, it.J-1, a)] + s.Gap[s.Index(it.K, it.L-1, a)]
		}
		if v > best {
			label, best = a, v
		}
	}
	return label, best
}

// Uses returns the steps of the best derivation that rule r built.
func (t *Trace) Uses(r decode.Rule) []int {
	var out []int
	for _, x := range t.Best {
		if t.Steps[x].Rule == r {
			out = append(out, x)
		}
	}
	return out
}

// Applications returns the items of a decoded derivation that rule r built,
// for highlighting a rule's uses in a parse.
func Applications(d *decode.Derivation, r decode.Rule) []decode.Item {
	var out []decode.Item
	for _, it := range d.Items {
		if it.Rule == r {
			out = append(out, it)
		}
	}
	return out
}
