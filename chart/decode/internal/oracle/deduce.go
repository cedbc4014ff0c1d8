package oracle

import (
	"fmt"
	"math"

	"github.com/discspan/discspan/chart/decode"
)

// item is a chart item: [i,j] (len 2) or [i,k,l,j] (len 4), interstice
// indices.
type item struct {
	len int
	x   [4]int
}

func cont(i, j int) item       { return item{2, [4]int{i, j}} }
func disc(i, k, l, j int) item { return item{4, [4]int{i, k, l, j}} }
func (it item) indices() []int { return it.x[:it.len] }
func (it item) String() string { return fmt.Sprint(it.indices()) }
func (it item) isAxiom() bool  { return it.len == 2 && it.x[1] == it.x[0]+1 }

// valid reports whether it is an item of a sentence of n words: every
// index in 0..n, strictly increasing.
func (it item) valid(n int) bool {
	if it.len != 2 && it.len != 4 {
		return false
	}
	if it.x[0] < 0 || it.x[it.len-1] > n {
		return false
	}
	for p := 1; p < it.len; p++ {
		if it.x[p-1] >= it.x[p] {
			return false
		}
	}
	return true
}

// mask returns the set of words the item covers.
func (it item) mask() uint64 {
	m := span(it.x[0], it.x[1])
	if it.len == 4 {
		m |= span(it.x[2], it.x[3])
	}
	return m
}

// span returns the words i..j-1 as a bit set.
func span(i, j int) uint64 {
	var m uint64
	for w := i; w < j; w++ {
		m |= 1 << w
	}
	return m
}

// engine is the memoised best-derivation search of one deduction system:
// best(it) is the largest score of a derivation of it, the sum of weight
// over every item of the derivation, or -Inf when it has none.
type engine struct {
	n      int
	rules  []*rule
	weight func(item) float64
	// allowed, when not nil, restricts the search to the items it accepts
	// (the others have no derivation).
	allowed func(item) bool
	memo    map[item]float64
	busy    map[item]bool
}

func newEngine(n int, rs []*rule, weight func(item) float64) *engine {
	return &engine{n: n, rules: rs, weight: weight, memo: map[item]float64{}, busy: map[item]bool{}}
}

// best returns the best derivation score of it. Axioms [i,i+1] are
// derivable with no antecedent; every other derivation ends in a rule whose
// consequent pattern matches it, with every free variable of the rule taking
// every value in 0..n, kept when the rule's strict conditions hold and both
// antecedents are valid items.
func (e *engine) best(it item) float64 {
	if v, ok := e.memo[it]; ok {
		return v
	}
	if e.busy[it] {
		panic(fmt.Sprintf("oracle: item %v derives itself", it))
	}
	if !it.valid(e.n) || (e.allowed != nil && !e.allowed(it)) {
		e.memo[it] = math.Inf(-1)
		return math.Inf(-1)
	}
	e.busy[it] = true
	best := math.Inf(-1)
	if it.isAxiom() {
		best = 0
	}
	var bind [8]int
	for _, r := range e.rules {
		if len(r.cons) != it.len {
			continue
		}
		for p, v := range r.cons {
			bind[v] = it.x[p]
		}
		free := r.nvars - len(r.cons)
		total := 1
		for f := 0; f < free; f++ {
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
			sa, sb := e.best(a), e.best(b)
			if math.IsInf(sa, -1) || math.IsInf(sb, -1) {
				continue
			}
			if sa+sb > best {
				best = sa + sb
			}
		}
	}
	if !math.IsInf(best, -1) {
		best += e.weight(it)
	}
	delete(e.busy, it)
	e.memo[it] = best
	return best
}

func chainsHold(chains [][]int, bind *[8]int) bool {
	for _, c := range chains {
		for p := 1; p < len(c); p++ {
			if bind[c[p-1]] >= bind[c[p]] {
				return false
			}
		}
	}
	return true
}

func instantiate(pattern []int, bind *[8]int) item {
	it := item{len: len(pattern)}
	for p, v := range pattern {
		it.x[p] = bind[v]
	}
	return it
}

// labelWeight returns the weight of item it under label a: cont[i,j-1,a]
// for [i,j], disc[i,j-1,a] + gap[k,l-1,a] for [i,k,l,j].
func labelWeight(s *decode.Scores, it item, a int) float64 {
	if it.len == 2 {
		return float64(s.Cont[s.Index(it.x[0], it.x[1]-1, a)])
	}
	i, k, l, j := it.x[0], it.x[1], it.x[2], it.x[3]
	return float64(s.Disc[s.Index(i, j-1, a)]) + float64(s.Gap[s.Index(k, l-1, a)])
}

// itemWeight is the weight an item carries in a derivation: its best label
// weight, or 0 (the null label) when no label is positive.
func itemWeight(s *decode.Scores, it item) float64 {
	best := 0.0
	for a := 0; a < s.L; a++ {
		if w := labelWeight(s, it, a); w > best {
			best = w
		}
	}
	return best
}

// BestDeduction returns the score of the best derivation of the goal [0,n]
// in the deduction system of variant v: the sum, over every item of the
// derivation, of the item's best label weight or 0 (null). N3 is searched
// as N4, whose search space it shares. A sentence of no words scores 0.
//
// It panics when s is malformed or v unknown. Cost O(R (n+1)^7) time for R
// rules, O(n^4) memory: under 1 ms for n = 7 and about 5 ms for n = 10
// with all twelve rules.
func BestDeduction(v decode.Variant, s *decode.Scores) float64 {
	if err := s.Check(); err != nil {
		panic("oracle: " + err.Error())
	}
	return bestWith(rulesOf(v), s)
}

// bestWith is BestDeduction for an arbitrary set of rules; the goal scores
// -Inf when the rules cannot derive it.
func bestWith(rs []*rule, s *decode.Scores) float64 {
	if s.N == 0 {
		return 0
	}
	e := newEngine(s.N, rs, func(it item) float64 { return itemWeight(s, it) })
	return e.best(cont(0, s.N))
}
