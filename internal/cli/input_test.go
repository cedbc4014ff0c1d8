package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadInput reads a treebank and texts, raw and tokenized: every
// sentence says where it comes from, and what a treebank file cannot hold
// is refused, naming its line, while the rest is read.
func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bank := write("two.discbracket", "(ROOT (S (NP (LID 0=De) (N 1=kat)) (WW 2=slaapt)))\n(ROOT (TW 0=Ja))\n")
	bad := write("bad.discbracket", "(ROOT (S (NP (LID 0=De) (N 1=kat)) (WW 2=slaapt)))\n(ROOT (S (NP 0=De 1=kat)))\n(ROOT (TW 0=Ja))\n")
	stray := write("stray.ptb", "(S (A a)) ) x (S (B b))\n(S\n (X \xff)\n (NP (D the)) (VP v))\n(S (C c))\n")
	strayExport := write("stray.export", "#FORMAT 5\n#BOS 1\na\t--\tT\t--\t--\t0\n#EOS 1\nstray\n#BOS 2\nb\t--\tT\t--\t--\t0\n#EOS 2\n")
	text := write("text.txt", "De kat slaapt.\n\nbad\x00line\nHet is (zo) .\n")
	// TIGER-XML sentences, one a line: good, with an edge to no element,
	// with an XML syntax error.
	tiger := func(id, word string) string {
		return `<s id="` + id + `"><graph><terminals><t id="` + id + `_1" word="` + word + `"/></terminals></graph></s>` + "\n"
	}
	badEdge := func(id string) string {
		return `<s id="` + id + `"><graph><terminals><t id="` + id + `_1" word="w"/></terminals><nonterminals><nt id="` + id +
			`_500" cat="X"><edge idref="nowhere"/></nt></nonterminals></graph></s>` + "\n"
	}
	broken := write("broken.xml", "<corpus><body>\n"+tiger("a", "De")+tiger("b", "x<y")+tiger("c", "Ja")+"</body></corpus>\n")
	var many strings.Builder
	many.WriteString("<corpus><body>\n")
	for k := range 11 {
		many.WriteString(badEdge(fmt.Sprint("e", k)))
	}
	many.WriteString(tiger("b", "x<y") + tiger("c", "Ja") + "</body></corpus>\n")
	manyBad := write("many.xml", many.String())
	const stopped = "XML: unescaped < inside quoted string: reading stopped here; the sentences after it were not read or parsed"
	manyRefused := []string{}
	for k := range 10 {
		manyRefused = append(manyRefused, fmt.Sprintf("many.xml:%d: sentence e%d: edge to", k+2, k))
	}
	manyRefused = append(manyRefused, "many.xml: 1 more errors", "many.xml:13: "+stopped)
	manyWant := []string{}
	for k := range 11 {
		manyWant = append(manyWant, fmt.Sprintf("many.xml:%d: ", k+2))
	}
	manyWant = append(manyWant, "many.xml:13: ")
	tests := []struct {
		name      string
		path      string
		tokenized bool
		want      []string // where: words
		refused   []string // prefixes
	}{
		{"treebank", bank, false, []string{"two.discbracket:1 (tree 1): De kat slaapt", "two.discbracket:2 (tree 2): Ja"}, nil},
		{"treebank with a malformed tree", bad, false, []string{"bad.discbracket:1 (tree 1): De kat slaapt", "bad.discbracket:2: ", "bad.discbracket:3 (tree 3): Ja"}, []string{"bad.discbracket:2:"}},
		{"bracketed trees, stray text and a line not UTF-8 inside a tree", stray, false,
			[]string{"stray.ptb:1 (tree 1): a", "stray.ptb:1 (tree 2): b", "stray.ptb:3: ", "stray.ptb:5 (tree 4): c"},
			[]string{"stray.ptb:1:11: unbalanced ')'", "stray.ptb:3:5: invalid UTF-8"}},
		{"export with a bad header and a stray line", strayExport, false,
			[]string{"stray.export:2 (tree 1): a", "stray.export:6 (tree 2): b"},
			[]string{"stray.export:1: #FORMAT", "stray.export:5: unexpected"}},
		{"TIGER-XML with a syntax error: reading stops", broken, false,
			[]string{"broken.xml (tree a): De", "broken.xml:3: "},
			[]string{"broken.xml:3: " + stopped}},
		{"TIGER-XML: ten refusals named, the syntax error that stopped reading too", manyBad, false, manyWant, manyRefused},
		{"text, tokenized here", text, false,
			[]string{"text.txt:1: De kat slaapt .", "text.txt:2: ", "text.txt:3: ", "text.txt:4: Het is ( zo ) ."},
			[]string{"text.txt:3:4: NUL byte"}},
		{"text, tokenized already", text, true,
			[]string{"text.txt:1: De kat slaapt.", "text.txt:2: ", "text.txt:3: ", "text.txt:4: Het is (zo) ."},
			[]string{"text.txt:3:4: NUL byte"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sents, refused, err := ReadInput(tc.path, TextModeOf(tc.tokenized))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range sents {
				got = append(got, strings.TrimPrefix(s.Where, dir+string(filepath.Separator))+": "+strings.Join(s.Words, " "))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("sentences\n %q\nwant\n %q", got, tc.want)
			}
			if len(refused) != len(tc.refused) {
				t.Fatalf("refused %q, want %q", refused, tc.refused)
			}
			for i, r := range tc.refused {
				if !strings.HasPrefix(strings.TrimPrefix(refused[i], dir+string(filepath.Separator)), r) {
					t.Errorf("refused %q, want it to start with %q", refused[i], r)
				}
			}
		})
	}
	if _, _, err := ReadInput(filepath.Join(dir, "missing.txt"), OneSentenceALine); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestReadSentences checks that blank lines are left out and that a
// refused line or an over-long sentence is an error naming its place.
func TestReadSentences(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content string
		want          [][]string
		err           string
	}{
		{"blank lines left out", "a b\n\nc\n", [][]string{{"a", "b"}, {"c"}}, ""},
		{"a refused line", "a\nb\x1bc\n", nil, "in.txt:2:2: control character U+001B"},
		{"too long", "a\n" + strings.Repeat("w ", 301) + "\n", nil, "in.txt:2: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "in.txt")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadSentences(path, true)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
			for i := range got {
				if !slices.Equal(got[i], tc.want[i]) {
					t.Errorf("sentence %d: %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestBatches streams a text through a pipe: a batch holds the lines read
// so far, waiting neither for more nor for the end, and n at most; the end
// and a reading failure come after the sentences before them; a cancelled
// wait returns at once; what is refused is listed as it is read.
func TestBatches(t *testing.T) {
	pr, pw := io.Pipe()
	in := &Input{}
	in.openText(pr, "pipe", Tokenized)
	b := in.Batches(3)
	defer b.Stop()
	ctx := context.Background()
	// One line written, the pipe left open: that line is a batch now.
	if _, err := io.WriteString(pw, "a b\n"); err != nil {
		t.Fatal(err)
	}
	batch, last, err := b.Next(ctx)
	if err != nil || last || len(batch) != 1 || strings.Join(batch[0].Words, " ") != "a b" || batch[0].Where != "pipe:1" {
		t.Fatalf("first batch %+v, last %v, %v; want the one line written", batch, last, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if batch, _, err := b.Next(cancelled); err != context.Canceled || batch != nil {
		t.Fatalf("a cancelled wait: %+v, %v", batch, err)
	}
	// Five more lines at once, then a failure: batches of at most 3, in
	// order, then the failure.
	go func() {
		io.WriteString(pw, "c\n\nd\x00\ne\nf\n")
		pw.CloseWithError(errors.New("disk gone"))
	}()
	var got []string
	for len(got) < 5 {
		batch, last, err := b.Next(ctx)
		if err != nil || last || len(batch) == 0 || len(batch) > 3 {
			t.Fatalf("batch %+v, last %v, %v after %q", batch, last, err, got)
		}
		for _, s := range batch {
			got = append(got, s.Where+"="+strings.Join(s.Words, " "))
		}
	}
	if want := "pipe:2=c pipe:3= pipe:4= pipe:5=e pipe:6=f"; strings.Join(got, " ") != want {
		t.Errorf("sentences %q, want %q", got, want)
	}
	if _, _, err := b.Next(ctx); err == nil || !strings.Contains(err.Error(), "disk gone") {
		t.Errorf("after the sentences: %v, want the reading failure", err)
	}
	if r := in.Refused(); r.Total != 1 || len(r.Named) != 1 || !strings.HasPrefix(r.Named[0], "pipe:4:2: NUL byte") {
		t.Errorf("refused %+v", r)
	}
	// The end: the last batch says so, and so does every Next after it.
	end := &Input{}
	end.openText(strings.NewReader("x\ny\n"), "text", OneSentenceALine)
	eb := end.Batches(parseLike)
	defer eb.Stop()
	n := 0
	for {
		batch, last, err := eb.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += len(batch)
		if last {
			break
		}
	}
	if batch, last, err := eb.Next(ctx); n != 2 || batch != nil || !last || err != nil {
		t.Errorf("%d sentences; after the end %+v, %v, %v", n, batch, last, err)
	}
}

// parseLike is a batch size as parse's.
const parseLike = 128

// TestRefusals: the first ten refusals are named, all are counted, also
// across a Join.
func TestRefusals(t *testing.T) {
	var a, b Refusals
	for i := range 12 {
		a.Add(fmt.Sprint("a", i))
	}
	for i := range 3 {
		b.Add(fmt.Sprint("b", i))
	}
	b.Total += 4 // four more counted elsewhere, unnamed
	if a.Total != 12 || len(a.Named) != 10 || a.Named[9] != "a9" {
		t.Errorf("after 12: %+v", a)
	}
	var c Refusals
	c.Join(b)
	c.Join(a)
	if c.Total != 19 || len(c.Named) != 10 || c.Named[2] != "b2" || c.Named[3] != "a0" {
		t.Errorf("joined: %+v, want 19 counted, b0-b2 then a0-a6 named", c)
	}
}

// TestOpenInputFolder: a folder given as the input is refused as such,
// named, before anything is read.
func TestOpenInputFolder(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{dir, filepath.Join(dir, ".")} {
		in, err := OpenInput(path, OneSentenceALine)
		if err == nil || !strings.Contains(err.Error(), "reading "+path+": is a folder") {
			t.Errorf("OpenInput(%s): %v, %v; want it refused as a folder", path, in, err)
		}
	}
}

// TestSplitLines: SplitLines cuts each line of a text into its sentences
// (a blank line stays one sentence without words, so that the output
// keeps it), naming each with its line and its place in the line.
func TestSplitLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "para.txt")
	if err := os.WriteFile(path, []byte("Het was laat. Hij ging naar huis.\n\nJa .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sents, refused, err := ReadInput(path, SplitLines)
	if err != nil || len(refused) != 0 {
		t.Fatalf("%v, refused %v", err, refused)
	}
	var got []string
	for _, s := range sents {
		got = append(got, s.Where+": "+strings.Join(s.Words, " "))
	}
	want := []string{
		"para.txt:1 (sentence 1 of 2): Het was laat .",
		"para.txt:1 (sentence 2 of 2): Hij ging naar huis .",
		"para.txt:2: ",
		"para.txt:3: Ja .",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sentences\n%q\nwant\n%q", got, want)
	}
}
