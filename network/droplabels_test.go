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

// TestWithLabels checks that WithLabels undoes WithoutLabels: the labels
// kept score exactly as before, the ones put back score the span score
// plus absent, and dropping them again gives the dropped parameters back.
func TestWithLabels(t *testing.T) {
	p := randomParams(t, 11, 0.3)
	c := p.Config()
	if c.Labels < 3 {
		t.Fatalf("test config has %d labels, want at least 3", c.Labels)
	}
	drop := []int{1}
	q, err := p.WithoutLabels(drop)
	if err != nil {
		t.Fatal(err)
	}
	var at []int
	for l := range c.Labels {
		if !slices.Contains(drop, l) {
			at = append(at, l)
		}
	}
	const absent = -50
	r, err := q.WithLabels(at, c.Labels, absent)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Config(); got != c {
		t.Fatalf("config %+v, want %+v", got, c)
	}
	back, err := r.WithoutLabels(drop)
	if err != nil {
		t.Fatal(err)
	}
	for i, tn := range q.Tensors() {
		if !slices.Equal(tn.Data, back.Tensors()[i].Data) {
			t.Fatalf("%s: dropping the labels put back does not give the dropped parameters", tn.Name)
		}
	}
	// A label put back scores the span score plus absent: compare with the
	// copy whose absent term is 0, where it scores the span score alone.
	zero, err := q.WithLabels(at, c.Labels, 0)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 6, 13} {
		in := randomExample(rng, c, n).Input
		want, err := (&Model{Params: q}).Forward(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := (&Model{Params: r}).Forward(in)
		if err != nil {
			t.Fatal(err)
		}
		base, err := (&Model{Params: zero}).Forward(in)
		if err != nil {
			t.Fatal(err)
		}
		for x := range n {
			for y := x; y < n; y++ {
				for i, l := range at {
					w, g := want.Scores.Index(x, y, i), got.Scores.Index(x, y, l)
					if want.Scores.Cont[w] != got.Scores.Cont[g] || want.Scores.Disc[w] != got.Scores.Disc[g] || want.Scores.Gap[w] != got.Scores.Gap[g] {
						t.Fatalf("n=%d (%d,%d) label %d: scores changed", n, x, y, l)
					}
				}
				for _, l := range drop {
					g := got.Scores.Index(x, y, l)
					for k, pair := range [3][2]float32{{got.Scores.Cont[g], base.Scores.Cont[g]}, {got.Scores.Disc[g], base.Scores.Disc[g]}, {got.Scores.Gap[g], base.Scores.Gap[g]}} {
						if d := pair[0] - pair[1]; d < absent-1e-3 || d > absent+1e-3 {
							t.Fatalf("n=%d (%d,%d) kind %d label %d put back: %g above the span score, want %d", n, x, y, k, l, d, absent)
						}
					}
				}
			}
		}
	}

	for _, bad := range [][]int{at[1:], append([]int{at[1]}, at[1:]...), append(slices.Clone(at[:len(at)-1]), c.Labels)} {
		if _, err := q.WithLabels(bad, c.Labels, absent); err == nil {
			t.Errorf("positions %v: no error", bad)
		}
	}

	full := &Vocab{Words: slices.Clone(reservedWords), Chars: slices.Clone(reservedChars), Labels: []string{"A", "B", "C", "D"}, Tags: []string{"t"}}
	if err := full.reindex(); err != nil {
		t.Fatal(err)
	}
	part, err := full.WithoutLabels([]int{0, 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := part.LabelsIn(full); err != nil || !slices.Equal(got, []int{1, 3}) {
		t.Errorf("LabelsIn: %v, %v; want [1 3]", got, err)
	}
	restored, pos, err := part.WithLabels(full.Labels)
	if err != nil || restored.SameAs(full) != nil || !slices.Equal(pos, []int{1, 3}) {
		t.Errorf("Vocab.WithLabels: %v, positions %v, error %v", restored, pos, err)
	}
	if id, ok := restored.LabelID("C"); !ok || id != 2 {
		t.Errorf("Vocab.WithLabels: C at %d (%v), want 2", id, ok)
	}
	if _, _, err := part.WithLabels([]string{"D", "B"}); err == nil {
		t.Error("Vocab.WithLabels with the labels out of order: no error")
	}
	swapped := &Vocab{Words: full.Words, Chars: full.Chars, Labels: []string{"D", "B"}, Tags: full.Tags}
	otherTags := &Vocab{Words: full.Words, Chars: full.Chars, Labels: []string{"B"}, Tags: []string{"u"}}
	for _, v := range []*Vocab{swapped, otherTags} {
		if _, err := v.LabelsIn(full); err == nil {
			t.Errorf("labels %q, tags %q in %q, %q: no error", v.Labels, v.Tags, full.Labels, full.Tags)
		}
	}
}
