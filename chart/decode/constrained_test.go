package decode_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/decode/internal/oracle"
)

// randomYield draws the blocks of a random yield of n words: one block, or,
// when n >= 3 and half the time, two blocks with a gap.
func randomYield(rng *rand.Rand, n int) [][2]int {
	if n >= 3 && rng.IntN(2) == 0 {
		cuts := rng.Perm(n + 1)[:4]
		slices.Sort(cuts)
		return [][2]int{{cuts[0], cuts[1]}, {cuts[2], cuts[3]}}
	}
	i := rng.IntN(n)
	return [][2]int{{i, i + 1 + rng.IntN(n-i)}}
}

// randomConstraints draws one to four constraints: requirements and
// forbidden yields taken from the unconstrained optimum's constituents
// (required with their own label or another one), and random ones.
func randomConstraints(rng *rand.Rand, n, labels int, optimum []decode.Constituent) *decode.Constraints {
	c := &decode.Constraints{}
	for range 1 + rng.IntN(4) {
		kind := rng.IntN(4)
		if len(optimum) == 0 {
			kind |= 2
		}
		switch kind {
		case 0:
			k := optimum[rng.IntN(len(optimum))]
			label := k.Label
			if rng.IntN(3) == 0 {
				label = rng.IntN(labels)
			}
			c.Require = append(c.Require, decode.Required{Label: label, Blocks: k.Blocks})
		case 1:
			c.Forbid = append(c.Forbid, decode.Forbidden{Blocks: optimum[rng.IntN(len(optimum))].Blocks})
		case 2:
			c.Require = append(c.Require, decode.Required{Label: rng.IntN(labels), Blocks: randomYield(rng, n)})
		default:
			c.Forbid = append(c.Forbid, decode.Forbidden{Blocks: randomYield(rng, n)})
		}
	}
	return c
}

// checkConstrained decodes s under c and checks the result against the
// oracle's best score want (-Inf: unsatisfiable): same score, every
// constraint met, a tree of the variant's family whose constituents add up
// to the score.
func checkConstrained(t *testing.T, dec *decode.Decoder, v decode.Variant, s *decode.Scores, c *decode.Constraints, want float64) {
	t.Helper()
	d, err := dec.DecodeConstrained(v, s, c)
	if math.IsInf(want, -1) {
		if !errors.Is(err, decode.ErrUnsatisfiable) {
			t.Fatalf("n=%d %+v: oracle finds no tree, decoder gives %v (error %v)", s.N, c, d, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("n=%d %+v: oracle %g, decoder error: %v", s.N, c, want, err)
	}
	if d.Variant != v {
		t.Errorf("derivation variant %s, want %s", d.Variant, v)
	}
	if !nearlyEqual(float64(d.Score), want) {
		t.Fatalf("n=%d %+v: chart %g, oracle %g", s.N, c, d.Score, want)
	}
	cs := d.Constituents()
	if err := oracle.Satisfies(cs, c); err != nil {
		t.Fatalf("n=%d %+v: %v in %v", s.N, c, err, cs)
	}
	if err := oracle.InFamily(v, s.N, cs); err != nil {
		t.Fatalf("n=%d %+v: returned tree not in the %s family: %v", s.N, c, v, err)
	}
	if got := oracle.TreeScore(s, cs); !nearlyEqual(got, float64(d.Score)) {
		t.Fatalf("n=%d %+v: constituents add up to %g, score %g", s.N, c, got, d.Score)
	}
}

// TestConstrainedAgainstDeduction proves constrained decoding exact on
// small sentences for every variant, against the oracle's search over
// derivations that tracks which requirements each sub-derivation meets.
// Constraints come from the unconstrained optimum and from random yields;
// both satisfiable and unsatisfiable sets must be common.
func TestConstrainedAgainstDeduction(t *testing.T) {
	rng := rand.New(rand.NewPCG(2020, 8))
	for _, v := range decode.Variants {
		for _, kind := range []string{"uniform", "ties"} {
			t.Run(fmt.Sprintf("%s/%s", v, kind), func(t *testing.T) {
				dec := decode.NewDecoder(nil)
				satisfiable := 0
				const trials = 150
				for trial := range trials {
					n := 1 + trial%6
					if trial%50 == 49 {
						n = 7
					}
					s := scoreTensor(rng, n, 1+trial%3, kind)
					free, err := dec.Decode(v, s)
					if err != nil {
						t.Fatal(err)
					}
					c := randomConstraints(rng, n, s.L, free.Constituents())
					want := oracle.BestConstrainedDeduction(v, s, c)
					if !math.IsInf(want, -1) {
						satisfiable++
					}
					checkConstrained(t, dec, v, s, c, want)
				}
				if satisfiable < trials/5 || satisfiable > trials*9/10 {
					t.Errorf("%d of %d constraint sets satisfiable: the draw is too lopsided", satisfiable, trials)
				}
			})
		}
	}
}

// TestConstrainedAgainstTreeEnumeration checks continuous, n3 and n4
// against the enumeration of every tree of their family, filtered by the
// constraints.
func TestConstrainedAgainstTreeEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(2020, 9))
	for _, v := range []decode.Variant{decode.Continuous, decode.N3, decode.N4} {
		t.Run(v.String(), func(t *testing.T) {
			dec := decode.NewDecoder(nil)
			for trial := range 80 {
				n := 1 + trial%5
				kind := []string{"uniform", "ties"}[trial%2]
				s := scoreTensor(rng, n, 2, kind)
				free, err := dec.Decode(v, s)
				if err != nil {
					t.Fatal(err)
				}
				c := randomConstraints(rng, n, s.L, free.Constituents())
				want, err := oracle.BestConstrainedTree(v, s, c)
				if err != nil {
					t.Fatal(err)
				}
				checkConstrained(t, dec, v, s, c, want)
			}
		})
	}
}

// TestUnconstrainedUnchanged: nil and empty constraints give exactly
// Decode's derivation.
func TestUnconstrainedUnchanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, v := range decode.Variants {
		for _, kind := range []string{"uniform", "ties"} {
			s := scoreTensor(rng, 9, 3, kind)
			want, err := decode.Decode(v, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []*decode.Constraints{nil, {}, {Labels: []string{"A"}}} {
				got, err := decode.DecodeConstrained(v, s, c, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s/%s %+v: constrained %+v, plain %+v", v, kind, c, got, want)
				}
			}
		}
	}
}

// TestConstraintsReachOptimum: requiring the unconstrained optimum's own
// constituents, and forbidding yields it does not use, changes nothing but
// the tie-breaking; the score stays the same (up to float32 rounding: n3
// decodes through the n4 chart under constraints).
func TestConstraintsReachOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, v := range decode.Variants {
		for trial := range 20 {
			s := scoreTensor(rng, 8, 3, "uniform")
			free, err := decode.Decode(v, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			c := &decode.Constraints{}
			for _, k := range free.Constituents() {
				c.Require = append(c.Require, decode.Required{Label: k.Label, Blocks: k.Blocks})
			}
			d, err := decode.DecodeConstrained(v, s, c, nil)
			if err != nil {
				t.Fatalf("%s trial %d: %v", v, trial, err)
			}
			if !nearlyEqual(float64(d.Score), float64(free.Score)) {
				t.Errorf("%s trial %d: requiring the optimum scores %v, optimum %v", v, trial, d.Score, free.Score)
			}
		}
	}
}

// TestConstrainedRealSize decodes 40 words with constraints (no timing):
// the result meets them, its constituents add up to its score, and it
// scores no more than the unconstrained optimum.
func TestConstrainedRealSize(t *testing.T) {
	variants := []decode.Variant{decode.N3, decode.N4, decode.N6}
	if testing.Short() {
		variants = variants[:2]
	}
	for _, v := range variants {
		s := decode.RandomScores(40, 40, 10)
		free, err := decode.Decode(v, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs := free.Constituents()
		forbid := cs[1].Blocks // neither cs[0] nor the root [0,40)
		c := &decode.Constraints{
			Require: []decode.Required{
				{Label: (cs[0].Label + 1) % s.L, Blocks: cs[0].Blocks},
				{Label: 3, Blocks: [][2]int{{10, 14}, {20, 22}}},
				{Label: 5, Blocks: [][2]int{{0, 40}}},
			},
			Forbid: []decode.Forbidden{{Blocks: forbid}, {Blocks: [][2]int{{30, 35}}}},
		}
		if err := c.Validate(v, s.N, s.L); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		d, err := decode.DecodeConstrained(v, s, c, nil)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if err := oracle.Satisfies(d.Constituents(), c); err != nil {
			t.Errorf("%s: %v", v, err)
		}
		if got := oracle.TreeScore(s, d.Constituents()); !nearlyEqual(got, float64(d.Score)) {
			t.Errorf("%s: constituents add up to %g, score %g", v, got, d.Score)
		}
		if d.Score > free.Score {
			t.Errorf("%s: constrained %g beats the unconstrained optimum %g", v, d.Score, free.Score)
		}
	}
}

// TestConstraintErrors: each malformed or contradictory constraint set
// gives an error naming the problem, wrapping the right sentinel.
func TestConstraintErrors(t *testing.T) {
	b := func(ends ...int) [][2]int {
		var out [][2]int
		for x := 0; x+1 < len(ends); x += 2 {
			out = append(out, [2]int{ends[x], ends[x+1]})
		}
		return out
	}
	req := func(label int, blocks [][2]int) decode.Required { return decode.Required{Label: label, Blocks: blocks} }
	ill := []decode.Required{req(0, b(0, 1, 2, 3)), req(1, b(1, 2, 3, 4)), req(2, b(0, 5))}
	cases := []struct {
		name string
		v    decode.Variant
		c    decode.Constraints
		want error
		msg  []string
	}{
		{"block past the end", decode.N4, decode.Constraints{Require: []decode.Required{req(0, b(0, 6))}},
			decode.ErrBadConstraint, []string{"require[0]", "[0,6)", "outside 0..5"}},
		{"negative start", decode.N4, decode.Constraints{Forbid: []decode.Forbidden{{Blocks: b(-1, 2)}}},
			decode.ErrBadConstraint, []string{"forbid[0]", "outside 0..5"}},
		{"empty block", decode.N4, decode.Constraints{Require: []decode.Required{req(0, b(2, 2))}},
			decode.ErrBadConstraint, []string{"[2,2) is empty"}},
		{"no blocks", decode.N4, decode.Constraints{Require: []decode.Required{req(0, nil)}},
			decode.ErrBadConstraint, []string{"require[0]", "no blocks"}},
		{"three blocks", decode.N6, decode.Constraints{Forbid: []decode.Forbidden{{Blocks: b(0, 1, 2, 3, 4, 5)}}},
			decode.ErrBadConstraint, []string{"forbid[0]", "3 blocks (at most 2)"}},
		{"unsorted blocks", decode.N4, decode.Constraints{Require: []decode.Required{req(0, b(3, 4, 0, 1))}},
			decode.ErrBadConstraint, []string{"overlap or are not sorted"}},
		{"overlapping blocks", decode.N4, decode.Constraints{Require: []decode.Required{req(0, b(0, 3, 2, 4))}},
			decode.ErrBadConstraint, []string{"overlap or are not sorted"}},
		{"touching blocks", decode.N4, decode.Constraints{Forbid: []decode.Forbidden{{Blocks: b(0, 2, 2, 4)}}},
			decode.ErrBadConstraint, []string{"touch", "[0,4)"}},
		{"label too large", decode.N4, decode.Constraints{Require: []decode.Required{req(3, b(0, 2))}},
			decode.ErrBadConstraint, []string{"label index 3 outside 0..2"}},
		{"negative label", decode.N4, decode.Constraints{Require: []decode.Required{req(-1, b(0, 2))}},
			decode.ErrBadConstraint, []string{"label index -1"}},
		{"crossing", decode.N6, decode.Constraints{Require: []decode.Required{req(0, b(3, 4)), req(0, b(0, 2)), req(1, b(1, 3))}},
			decode.ErrUnsatisfiable, []string{"require[1]", "require[2]", "cross"}},
		{"crossing discontinuous", decode.N6, decode.Constraints{Require: []decode.Required{req(0, b(0, 1, 3, 4)), req(1, b(0, 2))}},
			decode.ErrUnsatisfiable, []string{"require[0]", "require[1]", "cross"}},
		{"two labels", decode.N4, decode.Constraints{Require: []decode.Required{req(0, b(0, 2)), req(1, b(0, 2))}},
			decode.ErrUnsatisfiable, []string{"require[0]", "require[1]", "two labels"}},
		{"required and forbidden", decode.N4, decode.Constraints{Require: []decode.Required{req(1, b(0, 1, 3, 5))},
			Forbid: []decode.Forbidden{{Blocks: b(0, 2)}, {Blocks: b(0, 1, 3, 5)}}},
			decode.ErrUnsatisfiable, []string{"require[0]", "forbid[1]", "same yield"}},
		{"discontinuous for continuous", decode.Continuous, decode.Constraints{Require: []decode.Required{req(0, b(0, 1, 2, 3))}},
			decode.ErrUnsatisfiable, []string{"require[0]", "outside the continuous variant's family"}},
		{"ill-nested in n4", decode.N4, decode.Constraints{Require: ill},
			decode.ErrUnsatisfiable, []string{"no n4 tree", "require[0]", "require[1]"}},
		{"ill-nested in n3", decode.N3, decode.Constraints{Require: ill},
			decode.ErrUnsatisfiable, []string{"no n3 tree", "require[0]", "require[1]"}},
		{"label names", decode.N4, decode.Constraints{Require: []decode.Required{req(0, b(0, 2)), req(1, b(1, 3))},
			Labels: []string{"NP", "VP", "S"}},
			decode.ErrUnsatisfiable, []string{`"NP" over [0,2)`, `"VP" over [1,3)`}},
	}
	s := decode.RandomScores(1, 5, 3)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decode.DecodeConstrained(c.v, s, &c.c, nil)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want one wrapping %v", err, c.want)
			}
			for _, m := range c.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
			if c.name == "ill-nested in n4" && strings.Contains(err.Error(), "require[2]") {
				t.Errorf("error %q names require[2], which conflicts with nothing", err)
			}
		})
	}
}

// TestConstrainedSatisfiableElsewhere: the ill-nested pair that n4 cannot
// build is built by n5 and n6.
func TestConstrainedSatisfiableElsewhere(t *testing.T) {
	s := decode.RandomScores(1, 5, 3)
	c := &decode.Constraints{Require: []decode.Required{
		{Label: 0, Blocks: [][2]int{{0, 1}, {2, 3}}}, {Label: 1, Blocks: [][2]int{{1, 2}, {3, 4}}}}}
	for _, v := range []decode.Variant{decode.N5, decode.N6} {
		d, err := decode.DecodeConstrained(v, s, c, nil)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if err := oracle.Satisfies(d.Constituents(), c); err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
}

// TestUnscoredRequirement: a requirement marked Unscored (a stand-in label
// for one the model lacks) gives the same tree for every variant, with a
// score lower by exactly the required constituents' own label scores; a
// yield required both scored and unscored is refused.
func TestUnscoredRequirement(t *testing.T) {
	rng := rand.New(rand.NewPCG(2020, 11))
	for _, v := range decode.Variants {
		t.Run(v.String(), func(t *testing.T) {
			dec := decode.NewDecoder(nil)
			compared := 0
			for trial := range 120 {
				n := 2 + trial%6
				s := scoreTensor(rng, n, 1+trial%3, "uniform")
				free, err := dec.Decode(v, s)
				if err != nil {
					t.Fatal(err)
				}
				c := randomConstraints(rng, n, s.L, free.Constituents())
				scored, err := dec.DecodeConstrained(v, s, c)
				if err != nil {
					continue // unsatisfiable or malformed: nothing to compare
				}
				u := &decode.Constraints{Forbid: c.Forbid}
				var required []decode.Constituent
				for _, r := range c.Require {
					u.Require = append(u.Require, decode.Required{Label: r.Label, Blocks: r.Blocks, Unscored: true})
					if !slices.ContainsFunc(required, func(k decode.Constituent) bool { return reflect.DeepEqual(k.Blocks, r.Blocks) }) {
						required = append(required, decode.Constituent{Label: r.Label, Blocks: r.Blocks})
					}
				}
				unscored, err := dec.DecodeConstrained(v, s, u)
				if err != nil {
					t.Fatalf("n=%d %+v: scored decodes, unscored fails: %v", n, c, err)
				}
				if got, want := unscored.Constituents(), scored.Constituents(); !reflect.DeepEqual(got, want) {
					t.Fatalf("n=%d %+v: unscored tree %v, scored %v", n, c, got, want)
				}
				if want := float64(scored.Score) - oracle.TreeScore(s, required); !nearlyEqual(float64(unscored.Score), want) {
					t.Fatalf("n=%d %+v: unscored score %g, want %g (scored %g)", n, c, unscored.Score, want, scored.Score)
				}
				compared++
			}
			if compared < 30 {
				t.Errorf("only %d satisfiable constraint sets compared", compared)
			}
		})
	}
	s := scoreTensor(rng, 4, 2, "uniform")
	c := &decode.Constraints{Require: []decode.Required{{Label: 1, Blocks: [][2]int{{0, 2}}}, {Label: 1, Blocks: [][2]int{{0, 2}}, Unscored: true}}}
	if _, err := decode.NewDecoder(nil).DecodeConstrained(decode.N4, s, c); !errors.Is(err, decode.ErrBadConstraint) {
		t.Errorf("a yield required scored and unscored: error %v, want ErrBadConstraint", err)
	}
}

// TestConflictAmongMany: among many requirements, the error names exactly
// the pair that no tree of the variant satisfies together (it named none
// beyond 16 requirements); on random draws, the set named is one the
// oracle finds unsatisfiable, and satisfiable without any one of them
// (minimal).
func TestConflictAmongMany(t *testing.T) {
	const n = 40
	s := decode.RandomScores(3, n, 3)
	var many []decode.Required
	for w := 5; w < n; w++ { // single words: they nest in anything
		many = append(many, decode.Required{Label: w % 3, Blocks: [][2]int{{w, w + 1}}})
	}
	// The ill-nested pair n3 and n4 cannot build, at places 13 and 29.
	many = slices.Insert(many, 13, decode.Required{Label: 0, Blocks: [][2]int{{0, 1}, {2, 3}}})
	many = slices.Insert(many, 29, decode.Required{Label: 1, Blocks: [][2]int{{1, 2}, {3, 4}}})
	for _, v := range []decode.Variant{decode.N3, decode.N4} {
		_, err := decode.DecodeConstrained(v, s, &decode.Constraints{Require: many}, nil)
		if !errors.Is(err, decode.ErrUnsatisfiable) {
			t.Fatalf("%s: error %v, want ErrUnsatisfiable", v, err)
		}
		if got := regexp.MustCompile(`require\[\d+\]`).FindAllString(err.Error(), -1); !slices.Equal(got, []string{"require[13]", "require[29]"}) {
			t.Errorf("%s: %d requirements: error names %v, want require[13] and require[29]: %v", v, len(many), got, err)
		}
	}
	// n5 builds the pair: the same set is satisfiable there.
	d, err := decode.DecodeConstrained(decode.N5, s, &decode.Constraints{Require: many}, nil)
	if err != nil {
		t.Fatalf("n5: %v", err)
	}
	if err := oracle.Satisfies(d.Constituents(), &decode.Constraints{Require: many}); err != nil {
		t.Errorf("n5: %v", err)
	}
	rng := rand.New(rand.NewPCG(2020, 12))
	checked := 0
	for trial := range 400 {
		v := decode.Variants[trial%len(decode.Variants)]
		n := 4 + trial%4
		s := scoreTensor(rng, n, 2, "uniform")
		// Requirements that cross or share a yield are refused before any
		// decoding: keep only those that do not.
		c := &decode.Constraints{}
		var err error
		for range 3 + rng.IntN(8) {
			c.Require = append(c.Require, decode.Required{Label: rng.IntN(2), Blocks: randomYield(rng, n)})
			_, err = decode.DecodeConstrained(v, s, c, nil)
			if err != nil && !strings.Contains(err.Error(), "conflicting requirements") {
				c.Require = c.Require[:len(c.Require)-1]
				_, err = decode.DecodeConstrained(v, s, c, nil)
			}
		}
		if err == nil || !strings.Contains(err.Error(), "conflicting requirements") {
			continue
		}
		var named []decode.Required
		for _, m := range regexp.MustCompile(`require\[(\d+)\]`).FindAllStringSubmatch(err.Error(), -1) {
			x, _ := strconv.Atoi(m[1])
			named = append(named, c.Require[x])
		}
		if !math.IsInf(oracle.BestConstrainedDeduction(v, s, &decode.Constraints{Require: named}), -1) {
			t.Fatalf("%s n=%d %+v: %v: the oracle satisfies the set named", v, n, c.Require, err)
		}
		for x := range named {
			rest := slices.Delete(slices.Clone(named), x, x+1)
			if math.IsInf(oracle.BestConstrainedDeduction(v, s, &decode.Constraints{Require: rest}), -1) {
				t.Fatalf("%s n=%d %+v: %v: not minimal, unsatisfiable without %v", v, n, c.Require, err, named[x])
			}
		}
		checked++
	}
	t.Logf("%d conflicts checked against the oracle", checked)
	if checked < 20 {
		t.Errorf("only %d conflicts checked", checked)
	}
}
