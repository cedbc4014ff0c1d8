package app

import (
	"errors"
	"slices"
	"testing"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
)

func TestSelection(t *testing.T) {
	type op func(s *Selection)
	move := func(d int, ext bool) op { return func(s *Selection) { s.Move(d, ext) } }
	tests := []struct {
		name   string
		ops    []op
		words  []int
		cursor int
		second bool
	}{
		{"start", nil, []int{0}, 0, false},
		{"arrows move", []op{move(1, false), move(1, false)}, []int{2}, 2, false},
		{"clamped left", []op{move(-1, false)}, []int{0}, 0, false},
		{"clamped right", []op{move(20, false)}, []int{9}, 9, false},
		{"shift extends", []op{move(1, false), move(1, true), move(1, true)}, []int{1, 2, 3}, 3, false},
		{"shift back shrinks", []op{move(3, true), move(-1, true)}, []int{0, 1, 2}, 2, false},
		{"shift left of anchor", []op{move(4, false), move(-2, true)}, []int{2, 3, 4}, 2, false},
		{"plain move collapses", []op{move(2, true), move(1, false)}, []int{3}, 3, false},
		{"second block", []op{move(1, true), func(s *Selection) { s.ToggleSecond() }}, []int{0, 1, 3}, 3, true},
		{"second block extends", []op{move(1, true), func(s *Selection) { s.ToggleSecond() }, move(1, true)}, []int{0, 1, 3, 4}, 4, true},
		{"second block moves", []op{func(s *Selection) { s.ToggleSecond() }, move(3, false)}, []int{0, 5}, 5, true},
		{"toggle twice", []op{func(s *Selection) { s.ToggleSecond() }, func(s *Selection) { s.ToggleSecond() }}, []int{0}, 0, false},
		{"click", []op{move(3, true), func(s *Selection) { s.Click(6) }}, []int{6}, 6, false},
		{"shift-click", []op{func(s *Selection) { s.Click(6) }, func(s *Selection) { s.ShiftClick(4) }}, []int{4, 5, 6}, 4, false},
		{"ctrl-click", []op{func(s *Selection) { s.Click(1) }, func(s *Selection) { s.ShiftClick(2) }, func(s *Selection) { s.CtrlClick(5) }, func(s *Selection) { s.ShiftClick(6) }}, []int{1, 2, 5, 6}, 6, true},
		{"ctrl-click again", []op{func(s *Selection) { s.CtrlClick(5) }, func(s *Selection) { s.CtrlClick(7) }}, []int{0, 7}, 7, true},
		{"collapse", []op{move(2, true), func(s *Selection) { s.ToggleSecond() }, func(s *Selection) { s.Collapse() }}, []int{4}, 4, false},
		{"set words", []op{func(s *Selection) { s.SetWords([]int{1, 2, 5, 6, 7}) }}, []int{1, 2, 5, 6, 7}, 7, true},
		{"set words one block", []op{func(s *Selection) { s.SetWords([]int{3, 4}) }}, []int{3, 4}, 4, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSelection(10)
			for _, o := range tc.ops {
				o(&s)
			}
			if got := s.Words(); !slices.Equal(got, tc.words) {
				t.Errorf("words %v, want %v", got, tc.words)
			}
			if s.Cursor() != tc.cursor || s.Second() != tc.second {
				t.Errorf("cursor %d second %v, want %d %v", s.Cursor(), s.Second(), tc.cursor, tc.second)
			}
			for i := range 10 {
				if s.Has(i) != slices.Contains(tc.words, i) {
					t.Errorf("Has(%d) = %v", i, s.Has(i))
				}
			}
		})
	}
	empty := NewSelection(0)
	empty.Move(1, true)
	empty.Click(0)
	empty.ToggleSecond()
	if empty.Cursor() != -1 || len(empty.Words()) != 0 {
		t.Errorf("empty selection: cursor %d words %v", empty.Cursor(), empty.Words())
	}
}

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
		{"unknown", []Constraint{{"xp", [][2]int{{1, 2}, {3, 4}}}}, []Constraint{{Blocks: [][2]int{{0, 1}}}}, []decode.Required{{Label: 0, Blocks: [][2]int{{1, 2}, {3, 4}}}}, []string{"xp"}, nil},
		{"no label", []Constraint{{"", [][2]int{{0, 1}}}}, nil, nil, nil, decode.ErrBadConstraint},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, extra, err := buildConstraints(labels, tc.require, tc.forbid)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if len(c.Require) != len(tc.want) {
				t.Fatalf("require %+v, want %+v", c.Require, tc.want)
			}
			for i := range tc.want {
				if c.Require[i].Label != tc.want[i].Label || !slices.Equal(c.Require[i].Blocks, tc.want[i].Blocks) {
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

func TestProjectEncoding(t *testing.T) {
	tr, err := tree.FromConstituents([]string{"de", "man", "slaapt"}, []string{"LID", "N", "WW"},
		[]tree.Labelled{{Label: "np", Blocks: []tree.Span{{Start: 0, End: 2}}}, {Label: "smain", Blocks: []tree.Span{{Start: 0, End: 3}}}})
	if err != nil {
		t.Fatal(err)
	}
	tr.ID = "s1"
	c := annotate.NewCorpus("test", []*tree.Tree{tr, tr}, annotate.PreAnnotated)
	if err := c.Do(t.Context(), 1, annotate.SetNote{Note: "check np"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(t.Context(), 1, annotate.FixNode{Node: 0}); err != nil {
		t.Fatal(err)
	}
	gold := annotate.NewCorpus("test", []*tree.Tree{tr, tr}, annotate.Untouched)
	for _, g := range []*annotate.Corpus{gold, nil} {
		data, err := encodeProject(c, g, 1)
		if err != nil {
			t.Fatal(err)
		}
		back, bg, index, err := decodeProject(data)
		if err != nil {
			t.Fatal(err)
		}
		if index != 1 || len(back.Sentences) != 2 || back.Sentences[1].Note() != "check np" || len(back.Sentences[1].Fixed()) != 1 {
			t.Errorf("decoded index %d, %d sentences, note %q, fixed %v", index, len(back.Sentences), back.Sentences[1].Note(), back.Sentences[1].Fixed())
		}
		if (bg == nil) != (g == nil) {
			t.Errorf("reference trees: got %v, want %v", bg != nil, g != nil)
		}
	}
	for _, bad := range []string{``, `{}`, `{"version":9,"corpus":{}}`, `{"version":1}`, `{"version":1,"corpus":"x"}`} {
		if _, _, _, err := decodeProject([]byte(bad)); err == nil {
			t.Errorf("decodeProject(%q): no error", bad)
		}
	}
}
