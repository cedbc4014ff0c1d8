package parser

import (
	"errors"
	"slices"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

func TestBuildConstraints(t *testing.T) {
	labels := []string{"smain", "np", "pp", "smain/sv1"}
	tests := []struct {
		name    string
		require []Constraint
		forbid  []Constraint
		want    []decode.Required
		extra   []string
		err     error
	}{
		{"known", []Constraint{{"np", [][2]int{{0, 2}}}}, nil, []decode.Required{{Label: 1, Blocks: [][2]int{{0, 2}}}}, nil, nil},
		{"chain", []Constraint{{"sv1", [][2]int{{0, 5}}}, {"smain", [][2]int{{0, 5}}}}, nil, []decode.Required{{Label: 3, Blocks: [][2]int{{0, 5}}}}, nil, nil},
		{"chain label", []Constraint{{"smain/sv1", [][2]int{{0, 5}}}}, nil, []decode.Required{{Label: 3, Blocks: [][2]int{{0, 5}}}}, nil, nil},
		{"unknown", []Constraint{{"xp", [][2]int{{1, 2}, {3, 4}}}}, []Constraint{{Blocks: [][2]int{{0, 1}}}}, []decode.Required{{Label: 0, Blocks: [][2]int{{1, 2}, {3, 4}}, Unscored: true}}, []string{"xp"}, nil},
		{"no label", []Constraint{{"", [][2]int{{0, 1}}}}, nil, nil, nil, decode.ErrBadConstraint},
		// A label required twice of one yield is one node (it was a chain
		// "np/np", which the model lacks: decoded with a stand-in label).
		{"required twice", []Constraint{{"np", [][2]int{{0, 2}}}, {"np", [][2]int{{0, 2}}}}, nil, []decode.Required{{Label: 1, Blocks: [][2]int{{0, 2}}}}, nil, nil},
		{"a label and its chain", []Constraint{{"smain", [][2]int{{0, 5}}}, {"smain/sv1", [][2]int{{0, 5}}}}, nil, []decode.Required{{Label: 3, Blocks: [][2]int{{0, 5}}}}, nil, nil},
		{"a chain of one label twice stays", []Constraint{{"np/np", [][2]int{{0, 2}}}}, nil, []decode.Required{{Label: 0, Blocks: [][2]int{{0, 2}}, Unscored: true}}, []string{"np/np"}, nil},
		{"forbidden yield with a label", nil, []Constraint{{"pp", [][2]int{{0, 1}}}}, nil, nil, decode.ErrBadConstraint},
		// Labels no tree can hold are refused before any work.
		{"white space", []Constraint{{"NP X", [][2]int{{0, 1}}}}, nil, nil, nil, decode.ErrBadConstraint},
		{"empty chain part", []Constraint{{"NP/", [][2]int{{0, 1}}}}, nil, nil, nil, decode.ErrBadConstraint},
		{"not UTF-8", []Constraint{{"N\xffP", [][2]int{{0, 1}}}}, nil, nil, nil, decode.ErrBadConstraint},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := buildConstraints(labels, tc.require, tc.forbid)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			c, extra := cs.decode, cs.extra
			if len(c.Require) != len(tc.want) {
				t.Fatalf("require %+v, want %+v", c.Require, tc.want)
			}
			for i := range tc.want {
				if c.Require[i].Label != tc.want[i].Label || !slices.Equal(c.Require[i].Blocks, tc.want[i].Blocks) || c.Require[i].Unscored != tc.want[i].Unscored {
					t.Errorf("require %+v, want %+v", c.Require[i], tc.want[i])
				}
			}
			if len(c.Forbid) != len(tc.forbid) {
				t.Errorf("forbid %+v", c.Forbid)
			}
			var names []string
			for _, x := range extra {
				names = append(names, x.label)
			}
			if !slices.Equal(names, tc.extra) {
				t.Errorf("extra labels %v, want %v", names, tc.extra)
			}
		})
	}
}
