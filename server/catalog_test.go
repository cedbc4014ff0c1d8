package server

import (
	"slices"
	"testing"
)

// TestNaturalCompare: model names are listed with their numbers in
// order (job-2 before job-10), the rest by bytes.
func TestNaturalCompare(t *testing.T) {
	names := []string{"job-10", "job-2", "default-b", "job-2-2", "job-1", "a10b", "a9c", "a010b", "fast", "job-10-3", "job-10-10"}
	slices.SortFunc(names, naturalCompare)
	want := []string{"a9c", "a010b", "a10b", "default-b", "fast", "job-1", "job-2", "job-2-2", "job-10", "job-10-3", "job-10-10"}
	if !slices.Equal(names, want) {
		t.Errorf("sorted %q\nwant %q", names, want)
	}
}
