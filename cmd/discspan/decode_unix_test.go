//go:build unix

package main

import (
	"os"
	"strings"
	"testing"
)

// A score file through a named pipe is held to the memory budget as a
// file is: refused as soon as more than a sixteenth of the budget has
// come (before, a pipe was read whole, and a large one ended the process
// out of memory).
func TestDecodePipeOverBudget(t *testing.T) {
	// 60 words, 2 labels: about 100 KB, over the 64 KiB a budget of 1 MiB
	// reads.
	var words, tensor []string
	for range 60 {
		words = append(words, `"w"`)
		tensor = append(tensor, "["+strings.TrimSuffix(strings.Repeat("[0.5,-1.25],", 60), ",")+"]")
	}
	list := "[" + strings.Join(tensor, ",") + "]"
	content := []byte(`{"words":[` + strings.Join(words, ",") + `],"labels":["A","B"],"cont":` + list + `,"disc":` + list + `,"gap":` + list + "}")
	for _, tc := range []struct {
		maxMB  string
		status int
		want   string
	}{
		{"1", 2, "scores.pipe: sentence too long for the variant's memory budget: more than 64 KiB of scores; a budget of 1 MiB (--max-mb) reads score files of at most that"},
		{"4", 0, `"label":"A"`},
	} {
		dir := t.TempDir()
		pipe, written := fifo(t, dir, "scores.pipe", content)
		wantRun(t, []string{"decode", "--variant", "n3", "--max-mb", tc.maxMB, "--scores", pipe}, tc.status, tc.want)
		err := <-written // the writer ends: it wrote all, or its reader went
		if tc.status == 0 && err != nil {
			t.Errorf("--max-mb %s: writing the pipe: %v", tc.maxMB, err)
		}
		os.Remove(pipe)
	}
}
