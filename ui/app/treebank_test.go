package app_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// stepEngine parses as parser.Engine does; while gated, each parse waits
// for a token of step (or its context), so that a test decides when the
// parses of a batch end. It counts the parses asked for.
type stepEngine struct {
	parser.Engine
	gated atomic.Bool
	step  chan struct{}
	asked atomic.Int64
}

func newStepEngine() *stepEngine { return &stepEngine{step: make(chan struct{}, 1000)} }

func (e *stepEngine) Parse(ctx context.Context, req parser.Request) (*parser.Parse, error) {
	e.asked.Add(1)
	if e.gated.Load() {
		select {
		case <-e.step:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return e.Engine.Parse(ctx, req)
}

// release lets k gated parses through.
func (e *stepEngine) release(k int) {
	for range k {
		e.step <- struct{}{}
	}
}

// bankApp starts the app over a step engine, with the models "default"
// (the one loaded) and "other", opens a treebank of n sentences (bankOf)
// named name and waits for its first sentence's parse.
func bankApp(t *testing.T, name string, n int) (*app.App, *apptest.Env, *stepEngine) {
	t.Helper()
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 7), 0)
	plat.AddModel("other", apptest.Model(t, 9), 0)
	eng := newStepEngine()
	plat.Engine = eng
	a, env := start(t, plat, app.Options{})
	env.Do(func() { a.OpenBank(name, bankOf(t, n)) })
	env.Wait(t, "the first parse", wait, func() bool { return a.Job == nil && a.Bank.Parsed == 1 })
	return a, env, eng
}

// bankOf returns n test sentences (the apptest ones, in turn) as a
// discbracket treebank of flat trees under one smain node.
func bankOf(t *testing.T, n int) []byte {
	t.Helper()
	var trees []*tree.Tree
	for i := range n {
		s := apptest.Sentences[i%len(apptest.Sentences)]
		tags := make([]string, len(s))
		for k := range tags {
			tags[k] = "N"
		}
		tr, err := tree.FromConstituents(s, tags, []tree.Labelled{{Label: "smain", Blocks: []tree.Span{{Start: 0, End: len(s) - 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tr)
	}
	var buf bytes.Buffer
	if err := treebank.WriteDiscbracket(&buf, trees); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestBankModelChange: a model change drops the treebank's parses, made
// with the model before, and parses the sentence shown with the new one;
// a batch running meanwhile stores nothing more (the corpus score once
// mixed two models).
func TestBankModelChange(t *testing.T) {
	a, env, eng := bankApp(t, "bank.discbracket", 9)
	eng.gated.Store(true)
	env.Do(a.BankParseAll)
	eng.release(3)
	env.Wait(t, "three parses of the batch", wait, func() bool { return a.Bank.Parsed == 4 })
	env.Do(func() { a.SetModel("other") })
	eng.gated.Store(false)
	eng.release(100)
	env.Wait(t, "the new model and its parse", wait, func() bool {
		return a.Model.Ready() && a.Model.Current.Name == "other" && a.Job == nil && a.Bank.Parsed >= 1
	})
	b := a.Bank
	if b.Parsed != 1 || b.Pred[b.Index] == nil || b.Summary == nil || b.Summary.Sentences != 1 {
		t.Errorf("after the model change: %d parsed, summary over %v sentences; want the sentence shown only", b.Parsed, b.Summary)
	}
}

// TestBankReadsPastErrors: a treebank with more unreadable sentences than
// the readers name is read to its end; the tab says how many parts were
// left out and names the first, and a download in discbracket keeps a
// blank line for each, as discspan parse writes, so that it lines up with
// the file.
func TestBankReadsPastErrors(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 7), 0)
	a, env := start(t, plat, app.Options{})
	lines := strings.SplitAfter(strings.TrimSuffix(string(bankOf(t, 30)), "\n"), "\n")
	var data strings.Builder
	for i, l := range lines {
		if i%2 == 1 && i < 28 { // 14 broken trees, more than the readers name
			data.WriteString("(smain (N 0=a) 1=b\n")
			continue
		}
		data.WriteString(l)
	}
	env.Do(func() { a.OpenBank("bank.discbracket", []byte(data.String())) })
	env.Wait(t, "the bank", wait, func() bool { return a.Bank != nil && a.Job == nil })
	b := a.Bank
	if b.Len() != 16 || !strings.Contains(b.ReadErr, "14 parts could not be read") || !strings.Contains(b.ReadErr, "bank.discbracket:2:") {
		t.Fatalf("%d sentences, read error %q", b.Len(), b.ReadErr)
	}
	env.Do(a.BankParseAll)
	env.Wait(t, "the batch", wait, func() bool { return a.Job == nil && b.Parsed == b.Len() })
	env.Do(func() { a.ExportAll(app.FormatDiscbracket) })
	out := string(plat.Saved["bank.n3.discbracket"])
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(got) != 30 {
		t.Fatalf("download of %d lines, want the file's 30", len(got))
	}
	for i, l := range got {
		if (l == "") != (i%2 == 1 && i < 28) {
			t.Errorf("line %d: %q", i+1, l)
		}
	}
}

// TestBankNewFileDuringBatch: opening a file while a batch parses the one
// before stops the batch (its parses are dropped) and parses the new
// file's first sentence.
func TestBankNewFileDuringBatch(t *testing.T) {
	a, env, eng := bankApp(t, "one.discbracket", 20)
	eng.gated.Store(true)
	env.Do(a.BankParseAll)
	eng.release(2)
	env.Wait(t, "two parses of the batch", wait, func() bool { return a.Bank.Parsed == 3 })
	if !a.BankBatchRunningNow() {
		t.Error("the page would not ask before a reload during Parse all")
	}
	asked := eng.asked.Load()
	env.Do(func() { a.OpenBank("two.discbracket", bankOf(t, 4)) })
	eng.gated.Store(false)
	eng.release(100)
	env.Wait(t, "the new file's first parse", wait, func() bool { return a.Job == nil && a.Bank.Name == "two.discbracket" && a.Bank.Parsed == 1 })
	if n := eng.asked.Load() - asked; n > 3 {
		t.Errorf("%d parses asked after the new file opened: the old batch went on", n)
	}
	if a.BankBatchRunningNow() {
		t.Error("the page would still ask before a reload, with no batch running")
	}
}

// TestBankShownSentenceParsed: the sentence shown is always parsed: after
// moving on twice while a parse runs, and when the tab's variant changes
// during a batch (which stops, as its parses were the other variant's).
func TestBankShownSentenceParsed(t *testing.T) {
	a, env, eng := bankApp(t, "bank.discbracket", 6)
	eng.gated.Store(true)
	env.Do(func() { a.BankGo(1); a.BankGo(2) })
	eng.gated.Store(false)
	eng.release(10)
	env.Wait(t, "sentence 3's parse", wait, func() bool { return a.Job == nil && a.Bank.Pred[2] != nil })

	eng.gated.Store(true)
	env.Do(a.BankParseAll)
	env.Do(func() { a.SetBankVariant("n4") })
	eng.gated.Store(false)
	eng.release(10)
	env.Wait(t, "the n4 parse", wait, func() bool { return a.Job == nil && a.Bank.Parsed == 1 })
	if b := a.Bank; b.Variant != decode.N4 || b.Pred[b.Index].Variant != "n4" {
		t.Errorf("variant %v, parse %v", b.Variant, b.Pred[b.Index].Variant)
	}
}

// TestBankDownloadsLikeTheCLI: a sentence the app cannot parse (over 300
// words) is written as a flat NOPARSE tree and scored as one, as discspan
// parse writes and discspan eval scores it; a parse the format cannot hold
// leaves a blank line and is named, the others are saved.
func TestBankDownloadsLikeTheCLI(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 7), 0)
	a, env := start(t, plat, app.Options{})
	long := "(ROOT (smain"
	for i := range 310 {
		long += fmt.Sprintf(" (N %d=w)", i)
	}
	long += "))\n"
	data := string(bankOf(t, 2)) + long + string(bankOf(t, 1))
	env.Do(func() { a.OpenBank("bank.discbracket", []byte(data)) })
	env.Wait(t, "the first parse", wait, func() bool { return a.Bank != nil && a.Job == nil && a.Bank.Parsed == 1 })
	env.Do(a.BankParseAll)
	env.Wait(t, "the batch", wait, func() bool { return a.Job == nil && a.Bank.Parsed == 3 })
	b := a.Bank
	if b.Refused() != 1 || b.Summary.Sentences != 4 {
		t.Fatalf("refused %d, summary over %d sentences; want 1 and 4", b.Refused(), b.Summary.Sentences)
	}
	env.Do(func() { a.ExportAll(app.FormatDiscbracket) })
	trees, err := treebank.ReadAll(bytes.NewReader(plat.Saved["bank.n3.discbracket"]), "out", treebank.Discbracket)
	if err != nil || len(trees) != 4 || trees[2].Len() != 310 || trees[2].Tokens[0].Tag != tree.NoParseTag || !strings.Contains(a.Notice, "written flat") {
		t.Errorf("%d trees (%v), notice %q", len(trees), err, a.Notice)
	}
}

// TestBankSniffsFormats: pasted trees are read in the format their text
// shows: TIGER-XML, PTB (labels with "=" too), discbracket; a UTF-16 file
// is told to be saved as UTF-8, plain text where to go.
func TestBankSniffsFormats(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 7), 0)
	a, env := start(t, plat, app.Options{})
	tiger := `<?xml version="1.0" encoding="UTF-8"?>
<corpus id="c"><head></head><body><s id="s1"><graph root="s1_500"><terminals>
<t id="s1_1" word="Hij" pos="N"/><t id="s1_2" word="slaapt" pos="N"/></terminals>
<nonterminals><nt id="s1_500" cat="smain"><edge label="--" idref="s1_1"/><edge label="--" idref="s1_2"/></nt></nonterminals></graph></s></body></corpus>
`
	for _, tc := range []struct {
		name, text string
		format     treebank.Format
		err        string
	}{
		{"TIGER-XML", tiger, treebank.TigerXML, ""},
		{"PTB with indexed labels", "(ROOT (S (NP-SBJ=1 (N Hij)) (VP (V slaapt))))\n", treebank.PTB, ""},
		{"discbracket", "(ROOT (smain (N 0=Hij) (N 1=slaapt)))\n", treebank.Discbracket, ""},
		{"UTF-16", "\xff\xfe(\x00R\x00", 0, "is in UTF-16"},
		{"plain text", "Hij slaapt.\n", 0, "paste it in the Sentence tab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env.Do(func() { a.Bank = nil; a.PasteBank(tc.text) })
			env.Wait(t, "the paste", wait, func() bool { return a.Job == nil })
			switch {
			case tc.err != "":
				if a.Bank != nil || !strings.Contains(a.Notice, tc.err) {
					t.Errorf("bank %v, notice %q; want %q", a.Bank != nil, a.Notice, tc.err)
				}
			case a.Bank == nil || a.Bank.Format != tc.format || a.Bank.Len() != 1:
				t.Errorf("bank %+v, notice %q; want one tree read as %v", a.Bank, a.Notice, tc.format)
			}
		})
	}
}

// TestBankPendingParse: the sentence shown is parsed once what held it
// up ends: a "Parse all" cancelled before it got there; a model change
// made while another tab is shown parses nothing until the Treebank tab
// is shown again (a bank job would hold up the tab in use).
func TestBankPendingParse(t *testing.T) {
	a, env, eng := bankApp(t, "bank.discbracket", 8)
	eng.gated.Store(true)
	env.Do(a.BankParseAll)
	env.Do(func() { a.BankGo(6) })
	env.Do(a.Cancel)
	eng.gated.Store(false)
	eng.release(100)
	env.Wait(t, "sentence 7's parse after the cancel", wait, func() bool { return a.Job == nil && a.Bank.Pred[6] != nil })

	env.Do(func() { a.SetTab(app.TabParse); a.SetModel("other") })
	env.Wait(t, "the other model", wait, func() bool { return a.Model.Ready() && a.Model.Current.Name == "other" })
	if a.Job != nil || a.Bank.Parsed != 0 {
		t.Fatalf("job %v, %d parsed: a bank job started on another tab", a.Job, a.Bank.Parsed)
	}
	env.Do(func() { a.SetTab(app.TabTreebank) })
	env.Wait(t, "the shown sentence's parse with the other model", wait, func() bool { return a.Job == nil && a.Bank.Pred[a.Bank.Index] != nil })
}

// A TIGER-XML file whose reading an XML syntax error stopped opens with
// the trees before the error, and says that those after it were not read.
func TestBankTigerStops(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 7), 0)
	a, env := start(t, plat, app.Options{})
	trees, err := treebank.ReadAll(bytes.NewReader(bankOf(t, 6)), "bank.discbracket", treebank.Discbracket)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := treebank.NewWriter(&b, treebank.TigerXML)
	for _, tr := range trees {
		if err := w.Write(tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	xml := b.String()
	fourth := strings.Index(xml, `<s id="`+trees[3].ID+`"`)
	at := fourth + strings.Index(xml[fourth:], `word="`) + len(`word="`)
	broken := xml[:at] + "x<y" + xml[at:]
	line := strings.Count(broken[:at], "\n") + 1
	env.Do(func() { a.OpenBank("bank.xml", []byte(broken)) })
	env.Wait(t, "the bank", wait, func() bool { return a.Bank != nil && a.Job == nil })
	if got := a.Bank.ReadErr; a.Bank.Len() != 3 || !strings.Contains(got, fmt.Sprintf("reading stopped at line %d: the trees after it were not read", line)) {
		t.Errorf("%d trees, read error %q", a.Bank.Len(), got)
	}
}
