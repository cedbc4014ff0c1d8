package decode

import (
	"errors"
	"fmt"
	"strings"
)

// Constraints restrict a decoding run (DecodeConstrained) to the trees that
// contain every required constituent, with its label, and no labelled
// constituent over a forbidden yield. Blocks use interstice indices: a
// block [start,end) covers words start..end-1; a yield is one block, or two
// sorted blocks with a non-empty gap between them.
//
// The zero value (no constraints) leaves decoding unconstrained.
type Constraints struct {
	Require []Required
	Forbid  []Forbidden
	// Labels optionally names the label indices in error messages; it does
	// not change the decoding.
	Labels []string
}

// Required asks for a constituent with the given label index and yield.
// Unscored makes it add nothing to the tree's score (instead of its
// label's score): for a label the model lacks, which a caller decodes with
// a stand-in Label and renames afterwards. Every tree the search compares
// holds the constituent, so the tree found is the same either way; only
// Derivation.Score differs.
type Required struct {
	Label    int
	Blocks   [][2]int
	Unscored bool
}

// Forbidden asks that no labelled constituent have the given yield (the
// decoder may still use it as a null intermediate node, which is not part
// of the tree).
type Forbidden struct {
	Blocks [][2]int
}

// ErrBadConstraint is wrapped by the errors reporting a malformed
// constraint: blocks out of range, empty, unsorted or too many, or a label
// index out of range.
var ErrBadConstraint = errors.New("malformed constraint")

// ErrUnsatisfiable is wrapped by the errors reporting constraints that no
// tree of the variant satisfies: required constituents that cross, one
// yield required with two labels or both required and forbidden, a
// requirement outside the variant's family, and requirements the decoder
// finds jointly impossible.
var ErrUnsatisfiable = errors.New("constraints cannot be satisfied")

// empty reports whether c constrains nothing.
func (c *Constraints) empty() bool { return c == nil || len(c.Require)+len(c.Forbid) == 0 }

// Validate reports why the constraints cannot apply to a sentence of n
// words with the given number of labels for variant v, or nil. It finds
// every problem that does not need a decoding run; DecodeConstrained may
// still report ErrUnsatisfiable when the variant cannot build the required
// constituents together. Cost O(c^2 + c n) for c constraints.
func (c *Constraints) Validate(v Variant, n, labels int) error {
	_, err := c.compile(v, n, labels, nil)
	return err
}

// conYield is a validated yield with the prefix counts that relate it to
// chart items in O(1): pc[x] is the number of its words left of interstice
// x, so that it shares pc[j]-pc[i] words with the span [i,j).
type conYield struct {
	blocks [2][2]int
	nb     int   // number of blocks, 1 or 2
	size   int   // number of words
	pc     []int // n+1 prefix counts
	label  int   // required label, -1 for a forbidden yield
	index  int   // position in Constraints.Require or Constraints.Forbid
	// unscored: the required constituent weighs 0 (Required.Unscored).
	unscored bool
}

// weight returns what the required yield y weighs as the item [i,k,l,j]
// (k = l = j for a continuous one): its label's score, or 0 when it is
// unscored.
func (t *conTable) weight(y *conYield, i, k, l, j int) float32 {
	switch {
	case y.unscored:
		return 0
	case k == j:
		return t.s.Cont[t.s.Index(i, j-1, y.label)]
	}
	return t.s.Disc[t.s.Index(i, j-1, y.label)] + t.s.Gap[t.s.Index(k, l-1, y.label)]
}

// conTable is the compiled form of non-empty Constraints: the distinct
// required yields (each with one label) and the forbidden ones.
type conTable struct {
	req, forb []conYield
	s         *Scores
}

// newYield checks the blocks of a constraint for a sentence of n words.
func newYield(blocks [][2]int, n int) (conYield, error) {
	y := conYield{nb: len(blocks)}
	switch {
	case len(blocks) == 0:
		return y, errors.New("no blocks")
	case len(blocks) > 2:
		return y, fmt.Errorf("%d blocks (at most 2)", len(blocks))
	}
	for x, b := range blocks {
		if b[0] < 0 || b[1] > n || b[0] >= b[1] {
			return y, fmt.Errorf("block [%d,%d) is empty or outside 0..%d", b[0], b[1], n)
		}
		y.blocks[x] = b
		y.size += b[1] - b[0]
	}
	if len(blocks) == 2 {
		switch a, b := blocks[0], blocks[1]; {
		case a[1] > b[0]:
			return y, fmt.Errorf("blocks [%d,%d) and [%d,%d) overlap or are not sorted", a[0], a[1], b[0], b[1])
		case a[1] == b[0]:
			return y, fmt.Errorf("blocks [%d,%d) and [%d,%d) touch (write one block [%d,%d))", a[0], a[1], b[0], b[1], a[0], b[1])
		}
	}
	y.pc = make([]int, n+1)
	for x := 0; x < n; x++ {
		y.pc[x+1] = y.pc[x]
		if y.covers(x) {
			y.pc[x+1]++
		}
	}
	return y, nil
}

func (y *conYield) covers(w int) bool {
	for _, b := range y.blocks[:y.nb] {
		if b[0] <= w && w < b[1] {
			return true
		}
	}
	return false
}

// shared returns the number of words y shares with the yield z.
func (y *conYield) shared(z *conYield) int {
	o := 0
	for _, b := range z.blocks[:z.nb] {
		o += y.pc[b[1]] - y.pc[b[0]]
	}
	return o
}

// relation classifies how an item yield of size size, sharing o words with
// the constraint yield y, relates to it.
type relation int

const (
	apart   relation = iota // disjoint, or strictly nested either way
	same                    // equal yields
	crosses                 // overlapping without nesting
)

func (y *conYield) relate(o, size int) relation {
	switch {
	case o == 0:
		return apart
	case o == size && o == y.size:
		return same
	case o == size || o == y.size:
		return apart
	}
	return crosses
}

// blocksString writes blocks as [a,b) or [a,b)+[c,d).
func blocksString(b [][2]int) string {
	parts := make([]string, len(b))
	for x, bl := range b {
		parts[x] = fmt.Sprintf("[%d,%d)", bl[0], bl[1])
	}
	return strings.Join(parts, "+")
}

// labelName names label a for error messages.
func (c *Constraints) labelName(a int) string {
	if a >= 0 && a < len(c.Labels) {
		return fmt.Sprintf("%q", c.Labels[a])
	}
	return fmt.Sprintf("label %d", a)
}

// describeReq and describeForb name a constraint in error messages.
func (c *Constraints) describeReq(x int) string {
	r := c.Require[x]
	return fmt.Sprintf("require[%d] (%s over %s)", x, c.labelName(r.Label), blocksString(r.Blocks))
}

func (c *Constraints) describeForb(x int) string {
	return fmt.Sprintf("forbid[%d] (%s)", x, blocksString(c.Forbid[x].Blocks))
}

// compile validates the constraints for variant v, n words and the given
// number of labels, and returns their table. When keep is not nil, only the
// requirements it marks are compiled, and no forbidden yield (used to look
// for a conflicting subset). Requirements repeated with the same label are
// kept once.
func (c *Constraints) compile(v Variant, n, labels int, keep []bool) (*conTable, error) {
	t := &conTable{}
	for x, r := range c.Require {
		y, err := newYield(r.Blocks, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %v: %w", c.describeReq(x), err, ErrBadConstraint)
		}
		if r.Label < 0 || r.Label >= labels {
			return nil, fmt.Errorf("%s: label index %d outside 0..%d: %w", c.describeReq(x), r.Label, labels-1, ErrBadConstraint)
		}
		if keep != nil && !keep[x] {
			continue
		}
		y.label, y.index, y.unscored = r.Label, x, r.Unscored
		dup := false
		for _, prev := range t.req {
			o := prev.shared(&y)
			switch prev.relate(o, y.size) {
			case same:
				if prev.label != y.label {
					return nil, fmt.Errorf("%s and %s require one yield with two labels: %w",
						c.describeReq(prev.index), c.describeReq(x), ErrUnsatisfiable)
				}
				if prev.unscored != y.unscored {
					return nil, fmt.Errorf("%s and %s require one yield, scored and unscored: %w",
						c.describeReq(prev.index), c.describeReq(x), ErrBadConstraint)
				}
				dup = true
			case crosses:
				return nil, fmt.Errorf("%s and %s cross (they overlap and neither contains the other): %w",
					c.describeReq(prev.index), c.describeReq(x), ErrUnsatisfiable)
			}
		}
		if v == Continuous && y.nb == 2 {
			return nil, fmt.Errorf("%s is discontinuous, outside the %s variant's family: %w",
				c.describeReq(x), v, ErrUnsatisfiable)
		}
		if !dup {
			t.req = append(t.req, y)
		}
	}
	for x, f := range c.Forbid {
		y, err := newYield(f.Blocks, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %v: %w", c.describeForb(x), err, ErrBadConstraint)
		}
		if keep != nil {
			continue
		}
		y.label, y.index = -1, x
		for _, r := range t.req {
			if r.relate(r.shared(&y), y.size) == same {
				return nil, fmt.Errorf("%s and %s name the same yield: %w",
					c.describeReq(r.index), c.describeForb(x), ErrUnsatisfiable)
			}
		}
		t.forb = append(t.forb, y)
	}
	return t, nil
}

// contOverride returns the label and weight that the constraints impose on
// the continuous item [i,j], and whether they impose any: -Inf when it
// crosses a required yield, the required label's score when it is one, 0
// (null) when it is forbidden. Cost O(c).
func (t *conTable) contOverride(i, j int) (label int, weight float32, ok bool) {
	return t.override(i, j, j, j)
}

// discOverride is contOverride for the discontinuous item [i,k,l,j].
func (t *conTable) discOverride(i, k, l, j int) (label int, weight float32, ok bool) {
	return t.override(i, k, l, j)
}

// override implements contOverride (k = l = j: an empty gap at the end) and
// discOverride.
func (t *conTable) override(i, k, l, j int) (int, float32, bool) {
	size := (k - i) + (j - l)
	label, weight, ok := -1, float32(0), false
	for x := range t.forb {
		y := &t.forb[x]
		if y.relate((y.pc[k]-y.pc[i])+(y.pc[j]-y.pc[l]), size) == same {
			ok = true
		}
	}
	for x := range t.req {
		y := &t.req[x]
		switch y.relate((y.pc[k]-y.pc[i])+(y.pc[j]-y.pc[l]), size) {
		case crosses:
			return -1, negInf, true
		case same:
			label, weight, ok = y.label, t.weight(y, i, k, l, j), true
		}
	}
	return label, weight, ok
}

// applyCont overrides the continuous weights table of w. Cost O(n^2 c).
func (t *conTable) applyCont(w *weights) {
	for i := 0; i < w.n; i++ {
		for j := i + 1; j <= w.n; j++ {
			if _, wt, ok := t.contOverride(i, j); ok {
				w.cont[i*w.n1+j] = wt
			}
		}
	}
}

// applyBlock overrides the weights W of the discontinuous items of outer
// extent [i,j], laid out as a chart block (row k-i, column l-i), exactly as
// discOverride does item by item (recovery reads discOverride, so the two
// must agree bit for bit). Cost O((j-i)^2) per required yield that meets
// [i,j), O(1) per forbidden one.
func (t *conTable) applyBlock(i, j int, W []float32) {
	s := j - i
	for x := range t.forb {
		y := &t.forb[x]
		if y.nb == 2 && y.blocks[0][0] == i && y.blocks[1][1] == j {
			W[(y.blocks[0][1]-i)*s+(y.blocks[1][0]-i)] = 0
		}
	}
	for x := range t.req {
		y := &t.req[x]
		inside := y.pc[j] - y.pc[i]
		if inside == 0 {
			continue // every item of the block is disjoint from y
		}
		if y.nb == 2 && y.blocks[0][0] == i && y.blocks[1][1] == j {
			k, l := y.blocks[0][1], y.blocks[1][0]
			W[(k-i)*s+(l-i)] = t.weight(y, i, k, l, j)
		}
		// Item [i,k,l,j] shares inside - (pc[l]-pc[k]) words with y and
		// has s - (l-k) words.
		for k := i + 1; k <= j-2; k++ {
			row := W[(k-i)*s : (k-i+1)*s]
			pk := y.pc[k]
			for l := k + 1; l < j; l++ {
				o := inside - (y.pc[l] - pk)
				if size := s - (l - k); o != 0 && o != size && o != y.size {
					row[l-i] = negInf
				}
			}
		}
	}
}
