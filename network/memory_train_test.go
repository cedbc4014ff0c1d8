package network

import (
	"math/rand/v2"
	"testing"
)

// trainingWork bounds what a training step takes from its worker's arena,
// and not by much: measured on random sentences (words of up to MaxChars+2
// characters) for two presets, lengths and label counts, the arena handed
// out 1.2-1.6 times less than the bound.
func TestTrainingWorkBound(t *testing.T) {
	for _, tc := range []struct {
		preset string
		n, L   int
	}{
		{"tiny", 1, 1},
		{"tiny", 40, 40},
		{"tiny", 120, 40},
		{"small", 80, 120},
	} {
		c, err := Preset(tc.preset)
		if err != nil {
			t.Fatal(err)
		}
		c.WordVocab, c.CharVocab, c.Labels, c.Tags = 1000, 100, tc.L, 10
		m, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		m.Workers = 1
		var peaks []int
		m.work().peaks = &peaks
		ex := randomExample(rand.New(rand.NewPCG(1, 2)), c, tc.n)
		if _, err := m.LossGrad([]Example{ex}, 1, m.Params.ZeroClone()); err != nil {
			t.Fatal(err)
		}
		// The worker's arena is given back first, then the one of the
		// prepared parameters.
		if len(peaks) != 2 {
			t.Fatalf("%s n=%d: %d arenas given back, want 2", tc.preset, tc.n, len(peaks))
		}
		rows := int64(2 * 3)
		for _, ch := range ex.Input.CharIDs {
			rows += int64(min(len(ch), c.MaxChars) + 2)
		}
		used, bound := int64(peaks[0]), c.trainingWork(int64(tc.n), rows)
		if used > bound || bound > 2*used {
			t.Errorf("%s, %d words, %d labels: the arena handed out %d values, trainingWork bounds it by %d", tc.preset, tc.n, tc.L, used, bound)
		}
		if tb := c.TrainingBytes(tc.n); tb < 4*2*bound {
			t.Errorf("%s, %d words: TrainingBytes %d, under twice the bound's %d bytes", tc.preset, tc.n, tb, 4*bound)
		}
	}
}
