package cli

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestReadLinesRefusing(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     [][]string
		errs     []string // the LineErrors' list
		total    int
	}{
		{name: "blank lines kept", in: "a b\n\n  \nc\n", want: [][]string{{"a", "b"}, nil, nil, {"c"}}},
		{name: "no final newline", in: "a\n\nb", want: [][]string{{"a"}, nil, {"b"}}},
		{name: "CRLF and tabs", in: "a\tb\r\n\r\nc\r\n", want: [][]string{{"a", "b"}, nil, {"c"}}},
		{name: "UTF-8 and U+FFFD itself", in: "café \uFFFD\n", want: [][]string{{"café", "\uFFFD"}}},
		{name: "NUL byte", in: "a\nb\x00c\n", errs: []string{"in:2:2: NUL byte: a treebank file cannot hold it"}, total: 1},
		{name: "invalid UTF-8", in: "caf\xe9\n\nok\n\xff\n", errs: []string{"in:1:4: invalid UTF-8 (byte 0xe9)", "in:4:1: invalid UTF-8 (byte 0xff)"}, total: 2},
		{name: "control character", in: "a\x1bb\n", errs: []string{"in:1:2: control character U+001B"}, total: 1},
		{name: "no words", in: "a\n--\n", errs: []string{"in:2: no words"}, total: 1},
		{name: "capped", in: strings.Repeat("\x00\n", 12), total: 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			split := func(s string) []string {
				if s == "--" {
					return nil
				}
				return strings.Fields(s)
			}
			got, le, err := ReadLinesRefusing(strings.NewReader(tc.in), "in", split)
			if err != nil {
				t.Fatalf("error %v", err)
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
			if lines := strings.Count(tc.in, "\n"); len(got) != lines {
				t.Errorf("%d entries for %d lines", len(got), lines)
			}
			if le.Total != tc.total || len(le.List) != min(tc.total, maxLineErrors) {
				t.Errorf("%d errors, %d listed; want %d", le.Total, len(le.List), tc.total)
			}
			for k, w := range tc.errs {
				if k >= len(le.List) || !strings.HasPrefix(le.List[k], w) {
					t.Errorf("error %d: %q, want it to start with %q", k, le.List, w)
				}
			}
			if more := tc.total - maxLineErrors; more > 0 && !strings.Contains(le.Error(), fmt.Sprintf("and %d more", more)) {
				t.Errorf("error %q does not say how many more", le)
			}
		})
	}
}
