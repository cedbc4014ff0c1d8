package cli

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/discspan/discspan/chart/treebank"
)

// readLines reads all of r with a LineReader: the words of each line, one
// entry per line (none for a blank or refused line), and the refusals.
func readLines(r io.Reader, name string, split func(string) []string) ([][]string, Refusals, error) {
	var sents [][]string
	var refused Refusals
	lr := NewLineReader(r, name, split)
	for {
		words, why, err := lr.Next()
		switch {
		case err == io.EOF:
			return sents, refused, nil
		case err != nil:
			return nil, refused, err
		case why != "":
			refused.Add(why)
		}
		sents = append(sents, words)
	}
}

// TestLineReader reads texts line by line, at once and byte by byte: one
// entry per line, blank and refused lines without words, each refusal
// named by line and column, the first ten named and all counted.
func TestLineReader(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     [][]string
		errs     []string // the refusals named
		total    int
	}{
		{name: "blank lines kept", in: "a b\n\n  \nc\n", want: [][]string{{"a", "b"}, nil, nil, {"c"}}},
		{name: "no final newline", in: "a\n\nb", want: [][]string{{"a"}, nil, {"b"}}},
		{name: "CRLF and tabs", in: "a\tb\r\n\r\nc\r\n", want: [][]string{{"a", "b"}, nil, {"c"}}},
		{name: "UTF-8 and U+FFFD itself", in: "café \uFFFD\n", want: [][]string{{"café", "\uFFFD"}}},
		{name: "NUL byte", in: "a\nb\x00c\n", errs: []string{"in:2:2: NUL byte: a treebank file cannot hold it"}, total: 1},
		{name: "invalid UTF-8", in: "caf\xe9\n\nok\n\xff\n", errs: []string{"in:1:4: invalid UTF-8 (byte 0xe9)", "in:4:1: invalid UTF-8 (byte 0xff)"}, total: 2},
		{name: "control character", in: "a\x1bb\n", errs: []string{"in:1:2: control character U+001B"}, total: 1},
		{name: "no words is blank", in: "a\n--\n", want: [][]string{{"a"}, nil}},
		{name: "capped", in: strings.Repeat("\x00\n", 12), total: 12},
		{name: "lone CR line ends", in: "a\rb c\r\rd", want: [][]string{{"a"}, {"b", "c"}, nil, {"d"}}},
		{name: "mixed line ends", in: "a\r\nb\rc\nd\r", want: [][]string{{"a"}, {"b"}, {"c"}, {"d"}}},
		{name: "byte order mark", in: "\uFEFFa b\n\uFEFFc\n", want: [][]string{{"a", "b"}, {"\uFEFFc"}}},
		{name: "line at the limit", in: "a\n" + strings.Repeat("x", treebank.MaxLineBytes) + "\r\nb\n",
			want: [][]string{{"a"}, {strings.Repeat("x", treebank.MaxLineBytes)}, {"b"}}},
		{name: "line over the limit", in: "a\n" + strings.Repeat("x ", treebank.MaxLineBytes) + "\nb\n",
			errs: []string{fmt.Sprintf("in:2: line longer than %d bytes", treebank.MaxLineBytes)}, total: 1},
		{name: "two lines over the limit, the last unended", in: strings.Repeat("y", 3*treebank.MaxLineBytes) + "\r\nb\n" + strings.Repeat("z", treebank.MaxLineBytes+1),
			errs: []string{"in:1: line longer", "in:3: line longer"}, total: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			split := func(s string) []string {
				if s == "--" {
					return nil
				}
				return strings.Fields(s)
			}
			got, le, err := readLines(strings.NewReader(tc.in), "in", split)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			// The same byte by byte: a line end split between reads.
			if len(tc.in) < 100 {
				again, le2, err := readLines(iotest.OneByteReader(strings.NewReader(tc.in)), "in", split)
				if err != nil || !reflect.DeepEqual(again, got) || !reflect.DeepEqual(le2, le) {
					t.Errorf("byte by byte: %q, %v, %v; at once %q, %v", again, le2, err, got, le)
				}
			}
			if tc.total == 0 {
				if le.Total != 0 {
					t.Fatalf("refused %v", le)
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("got %q, want %q", got, tc.want)
				}
				return
			}
			// One entry per line, the refused ones without words.
			ends := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(tc.in)
			lines := strings.Count(ends, "\n")
			if !strings.HasSuffix(ends, "\n") {
				lines++
			}
			if len(got) != lines {
				t.Errorf("%d entries for %d lines", len(got), lines)
			}
			if le.Total != tc.total || len(le.Named) != min(tc.total, maxRefusedNamed) {
				t.Errorf("%d errors, %d listed; want %d", le.Total, len(le.Named), tc.total)
			}
			for k, w := range tc.errs {
				if k >= len(le.Named) || !strings.HasPrefix(le.Named[k], w) {
					t.Errorf("error %d: %q, want it to start with %q", k, le.Named, w)
				}
			}
		})
	}
}
