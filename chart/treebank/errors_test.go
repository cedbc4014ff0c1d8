package treebank

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// tok returns an export 4 token line.
func tok(word string, parent int) string {
	return fmt.Sprintf("%s\t--\tT\t--\t--\t%d\n", word, parent)
}

// node returns an export 4 node line.
func node(num, parent int) string {
	return fmt.Sprintf("#%d\t--\tX\t--\t--\t%d\n", num, parent)
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		text   string
		line   int    // line of the first error
		col    int    // column, 0 if none
		msg    string // part of the message
	}{
		// Export.
		{"missing #EOS", Export, "#BOS 1\n" + tok("a", 0), 1, 0, "no #EOS"},
		{"#BOS before #EOS", Export, "#BOS 1\n" + tok("a", 0) + "#BOS 2\n" + tok("b", 0) + "#EOS 2\n", 3, 0, "#BOS before the #EOS"},
		{"#EOS mismatch", Export, "#BOS 1\n" + tok("a", 0) + "#EOS 2\n", 3, 0, "does not match"},
		{"missing id", Export, "#BOS\n" + tok("a", 0) + "#EOS\n", 1, 0, "without a sentence id"},
		{"bad parent", Export, "#BOS 1\n" + tok("a", 0) + tok("b", 17) + "#EOS 1\n", 3, 0, "parent \"17\""},
		{"parent not a number", Export, "#BOS 1\n" + "a\t--\tT\t--\t--\tx\n#EOS 1\n", 2, 0, "parent \"x\""},
		{"huge parent", Export, "#BOS 1\n" + tok("a", 0) + "b\t--\tT\t--\t--\t99999999999999999999999\n#EOS 1\n", 3, 0, "parent"},
		{"dangling parent", Export, "#BOS 1\n" + tok("a", 500) + tok("b", 501) + node(500, 0) + "#EOS 1\n", 3, 0, "#501 is not a node"},
		{"duplicate node number", Export, "#BOS 1\n" + tok("a", 500) + node(500, 0) + node(500, 0) + "#EOS 1\n", 4, 0, "duplicate node number #500 (first on line 3)"},
		{"node number out of range", Export, "#BOS 1\n" + tok("a", 0) + node(499, 0) + "#EOS 1\n", 3, 0, "out of range"},
		{"huge node number", Export, "#BOS 1\n" + tok("a", 0) + "#5000000000000000000000\t--\tX\t--\t--\t0\n#EOS 1\n", 3, 0, "out of range"},
		{"self parent", Export, "#BOS 1\n" + tok("a", 500) + node(500, 500) + "#EOS 1\n", 3, 0, "cycle"},
		{"cycle", Export, "#BOS 1\n" + tok("a", 500) + node(500, 501) + node(501, 502) + node(502, 500) + "#EOS 1\n", 5, 0, "cycle"},
		{"secondary parent", Export, "#BOS 1\n" + "a\t--\tT\t--\t--\t0\tOA\t510\n#EOS 1\n", 2, 0, "secondary parent #510"},
		{"too few fields", Export, "#BOS 1\na\tb\tc\n#EOS 1\n", 2, 0, "3 fields"},
		{"field count after version", Export, "#BOS 1\n" + tok("a", 0) + "b\t--\tT\t--\t--\t0\tOA\n#EOS 1\n", 3, 0, "7 fields"},
		{"bad #FORMAT", Export, "#FORMAT 5\n", 1, 0, "#FORMAT"},
		{"text outside sentence", Export, "%% header\nhello world\n", 2, 0, "outside a sentence"},
		{"#EOS outside sentence", Export, "#EOS 1\n", 1, 0, "outside a sentence"},
		{"#BOT without #EOT", Export, "\n#BOT X\n1\n", 2, 0, "without #EOT"},
		{"binary garbage", Export, "\x00\x01\xff\xfe(((\n\x7f", 1, 0, "outside a sentence"},
		// Discbracket.
		{"unclosed bracket", Discbracket, "(ROOT (A 0=a))\n(ROOT (S (A 0=a)", 2, 17, "not closed"},
		{"extra close", Discbracket, "(ROOT (A 0=a)))", 1, 15, "after the end of the tree"},
		{"close first", Discbracket, ")(ROOT (A 0=a))", 1, 1, "unbalanced ')'"},
		{"missing index", Discbracket, "(ROOT (A 0=a) (B 2=b))", 1, 18, "index 1 is missing"},
		{"duplicate index", Discbracket, "\n(ROOT (A 0=a) (B 0=b))", 2, 18, "used twice"},
		{"huge index", Discbracket, "(ROOT (A 99999999999999999999=a))", 1, 10, "index=word"},
		{"leaf without index", Discbracket, "(ROOT (A a))", 1, 10, "index=word"},
		{"word among constituents", Discbracket, "(ROOT (S (B 1=b) 0=a))", 1, 18, "next to bracketed"},
		{"two words", Discbracket, "(ROOT (A 0=a 1=b))", 1, 14, "second word"},
		{"bracket in preterminal", Discbracket, "(ROOT (A 0=a (B 1=b)))", 1, 14, "bracket after the word"},
		{"empty constituent", Discbracket, "(ROOT (A 0=a) (B))", 1, 15, "empty constituent"},
		{"word outside", Discbracket, "word", 1, 1, "outside brackets"},
		{"comment only", Discbracket, "  \tcomment", 1, 1, "no tree"},
		{"two trees", Discbracket, "(ROOT (A 0=a)) (ROOT (A 0=a))", 1, 16, "after the end"},
		{"garbage", Discbracket, "\x00\xff)", 1, 1, "outside brackets"},
		// PTB.
		{"PTB unclosed", PTB, "(S (A a))\n\n(S (A a)\n", 3, 1, "not closed"},
		{"PTB stray close", PTB, "(S (A a)))\n", 1, 10, "unbalanced ')'"},
		{"PTB text outside", PTB, "(S (A a))\nhello (S (A a))", 2, 1, "outside brackets"},
		{"PTB empty constituent", PTB, "(S (A a))\n(S\n (NP))", 3, 2, "empty constituent"},
		{"PTB mixed", PTB, "(S (A a) b)", 1, 10, "next to bracketed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadAll(strings.NewReader(tc.text), "in.txt", tc.format)
			if err == nil {
				t.Fatal("no error")
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v (%T), want an ErrorList", err, err)
			}
			e := list[0]
			prefix := fmt.Sprintf("in.txt:%d:", tc.line)
			if tc.col > 0 {
				prefix = fmt.Sprintf("in.txt:%d:%d: ", tc.line, tc.col)
			}
			if e.Line != tc.line || e.Col != tc.col || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error %q, want line %d col %d (prefix %q) and message containing %q", err, tc.line, tc.col, prefix, tc.msg)
			}
		})
	}
}

// TestReadRecovers checks that reading goes on after a bad sentence.
func TestReadRecovers(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		text   string
		ids    []string // ids of the trees read
		lines  []int    // lines of the errors
	}{
		{"export", Export, "#BOS 1\n" + tok("a", 7) + "#EOS 1\n#BOS 2\n" + tok("a", 0) + "#EOS 2\n#BOS 3\n" + tok("b", 0) + "#BOS 4\n" + tok("c", 0) + "#EOS 4\n",
			[]string{"2", "4"}, []int{2, 9}},
		{"discbracket", Discbracket, "(ROOT (A 1=a))\n(ROOT (A 0=a))\n(ROOT\n(ROOT (B 0=b))\n", []string{"2", "4"}, []int{1, 3}},
		{"ptb", PTB, "(S (A a) b)\n(S (A a))\n)\n(T (B b))\n", []string{"2", "3"}, []int{1, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.text), "in", tc.format)
			var ids []string
			var lines []int
			for {
				tr, err := r.Next()
				if err == io.EOF {
					break
				}
				var e *Error
				switch {
				case errors.As(err, &e):
					lines = append(lines, e.Line)
				case err != nil:
					t.Fatal(err)
				default:
					ids = append(ids, tr.ID)
				}
			}
			if fmt.Sprint(ids) != fmt.Sprint(tc.ids) || fmt.Sprint(lines) != fmt.Sprint(tc.lines) {
				t.Errorf("ids %v, error lines %v; want %v, %v", ids, lines, tc.ids, tc.lines)
			}
		})
	}
}

func TestTooManyErrors(t *testing.T) {
	text := strings.Repeat("junk\n", 100)
	trees, err := ReadExport(strings.NewReader(text), "junk")
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v, want an ErrorList", err)
	}
	if len(trees) != 0 || len(list) != maxErrors+1 || list[maxErrors].Msg != "too many errors" {
		t.Errorf("%d trees, %d errors (%v)", len(trees), len(list), err)
	}
	if !strings.Contains(err.Error(), "(and 10 more errors)") {
		t.Errorf("message %q", err)
	}
}

func TestEmptyInput(t *testing.T) {
	for _, f := range []Format{Export, Discbracket, PTB} {
		t.Run(f.String(), func(t *testing.T) {
			trees, err := ReadAll(strings.NewReader(""), "empty", f)
			if err != nil || len(trees) != 0 {
				t.Errorf("got %d trees, error %v; want none", len(trees), err)
			}
		})
	}
}

// failingReader returns some data and then an error.
type failingReader struct{ data string }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, errors.New("disk on fire")
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadIOError(t *testing.T) {
	for _, f := range []Format{Export, Discbracket, PTB} {
		t.Run(f.String(), func(t *testing.T) {
			_, err := ReadAll(&failingReader{"(ROOT (A 0=a))\n"}, "broken", f)
			if err == nil || !strings.Contains(err.Error(), "disk on fire") || !strings.Contains(err.Error(), "broken") {
				t.Errorf("error %v, want the read error with the name", err)
			}
		})
	}
}

// TestErrorTree: an error stands for a tree (Error.Tree) exactly when it
// refuses a sentence of the input, so that a caller keeping one output per
// input tree can keep the places right; stray text, brackets and headers
// between trees stand for none. want lists, in input order, T for a tree
// read, E for an error standing for a tree and s for one that does not.
func TestErrorTree(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		text   string
		want   string
	}{
		{"ptb: a stray ')'", PTB, "(S (A a)) ) x (S (B b))", "TsT"},
		{"ptb: text outside brackets", PTB, "x (S (A a))\n", "sT"},
		{"ptb: an empty constituent", PTB, "(S (A a)) (S (B)) (S (C c))", "TET"},
		{"ptb: a line not UTF-8 inside a tree", PTB, "(S\n (X \xff)\n (NP (D the)) (VP v))\n(S (B b))", "ET"},
		{"ptb: a line not UTF-8 holding two trees", PTB, "(S (A \xff)) (S (B b))\n(S (C c))", "EET"},
		{"ptb: not closed at the end", PTB, "(S (A a))\n(S (B b)", "TE"},
		{"export: #FORMAT 5 and a stray line", Export, "#FORMAT 5\n#BOS 1\n" + tok("a", 0) + "#EOS 1\nstray\n#BOS 2\n" + tok("b", 0) + "#EOS 2\n", "sTsT"},
		{"export: a sentence without #EOS", Export, "#BOS 1\n" + tok("a", 0) + "#BOS 2\n" + tok("b", 0) + "#EOS 2\n", "ET"},
		{"export: #BOT without #EOT", Export, "#BOS 1\n" + tok("a", 0) + "#EOS 1\n#BOT X\n1\n", "Ts"},
		{"discbracket: a bad line", Discbracket, "(ROOT (A 0=a))\n)(\n(ROOT (B 0=b))\n", "TET"},
		{"tiger: a sentence without an id", TigerXML, strings.Replace(tigerSample, `<s id="s1"`, `<s`, 1), "ETT"},
		{"tiger: broken XML after a sentence", TigerXML, tigerSample[:strings.Index(tigerSample, `<s id="s2"`)] + "<s <", "Ts"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rd := NewReader(strings.NewReader(tc.text), "in", tc.format)
			var got strings.Builder
			for {
				_, err := rd.Next()
				if err == io.EOF {
					break
				}
				var e *Error
				switch {
				case err == nil:
					got.WriteByte('T')
				case errors.As(err, &e) && e.Tree:
					got.WriteByte('E')
				case errors.As(err, &e):
					got.WriteByte('s')
				default:
					t.Fatalf("read error %v", err)
				}
				if got.Len() > 20 {
					break
				}
			}
			if got.String() != tc.want {
				t.Errorf("read %s, want %s", got.String(), tc.want)
			}
		})
	}
}
