package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/treebank"
)

// TestParseTigerXMLStops: in a TIGER-XML input, a sentence with a
// structural error (an edge to an id that is not there) is refused and
// the sentences after it are parsed; an XML syntax error, which the reader
// cannot go on after, is refused with a message saying that reading
// stopped there and that the sentences after it were not read or parsed,
// even when ten refusals are named before it, and the command exits with
// status 2. No sentence after the error is written.
func TestParseTigerXMLStops(t *testing.T) {
	trees, err := treebank.ReadFile(dataPath(t, "dev.export"))
	if err != nil {
		t.Fatal(err)
	}
	trees = trees[:13]
	var sb strings.Builder
	if err := treebank.WriteTigerXML(&sb, trees); err != nil {
		t.Fatal(err)
	}
	doc := sb.String()
	// edit replaces the first old after the start of sentence k (from 1)
	// with new, or puts new before that sentence when old is "", and
	// returns the line where new begins.
	edit := func(k int, old, new string) int {
		t.Helper()
		start := strings.Index(doc, `<s id="`+trees[k-1].ID+`"`)
		at := start
		if old != "" {
			at += strings.Index(doc[start:], old)
		}
		if start < 0 || at < start {
			t.Fatalf("sentence %d (%s): no %q", k, trees[k-1].ID, old)
		}
		line := 1 + strings.Count(doc[:at], "\n")
		doc = doc[:at] + new + doc[at+len(old):]
		return line
	}
	ids := func(ks ...int) []string {
		var out []string
		for _, k := range ks {
			out = append(out, trees[k-1].ID)
		}
		return out
	}
	const stopped = ": reading stopped here; the sentences after it were not read or parsed"
	tests := []struct {
		name  string
		edit  func() []string // edits doc; returns parts of the error
		ids   []string        // the sentences written
		gone  string          // must not be in the error; "" for none
		trees int             // sentences in the input
	}{
		{"XML syntax error in sentence 3", func() []string {
			line := edit(3, `word="`, `word="x<y`)
			return []string{"1 sentence(s) refused, the others read parsed: ", lineRef(line) + "XML: unescaped < inside quoted string" + stopped}
		}, ids(1, 2), "", 5},
		{"XML syntax error between sentences 3 and 4", func() []string {
			line := edit(4, "", "<<\n")
			return []string{"1 sentence(s) refused, the others read parsed: ", lineRef(line) + "XML: ", stopped}
		}, ids(1, 2, 3), "", 5},
		{"bad edge in sentence 3", func() []string {
			line := edit(3, `idref="`, `idref="nowhere`)
			return []string{"1 sentence(s) refused, the others parsed: ", lineRef(line) + "sentence " + trees[2].ID + ": edge to"}
		}, ids(1, 2, 4, 5), "reading stopped", 5},
		{"bad edge in sentence 2, XML syntax error in sentence 4", func() []string {
			bad := edit(2, `idref="`, `idref="nowhere`)
			broken := edit(4, `word="`, `word="x<y`)
			return []string{"2 sentence(s) refused, the others read parsed: ", lineRef(bad) + "sentence " + trees[1].ID + ": edge to", lineRef(broken) + "XML: unescaped < inside quoted string" + stopped}
		}, ids(1, 3), "", 5},
		{"eleven bad edges, then an XML syntax error", func() []string {
			for k := 1; k <= 11; k++ {
				edit(k, `idref="`, `idref="nowhere`)
			}
			line := edit(12, `word="`, `word="x<y`)
			return []string{"12 sentence(s) refused, the others read parsed: ", "; and 1 more; ", lineRef(line) + "XML: unescaped < inside quoted string" + stopped}
		}, nil, "", 13},
	}
	full := doc
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc = full
			if tc.trees < len(trees) { // end the corpus after tc.trees sentences
				cut := strings.Index(doc, `<s id="`+trees[tc.trees].ID+`"`)
				doc = doc[:cut] + doc[strings.LastIndex(doc, "</body>"):]
			}
			want := tc.edit()
			in := filepath.Join(t.TempDir(), "in.xml")
			if err := os.WriteFile(in, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, status := runCmd("parse", "--format", "export", "--input", in)
			if status != 2 {
				t.Errorf("status %d, want 2", status)
			}
			for _, w := range want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q, want %q", stderr, w)
				}
			}
			if tc.gone != "" && strings.Contains(stderr, tc.gone) {
				t.Errorf("stderr %q says %q", stderr, tc.gone)
			}
			var got []string
			for _, l := range strings.Split(out, "\n") {
				if id, ok := strings.CutPrefix(l, "#BOS "); ok {
					got = append(got, strings.Fields(id)[0])
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.ids, " ") {
				t.Errorf("sentences written %v, want %v", got, tc.ids)
			}
		})
	}
}

// lineRef is how an error names line n of the test's input file (the end
// of its path, and the line).
func lineRef(n int) string {
	return "in.xml:" + strconv.Itoa(n) + ": "
}
