package teach

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
)

// labelled lists a derivation's labelled constituents canonically.
func labelled(cs []decode.Constituent) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprint(c.Label, c.Blocks))
	}
	slices.Sort(out)
	return out
}

func traceConstituents(t *Trace) []decode.Constituent { return t.Derivation().Constituents() }

// The replay reaches the production decoders' optimum and tree for every
// variant.
func TestReplayMatchesDecoders(t *testing.T) {
	for _, v := range decode.Variants {
		for n := 1; n <= 7; n++ {
			for seed := uint64(1); seed <= 4; seed++ {
				s := decode.RandomScores(seed*100+uint64(n), n, 3)
				d, err := decode.Decode(v, s, nil)
				if err != nil {
					t.Fatal(err)
				}
				tr, err := Replay(context.Background(), v, s)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(float64(tr.Score-d.Score)) > 1e-4*(1+math.Abs(float64(d.Score))) {
					t.Fatalf("%s n=%d seed %d: replay score %v, decoder %v", v, n, seed, tr.Score, d.Score)
				}
				if got, want := labelled(traceConstituents(tr)), labelled(d.Constituents()); !slices.Equal(got, want) {
					t.Errorf("%s n=%d seed %d: replay tree %v, decoder %v", v, n, seed, got, want)
				}
			}
		}
	}
}

// Every step comes after its antecedents, uses a rule of its variant and
// covers what its antecedents cover.
func TestReplayOrder(t *testing.T) {
	s := decode.RandomScores(7, 6, 2)
	for _, v := range decode.Variants {
		tr, err := Replay(context.Background(), v, s)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[Item]bool{}
		for x, st := range tr.Steps {
			if seen[st.Item] {
				t.Fatalf("%s: item %v finalised twice", v, st.Item)
			}
			seen[st.Item] = true
			if st.Rule != decode.Axiom && !slices.Contains(StepperRules(v), st.Rule) {
				t.Errorf("%s: step %d uses %s", v, x, st.Rule)
			}
			if st.Rule == decode.Axiom {
				if st.Item.J-st.Item.I != 1 || st.Left >= 0 {
					t.Errorf("%s: bad axiom %+v", v, st)
				}
				continue
			}
			if st.Left >= x || st.Right >= x || st.Left < 0 || st.Right < 0 || st.Instances < 1 {
				t.Fatalf("%s: step %d (%v) has antecedents %d, %d", v, x, st.Item, st.Left, st.Right)
			}
			if got, want := cover(tr.Steps[st.Left].Item)|cover(tr.Steps[st.Right].Item), cover(st.Item); got != want {
				t.Errorf("%s: %v built from %v and %v", v, st.Item, tr.Steps[st.Left].Item, tr.Steps[st.Right].Item)
			}
		}
		if v == decode.Continuous {
			for _, st := range tr.Steps {
				if !st.Item.Continuous() {
					t.Errorf("continuous replay built %v", st.Item)
				}
			}
		}
		if last := tr.Steps[tr.Best[0]].Item; last != contItem(0, 6) {
			t.Errorf("%s: best derivation starts at %v", v, last)
		}
	}
}

func cover(it Item) uint64 {
	var m uint64
	for _, b := range it.Blocks() {
		for x := b[0]; x < b[1]; x++ {
			m |= 1 << x
		}
	}
	return m
}

func TestReplayErrors(t *testing.T) {
	tests := []struct {
		name string
		v    decode.Variant
		s    *decode.Scores
		want string
	}{
		{"too long", decode.N4, decode.NewScores(MaxStepperWords+1, 1), "at most"},
		{"empty", decode.N4, decode.NewScores(0, 1), "empty"},
		{"bad variant", decode.Variant(42), decode.NewScores(3, 1), "unknown variant"},
		{"bad tensors", decode.N4, &decode.Scores{N: 2, L: 1}, "entries"},
	}
	for _, tc := range tests {
		_, err := Replay(context.Background(), tc.v, tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Replay(ctx, decode.N6, decode.RandomScores(1, 5, 1)); err == nil {
		t.Error("a cancelled replay succeeded")
	}
}

// TestGoldReplayFlatTree: a tree of words without constituents has
// nothing to replay, and the error says so.
func TestGoldReplayFlatTree(t *testing.T) {
	flat := &tree.Tree{ID: "1", Tokens: []tree.Token{{Word: "a", Parent: tree.Root}, {Word: "b", Parent: tree.Root}}}
	if _, _, err := GoldReplay(context.Background(), flat, decode.N3); err == nil || !strings.Contains(err.Error(), "no constituents, only words") {
		t.Errorf("error %v; want one saying the tree has no constituents", err)
	}
}

// N3 is replayed with the cubic algorithm's own items and rules: a
// bottom(i,l,A) for every label and every span of at least two words, no
// item [i,k,l,j]; the same score as the cubic decoder to the bit (the sums
// are taken in its order) and n4's tree, which searches the same space.
func TestReplayCubic(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for seed := uint64(1); seed <= 5; seed++ {
			const labels = 3
			s := decode.RandomScores(seed*1000+uint64(n), n, labels)
			tr, err := Replay(context.Background(), decode.N3, s)
			if err != nil {
				t.Fatal(err)
			}
			bottoms, uses := 0, map[decode.Rule]int{}
			for _, st := range tr.Steps {
				switch {
				case st.Item.Bottom():
					bottoms++
					if st.Rule != decode.CreatePartial || st.Label != st.Item.A || st.Instances != st.Item.L-st.Item.I-1 {
						t.Fatalf("n=%d: bottom step %+v", n, st)
					}
				case !st.Item.Continuous():
					t.Fatalf("n=%d: n3 replay built %v", n, st.Item)
				}
			}
			for _, x := range tr.Best {
				uses[tr.Steps[x].Rule]++
			}
			if want := labels * n * (n - 1) / 2; bottoms != want {
				t.Errorf("n=%d: %d bottom items, want %d", n, bottoms, want)
			}
			if uses[decode.CreatePartial] != uses[decode.CompleteDisc] {
				t.Errorf("n=%d seed %d: %d created, %d completed", n, seed, uses[decode.CreatePartial], uses[decode.CompleteDisc])
			}
			d3, err := decode.Decode(decode.N3, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Score != d3.Score {
				t.Errorf("n=%d seed %d: replay score %v, cubic decoder %v", n, seed, tr.Score, d3.Score)
			}
			d4, err := decode.Decode(decode.N4, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := labelled(tr.Derivation().Constituents()), labelled(d4.Constituents()); !slices.Equal(got, want) {
				t.Errorf("n=%d seed %d: n3 replay's tree %v, n4's %v", n, seed, got, want)
			}
		}
	}
}

// With many ties (every score -0.1, 0 or 0.1, so that sums that differ
// in their last bit meet once a label's weight is added), the n3
// replay's derivation is the cubic decoder's item by item: the same
// items, labels, rules and scores in the same order (among equal totals
// both take the first instance in the decoder's order of recovery). Taking
// the strictly best sum before the weight instead gave another tree in
// about one case in 400.
func TestReplayCubicTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	differ := 0
	const trials = 1000
	for trial := range trials {
		n := 3 + rng.IntN(6)
		s := decode.NewScores(n, 2)
		for _, tensor := range [][]float32{s.Cont, s.Disc, s.Gap} {
			for x := range tensor {
				tensor[x] = float32(rng.IntN(3)-1) * 0.1
			}
		}
		d, err := decode.Decode(decode.N3, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Replay(context.Background(), decode.N3, s)
		if err != nil {
			t.Fatal(err)
		}
		got := tr.Derivation()
		if got.Score != d.Score || len(got.Items) != len(d.Items) {
			t.Fatalf("trial %d: score %v, %d items; decoder %v, %d items", trial, got.Score, len(got.Items), d.Score, len(d.Items))
		}
		for x := range d.Items {
			g, w := got.Items[x], d.Items[x]
			if g.I != w.I || g.K != w.K || g.L != w.L || g.J != w.J || g.Label != w.Label || g.Rule != w.Rule || g.Score != w.Score || g.Weight != w.Weight {
				t.Errorf("trial %d, item %d: replay %+v, decoder %+v", trial, x, g, w)
				differ++
				break
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d derivations differ", differ, trials)
	}
}
