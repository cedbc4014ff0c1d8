package parser

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discspan/discspan/chart/decode"
)

// Constraint is a constituent constraint of a parse (Request.Require and
// Request.Forbid), in a form that crosses a worker boundary as JSON: a
// label name (for required constituents; it may be a merged unary chain
// "A/B", top first, or a label the model does not know) and the yield as
// sorted [start,end) blocks of interstice indices (one block, or two around
// a gap).
type Constraint struct {
	Label  string   `json:"label,omitempty"`
	Blocks [][2]int `json:"blocks"`
}

// constraints are a request's constraints in the decoder's terms, with the
// required labels the model does not know.
type constraints struct {
	decode *decode.Constraints
	extra  []extraLabel
}

// relabel returns the labels d's items index: the model's, followed by
// the extra labels, each given to the item decoded with its stand-in.
// Required constituents with a label the model lacks were decoded with a
// stand-in label, unscored (decode.Required.Unscored: they add nothing to
// the tree's score, and the search is the same); they get their own label
// here.
func (c *constraints) relabel(labels []string, d *decode.Derivation) []string {
	all := append(slices.Clone(labels), make([]string, len(c.extra))...)
	for k, x := range c.extra {
		all[len(labels)+k] = x.label
		for i := range d.Items {
			it := &d.Items[i]
			if it.Label == x.stand && slices.Equal(it.Blocks(), x.blocks) {
				it.Label = len(labels) + k
				break
			}
		}
	}
	return all
}

// extraLabel is a required constituent whose label the model lacks: it is
// decoded with label index stand and renamed afterwards.
type extraLabel struct {
	label  string
	stand  int
	blocks [][2]int
}

// buildConstraints turns named constraints into the decoder's, with the
// required labels the model does not know listed in extra. Required
// constituents over the same yield are merged into one unary chain: the
// model's chain label with those labels when there is one.
func buildConstraints(labels []string, require, forbid []Constraint) (*constraints, error) {
	index := make(map[string]int, len(labels))
	for i, l := range labels {
		index[l] = i
	}
	c := &decode.Constraints{Labels: labels}
	var extra []extraLabel
	byYield := map[string][]string{}
	var order []string
	blocksOf := map[string][][2]int{}
	for _, r := range require {
		if r.Label == "" {
			return nil, fmt.Errorf("required constituent %v without a label: %w", r.Blocks, decode.ErrBadConstraint)
		}
		for _, part := range strings.Split(r.Label, "/") {
			if why := badLabel(part); why != "" {
				return nil, fmt.Errorf("required constituent %q %v: %s (the tree could not be written): %w", r.Label, r.Blocks, why, decode.ErrBadConstraint)
			}
		}
		k := fmt.Sprint(r.Blocks)
		parts := strings.Split(r.Label, "/")
		chain, ok := byYield[k]
		if !ok {
			order = append(order, k)
			blocksOf[k] = r.Blocks
			byYield[k] = parts
			continue
		}
		// Another requirement of the yield adds the labels of its own that
		// the chain lacks: NP required twice, or NP and NP/MWU, is one
		// node, not a chain NP/NP.
		for _, part := range parts {
			if !slices.Contains(chain, part) {
				chain = append(chain, part)
			}
		}
		byYield[k] = chain
	}
	if len(order) > 0 && len(labels) == 0 {
		return nil, fmt.Errorf("the model has no labels: %w", decode.ErrBadConstraint)
	}
	for _, k := range order {
		chain := byYield[k]
		label, ok := chainLabel(index, chain)
		if !ok {
			// A stand-in label, unscored: the model has no score for
			// this one, so it adds nothing to the tree's score.
			label = 0
			extra = append(extra, extraLabel{label: strings.Join(chain, "/"), stand: label, blocks: blocksOf[k]})
		}
		c.Require = append(c.Require, decode.Required{Label: label, Blocks: blocksOf[k], Unscored: !ok})
	}
	for _, f := range forbid {
		if f.Label != "" {
			return nil, fmt.Errorf("forbidden yield %v with a label (%q): a forbidden yield is no constituent's, of any label: %w", f.Blocks, f.Label, decode.ErrBadConstraint)
		}
		c.Forbid = append(c.Forbid, decode.Forbidden{Blocks: f.Blocks})
	}
	return &constraints{decode: c, extra: extra}, nil
}

// badLabel says why a part of a required label cannot be a node label of a
// tree ("" when it can): empty (a chain "A//B" or "A/"), white space or a
// control character, or not UTF-8, none of which a treebank file holds.
func badLabel(part string) string {
	switch {
	case part == "":
		return "an empty label in the chain"
	case !utf8.ValidString(part):
		return "a label that is not UTF-8"
	case strings.ContainsFunc(part, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return fmt.Sprintf("label %q holds white space or a control character", part)
	}
	return ""
}

// chainLabel returns the model's label for a unary chain of the given
// labels, trying the order given and, for short chains, every other order
// (the annotator's constituents do not say which is on top).
func chainLabel(index map[string]int, chain []string) (int, bool) {
	if i, ok := index[strings.Join(chain, "/")]; ok {
		return i, true
	}
	if len(chain) < 2 || len(chain) > 4 {
		return 0, false
	}
	perm := slices.Clone(chain)
	slices.Sort(perm)
	for {
		if i, ok := index[strings.Join(perm, "/")]; ok {
			return i, true
		}
		if !nextPermutation(perm) {
			return 0, false
		}
	}
}

// nextPermutation rearranges p into its next lexicographic permutation and
// reports whether there was one.
func nextPermutation(p []string) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}
