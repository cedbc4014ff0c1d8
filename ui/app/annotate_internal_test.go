package app

import (
	"bytes"
	"slices"
	"testing"

	"github.com/discspan/discspan/annotate"
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
	other := annotate.NewCorpus("other.export", []*tree.Tree{tr}, annotate.Untouched)
	tests := []struct {
		name        string
		gold, other *annotate.Corpus
	}{
		{"corpus only", nil, nil},
		{"with reference trees", gold, nil},
		{"with a second file", gold, other},
		{"second file without reference trees", nil, other},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := encodeProject(savedProject{Corpus: c, Gold: tc.gold, Other: tc.other, Index: 1})
			if err != nil {
				t.Fatal(err)
			}
			sp, err := decodeProject(data)
			if err != nil {
				t.Fatal(err)
			}
			back := sp.Corpus
			if sp.Index != 1 || len(back.Sentences) != 2 || back.Sentences[1].Note() != "check np" || len(back.Sentences[1].Fixed()) != 1 {
				t.Errorf("decoded index %d, %d sentences, note %q, fixed %v", sp.Index, len(back.Sentences), back.Sentences[1].Note(), back.Sentences[1].Fixed())
			}
			if (sp.Gold == nil) != (tc.gold == nil) {
				t.Errorf("reference trees: got %v, want %v", sp.Gold != nil, tc.gold != nil)
			}
			if (sp.Other == nil) != (tc.other == nil) {
				t.Fatalf("second file: got %v, want %v", sp.Other != nil, tc.other != nil)
			}
			if sp.Other != nil && (sp.Other.Name != "other.export" || len(sp.Other.Sentences) != 1) {
				t.Errorf("second file %q with %d sentences", sp.Other.Name, len(sp.Other.Sentences))
			}
		})
	}
	// A project saved before the second file existed still loads.
	var buf bytes.Buffer
	if err := c.Save(&buf); err != nil {
		t.Fatal(err)
	}
	old := `{"version":1,"index":1,"corpus":` + buf.String() + `}`
	if sp, err := decodeProject([]byte(old)); err != nil || sp.Corpus == nil || sp.Gold != nil || sp.Other != nil || sp.Index != 1 {
		t.Errorf("old project: %+v, %v", sp, err)
	}
	for _, bad := range []string{``, `{}`, `{"version":9,"corpus":{}}`, `{"version":1}`, `{"version":1,"corpus":"x"}`} {
		if _, err := decodeProject([]byte(bad)); err == nil {
			t.Errorf("decodeProject(%q): no error", bad)
		}
	}
}
