package teach

import (
	"context"
	"fmt"
	"slices"

	"github.com/discspan/discspan/chart/decode"
)

// MaxStepperWords bounds the sentences the stepper replays: its chart keeps
// every item with all the rule instances tried, which is meant for display.
const MaxStepperWords = 12

// Item is a chart item in interstice indices: continuous [I,J] (K and L
// are -1, A is 0), discontinuous [I,K,L,J] (A is 0), or the cubic
// algorithm's bottom(I,L,A) (K and J are -1): a discontinuous constituent
// with label A whose left block and gap filler, together [I,L), are built
// and whose right block starts at L.
type Item struct{ I, K, L, J, A int }

func contItem(i, j int) Item       { return Item{I: i, K: -1, L: -1, J: j} }
func discItem(i, k, l, j int) Item { return Item{I: i, K: k, L: l, J: j} }
func bottomItem(i, l, a int) Item  { return Item{I: i, K: -1, L: l, J: -1, A: a} }

// Continuous reports whether the item is a continuous [I,J].
func (it Item) Continuous() bool { return it.K < 0 && it.J >= 0 }

// Bottom reports whether the item is a bottom(I,L,A).
func (it Item) Bottom() bool { return it.J < 0 }

// Blocks returns the item's blocks; a bottom item's one block is what it
// covers so far, its left block and the gap filler.
func (it Item) Blocks() [][2]int {
	switch {
	case it.Bottom():
		return [][2]int{{it.I, it.L}}
	case it.Continuous():
		return [][2]int{{it.I, it.J}}
	}
	return [][2]int{{it.I, it.K}, {it.L, it.J}}
}

// String writes the item as decoder.md does; a bottom item without its
// label ("bottom(2,5)"), which Step.Label gives.
func (it Item) String() string {
	switch {
	case it.Bottom():
		return fmt.Sprintf("bottom(%d,%d)", it.I, it.L)
	case it.Continuous():
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
	// Disc is, for an item built by complete discontinuous, the weight
	// disc[i,j-1,A] of the discontinuous constituent A it completes; 0
	// otherwise.
	Disc float32
}

// Trace is a replay of one deduction system on one sentence: every
// derivable item in the order a bottom-up chart finalises it (by outer
// extent, then left end; within an extent the discontinuous items by
// decreasing gap, or N3's bottom items by label, then the continuous
// item), then the best derivation.
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

// Replay runs variant v's deduction system on the scores step by step; N3
// with the cubic algorithm's rules and items (combine, create partial
// discontinuous into bottom(i,l,A) for every label A, complete
// discontinuous; see StepperRules). Sentences longer than MaxStepperWords
// are refused.
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
	for _, info := range Rules() { // N3's cubic rules are built by hand (buildCubic)
		if slices.Contains(StepperRules(v), info.Rule) {
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
			switch v {
			case decode.Continuous:
			case decode.N3:
				st.createPartial(i, j)
			default:
				for g := span - 2; g >= 1; g-- {
					for k := i + 1; k+g <= j-1; k++ {
						st.build(discItem(i, k, k+g, j))
					}
				}
			}
			if v == decode.N3 {
				st.buildCubic(i, j)
			} else {
				st.build(contItem(i, j))
			}
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

// StepperRules returns the rules of v's deduction system as Replay runs
// it: N3's are the cubic algorithm's, the others' decoder.md's (v.Rules).
func StepperRules(v decode.Variant) []decode.Rule {
	if v == decode.N3 {
		return []decode.Rule{decode.Combine, decode.CreatePartial, decode.CompleteDisc}
	}
	return v.Rules()
}

// createPartial finalises bottom(i,l,A) for every label A: the best of
// top[i,k] + top[k,l] over i<k<l, plus gap[k,l-1,A] (the smallest k among
// equals), summed as the decoder does.
func (st *stepper) createPartial(i, l int) {
	s := st.s
	for a := 0; a < s.L; a++ {
		best := Step{Item: bottomItem(i, l, a), Label: a, Rule: decode.CreatePartial, Instances: l - i - 1}
		for k := i + 1; k < l; k++ {
			left, right := st.index[contItem(i, k)], st.index[contItem(k, l)]
			gap := s.Gap[s.Index(k, l-1, a)]
			if inside := (st.steps[left].Inside + st.steps[right].Inside) + gap; k == i+1 || inside > best.Inside {
				best.Inside, best.Weight, best.Left, best.Right = inside, gap, left, right
			}
		}
		st.add(best)
	}
}

// buildCubic finalises top[i,j] with N3's rules as the cubic decoder
// does: the best of every combine top[i,m] + top[m,j] and every complete
// bottom(i,l,A) + top[l,j] + disc[i,j-1,A] (i+1<l<j), plus the best
// continuous label's weight; of the instances that reach that total, the
// first in the decoder's order of recovery (combine by m, then complete
// by l, then by A), so that ties give the decoder's tree.
func (st *stepper) buildCubic(i, j int) {
	s := st.s
	type instance struct {
		value, disc float32
		rule        decode.Rule
		left, right int
	}
	var all []instance
	for m := i + 1; m < j; m++ {
		left, right := st.index[contItem(i, m)], st.index[contItem(m, j)]
		all = append(all, instance{st.steps[left].Inside + st.steps[right].Inside, 0, decode.Combine, left, right})
	}
	at := s.Index(i, j-1, 0)
	for l := i + 2; l < j; l++ {
		right := st.index[contItem(l, j)]
		for a := 0; a < s.L; a++ {
			bottom := st.index[bottomItem(i, l, a)]
			disc := s.Disc[at+a]
			all = append(all, instance{disc + (st.steps[bottom].Inside + st.steps[right].Inside), disc, decode.CompleteDisc, bottom, right})
		}
	}
	best := all[0].value
	for _, in := range all[1:] {
		best = max(best, in.value)
	}
	step := Step{Item: contItem(i, j), Instances: len(all)}
	step.Label, step.Weight = st.weight(step.Item)
	step.Inside = best + step.Weight
	for _, in := range all {
		if in.value+step.Weight == step.Inside {
			step.Rule, step.Left, step.Right, step.Disc = in.rule, in.left, in.right, in.disc
			break
		}
	}
	st.add(step)
}

// Derivation returns the best derivation with its items before the
// items built from them (left antecedent, right antecedent, item), N3's in
// n4's rules and in the cubic decoder's order: a complete discontinuous
// of top[i,j] from bottom(i,l,A), itself from top[i,k] and top[k,l], is
// the item [i,k,l,j] with label A built by create gap from [i,k] and
// [l,j], then [i,j] built by fill gap from it and [k,l]. Its items'
// antecedents are not linked (Left and Right are -1): it is for
// Constituents and Tree.
func (t *Trace) Derivation() *decode.Derivation {
	d := &decode.Derivation{Variant: t.Variant, N: t.N, Score: t.Score}
	item := func(st Step) decode.Item {
		return decode.Item{I: st.Item.I, K: st.Item.K, L: st.Item.L, J: st.Item.J, Label: st.Label,
			Weight: st.Weight, Score: st.Inside, Rule: st.Rule, Left: -1, Right: -1}
	}
	var walk func(x int)
	walk = func(x int) {
		st := t.Steps[x]
		switch {
		case st.Rule == decode.Axiom:
		case st.Rule == decode.CompleteDisc:
			b := t.Steps[st.Left]
			leftBlock := t.Steps[b.Left]
			walk(b.Left)
			walk(st.Right)
			disc := item(b)
			disc.K, disc.J, disc.Rule = leftBlock.Item.J, st.Item.J, decode.CreateGap
			disc.Weight += st.Disc
			disc.Score = (leftBlock.Inside + t.Steps[st.Right].Inside) + disc.Weight
			d.Items = append(d.Items, disc)
			walk(b.Right)
			self := item(st)
			self.Rule = decode.FillGap
			d.Items = append(d.Items, self)
			return
		default:
			walk(st.Left)
			walk(st.Right)
		}
		d.Items = append(d.Items, item(st))
	}
	if len(t.Best) > 0 {
		walk(t.Best[0])
	}
	return d
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
// for highlighting a rule's uses in a parse. N3's derivations are given in
// n4's rules (see Trace.Derivation): its create partial discontinuous
// uses are the discontinuous items create gap stands for, its complete
// discontinuous uses the continuous items fill gap stands for, and it
// uses neither create gap nor fill gap.
func Applications(d *decode.Derivation, r decode.Rule) []decode.Item {
	if d.Variant == decode.N3 {
		switch r {
		case decode.CreatePartial:
			r = decode.CreateGap
		case decode.CompleteDisc:
			r = decode.FillGap
		case decode.CreateGap, decode.FillGap:
			return nil
		}
	}
	var out []decode.Item
	for _, it := range d.Items {
		if it.Rule == r {
			out = append(out, it)
		}
	}
	return out
}
