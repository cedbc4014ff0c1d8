package train

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

func TestDropWords(t *testing.T) {
	// Ids 0..2 are reserved; id 3 is seen once, id 4 a thousand times.
	counts := []int{0, 0, 0, 1, 1000}
	ids := make([]int, 0, 4000)
	for range 1000 {
		ids = append(ids, network.BOSWord, 3, 4, network.EOSWord)
	}
	tests := []struct {
		alpha        float64
		rare, common float64 // expected share of replacements
	}{
		{0.25, 0.25 / 1.25, 0.25 / 1000.25},
		{1000, 1000.0 / 1001, 0.5},
	}
	for _, tc := range tests {
		rng := rand.New(rand.NewPCG(1, 2))
		out := dropWords(ids, counts, tc.alpha, network.EOSWord+1, rng)
		if len(out) != len(ids) || ids[1] != 3 {
			t.Fatal("dropWords changed its input or the length")
		}
		var rare, common int
		for j, w := range out {
			switch ids[j] {
			case network.BOSWord, network.EOSWord:
				if w != ids[j] {
					t.Fatalf("reserved id %d replaced", ids[j])
				}
			case 3:
				if w == network.UnkWord {
					rare++
				}
			case 4:
				if w == network.UnkWord {
					common++
				}
			}
		}
		if got := float64(rare) / 1000; got < tc.rare-0.05 || got > tc.rare+0.05 {
			t.Errorf("alpha %g: rare word replaced %.3f of the time, want about %.3f", tc.alpha, got, tc.rare)
		}
		if got := float64(common) / 1000; got < tc.common-0.05 || got > tc.common+0.05 {
			t.Errorf("alpha %g: common word replaced %.3f of the time, want about %.3f", tc.alpha, got, tc.common)
		}
	}
}

// Word dropout changes training, and a run with it resumes bit for bit.
func TestWordDropoutResume(t *testing.T) {
	data := shortSentences(t, t.TempDir(), 30, 12)
	b, ca, _, changed := optionRuns(t, data, func(o *Options) { o.WordDropout = 5 })
	if ca.Settings.WordDropout != 5 || !changed {
		t.Error("word dropout did not change training")
	}
	b.Resume, b.WordDropout = true, 1
	if _, err := Run(context.Background(), b); err == nil {
		t.Error("resume with another word dropout: no error")
	}
}

// The run's log says when word dropout is on, and is silent about it when
// it is off.
func TestWordDropoutLogged(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 10, 8)
	for _, alpha := range []float64{0, 0.25} {
		o := resumeOptions(t, data, dir)
		o.Out = filepath.Join(t.TempDir(), "model.safetensors")
		o.Epochs, o.WordDropout = 1, alpha
		var log strings.Builder
		o.Log = &log
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		const want = "word dropout: alpha 0.25 "
		if got := strings.Contains(log.String(), "word dropout"); got != (alpha > 0) || (alpha > 0 && !strings.Contains(log.String(), want)) {
			t.Errorf("word dropout %g: the log says:\n%s\nwant a line with %q only when it is on", alpha, log.String(), want)
		}
	}
}
