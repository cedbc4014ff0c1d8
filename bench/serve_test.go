package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/discspan/discspan/weights"
)

// defaultWeightsFile writes the embedded default model to a file.
func defaultWeightsFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), weights.DefaultName)
	if err := os.WriteFile(p, weights.DefaultBytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoadServe runs the load test briefly (20 clients,
// about 2 s, the embedded default model) and checks that every answer was
// right and that the heap did not grow; it asserts nothing about speed.
func TestLoadServe(t *testing.T) {
	path := defaultWeightsFile(t)
	res, err := LoadServe(context.Background(), LoadConfig{
		Weights: path, Clients: 20, Duration: 2 * time.Second, MaxRequests: 100_000, RangeShare: 0.5, Seed: 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d full and %d range requests, peak heap %.1f MB, live heap %+.1f MB",
		res.Full.Requests, res.Range.Requests, float64(res.PeakHeap)/1e6, float64(res.HeapGrowth)/1e6)
	if res.Errors != 0 || res.Corrupted != 0 {
		t.Errorf("%d errors, %d corrupted responses; first: %s", res.Errors, res.Corrupted, res.FirstProblem)
	}
	if res.Full.Requests == 0 || res.Range.Requests == 0 {
		t.Errorf("%d full and %d range requests, want some of each", res.Full.Requests, res.Range.Requests)
	}
	if res.Full.Bytes != int64(res.Full.Requests)*res.FileBytes {
		t.Errorf("full downloads: %d bytes for %d requests of %d", res.Full.Bytes, res.Full.Requests, res.FileBytes)
	}
	// Downloads stream: neither the server nor the clients hold whole
	// files, and nothing is left behind.
	const maxGrowth, maxPeak = 16 << 20, 256 << 20
	if res.HeapGrowth > maxGrowth {
		t.Errorf("live heap grew by %d bytes, want at most %d", res.HeapGrowth, maxGrowth)
	}
	if res.PeakHeap > maxPeak {
		t.Errorf("peak heap %d bytes, want at most %d", res.PeakHeap, maxPeak)
	}
}

// TestLoadServeCount checks the bound on the number of requests.
func TestLoadServeCount(t *testing.T) {
	path := defaultWeightsFile(t)
	res, err := LoadServe(context.Background(), LoadConfig{
		Weights: path, Clients: 4, Duration: time.Minute, MaxRequests: 10, RangeShare: 0.5, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Full.Requests + res.Range.Requests + res.Errors + res.Corrupted; n != 10 {
		t.Errorf("%d requests, want 10", n)
	}
	if res.Errors != 0 || res.Corrupted != 0 {
		t.Errorf("%d errors, %d corrupted responses; first: %s", res.Errors, res.Corrupted, res.FirstProblem)
	}
}

func TestPercentile(t *testing.T) {
	ds := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tc := range []struct {
		p    int
		want time.Duration
	}{{50, 5}, {99, 10}, {100, 10}, {10, 1}, {1, 1}, {0, 1}} {
		if got := percentile(ds, tc.p); got != tc.want {
			t.Errorf("p%d = %d, want %d", tc.p, got, tc.want)
		}
	}
	if got := percentile([]time.Duration{42}, 99); got != 42 {
		t.Errorf("one sample: %d", got)
	}
}
