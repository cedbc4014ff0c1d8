package treebank

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// headLines returns the first n lines of a data file, fewer in an export
// file so as to end with an #EOS line; it skips the test when the data is
// absent.
func headLines(t *testing.T, file string, n int) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir(t), file))
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines = lines[:min(n, len(lines))]
	if strings.HasSuffix(file, ".export") {
		for len(lines) > 0 && !strings.HasPrefix(lines[len(lines)-1], "#EOS") {
			lines = lines[:len(lines)-1]
		}
	}
	return lines
}

// badBytes are bytes no treebank text may hold: one that is not UTF-8,
// and NUL (which the writers refuse too).
var badBytes = []struct{ name, b, msg string }{
	{"0xff", "\xff", "invalid UTF-8 (byte 0xff)"},
	{"NUL", "\x00", "NUL byte"},
}

// TestInvalidUTF8 puts one byte that is not UTF-8, or a NUL byte, into a
// word of real data (as `sed '1s/0=Dit/0=D\xfft/'` does): every reader
// refuses that sentence with an error naming the line and column, and
// reads the others.
func TestInvalidUTF8(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		format Format
		line   int    // 1-based line to poison
		word   string // a word on that line; its second byte becomes 0xff
		trees  int    // trees read from the first 40 lines, the poisoned one left out
	}{
		{"discbracket", "alpino-cdb/train.punctmoved.discbracket", Discbracket, 1, "=Dit", 39},
		{"discbracket last line", "alpino-cdb/dev.discbracket", Discbracket, 40, "=", 39},
		{"export token", "alpino-cdb/dev.export", Export, 3, "Het", -1},
		{"export #BOS", "alpino-cdb/dev.export", Export, 2, "cdb", -1},
	}
	for _, tc := range tests {
		for _, bad := range badBytes {
			t.Run(tc.name+" "+bad.name, func(t *testing.T) {
				lines := headLines(t, tc.file, 40)
				good, err := ReadAll(strings.NewReader(strings.Join(lines, "")), "in", tc.format)
				if err != nil {
					t.Fatal(err)
				}
				l := lines[tc.line-1]
				i := strings.Index(l, tc.word)
				if i < 0 {
					t.Fatalf("line %d has no %q: %q", tc.line, tc.word, l)
				}
				col := i + 2 // the byte after the word's first
				lines[tc.line-1] = l[:col-1] + bad.b + l[col:]
				trees, err := ReadAll(strings.NewReader(strings.Join(lines, "")), "in", tc.format)
				var list ErrorList
				if !errors.As(err, &list) || len(list) != 1 {
					t.Fatalf("error %v, want one error", err)
				}
				if e := list[0]; e.Line != tc.line || e.Col != col || !strings.Contains(e.Msg, bad.msg) {
					t.Errorf("error %q, want line %d column %d, %s", e, tc.line, col, bad.msg)
				}
				want := tc.trees
				if want < 0 {
					want = len(good) - 1
				}
				if len(trees) != want {
					t.Errorf("%d trees read, want %d", len(trees), want)
				}
			})
		}
	}
	t.Run("ptb", func(t *testing.T) {
		_, err := ReadAll(strings.NewReader("(S (A a))\n(S (A b\xc3))\n(S (A c))\n"), "in", PTB)
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 || list[0].Line != 2 || list[0].Col != 8 || !strings.Contains(list[0].Msg, "invalid UTF-8") {
			t.Errorf("error %v, want line 2 column 8, invalid UTF-8", err)
		}
	})
	t.Run("ptb NUL", func(t *testing.T) {
		_, err := ReadAll(strings.NewReader("(S (A a))\n(S (A b\x00))\n(S (A c))\n"), "in", PTB)
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 || list[0].Line != 2 || list[0].Col != 8 || !strings.Contains(list[0].Msg, "NUL byte") {
			t.Errorf("error %v, want line 2 column 8, NUL byte", err)
		}
	})
	t.Run("tiger-xml NUL", func(t *testing.T) {
		if _, err := ReadAll(strings.NewReader(strings.Replace(tigerSample, `word="`, "word=\"\x00", 1)), "in", TigerXML); err == nil {
			t.Error("a NUL byte in TIGER-XML: no error")
		}
	})
	t.Run("tiger-xml", func(t *testing.T) {
		_, err := ReadAll(strings.NewReader(strings.Replace(tigerSample, `word="`, "word=\"\xff", 1)), "in", TigerXML)
		if err == nil || !strings.Contains(err.Error(), "invalid UTF-8") {
			t.Errorf("error %v, want invalid UTF-8", err)
		}
	})
}

// TestBOM reads real data with a UTF-8 byte order mark in front: every
// format gives the same trees as without it.
func TestBOM(t *testing.T) {
	tests := []struct {
		name   string
		text   func(t *testing.T) string
		format Format
	}{
		{"export", func(t *testing.T) string { return strings.Join(headLines(t, "alpino-cdb/dev.export", 60), "") }, Export},
		{"export #BOS first", func(t *testing.T) string { return strings.Join(headLines(t, "alpino-cdb/dev.export", 60)[1:], "") }, Export},
		{"discbracket", func(t *testing.T) string { return strings.Join(headLines(t, "alpino-cdb/dev.discbracket", 5), "") }, Discbracket},
		{"ptb", func(*testing.T) string { return "(S (A a))\n(S (B b))\n" }, PTB},
		{"tiger-xml", func(*testing.T) string { return tigerSample }, TigerXML},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text(t)
			want, err := ReadAll(strings.NewReader(text), "in", tc.format)
			if err != nil || len(want) == 0 {
				t.Fatalf("%d trees, error %v", len(want), err)
			}
			got, err := ReadAll(strings.NewReader("\xEF\xBB\xBF"+text), "in", tc.format)
			if err != nil {
				t.Fatalf("with a BOM: %v", err)
			}
			var gb, wb bytes.Buffer
			if err := WriteDiscbracket(&gb, got); err != nil {
				t.Fatal(err)
			}
			if err := WriteDiscbracket(&wb, want); err != nil {
				t.Fatal(err)
			}
			if gb.String() != wb.String() {
				t.Errorf("with a BOM:\n%s\nwithout:\n%s", gb.String(), wb.String())
			}
		})
	}
}

// TestReaderLine: after each tree, Reader.Line is the tree's last line and
// Reader.StartLine its first (export's #BOS line, PTB's opening bracket),
// also after a malformed tree was skipped.
func TestReaderLine(t *testing.T) {
	tests := []struct {
		name          string
		format        Format
		text          string
		lines, starts []int
	}{
		{"discbracket", Discbracket, "(ROOT (A 0=a))\n\n(ROOT (A 0=b))\n", []int{1, 3}, []int{1, 3}},
		{"export", Export, "%% x\n#BOS 1\n" + tok("a", 0) + "#EOS 1\n#BOS 2\n" + tok("b", 0) + "#EOS 2\n", []int{4, 7}, []int{2, 5}},
		{"export after a bad sentence", Export, "#BOS 1\n" + tok("a", 0) + "#EOS 1\n#BOS 2\nx\n#EOS 2\n#BOS 3\n" + tok("b", 0) + "#EOS 3\n", []int{3, 9}, []int{1, 7}},
		{"ptb", PTB, "(S\n (A a))\n(S (B b))\n", []int{2, 3}, []int{1, 3}},
		{"ptb, two on a line", PTB, "(S (A a)) (S\n (B b))\n(S (C c))\n", []int{1, 2, 3}, []int{1, 1, 3}},
		{"ptb after a bad tree", PTB, "(S (A a))\n(S\n (A b) x)\n\n(S\n (B b))\n", []int{1, 6}, []int{1, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.text), "in", tc.format)
			if r.StartLine() != 0 {
				t.Errorf("StartLine %d before the first tree, want 0", r.StartLine())
			}
			var got, starts []int
			for {
				_, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					continue
				}
				got, starts = append(got, r.Line()), append(starts, r.StartLine())
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.lines) {
				t.Errorf("lines %v, want %v", got, tc.lines)
			}
			if fmt.Sprint(starts) != fmt.Sprint(tc.starts) {
				t.Errorf("start lines %v, want %v", starts, tc.starts)
			}
		})
	}
}
