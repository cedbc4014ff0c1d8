package decode

// ruleSets holds, for each variant, a bit per rule of its deduction system
// (decoder.md's table of variants). N3 searches the same space as N4 with
// forgetful items; its set is N4's.
var ruleSets = [...]uint16{
	Continuous: bit(Combine),
	N3:         n4Rules,
	N4:         n4Rules,
	N5WN:       n5wnRules,
	N5:         n5wnRules | bit(IllNoGap),
	N6WN:       n5wnRules | bit(Wrapped),
	N6:         n5wnRules | bit(IllNoGap) | bit(Wrapped) | bit(IllGapCentre) | bit(IllGapRight) | bit(IllGapLeft),
}

const (
	n4Rules   = 1<<Combine | 1<<CreateGap | 1<<FillGap
	n5wnRules = n4Rules | 1<<KeptRight | 1<<KeptLeft | 1<<ShrinkLeft | 1<<ShrinkRight
)

func bit(r Rule) uint16 { return 1 << r }

// Has reports whether rule r belongs to the deduction system of v. Axioms
// belong to every system.
func (v Variant) Has(r Rule) bool {
	if v < 0 || int(v) >= len(ruleSets) || r < 0 || r > IllGapLeft {
		return false
	}
	return r == Axiom || ruleSets[v]&bit(r) != 0
}

// Rules returns the rules of v's deduction system in decoder.md's order,
// axioms excluded.
func (v Variant) Rules() []Rule {
	var out []Rule
	for r := Combine; r <= IllGapLeft; r++ {
		if v.Has(r) {
			out = append(out, r)
		}
	}
	return out
}
