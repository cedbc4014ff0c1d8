package oracle

import (
	"fmt"
	"strings"

	"github.com/discspan/discspan/chart/decode"
)

// ruleTable is decoder.md's table of deduction rules, copied as text. Each
// form reads "antecedent + antecedent -> consequent"; an item is written
// with its index variables, [i,j] continuous or [i,k,l,j] discontinuous.
// Each condition is a chain of strict inequalities between variables;
// chains are separated by commas. On top of the conditions, every
// antecedent must be a valid item (0 <= i < j <= n, or
// 0 <= i < k < l < j <= n). Nothing else restricts a rule.
var ruleTable = []struct {
	rule decode.Rule
	form string
	cond string
}{
	{decode.Combine, "[i,m] + [m,j] -> [i,j]", "i<m<j"},
	{decode.CreateGap, "[i,k] + [l,j] -> [i,k,l,j]", "i<k<l<j"},
	{decode.FillGap, "[i,m,n,j] + [m,n] -> [i,j]", "i<m<n<j"},
	{decode.KeptRight, "[i,m] + [m,k,l,j] -> [i,k,l,j]", "i<m<k"},
	{decode.KeptLeft, "[i,k,l,m] + [m,j] -> [i,k,l,j]", "l<m<j"},
	{decode.ShrinkLeft, "[i,m,l,j] + [m,k] -> [i,k,l,j]", "i<m<k"},
	{decode.ShrinkRight, "[i,k,m,j] + [l,m] -> [i,k,l,j]", "l<m<j"},
	{decode.IllNoGap, "[i,m,n,o] + [m,n,o,j] -> [i,j]", "i<m<n<o<j"},
	{decode.Wrapped, "[i,m,n,j] + [m,k,l,n] -> [i,k,l,j]", "i<m<k, l<n<j"},
	{decode.IllGapCentre, "[i,m,l,n] + [m,k,n,j] -> [i,k,l,j]", "i<m<k, l<n<j"},
	{decode.IllGapRight, "[i,m,n,k] + [m,n,l,j] -> [i,k,l,j]", "i<m<n<k"},
	{decode.IllGapLeft, "[i,k,m,n] + [l,m,n,j] -> [i,k,l,j]", "l<m<n<j"},
}

// variantRules lists the rules of each variant's deduction system, as
// decoder.md's table of variants gives them. N3 has the same search space
// as N4, so its oracle is the N4 system.
var variantRules = map[decode.Variant][]decode.Rule{
	decode.Continuous: {decode.Combine},
	decode.N3:         {decode.Combine, decode.CreateGap, decode.FillGap},
	decode.N4:         {decode.Combine, decode.CreateGap, decode.FillGap},
	decode.N5WN: {decode.Combine, decode.CreateGap, decode.FillGap,
		decode.KeptRight, decode.KeptLeft, decode.ShrinkLeft, decode.ShrinkRight},
	decode.N5: {decode.Combine, decode.CreateGap, decode.FillGap,
		decode.KeptRight, decode.KeptLeft, decode.ShrinkLeft, decode.ShrinkRight,
		decode.IllNoGap},
	decode.N6WN: {decode.Combine, decode.CreateGap, decode.FillGap,
		decode.KeptRight, decode.KeptLeft, decode.ShrinkLeft, decode.ShrinkRight,
		decode.Wrapped},
	decode.N6: {decode.Combine, decode.CreateGap, decode.FillGap,
		decode.KeptRight, decode.KeptLeft, decode.ShrinkLeft, decode.ShrinkRight,
		decode.IllNoGap, decode.Wrapped, decode.IllGapCentre, decode.IllGapRight,
		decode.IllGapLeft},
}

// rule is one row of ruleTable with its variables numbered: the
// consequent's variables come first (0..len(cons)-1), the free variables
// after them.
type rule struct {
	id     decode.Rule
	nvars  int
	cons   []int
	ants   [2][]int
	chains [][]int
}

// rules holds ruleTable compiled, indexed by decode.Rule.
var rules = compileRules()

func compileRules() map[decode.Rule]*rule {
	out := make(map[decode.Rule]*rule)
	for _, row := range ruleTable {
		r, err := compileRule(row.rule, row.form, row.cond)
		if err != nil {
			panic("oracle: " + err.Error())
		}
		out[row.rule] = r
	}
	return out
}

func compileRule(id decode.Rule, form, cond string) (*rule, error) {
	lhs, rhs, ok := strings.Cut(form, "->")
	if !ok {
		return nil, fmt.Errorf("rule %v: no -> in %q", id, form)
	}
	a, b, ok := strings.Cut(lhs, "+")
	if !ok {
		return nil, fmt.Errorf("rule %v: no + in %q", id, form)
	}
	vars := map[string]int{}
	r := &rule{id: id}
	index := func(name string) int {
		v, ok := vars[name]
		if !ok {
			v = len(vars)
			vars[name] = v
		}
		return v
	}
	pattern := func(s string) ([]string, error) {
		s = strings.TrimSpace(s)
		if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
			return nil, fmt.Errorf("rule %v: bad item %q", id, s)
		}
		names := strings.Split(s[1:len(s)-1], ",")
		if len(names) != 2 && len(names) != 4 {
			return nil, fmt.Errorf("rule %v: item %q has %d indices", id, s, len(names))
		}
		for i := range names {
			names[i] = strings.TrimSpace(names[i])
		}
		return names, nil
	}
	cons, err := pattern(rhs)
	if err != nil {
		return nil, err
	}
	for _, name := range cons {
		if _, dup := vars[name]; dup {
			return nil, fmt.Errorf("rule %v: variable %s twice in the consequent", id, name)
		}
		r.cons = append(r.cons, index(name))
	}
	for k, s := range []string{a, b} {
		names, err := pattern(s)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			r.ants[k] = append(r.ants[k], index(name))
		}
	}
	for _, chain := range strings.Split(cond, ",") {
		var c []int
		for _, name := range strings.Split(chain, "<") {
			name = strings.TrimSpace(name)
			if _, ok := vars[name]; !ok {
				return nil, fmt.Errorf("rule %v: condition uses %s, which no item has", id, name)
			}
			c = append(c, index(name))
		}
		r.chains = append(r.chains, c)
	}
	r.nvars = len(vars)
	return r, nil
}

// rulesOf returns the compiled rules of variant v; it panics on an unknown
// variant.
func rulesOf(v decode.Variant) []*rule {
	ids, ok := variantRules[v]
	if !ok {
		panic(fmt.Sprintf("oracle: unknown variant %v", v))
	}
	out := make([]*rule, len(ids))
	for i, id := range ids {
		out[i] = rules[id]
	}
	return out
}
