package decode

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestBenchBudget: Bench refuses, before generating any scores, a size
// whose random scores or chart exceed the memory budget (bench decode
// --n 100000 used to try to allocate 1.2 TB of scores; --n 2000 spent 30 s
// on them before the chart check).
func TestBenchBudget(t *testing.T) {
	tests := []struct {
		name      string
		v         Variant
		n, labels int
		maxBytes  int64
		want      string
	}{
		{"n=100000", N3, 100000, 30, 0, "MiB of random scores"},
		{"scores over the budget", N3, 200, 30, 1 << 20, "MiB of random scores"},
		{"chart over the budget", N5, 300, 2, 64 << 20, "MiB of chart"},
		{"absurd n", N3, 1 << 40, 30, 0, "want 0 to"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Bench(tc.v, tc.n, tc.labels, 1, &Options{MaxBytes: tc.maxBytes})
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrTooLong with %q", err, tc.want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
				t.Errorf("%d bytes allocated before refusing", got)
			}
		})
	}
	if _, err := Bench(N3, 10, 3, 1, &Options{MaxBytes: 1 << 20}); err != nil {
		t.Errorf("small size within the budget: %v", err)
	}
}
