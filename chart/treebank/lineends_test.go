package treebank

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLineEnds reads real treebank files with their line ends rewritten as
// old Mac ("\r"), Windows ("\r\n"), a mixture, and "\r\r\n", at once and
// byte by byte: every variant gives the trees of the "\n" file, and the
// line of an error counts the lines as an editor shows them.
func TestLineEnds(t *testing.T) {
	dir := dataDir(t)
	for _, tc := range []struct {
		format Format
		file   string
	}{
		{Export, "alpino-cdb/dev.export"},
		{Discbracket, "alpino-cdb/dev.discbracket"},
	} {
		raw, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		lf := string(raw)
		want, err := ReadAll(strings.NewReader(lf), tc.file, tc.format)
		if err != nil || len(want) < 100 {
			t.Fatalf("%s: %d trees, %v", tc.file, len(want), err)
		}
		mixed := func(s string) string { // the line ends alternate: \r, \r\n, \n
			lines := strings.SplitAfter(s, "\n")
			ends := []string{"\r", "\r\n", "\n"}
			for i, l := range lines {
				if strings.HasSuffix(l, "\n") {
					lines[i] = strings.TrimSuffix(l, "\n") + ends[i%3]
				}
			}
			return strings.Join(lines, "")
		}
		for _, v := range []struct {
			name, text string
			blanks     bool // a blank line between lines
		}{
			{name: "CR", text: strings.ReplaceAll(lf, "\n", "\r")},
			{name: "CRLF", text: strings.ReplaceAll(lf, "\n", "\r\n")},
			{name: "mixed", text: mixed(lf)},
			{name: "CR CR LF", text: strings.ReplaceAll(lf, "\n", "\r\r\n"), blanks: true},
		} {
			t.Run(tc.format.String()+"/"+v.name, func(t *testing.T) {
				for _, r := range []struct {
					name string
					r    io.Reader
				}{
					{"at once", strings.NewReader(v.text)},
					{"byte by byte", iotest.OneByteReader(strings.NewReader(v.text))},
				} {
					got, err := ReadAll(r.r, tc.file, tc.format)
					if err != nil {
						t.Fatalf("%s: %v", r.name, err)
					}
					if d := treesEqual(got, want, false); d != "" {
						t.Fatalf("%s: %s", r.name, d)
					}
				}
				// A malformed tree on line 5 (line 9 with blank lines
				// between): the error names that line.
				lines := strings.SplitAfter(lf, "\n")
				lines[4] = "(S (NP 0=a) 1=b\n"
				if tc.format == Export {
					lines[4] = "#500\tNP\t--\tSB\t999\n"
				}
				text := strings.Join(lines, "")
				switch v.name {
				case "CR":
					text = strings.ReplaceAll(text, "\n", "\r")
				case "CRLF":
					text = strings.ReplaceAll(text, "\n", "\r\n")
				case "mixed":
					text = mixed(text)
				default:
					text = strings.ReplaceAll(text, "\n", "\r\r\n")
				}
				wantLine := 5
				if v.blanks {
					wantLine = 9
				}
				_, err := ReadAll(strings.NewReader(text), tc.file, tc.format)
				var list ErrorList
				if !errors.As(err, &list) || len(list) == 0 || list[0].Line != wantLine {
					t.Errorf("error %v; want one on line %d", err, wantLine)
				}
			})
		}
	}
}

// TestLoneCRAtTheEnd: a "\r" that ends the input ends its line.
func TestLoneCRAtTheEnd(t *testing.T) {
	for _, in := range []string{"(S (A 0=a))\r", "(S (A 0=a))\r(S (B 0=b))\r", "\r(S (A 0=a))"} {
		got, err := ReadAll(iotest.OneByteReader(strings.NewReader(in)), "in", Discbracket)
		if err != nil || len(got) != strings.Count(in, "(S") {
			t.Errorf("%q: %d trees, %v", in, len(got), err)
		}
	}
}
