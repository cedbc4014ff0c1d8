package app

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/parser"
	"github.com/vugu/vugu/js"
)

// Bank is an open treebank: the gold trees, the parses of their words made
// so far, and their evaluation.
type Bank struct {
	Name   string
	Format treebank.Format
	Gold   []*tree.Tree
	// ReadErr lists the sentences that could not be read (the others are
	// there).
	ReadErr string
	// Index is the sentence shown.
	Index int
	// Variant is the variant of the parses; changing it drops them.
	Variant decode.Variant
	// Pred and Sent are, by sentence, the parse and its evaluation
	// against the gold tree (nil until parsed); PredErr why a sentence
	// could not be parsed.
	Pred    []*parser.Parse
	Sent    []*eval.SentenceResult
	PredErr []string
	// Parsed counts the parsed sentences; Summary evaluates all of them
	// (nil before the first).
	Parsed  int
	Summary *eval.Summary
	// GoldView and PredView draw the current sentence.
	GoldView, PredView *TreeView

	ev *eval.Evaluator // accumulates the parsed sentences
}

// Len is the number of sentences.
func (b *Bank) Len() int { return len(b.Gold) }

// Current returns the evaluation of the sentence shown, nil if not parsed.
func (b *Bank) Current() *eval.SentenceResult { return b.Sent[b.Index] }

// CurrentErr says why the sentence shown could not be parsed.
func (b *Bank) CurrentErr() string { return b.PredErr[b.Index] }

// readBank reads a treebank of the given name (its extension picks the
// format, else the content does).
func readBank(name string, data []byte) (*Bank, error) {
	f, err := treebank.FormatOf(name)
	if err != nil {
		f = sniffFormat(data)
	}
	if f == treebank.Unknown {
		return nil, fmt.Errorf("%s: not a treebank this app reads (NEGRA export with #BOS lines, or discbracket trees with index=word leaves)", name)
	}
	trees, err := treebank.ReadAll(bytes.NewReader(data), name, f)
	if len(trees) == 0 {
		if err == nil {
			err = fmt.Errorf("%s: no trees", name)
		}
		return nil, err
	}
	b := &Bank{Name: name, Format: f, Gold: trees}
	if err != nil {
		b.ReadErr = err.Error()
	}
	b.reset(decode.N3)
	return b, nil
}

// sniffFormat guesses a treebank's format from its content.
func sniffFormat(data []byte) treebank.Format {
	s := string(data[:min(len(data), 4096)])
	switch {
	case strings.Contains(s, "#BOS"):
		return treebank.Export
	case strings.Contains(s, "=") && strings.Contains(s, "("):
		return treebank.Discbracket
	case strings.Contains(s, "("):
		return treebank.PTB
	}
	return treebank.Unknown
}

// reset drops the parses and sets the variant.
func (b *Bank) reset(v decode.Variant) {
	n := len(b.Gold)
	b.Variant = v
	b.Pred, b.Sent, b.PredErr = make([]*parser.Parse, n), make([]*eval.SentenceResult, n), make([]string, n)
	b.Parsed, b.Summary, b.PredView = 0, nil, nil
	b.ev = eval.NewEvaluator(eval.ProperPrm())
}

// OpenBank opens a treebank from its bytes and shows its first sentence.
func (a *App) OpenBank(name string, data []byte) {
	b, err := readBank(name, data)
	if err != nil {
		a.noteErr(err.Error())
		return
	}
	b.Variant = a.Parse.Variant
	a.Bank, a.Tab = b, TabTreebank
	a.note("")
	a.BankGo(0)
}

// PasteBank opens pasted treebank text.
func (a *App) PasteBank(text string) {
	if strings.TrimSpace(text) == "" {
		a.noteErr("paste export or discbracket trees first")
		return
	}
	a.OpenBank("pasted", []byte(text))
}

// OpenFiles opens the first file of a FileList (file picker or drop).
func (a *App) OpenFiles(files js.Value) {
	a.note("reading the file…")
	go func() {
		name, data, err := a.plat.ReadFile(files)
		a.update(func() {
			if err != nil {
				a.noteErr("could not read the file: " + err.Error())
				return
			}
			a.OpenBank(name, data)
		})
	}()
}

// SetBankVariant changes the variant of the treebank's parses (dropping
// those made with another).
func (a *App) SetBankVariant(name string) {
	v, err := decode.ParseVariant(name)
	if err != nil || a.Bank == nil || v == a.Bank.Variant || a.Job != nil {
		return
	}
	a.Bank.reset(v)
	a.BankGo(a.Bank.Index)
}

// BankGo shows sentence i (clamped) and parses it when it has no parse yet.
func (a *App) BankGo(i int) {
	b := a.Bank
	if b == nil {
		return
	}
	b.Index = min(max(i, 0), b.Len()-1)
	a.Selected, a.Hover = Focus{}, Focus{}
	a.showBank()
	if b.Pred[b.Index] == nil && b.PredErr[b.Index] == "" {
		a.parseBank([]int{b.Index}, false)
	}
}

// showBank draws the current sentence's gold tree and parse.
func (a *App) showBank() {
	b := a.Bank
	gold := b.Gold[b.Index]
	var goldCls, predCls map[int]string
	if r := b.Sent[b.Index]; r != nil {
		goldCls, predCls = classMap(r.GoldUnmatched, "miss"), classMap(r.CandUnmatched, "extra")
	}
	b.GoldView = newTreeView("gold", "gold", gold, nil, nil, goldCls)
	b.PredView = nil
	if p := b.Pred[b.Index]; p != nil {
		b.PredView = newTreeView("pred", "parse ("+p.Variant+")", p.Tree, p, a.labels(), predCls)
	}
}

// BankParseAll parses every sentence not parsed yet, one after another,
// with progress; Cancel stops it.
func (a *App) BankParseAll() {
	b := a.Bank
	if b == nil {
		return
	}
	var todo []int
	for i := range b.Gold {
		if b.Pred[i] == nil && b.PredErr[i] == "" {
			todo = append(todo, i)
		}
	}
	if len(todo) > 0 {
		a.parseBank(todo, true)
	}
}

// parseBank parses the sentences todo in the background, publishing each
// parse as it comes.
func (a *App) parseBank(todo []int, batch bool) {
	if !a.Model.Ready() || a.Job != nil {
		return
	}
	b := a.Bank
	v := b.Variant
	what := fmt.Sprintf("parsing sentence %d with %s", todo[0]+1, v)
	total := 0
	if batch {
		what, total = fmt.Sprintf("parsing %s with %s", Count(len(todo), "sentence"), v), len(todo)
	}
	ctx, job := a.startJob(what, total)
	go func() {
		defer a.update(func() { a.finishJob(job) })
		for k, i := range todo {
			gold := b.Gold[i]
			p, err := a.parseGold(ctx, gold, v)
			if ctx.Err() != nil {
				return
			}
			a.update(func() {
				if a.Bank != b || b.Variant != v {
					return
				}
				job.Done = k + 1
				a.storeParse(i, p, err)
			})
		}
	}()
}

// parseGold parses the words of a gold tree with v.
func (a *App) parseGold(ctx context.Context, gold *tree.Tree, v decode.Variant) (*parser.Parse, error) {
	words := gold.Words()
	if err := a.checkBudget(len(words), v); err != nil {
		return nil, err
	}
	return a.engine.Parse(ctx, parser.Request{Words: words, Variant: v.String()})
}

// storeParse records the parse (or error) of sentence i, evaluates it, and
// redraws when it is the sentence shown.
func (a *App) storeParse(i int, p *parser.Parse, err error) {
	b := a.Bank
	if err != nil {
		b.PredErr[i] = describeParseError(err, b.Gold[i].Len())
	} else {
		p.Tree.ID = b.Gold[i].ID
		b.Pred[i] = p
		b.Parsed++
		if r, err := b.ev.Add(b.Gold[i], p.Tree); err == nil {
			r.Index = i
			b.Sent[i] = &r
			b.Summary = &b.ev.Result().All
		} else {
			b.PredErr[i] = "evaluation: " + err.Error()
		}
	}
	if i == b.Index {
		a.showBank()
	}
}
