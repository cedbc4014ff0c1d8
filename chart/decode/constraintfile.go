package decode

import (
	"fmt"
	"io"
)

// constraintFile is the JSON form of Constraints:
//
//	{"require": [{"label": "NP", "blocks": [[0, 2]]}],
//	 "forbid":  [{"blocks": [[1, 3], [5, 6]]}]}
//
// Blocks are [start, end) pairs in interstice indices; labels are names
// from the score file's "labels".
type constraintFile struct {
	Require []struct {
		Label  *string `json:"label"`
		Blocks [][]int `json:"blocks"`
	} `json:"require"`
	Forbid []struct {
		Blocks [][]int `json:"blocks"`
	} `json:"forbid"`
}

// ReadConstraintFile parses a constraint file (see the JSON form above),
// resolving label names against labels (the score file's "labels"). Errors
// name the file, with the line and column for JSON syntax and type errors;
// an unknown label is named. The block structure is only checked for its
// shape (pairs of numbers): Constraints.Validate and DecodeConstrained
// check the rest against the sentence.
func ReadConstraintFile(r io.Reader, name string, labels []string) (*Constraints, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var f constraintFile
	dec, err := decodeJSON(data, name, &f)
	if err != nil {
		return nil, err
	}
	if trailing(dec, data) {
		return nil, fmt.Errorf("%s: data after the constraint object", name)
	}
	index := make(map[string]int, len(labels))
	for a, l := range labels {
		index[l] = a
	}
	c := &Constraints{Labels: labels}
	for x, r := range f.Require {
		where := fmt.Sprintf("%s: require[%d]", name, x)
		if r.Label == nil {
			return nil, fmt.Errorf("%s: no \"label\"", where)
		}
		a, ok := index[*r.Label]
		if !ok {
			return nil, fmt.Errorf("%s: unknown label %q (not among the score file's %d labels)", where, *r.Label, len(labels))
		}
		b, err := pairs(r.Blocks)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", where, err)
		}
		c.Require = append(c.Require, Required{Label: a, Blocks: b})
	}
	for x, fb := range f.Forbid {
		b, err := pairs(fb.Blocks)
		if err != nil {
			return nil, fmt.Errorf("%s: forbid[%d]: %v", name, x, err)
		}
		c.Forbid = append(c.Forbid, Forbidden{Blocks: b})
	}
	return c, nil
}

// pairs converts JSON blocks to [start,end) pairs, rejecting any block that
// is not two numbers.
func pairs(blocks [][]int) ([][2]int, error) {
	out := make([][2]int, len(blocks))
	for x, b := range blocks {
		if len(b) != 2 {
			return nil, fmt.Errorf("block %d has %d numbers, want 2 ([start, end))", x, len(b))
		}
		out[x] = [2]int{b[0], b[1]}
	}
	return out, nil
}
