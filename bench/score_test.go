package bench

import (
	"math"
	"strings"
	"testing"
)

func TestScoreHelpers(t *testing.T) {
	if d := maxAbsDiff(0.5, []float32{1, 2}, []float32{1, 4}); d != 2 {
		t.Errorf("maxAbsDiff = %v, want 2", d)
	}
	if d := maxAbsDiff(0, []float32{float32(math.NaN())}, []float32{1}); !math.IsInf(d, 1) {
		t.Errorf("maxAbsDiff with a NaN = %v, want +Inf", d)
	}
	if d := maxAbsDiff(0, []float32{1}, nil); !math.IsInf(d, 1) {
		t.Errorf("maxAbsDiff of different lengths = %v, want +Inf", d)
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
