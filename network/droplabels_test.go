package network

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWithoutLabels checks that dropping labels leaves every other score
// of every sentence exactly as it was, and the vocabulary in step.
func TestWithoutLabels(t *testing.T) {
	p := randomParams(t, 7, 0.3)
	c := p.Config()
	if c.Labels < 3 {
		t.Fatalf("test config has %d labels, want at least 3", c.Labels)
	}
	drop := []int{0, c.Labels - 1}
	q, err := p.WithoutLabels(drop)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := q.Config().Labels, c.Labels-len(drop); got != want {
		t.Fatalf("labels %d, want %d", got, want)
	}
	var keep []int
	for l := range c.Labels {
		if !slices.Contains(drop, l) {
			keep = append(keep, l)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5, 12} {
		in := randomExample(rng, c, n).Input
		before, err := (&Model{Params: p}).Forward(in)
		if err != nil {
			t.Fatal(err)
		}
		after, err := (&Model{Params: q}).Forward(in)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(before.Tags, after.Tags) {
			t.Errorf("n=%d: tag logits changed", n)
		}
		for x := range n {
			for y := x; y < n; y++ {
				for i, l := range keep {
					b, a := before.Scores.Index(x, y, l), after.Scores.Index(x, y, i)
					if before.Scores.Cont[b] != after.Scores.Cont[a] || before.Scores.Disc[b] != after.Scores.Disc[a] || before.Scores.Gap[b] != after.Scores.Gap[a] {
						t.Fatalf("n=%d (%d,%d) label %d: scores changed", n, x, y, l)
					}
				}
			}
		}
	}

	v := &Vocab{Words: slices.Clone(reservedWords), Chars: slices.Clone(reservedChars), Labels: []string{"A", "B", "C", "D"}, Tags: []string{"t"}}
	if err := v.reindex(); err != nil {
		t.Fatal(err)
	}
	w, err := v.WithoutLabels([]int{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if id, ok := w.LabelID("C"); !ok || id != 1 || !slices.Equal(w.Labels, []string{"A", "C"}) {
		t.Errorf("labels %q, C at %d", w.Labels, id)
	}
	for _, bad := range [][]int{{4}, {-1}, {1, 1}, {0, 1, 2, 3}} {
		if _, err := v.WithoutLabels(bad); err == nil {
			t.Errorf("dropping %v: no error", bad)
		}
	}
}
