package main

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/decode"
)

// TestParseLines checks that discspan parse keeps one output line per
// input line (a blank line gives a blank line; export ids are line
// numbers, or the input treebank's own) and refuses, naming the line and column, what a treebank file
// cannot hold: that line stays blank, the others are parsed, and the
// status is 2.
func TestParseLines(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, in string
		file     string // the input's name (default in.txt)
		args     []string
		want     func(out string) string // "" when out is right
		wantErr  string
	}{
		{
			name: "blank lines kept", in: "\nHet regent .\n\n\nDe man slaapt .\n\n",
			want: func(out string) string {
				lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
				blank := []bool{true, false, true, true, false, true}
				if len(lines) != len(blank) {
					return "want 6 lines"
				}
				for i, b := range blank {
					if (lines[i] == "") != b || !b && !strings.HasPrefix(lines[i], "(ROOT ") {
						return "line " + string(rune('1'+i)) + " wrong"
					}
				}
				return ""
			},
		},
		{
			name: "export ids are line numbers", in: "Het regent .\n\nDe man slaapt .\n", args: []string{"--format", "export"},
			want: func(out string) string {
				if !strings.Contains(out, "#BOS 1\n") || !strings.Contains(out, "#BOS 3\n") || strings.Count(out, "#BOS") != 2 {
					return "want sentences 1 and 3"
				}
				return ""
			},
		},
		{
			name: "a treebank's ids are kept", file: "in.export", args: []string{"--format", "export"},
			in: "#BOS 501\nHet\t--\tVNW\t--\t--\t0\nregent\t--\tWW\t--\t--\t0\n#EOS 501\n#BOS 7\nJa\t--\tTW\t--\t--\t0\n#EOS 7\n",
			want: func(out string) string {
				if i, j := strings.Index(out, "#BOS 501\n"), strings.Index(out, "#BOS 7\n"); i < 0 || j < i || strings.Count(out, "#BOS") != 2 {
					return "want sentences 501 and 7, in that order"
				}
				return ""
			},
		},
		{name: "NUL byte", in: "Het regent .\nDe\x00man slaapt .\n", wantErr: "in.txt:2:3: NUL byte"},
		{name: "invalid UTF-8", in: "caf\xe9 .\n", args: []string{"--tokenized"}, wantErr: "in.txt:1:4: invalid UTF-8 (byte 0xe9)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(dir, cmp.Or(tc.file, "in.txt"))
			if err := os.WriteFile(in, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, status := runCmd(append([]string{"parse", "--input", in}, tc.args...)...)
			if tc.wantErr != "" {
				if status != 2 || !strings.Contains(stderr, tc.wantErr) || strings.Count(stderr, "\n") != 1 ||
					strings.Count(out, "\n") != strings.Count(tc.in, "\n") {
					t.Errorf("status %d, stderr %q, output %q; want status 2, one line naming %q and one output line per input line", status, stderr, out, tc.wantErr)
				}
				return
			}
			if status != 0 {
				t.Fatalf("status %d: %s", status, stderr)
			}
			if msg := tc.want(out); msg != "" {
				t.Errorf("%s; output:\n%q", msg, out)
			}
		})
	}
}

// TestDecodeProgress: parse's report of a long decoding run writes a line
// for a sentence whose decoding has taken the interval or more, at most
// once an interval, saying its length, the variant, the share done and the
// time taken; nothing for a sentence decoded quickly, however long the
// run, nor once the chart is built.
func TestDecodeProgress(t *testing.T) {
	var out strings.Builder
	base := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	clock := base
	report := decodeProgress(&out, decode.N6, 30*time.Second, func() time.Time { return clock })
	for _, tick := range []struct {
		at      time.Duration // of the run
		words   int
		done    float64
		elapsed time.Duration // of the sentence's decoding
	}{
		{10 * time.Second, 229, 0.1, 10 * time.Second},
		{35 * time.Second, 229, 0.25, 35 * time.Second},
		{50 * time.Second, 229, 0.3, 50 * time.Second},
		{60 * time.Second, 42, 0.5, 10 * time.Millisecond}, // a short sentence late in the run
		{70 * time.Second, 229, 0.5, 70 * time.Second},
		{120 * time.Second, 229, 1, 120 * time.Second},
	} {
		clock = base.Add(tick.at)
		report(tick.words, tick.done, tick.elapsed)
	}
	want := "discspan parse: decoding a sentence of 229 words with n6: about 25% of its chart built after 35s\n" +
		"discspan parse: decoding a sentence of 229 words with n6: about 50% of its chart built after 1m10s\n"
	if out.String() != want {
		t.Errorf("lines:\n%s\nwant:\n%s", out.String(), want)
	}
}
