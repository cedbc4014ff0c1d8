package app

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/teach"
)

// cubicStepper is the stepper on an n3 replay of 10 words and 20 labels
// (random scores): 900 bottom items.
func cubicStepper(t *testing.T) *Stepper {
	t.Helper()
	const n, labels = 10, 20
	tr, err := teach.Replay(context.Background(), decode.N3, decode.RandomScores(7, n, labels))
	if err != nil {
		t.Fatal(err)
	}
	words, tags, names := make([]string, n), make([]string, n), make([]string, labels)
	for i := range words {
		words[i], tags[i] = fmt.Sprintf("w%d", i), "T"
	}
	for a := range names {
		names[a] = fmt.Sprintf("L%d", a)
	}
	s := &Stepper{Variant: decode.N3, Title: "test"}
	s.set(tr, words, tags, names)
	return s
}

// The chart lists at most MaxDiscCells bottom items, newest first: while
// it is built, the current item first and its antecedents; once built,
// the best derivation's items first.
func TestDiscCellsWindow(t *testing.T) {
	s := cubicStepper(t)
	if got := s.DiscCount(); got != 20*10*9/2 {
		t.Fatalf("%d bottom items", got)
	}
	// The first complete discontinuous step past the window, and the
	// first bottom item past it.
	complete, bottom := -1, -1
	for x, st := range s.Trace.Steps {
		if st.Rule == decode.CompleteDisc && s.Trace.Steps[st.Left].Item.Bottom() && x > 3*MaxDiscCells && complete < 0 {
			complete = x
		}
		if st.Item.Bottom() && x > 2*MaxDiscCells && bottom < 0 {
			bottom = x
		}
	}
	if complete < 0 || bottom < 0 {
		t.Fatal("no step to look at")
	}
	s.Seek(bottom)
	cells := s.DiscCells(decode.Axiom)
	if len(cells) != MaxDiscCells || cells[0].Step != bottom || !strings.Contains(cells[0].Class, "current") {
		t.Errorf("at bottom item %d: %d cells, the first %+v", bottom, len(cells), cells[0])
	}
	for k := 1; k < len(cells); k++ {
		if cells[k].Step >= cells[k-1].Step {
			t.Fatalf("cells not newest first: %d after %d", cells[k].Step, cells[k-1].Step)
		}
	}
	if s.DiscBuilt() <= MaxDiscCells {
		t.Errorf("%d built", s.DiscBuilt())
	}
	// A completion: its bottom item is listed, marked as the left
	// antecedent, however old it is.
	s.Seek(complete)
	left := s.Trace.Steps[complete].Left
	found := false
	for _, c := range s.DiscCells(decode.Axiom) {
		if c.Step == left {
			found = strings.Contains(c.Class, "left")
		}
	}
	if !found {
		t.Errorf("step %d: its bottom item %d is not listed as the left antecedent", complete, left)
	}
	// At the end the best derivation's bottom items come first.
	s.Seek(s.Len() - 1)
	var best []int
	for _, x := range s.Trace.Best {
		if s.Trace.Steps[x].Item.Bottom() {
			best = append(best, x)
		}
	}
	cells = s.DiscCells(decode.Axiom)
	if len(best) == 0 || len(cells) != MaxDiscCells {
		t.Fatalf("%d best bottom items, %d cells", len(best), len(cells))
	}
	for k, x := range best {
		if cells[k].Step != x || !strings.Contains(cells[k].Class, "best") {
			t.Errorf("cell %d is step %d (%s), want the best derivation's %d", k, cells[k].Step, cells[k].Class, x)
		}
	}
}

// The panel of a complete discontinuous step gives the disc weight it
// adds, so that its numbers add up: inside = left + right + label weight
// + disc weight, as the panel writes them (four decimals each). A bottom
// item's weight is its gap weight.
func TestStepInfoAddsUp(t *testing.T) {
	s := cubicStepper(t)
	number := func(x int, what, text string) float64 {
		t.Helper()
		var v float64
		if _, err := fmt.Sscan(text, &v); err != nil {
			t.Fatalf("step %d: %s %q is no number", x, what, text)
		}
		return v
	}
	checked := map[decode.Rule]bool{}
	for x, st := range s.Trace.Steps {
		s.Seek(x)
		info := s.Info()
		sum := number(x, "weight", info.Weight)
		if st.Rule != decode.Axiom {
			sum += number(x, "left inside", info.Left.Inside) + number(x, "right inside", info.Right.Inside)
		}
		switch st.Rule {
		case decode.CompleteDisc:
			label := s.Labels[s.Trace.Steps[st.Left].Label]
			if !strings.Contains(info.Disc, ", of the discontinuous "+label+" completed") {
				t.Fatalf("step %d: disc %q does not name %s", x, info.Disc, label)
			}
			sum += number(x, "disc weight", info.Disc[:strings.Index(info.Disc, ",")])
		case decode.CreatePartial:
			if info.WeightName != "gap weight" || info.Disc != "" {
				t.Fatalf("step %d: a bottom item's weight named %q, disc %q", x, info.WeightName, info.Disc)
			}
		default:
			if info.WeightName != "label weight" || info.Disc != "" {
				t.Fatalf("step %d: weight named %q, disc %q", x, info.WeightName, info.Disc)
			}
		}
		if inside := number(x, "inside", info.Inside); math.Abs(sum-inside) > 3e-4 {
			t.Fatalf("step %d (%s): the panel's parts add to %.4f, its inside score is %.4f", x, st.Rule, sum, inside)
		}
		checked[st.Rule] = true
	}
	for _, r := range teach.StepperRules(decode.N3) {
		if !checked[r] {
			t.Errorf("no %s step", r)
		}
	}
}
