package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLimits: commands refuse sizes over their limits with a message naming
// the limit, before allocating anything of that size.
func TestLimits(t *testing.T) {
	data, err := os.ReadFile(dataPath(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(t.TempDir(), "small.discbracket")
	long := "(ROOT (S (N 0=w)"
	for i := 1; i < 400; i++ {
		long += " (N " + itoa(i) + "=w)"
	}
	long += "))\n"
	lines := strings.SplitAfter(string(data), "\n")[:10]
	if err := os.WriteFile(small, []byte(long+strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	// A score file of 60 words and 2 labels, about 100 KB: reading it
	// takes about 16 times that, over a budget of 1 MiB.
	var words, tensor []string
	for x := 0; x < 60; x++ {
		words = append(words, `"w"`)
		var row []string
		for y := 0; y < 60; y++ {
			row = append(row, "[0.5,-1.25]")
		}
		tensor = append(tensor, "["+strings.Join(row, ",")+"]")
	}
	list := "[" + strings.Join(tensor, ",") + "]"
	scores := filepath.Join(t.TempDir(), "scores.json")
	if err := os.WriteFile(scores, []byte(`{"words":[`+strings.Join(words, ",")+`],"labels":["A","B"],"cont":`+list+`,"disc":`+list+`,"gap":`+list+"}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		status int
		want   string // part of stdout (status 0) or stderr
	}{
		{"decode, a score file over the budget", []string{"decode", "--variant", "n3", "--scores", scores, "--max-mb", "1"}, 2, "a budget of 1 MiB (--max-mb) reads score files of at most 64 KiB"},
		{"decode, the same file within the default budget", []string{"decode", "--variant", "n3", "--scores", scores}, 0, `"label"`},
		{"bench decode n=100000", []string{"bench", "decode", "--n", "100000"}, 2, "MiB of random scores, budget 1024 MiB"},
		{"bench decode n=2000 n5", []string{"bench", "decode", "--variant", "n5", "--n", "2000"}, 2, "MiB of random scores"},
		{"bench decode own budget", []string{"bench", "decode", "--variant", "n5", "--n", "100", "--max-mb", "8"}, 2, "MiB of chart, budget 8 MiB"},
		{"coverage 400 words", []string{"coverage", "--variant", "n3", small}, 0, "1 sentences longer than 300 words were left out"},
		{"coverage json", []string{"coverage", "--json", "--variant", "n3", small}, 0, `"too_long_sentences":1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantRun(t, tc.args, tc.status, tc.want) })
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
