package treebank

import (
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// TestLimits: an input past a reader's limit (a line over MaxLineBytes, a
// tree of more than MaxBrackets brackets, MaxTokens words or nested deeper
// than MaxDepth, an export sentence of more than MaxTokens tokens) is
// refused with one error naming its line and the limit, marked as standing
// for a tree when it refuses one; reading goes on with the next sentence,
// a real one of the Alpino dev set; and the reader spends a bounded amount
// of memory on it, not a multiple of the input's size.
func TestLimits(t *testing.T) {
	deep := func(n int) string {
		return "(ROOT " + strings.Repeat("(X ", n) + "(n 0=w)" + strings.Repeat(")", n) + ")"
	}
	// deepPhrase: a phrase outermost, which is a node under the root: written
	// back it gets a ROOT bracket around it, one more level.
	deepPhrase := func(n int) string {
		return "(S " + strings.Repeat("(X ", n) + "(n 0=w)" + strings.Repeat(")", n) + ")"
	}
	// words: a tree of n words, each leaf "i=w" between open and close.
	words := func(n int, open, close string) string {
		var b strings.Builder
		b.WriteString("(ROOT (S")
		for i := range n {
			b.WriteString(" " + open + strconv.Itoa(i) + "=w" + close)
		}
		b.WriteString("))")
		return b.String()
	}
	flat := func(n int) string { return words(n, "(n ", ")") }
	// unary: n words, each under five unary phrases (6n brackets).
	unary := func(n int) string { return words(n, "(A (B (C (D (E (n ", "))))))") }
	long := strings.Repeat("w", 2<<20)
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
		tree   bool // the error stands for a tree
	}{
		{"discbracket: a 4 MiB line of '('", Discbracket, "alpino-cdb/dev.discbracket", 1, strings.Repeat("(", 4<<20) + "\n", 1, "longer than 1048576 bytes", true},
		{"discbracket: a line of MaxLineBytes and \\n", Discbracket, "alpino-cdb/dev.discbracket", 1, padTo("(ROOT (n 0=w))", MaxLineBytes) + "\n", 0, "", false},
		{"discbracket: a line of MaxLineBytes and \\r\\n", Discbracket, "alpino-cdb/dev.discbracket", 1, padTo("(ROOT (n 0=w))", MaxLineBytes) + "\r\n", 0, "", false},
		{"discbracket: a line of MaxLineBytes+1", Discbracket, "alpino-cdb/dev.discbracket", 1, padTo("(ROOT (n 0=w))", MaxLineBytes+1) + "\n", 1, "longer than 1048576 bytes", true},
		{"discbracket: nested too deep", Discbracket, "alpino-cdb/dev.discbracket", 1, "\n" + deep(MaxDepth+10) + "\n", 2, "more than 1000 brackets nested", true},
		{"discbracket: nested as deep as allowed", Discbracket, "alpino-cdb/dev.discbracket", 1, deep(MaxDepth-3) + "\n", 0, "", false},
		{"discbracket: a phrase outermost, nested as deep as allowed", Discbracket, "alpino-cdb/dev.discbracket", 1, deepPhrase(MaxDepth-3) + "\n", 0, "", false},
		{"discbracket: a phrase outermost, nested one too deep", Discbracket, "alpino-cdb/dev.discbracket", 1, "\n" + deepPhrase(MaxDepth-2) + "\n", 2, "with the (ROOT bracket around it, more than 1000 brackets nested", true},
		{"ptb: a phrase outermost, nested as deep as allowed", PTB, "", 0, strings.ReplaceAll(deepPhrase(MaxDepth-3), "0=w", "w") + "\n", 0, "", false},
		{"ptb: a phrase outermost, nested one too deep", PTB, "", 0, strings.ReplaceAll(deepPhrase(MaxDepth-2), "0=w", "w") + "\n", 1, "with the (ROOT bracket around it, more than 1000 brackets nested", true},
		{"ptb: an unlabelled bracket outermost, nested as deep as allowed", PTB, "", 0, "( " + strings.Repeat("(X ", MaxDepth-2) + "(n w)" + strings.Repeat(")", MaxDepth-1) + "\n", 0, "", false},
		{"discbracket: too many brackets", Discbracket, "alpino-cdb/dev.discbracket", 1, unary(MaxBrackets/6+1) + "\n", 1, "more than 30000 brackets in one tree", true},
		{"discbracket: too many words", Discbracket, "alpino-cdb/dev.discbracket", 1, flat(MaxTokens+1) + "\n", 1, "more than 10000 words in one tree", true},
		{"discbracket: as many words as allowed", Discbracket, "alpino-cdb/dev.discbracket", 1, flat(MaxTokens) + "\n", 0, "", false},
		{"discbracket: 500,000 '(' in a line", Discbracket, "alpino-cdb/dev.discbracket", 1, strings.Repeat("(", 500000) + "\n", 1, "more than 1000 brackets nested", true},
		{"ptb: nested too deep over lines", PTB, "", 0, strings.Repeat("(X\n", 5000) + "(n w)" + strings.Repeat(")", 5000) + "\n", 1000, "more than 1000 brackets nested", true},
		{"ptb: too many words", PTB, "", 0, "(S" + strings.Repeat(" (n w)", MaxTokens+1) + ")\n", 1, "more than 10000 words in one tree", true},
		{"ptb: a 2 MiB line inside a tree", PTB, "", 0, "(S\n (X " + long + ")\n (NP (D the)) (VP v))\n", 2, "longer than 1048576 bytes", true},
		{"ptb: a tree closed in the dropped part of a long line", PTB, "", 0, "(S (A " + long + ") (B (C c)))\n", 1, "longer than 1048576 bytes", true},
		{"ptb: a 2 MiB line of words outside trees", PTB, "", 0, strings.Repeat("w ", 1<<20) + "\n", 1, `"w" outside brackets`, false},
		{"ptb: a 2 MiB line outside trees, then a tree on it", PTB, "", 0, strings.Repeat(" ", 2<<20) + "(S (A a))\n", 1, "longer than 1048576 bytes", true},
		{"discbracket: a 2 MiB blank line", Discbracket, "alpino-cdb/dev.discbracket", 1, "(ROOT (n 0=w))\n" + strings.Repeat(" ", 2<<20) + "\n", 0, "", false},
		{"discbracket: a 2 MiB line, blank in its first MiB", Discbracket, "alpino-cdb/dev.discbracket", 1, strings.Repeat(" ", 3<<19) + "(ROOT (n 0=w))\n", 1, "longer than 1048576 bytes", true},
		{"discbracket: a line of MaxLineBytes after a byte order mark", Discbracket, "alpino-cdb/dev.discbracket", 1, "\xEF\xBB\xBF" + padTo("(ROOT (n 0=w))", MaxLineBytes) + "\r\n", 0, "", false},
		{"export: a sentence of too many tokens", Export, "alpino-cdb/dev.export", 60, tokens(MaxTokens + 5), MaxTokens + 2, "sentence 1: more than 10000 tokens", true},
		{"export: a 2 MiB token line", Export, "alpino-cdb/dev.export", 60, "#BOS 1\n" + long + "\t--\t--\t--\t0\n#EOS 1\n", 2, "longer than 1048576 bytes", true},
		{"export: a 2 MiB #BOS line", Export, "alpino-cdb/dev.export", 60, "#BOS 1 " + long + "\n" + tok("a", 0) + tok("b", 0) + "#EOS 1\n", 1, "longer than 1048576 bytes", true},
		{"export: a 2 MiB #EOS line", Export, "alpino-cdb/dev.export", 60, "#BOS 1\n" + tok("a", 0) + "#EOS 1 " + long + "\n", 3, "longer than 1048576 bytes", true},
		{"export: a 2 MiB #BOT line", Export, "alpino-cdb/dev.export", 60, "#BOT ORIGIN " + long + "\n0\tx\n1\ty\n#EOT ORIGIN\n", 1, "longer than 1048576 bytes", false},
		{"export: a 2 MiB line outside sentences", Export, "alpino-cdb/dev.export", 60, strings.Repeat("#", 2<<20) + "\n", 1, "longer than 1048576 bytes", false},
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
			if list[0].Tree != tc.tree {
				t.Errorf("the error's Tree is %v, want %v", list[0].Tree, tc.tree)
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

// padTo returns s followed by spaces up to n bytes.
func padTo(s string, n int) string { return s + strings.Repeat(" ", n-len(s)) }

// TestTigerLimits: a TIGER-XML sentence of more than MaxTokens <t>
// elements, MaxBrackets <t> and <nt> elements or MaxBrackets edges is
// refused, and the sentence after it is read; a tag or text longer than
// MaxLineBytes ends the input with an error naming its line (the XML
// decoder would hold it whole).
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
	long := strings.Repeat("w", 2<<20)
	tests := []struct {
		name, sentence, msg string
		after               int  // trees read after it
		line                int  // of the error; 0: any
		latin1              bool // the sample declared ISO-8859-1
	}{
		{"terminals", `<s id="big"><graph root="t0"><terminals>` + many(MaxTokens+1, `<t id="tN" word="w" pos="n"/>`) + `</terminals></graph></s>`, "sentence big: more than 10000 <t> elements", len(want), 0, false},
		{"nonterminals", `<s id="big"><graph root="n0"><terminals><t id="t0" word="w" pos="n"/></terminals><nonterminals>` + many(MaxBrackets, `<nt id="nN" cat="S"/>`) + `</nonterminals></graph></s>`, "sentence big: more than 30000 <t> and <nt> elements", len(want), 0, false},
		{"edges", `<s id="big"><graph root="n"><terminals><t id="t0" word="w" pos="n"/></terminals><nonterminals><nt id="n" cat="S">` + many(MaxBrackets+1, `<edge label="--" idref="t0"/>`) + `</nt></nonterminals></graph></s>`, "sentence big: more than 30000 <edge> and <secedge> elements", len(want), 0, false},
		{"a 2 MiB attribute", `<s id="big"><graph root="t0"><terminals><t id="t0" word="` + long + `" pos="n"/></terminals></graph></s>`, "XML: a tag, text or comment longer than 1048576 bytes", 0, 12, false},
		{"a 2 MiB attribute of '>'", `<s id="big"><graph root="t0"><terminals><t id="t0" word="` + strings.Repeat("y>", 1<<20) + `" pos="n"/></terminals></graph></s>`, "XML: a tag, text or comment longer than 1048576 bytes", 0, 12, false},
		{"a 2 MiB attribute, ISO-8859-1", `<s id="big"><graph root="t0"><terminals><t id="t0" word="` + long + `" pos="n"/></terminals></graph></s>`, "XML: a tag, text or comment longer than 1048576 bytes", 0, 12, true},
		{"2 MiB of blank lines in a sentence", `<s id="big"><graph root="t0"><terminals>` + strings.Repeat("\n", 2<<20) + `</terminals></graph></s>`, "XML: a tag, text or comment longer than 1048576 bytes", 0, 12, false},
		{"a 2 MiB comment", `<!-- ` + strings.Repeat("<>", 1<<20) + ` -->`, "XML: a tag, text or comment longer than 1048576 bytes", 0, 12, false},
		{"a 2 MiB comment opened by <!-->", `<!-->` + strings.Repeat("<x>", 1<<20) + ` -->`, "XML: a tag, text or comment longer than 1048576 bytes", 0, 12, false},
	}
	// Markup that holds '<', '>' and quotes but no long token is read,
	// also when 2 MiB of sentences follow it.
	quiet := `<!-- don't <b> "stop" --><![CDATA[ a <b> ' c ]]><?pi x="1>2" ?>`
	chunk := tigerSample[strings.Index(tigerSample, `<s id="s1"`):strings.Index(tigerSample, "</body>")]
	sentences := strings.Repeat(chunk, (2<<20)/len(chunk)+1)
	for _, in := range []string{
		strings.Replace(tigerSample, `<s id="s1"`, quiet+"\n<s id=\"s1\"", 1),
		strings.Replace(strings.Replace(tigerSample, "<corpus", `<!DOCTYPE corpus [ <!-- the corpus's DTD -- version 2 --> <!ELEMENT corpus ANY> <!ATTLIST s id CDATA "a>b"> ]>`+"\n<corpus", 1), "</body>", sentences+"</body>", 1),
	} {
		if got, err := ReadAll(strings.NewReader(in), "in", TigerXML); err != nil || len(got) < len(want) {
			t.Errorf("comments, CDATA, a PI and a DOCTYPE: %d trees, error %v", len(got), err)
		}
	}
	// A declaration is one token for the decoder, however much markup it nests.
	for _, decl := range []string{
		"<!DOCTYPE corpus [" + strings.Repeat(`<!ENTITY e "v">`, 1<<17) + "]>",
		`<!DOCTYPE corpus <!-- a -- b --> "` + strings.Repeat("<a>", 1<<20) + `">`, // the comment ends at "-->"
	} {
		huge := strings.Replace(tigerSample, "<corpus", decl+"\n<corpus", 1)
		if _, err := ReadAll(strings.NewReader(huge), "in", TigerXML); err == nil || !strings.Contains(err.Error(), "in:2: XML: a tag, text or comment longer than") {
			t.Errorf("a 2 MiB declaration %.40q: error %v", decl, err)
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(tigerSample, `<s id="s1"`, tc.sentence+"\n<s id=\"s1\"", 1)
			if tc.latin1 {
				in = strings.Replace(in, `encoding="UTF-8"`, `encoding="ISO-8859-1"`, 1)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := ReadAll(strings.NewReader(in), "in", TigerXML)
			runtime.ReadMemStats(&after)
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || !strings.Contains(list[0].Msg, tc.msg) || list[0].Line == 0 || (tc.line > 0 && list[0].Line != tc.line) {
				t.Fatalf("error %v; want one saying %q at line %d", err, tc.msg, tc.line)
			}
			if len(got) != tc.after {
				t.Errorf("%d trees read after the error, want %d", len(got), tc.after)
			}
			if spent := after.TotalAlloc - before.TotalAlloc; spent > 64<<20 {
				t.Errorf("%d MiB allocated reading %d KiB", spent>>20, len(in)>>10)
			}
		})
	}
}

// TestLongLineColumns: past the first MiB of a bracketed line longer than
// MaxLineBytes, read piece by piece, columns still count from the start of
// the line, also when that first part ends in white space.
func TestLongLineColumns(t *testing.T) {
	head := "(S (A a))"
	pad := strings.Repeat(" ", rawLimit-len(head)-2) + "\t\t"
	in := "(S (C c))\n" + head + pad + "  ) (S (B b))\n" // line 2: no room for a byte order mark
	col := len(head) + len(pad) + 3
	rd := NewReader(strings.NewReader(in), "in", PTB)
	var got []string
	for {
		tr, err := rd.Next()
		if err == io.EOF {
			break
		}
		var e *Error
		switch {
		case err == nil:
			got = append(got, "tree "+tr.ID)
		case errors.As(err, &e):
			got = append(got, strconv.Itoa(e.Line)+":"+strconv.Itoa(e.Col)+" "+e.Msg)
		default:
			t.Fatal(err)
		}
	}
	want := []string{
		"tree 1",
		"2:0 the line is longer than 1048576 bytes (the readers' limit)",
		"2:" + strconv.Itoa(col) + " unbalanced ')'",
		"2:0 the line is longer than 1048576 bytes (the readers' limit)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// oneShotErr returns its data together with err, then more data: a read
// error that does not repeat.
type oneShotErr struct {
	data, more []byte
	err        error
	done       bool
}

func (r *oneShotErr) Read(p []byte) (int, error) {
	if len(r.data) > 0 {
		n := copy(p, r.data)
		r.data = r.data[n:]
		if len(r.data) == 0 && !r.done {
			r.done = true
			return n, r.err
		}
		return n, nil
	}
	n := copy(p, r.more)
	r.more = r.more[n:]
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// TestLongLineReadError: a read error met within a line longer than
// MaxLineBytes ends reading with that error, in every line format, even
// when the reader would go on after it.
func TestLongLineReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, f := range []Format{PTB, Discbracket, Export} {
		// The error comes with the bytes that make the line too long, or later.
		for _, n := range []int{MaxLineBytes, 2 << 20} {
			in := &oneShotErr{data: []byte("(S (A " + strings.Repeat("w", n)), more: []byte(") (B b))\n(ROOT (n 0=w))\n"), err: boom}
			_, err := ReadAll(in, "in", f)
			if !errors.Is(err, boom) {
				t.Errorf("%v, %d bytes: error %v, want the read error", f, n, err)
			}
		}
	}
}

// TestWriteLimits: what a Writer writes reads back, so a tree of more
// than MaxTokens tokens, or whose discbracket line would be over
// MaxLineBytes, is refused with a *WriteError in every format, and the
// Writer goes on; a tree of MaxTokens tokens is written and read back.
func TestWriteLimits(t *testing.T) {
	flat := func(n int, word string) *tree.Tree {
		tr := &tree.Tree{Tokens: make([]tree.Token, n)}
		for i := range tr.Tokens {
			tr.Tokens[i] = tree.Token{Word: word, Tag: "N", Parent: tree.Root}
		}
		return tr
	}
	for _, f := range []Format{Discbracket, Export, TigerXML} {
		t.Run(f.String(), func(t *testing.T) {
			var buf strings.Builder
			w := NewWriter(&buf, f)
			var refused *WriteError
			if err := w.Write(flat(MaxTokens+1, "w")); !errors.As(err, &refused) || !strings.Contains(err.Error(), "readers' limit") {
				t.Errorf("%d tokens: %v, want a WriteError naming the limit", MaxTokens+1, err)
			}
			if f == Discbracket {
				if err := w.Write(flat(3, strings.Repeat("x", MaxLineBytes/2))); !errors.As(err, &refused) || !strings.Contains(err.Error(), "bytes in a line") {
					t.Errorf("a line over %d bytes: %v, want a WriteError", MaxLineBytes, err)
				}
			}
			if err := w.Write(flat(MaxTokens, "w")); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			trees, err := ReadAll(strings.NewReader(buf.String()), "out", f)
			if err != nil || len(trees) != 1 || len(trees[0].Tokens) != MaxTokens {
				t.Errorf("read back: %d trees, %v; want one of %d tokens", len(trees), err, MaxTokens)
			}
		})
	}
}
