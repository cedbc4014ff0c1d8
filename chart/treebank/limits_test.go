package treebank

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestLimits: an input past a reader's limit (a line over MaxLineBytes, a
// tree of more than MaxBrackets brackets or nested deeper than MaxDepth,
// an export sentence of more than MaxTokens tokens) is refused with an
// error naming its line and the limit; reading goes on with the next
// sentence, a real one of the Alpino dev set; and the reader spends a
// bounded amount of memory on it, not a multiple of the input's size.
func TestLimits(t *testing.T) {
	deep := func(n int) string {
		return "(ROOT " + strings.Repeat("(X ", n) + "(n 0=w)" + strings.Repeat(")", n) + ")"
	}
	flat := func(n int) string {
		var b strings.Builder
		b.WriteString("(ROOT (S")
		for i := range n {
			b.WriteString(" (n ")
			b.WriteString(strconv.Itoa(i))
			b.WriteString("=w)")
		}
		b.WriteString("))")
		return b.String()
	}
	tokens := func(n int) string {
		var b strings.Builder
		b.WriteString("#BOS 1\n")
		for range n {
			b.WriteString(tok("w", 0))
		}
		return b.String() // no #EOS: the next #BOS ends it
	}
	tests := []struct {
		name   string
		format Format
		file   string // a real sentence after the hostile text
		lines  int
		text   string
		line   int // of the error
		msg    string
	}{
		{"discbracket: a 4 MiB line of '('", Discbracket, "alpino-cdb/dev.discbracket", 1, strings.Repeat("(", 4<<20) + "\n", 1, "longer than 1048576 bytes"},
		{"discbracket: nested too deep", Discbracket, "alpino-cdb/dev.discbracket", 1, "\n" + deep(MaxDepth+10) + "\n", 2, "more than 1000 brackets nested"},
		{"discbracket: nested as deep as allowed", Discbracket, "alpino-cdb/dev.discbracket", 1, deep(MaxDepth-3) + "\n", 0, ""},
		{"discbracket: too many brackets", Discbracket, "alpino-cdb/dev.discbracket", 1, flat(MaxBrackets) + "\n", 1, "more than 30000 brackets in one tree"},
		{"discbracket: 500,000 '(' in a line", Discbracket, "alpino-cdb/dev.discbracket", 1, strings.Repeat("(", 500000) + "\n", 1, "more than 1000 brackets nested"},
		{"ptb: nested too deep over lines", PTB, "", 0, strings.Repeat("(X\n", 5000) + "(n w)" + strings.Repeat(")", 5000) + "\n(S (A a))\n", 1001, "more than 1000 brackets nested"},
		{"export: a sentence of too many tokens", Export, "alpino-cdb/dev.export", 60, tokens(MaxTokens + 5), MaxTokens + 2, "sentence 1: more than 10000 tokens"},
		{"export: a 2 MiB token line", Export, "alpino-cdb/dev.export", 60, "#BOS 1\n" + strings.Repeat("w", 2<<20) + "\t--\t--\t--\t0\n#EOS 1\n", 2, "longer than 1048576 bytes"},
		{"export: a 2 MiB line outside sentences", Export, "alpino-cdb/dev.export", 60, strings.Repeat("#", 2<<20) + "\n", 1, "longer than 1048576 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			real := "(S (A a))\n"
			if tc.file != "" {
				real = strings.Join(headLines(t, tc.file, tc.lines), "")
			}
			want, err := ReadAll(strings.NewReader(real), "in", tc.format)
			if err != nil || len(want) == 0 {
				t.Fatalf("the real sentences: %d trees, error %v", len(want), err)
			}
			in := tc.text + real
			if tc.format == PTB {
				in = tc.text
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := ReadAll(strings.NewReader(in), "in", tc.format)
			runtime.ReadMemStats(&after)
			if tc.msg == "" {
				if err != nil || len(got) != len(want)+1 {
					t.Fatalf("%d trees, error %v; want %d and no error", len(got), err, len(want)+1)
				}
				return
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || list[0].Line != tc.line || !strings.Contains(list[0].Msg, tc.msg) {
				t.Fatalf("error %v; want one at line %d saying %q", err, tc.line, tc.msg)
			}
			if len(got) != len(want) || got[0].Len() != want[0].Len() {
				t.Errorf("%d trees read after the error, want %d", len(got), len(want))
			}
			// The input itself is at most 4 MiB; the readers keep a line of
			// at most 1 MiB and a tree of at most MaxBrackets brackets.
			if spent := after.TotalAlloc - before.TotalAlloc; spent > 64<<20 {
				t.Errorf("%d MiB allocated reading %d KiB", spent>>20, len(in)>>10)
			}
		})
	}
}

// TestTigerLimits: a TIGER-XML sentence of more than MaxTokens+500 <t> and
// <nt> elements, or of more than MaxBrackets edges, is refused, and the
// sentence after it is read.
func TestTigerLimits(t *testing.T) {
	want, err := ReadAll(strings.NewReader(tigerSample), "in", TigerXML)
	if err != nil || len(want) == 0 {
		t.Fatalf("the sample: %d trees, error %v", len(want), err)
	}
	many := func(n int, elem string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.ReplaceAll(elem, "N", strconv.Itoa(i)))
		}
		return b.String()
	}
	tests := []struct {
		name, sentence, msg string
	}{
		{"terminals", `<s id="big"><graph root="t0"><terminals>` + many(MaxTokens+maxNodes+1, `<t id="tN" word="w" pos="n"/>`) + `</terminals></graph></s>`, "sentence big: more than 10500 <t> and <nt> elements"},
		{"edges", `<s id="big"><graph root="n"><terminals><t id="t0" word="w" pos="n"/></terminals><nonterminals><nt id="n" cat="S">` + many(MaxBrackets+1, `<edge label="--" idref="t0"/>`) + `</nt></nonterminals></graph></s>`, "sentence big: more than 30000 <edge> and <secedge> elements"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(tigerSample, `<s id="s1"`, tc.sentence+"\n<s id=\"s1\"", 1)
			got, err := ReadAll(strings.NewReader(in), "in", TigerXML)
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || !strings.Contains(list[0].Msg, tc.msg) {
				t.Fatalf("error %v; want one saying %q", err, tc.msg)
			}
			if len(got) != len(want) {
				t.Errorf("%d trees read after the error, want %d", len(got), len(want))
			}
		})
	}
}
