package teach

import (
	"fmt"
	"strings"

	"github.com/discspan/discspan/chart/decode"
)

// Shape is one item of a rule in index variables: two variables for a
// continuous item [i,j], four for a discontinuous item [i,k,l,j], three
// for the cubic algorithm's bottom(i,l,A) whose left block is [i,k).
type Shape []string

// String writes the item as decoder.md does, e.g. "[i,k,l,j]" or
// "bottom(i,l,A)".
func (s Shape) String() string {
	if s.Bottom() {
		return "bottom(" + s[0] + "," + s[2] + ",A)"
	}
	return "[" + strings.Join(s, ",") + "]"
}

// Continuous reports whether the item has no gap.
func (s Shape) Continuous() bool { return len(s) == 2 }

// Bottom reports whether the item is a bottom(i,l,A).
func (s Shape) Bottom() bool { return len(s) == 3 }

// RuleInfo describes one deduction rule for display.
type RuleInfo struct {
	Rule decode.Rule
	Name string
	// Left and Right are the antecedents, Consequent the item built.
	Left, Right, Consequent Shape
	// Order lists every index variable of the rule from left to right: all
	// of them are strictly ordered (the side conditions together with the
	// validity of the three items).
	Order []string
	// Condition is decoder.md's side condition.
	Condition string
	// Explanation says in a sentence what the rule does.
	Explanation string
	// Smallest is the cheapest variant whose system has the rule: n3 for
	// the cubic algorithm's two rules (CubicRules), which search n4's
	// space over items that forget where the gap starts; for the others the
	// cheapest one of decoder.md's table, n3 left out (create gap and fill
	// gap are n4's).
	Smallest decode.Variant
}

// Form returns the rule as "A + B -> C".
func (r RuleInfo) Form() string {
	return fmt.Sprintf("%s + %s -> %s", r.Left, r.Right, r.Consequent)
}

func sh(vars string) Shape { return strings.Fields(vars) }

// catalogEntry is one rule of a catalog: its items and the order of its
// index variables, as space-separated names.
type catalogEntry struct {
	rule                     decode.Rule
	left, right, cons, order string
	cond, explain            string
}

// info returns the entry as a RuleInfo, smallest its cheapest variant.
func (c catalogEntry) info(smallest decode.Variant) RuleInfo {
	return RuleInfo{
		Rule: c.rule, Name: c.rule.String(),
		Left: sh(c.left), Right: sh(c.right), Consequent: sh(c.cons), Order: sh(c.order),
		Condition: c.cond, Explanation: c.explain, Smallest: smallest,
	}
}

// catalog is the rule table of decoder.md with the index variables of each
// rule in left-to-right order.
var catalog = []catalogEntry{
	{decode.Combine, "i m", "m j", "i j", "i m j", "i<m<j",
		"Two adjacent continuous spans make a larger continuous span: plain CKY."},
	{decode.CreateGap, "i k", "l j", "i k l j", "i k l j", "i<k<l<j",
		"Two continuous spans with words between them make a discontinuous item whose gap is still open."},
	{decode.FillGap, "i m n j", "m n", "i j", "i m n j", "i<m<n<j",
		"A continuous span that exactly fills the gap closes it: the result is continuous."},
	{decode.KeptRight, "i m", "m k l j", "i k l j", "i m k l j", "i<m<k",
		"A continuous span extends a discontinuous item on its left; the gap stays where it was."},
	{decode.KeptLeft, "i k l m", "m j", "i k l j", "i k l m j", "l<m<j",
		"A continuous span extends a discontinuous item on its right; the gap stays where it was."},
	{decode.ShrinkLeft, "i m l j", "m k", "i k l j", "i m k l j", "i<m<k",
		"A continuous span fills the left part of the gap: the gap shrinks from the left."},
	{decode.ShrinkRight, "i k m j", "l m", "i k l j", "i k l m j", "l<m<j",
		"A continuous span fills the right part of the gap: the gap shrinks from the right."},
	{decode.IllNoGap, "i m n o", "m n o j", "i j", "i m n o j", "i<m<n<o<j",
		"Two interleaved discontinuous items, each filling the other's gap, make a continuous span (ill-nested)."},
	{decode.Wrapped, "i m n j", "m k l n", "i k l j", "i m k l n j", "i<m<k, l<n<j",
		"A discontinuous item sits inside the gap of another and fills it but for its own gap, which becomes the gap of the result (well-nested)."},
	{decode.IllGapCentre, "i m l n", "m k n j", "i k l j", "i m k l n j", "i<m<k, l<n<j",
		"Two interleaved discontinuous items leave a gap in the middle (ill-nested)."},
	{decode.IllGapRight, "i m n k", "m n l j", "i k l j", "i m n k l j", "i<m<n<k",
		"Two interleaved discontinuous items leave a gap on the right (ill-nested)."},
	{decode.IllGapLeft, "i k m n", "l m n j", "i k l j", "i k l m n j", "l<m<n<j",
		"Two interleaved discontinuous items leave a gap on the left (ill-nested)."},
}

// cubicCatalog is the cubic algorithm's two rules (decoder.md, "The cubic
// algorithm"); k, which bottom(i,l,A) forgets, is in the order for the
// diagrams.
var cubicCatalog = []catalogEntry{
	{decode.CreatePartial, "i k", "k l", "i k l", "i k l", "i<k<l",
		"A continuous span and the span after it, which will fill the gap, make a bottom item for every label A: the left block of a discontinuous A is done, its right block will start at l. The item forgets k, which makes the algorithm cubic."},
	{decode.CompleteDisc, "i k l", "l j", "i j", "i k l j", "i<k<l<j",
		"A continuous span completes a bottom item: the discontinuous A (blocks [i,k] and [l,j]) and its gap filler [k,l] become the continuous [i,j]."},
}

// Rules returns the twelve deduction rules in decoder.md's order.
func Rules() []RuleInfo {
	out := make([]RuleInfo, 0, len(catalog))
	for _, c := range catalog {
		smallest := decode.Continuous
		for _, v := range decode.Variants {
			if v != decode.N3 && v.Has(c.rule) {
				smallest = v
				break
			}
		}
		out = append(out, c.info(smallest))
	}
	return out
}

// CubicRules returns the cubic algorithm's two rules, which n3 uses in
// place of create gap and fill gap (the stepper replays n3 with them; see
// StepperRules).
func CubicRules() []RuleInfo {
	out := make([]RuleInfo, 0, len(cubicCatalog))
	for _, c := range cubicCatalog {
		out = append(out, c.info(decode.N3))
	}
	return out
}

// RuleByID returns the description of rule r.
func RuleByID(r decode.Rule) (RuleInfo, bool) {
	for _, info := range append(Rules(), CubicRules()...) {
		if info.Rule == r {
			return info, true
		}
	}
	return RuleInfo{}, false
}
