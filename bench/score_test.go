package bench

import (
	"math"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/webgpu"
)

func TestScoreHelpers(t *testing.T) {
	out := func(cont0, tag float32) []network.Output {
		return []network.Output{{Scores: &decode.Scores{N: 1, L: 2, Cont: []float32{cont0, 2}, Disc: []float32{0, 0}, Gap: []float32{0, 0}}, Tags: []float32{tag}}}
	}
	var d scoreDiff
	if err := d.add(out(1, 1), out(3, 1.5)); err != nil || d.scores != 2 || d.tags != 0.5 {
		t.Errorf("scoreDiff after one sentence: %+v, %v; want scores 2, tags 0.5", d, err)
	}
	if err := d.add(out(1, 1), out(float32(math.NaN()), 1)); err != nil || !math.IsInf(d.scores, 1) {
		t.Errorf("scoreDiff with a NaN: %+v, %v; want +Inf", d, err)
	}
	if err := d.add(out(1, 1), []network.Output{{Tags: []float32{1}}}); err == nil {
		t.Error("scoreDiff of a result without scores: no error")
	}
	row := ScoreRow{Backend: "webgpu", Sentences: 3, Words: 20, Err: "webgpu: no adapter | none", Unavailable: true}
	if got, want := row.Markdown(), "| webgpu | unavailable: webgpu: no adapter / none | 3 | 20 | - | - | - | - | - | - | - | - |"; got != want {
		t.Errorf("markdown of an unavailable backend:\n%s\nwant\n%s", got, want)
	}
	row.Unavailable = false
	if got := row.Markdown(); !strings.Contains(got, "| failed: webgpu") {
		t.Errorf("markdown of a failed backend: %s", got)
	}
}

// TestScoringMaxWords checks the WebGPU scorers' sentence limit: the one
// asked for (webgpu.DefaultMaxWords when none), raised to the input's
// longest sentence.
func TestScoringMaxWords(t *testing.T) {
	sentence := func(n int) network.Input { return network.Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)} }
	for _, tc := range []struct {
		name    string
		asked   int
		lengths []int
		want    int
	}{
		{"default", 0, []int{3, 8}, webgpu.DefaultMaxWords},
		{"asked", 20, []int{3, 8}, 20},
		{"raised to the longest", 5, []int{3, 8}, 8},
		{"default raised", 0, []int{webgpu.DefaultMaxWords + 7}, webgpu.DefaultMaxWords + 7},
	} {
		b := &Scoring{MaxWords: tc.asked}
		for _, n := range tc.lengths {
			b.Ins = append(b.Ins, sentence(n))
		}
		if got := b.maxWords(); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
