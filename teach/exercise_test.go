package teach

import (
	"context"
	"strings"
	"testing"

	"github.com/discspan/discspan/annotate"
)

// A student builds the wh-question bottom-up with the annotation commands;
// the check follows each step, and the finished tree is solved.
func TestExerciseBuiltWithCommands(t *testing.T) {
	e, err := ExerciseByID("wh-question")
	if err != nil {
		t.Fatal(err)
	}
	s := annotate.NewSentence(e.Start(), annotate.Untouched)
	v, err := e.Check(s.Tree())
	if err != nil {
		t.Fatal(err)
	}
	if v.Solved || len(v.Right) != 0 || len(v.Missing) != 5 || v.F1 != 0 {
		t.Fatalf("empty start: %+v", v)
	}
	steps := []struct {
		cmd          annotate.CreateConstituent
		right, wrong int
	}{
		{annotate.CreateConstituent{Label: "WHNP", Words: []int{0}}, 1, 0},
		{annotate.CreateConstituent{Label: "NP", Words: []int{2}}, 2, 0},
		{annotate.CreateConstituent{Label: "NP", Words: []int{0, 3}}, 2, 1}, // wrong label for the VP
		{annotate.CreateConstituent{Label: "SQ", Words: []int{0, 1, 2, 3}}, 3, 1},
		{annotate.CreateConstituent{Label: "SBARQ", Words: []int{0, 1, 2, 3, 4}}, 4, 1},
	}
	for x, st := range steps {
		if err := s.Do(context.Background(), st.cmd, nil); err != nil {
			t.Fatalf("step %d: %v", x, err)
		}
		v, err := e.Check(s.Tree())
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Right) != st.right || len(v.Wrong) != st.wrong || v.Solved {
			t.Fatalf("step %d: right %v wrong %v", x, v.Right, v.Wrong)
		}
	}
	// Relabel the wrong NP over "What … do" as VP.
	var np int = -1
	for i, n := range s.Tree().Nodes {
		if n.Label == "NP" && len(s.Tree().Yields()[i]) == 2 {
			np = i
		}
	}
	if err := s.Do(context.Background(), annotate.Relabel{Node: np, Label: "VP"}, nil); err != nil {
		t.Fatal(err)
	}
	v, err = e.Check(s.Tree())
	if err != nil {
		t.Fatal(err)
	}
	if !v.Solved || v.F1 != 100 || len(v.Right) != 5 {
		t.Fatalf("finished tree: %+v", v)
	}
	// Shared and opened elsewhere, the attempt checks the same.
	link, err := EncodeAttempt(e.ID, s.Tree())
	if err != nil {
		t.Fatal(err)
	}
	e2, t2, err := DecodeAttempt(link)
	if err != nil {
		t.Fatal(err)
	}
	if v2, err := e2.Check(t2); err != nil || !v2.Solved {
		t.Fatalf("shared attempt: %+v, %v", v2, err)
	}
}

func TestExerciseErrors(t *testing.T) {
	all, err := Exercises()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(Gallery()) {
		t.Fatalf("%d exercises for %d examples", len(all), len(Gallery()))
	}
	a, b := all[0], all[1]
	if _, err := a.Check(b.Gold); err == nil || !strings.Contains(err.Error(), "sentence") {
		t.Errorf("checking another sentence's tree: %v", err)
	}
	link, err := EncodeAttempt(b.ID, b.Gold)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, link, want string }{
		{"no separator", "abc", "not an exercise link"},
		{"unknown exercise", "nope~" + link[len(b.ID)+1:], "no exercise"},
		{"other sentence", a.ID + link[len(b.ID):], "not of exercise"},
		{"damaged tree", b.ID + "~t1.@@", "damaged"},
	}
	for _, tc := range tests {
		if _, _, err := DecodeAttempt(tc.link); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := EncodeAttempt("a~b", b.Gold); err == nil {
		t.Error("an id with the separator was accepted")
	}
}
