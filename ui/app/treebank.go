package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
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
	// ReadErr says which sentences could not be read (how many, and the
	// first of them with file and line); the others are there.
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
	// skipped holds, for each tree that could not be read, how many trees
	// were read before it: a download in discbracket keeps a blank line in
	// its place, as discspan parse does, so that it lines up with the file.
	skipped []int
	// model is the model load (App.loadGen) of the parses: a model or
	// backend change drops them.
	model int
	// pending is set when the sentence shown waits for its parse (the
	// model loads, another job runs, or the tab is hidden).
	pending bool
	// tooLong marks, by sentence, the refused ones (decode.ErrTooLong):
	// scored and downloaded as flat trees.
	tooLong []bool
}

// maxReadErrNamed is how many unreadable sentences ReadErr names.
const maxReadErrNamed = 3

// Refused counts the sentences that could not be parsed (too long): the
// corpus score counts their constituents as missed, as discspan eval does
// with discspan parse's flat trees.
func (b *Bank) Refused() int {
	n := 0
	for _, long := range b.tooLong {
		if long {
			n++
		}
	}
	return n
}

// Len is the number of sentences.
func (b *Bank) Len() int { return len(b.Gold) }

// Current returns the evaluation of the sentence shown, nil if not parsed.
func (b *Bank) Current() *eval.SentenceResult { return b.Sent[b.Index] }

// CurrentErr says why the sentence shown could not be parsed.
func (b *Bank) CurrentErr() string { return b.PredErr[b.Index] }

// readBank reads a treebank of the given name (its extension picks the
// format, else the content does), to its end: a sentence that cannot be
// read is left out, counted and, the first few, named in ReadErr.
func readBank(name string, data []byte) (*Bank, error) {
	f, err := treebank.FormatOf(name)
	if err != nil {
		if f, err = sniffFormat(name, data); err != nil {
			if !strings.Contains(err.Error(), "UTF-16") {
				err = fmt.Errorf("%w; to parse plain text, paste it in the Sentence tab", err)
			}
			return nil, err
		}
	}
	r := treebank.NewReader(bytes.NewReader(data), name, f)
	b := &Bank{Name: name, Format: f}
	var bad []string
	var stopped *treebank.Error // where reading stopped (an XML syntax error)
	for {
		t, err := r.Next()
		var te *treebank.Error
		switch {
		case err == io.EOF:
		case errors.As(err, &te):
			if len(bad) < maxReadErrNamed {
				bad = append(bad, te.Error())
			} else {
				bad = append(bad, "")
			}
			if te.Tree {
				b.skipped = append(b.skipped, len(b.Gold))
			}
			if te.Stopped {
				stopped = te
			}
			continue
		case err != nil:
			return nil, err
		default:
			b.Gold = append(b.Gold, t)
			continue
		}
		break
	}
	if len(b.Gold) == 0 {
		if len(bad) > 0 {
			return nil, errors.New(bad[0])
		}
		return nil, fmt.Errorf("%s: no trees", name)
	}
	if len(bad) > 0 {
		named := slices.DeleteFunc(slices.Clone(bad), func(s string) bool { return s == "" })
		b.ReadErr = fmt.Sprintf("%s could not be read and %s left out: %s", Count(len(bad), "part"), pick(len(bad) == 1, "is", "are"), strings.Join(named, "; "))
		if len(bad) > len(named) {
			b.ReadErr += fmt.Sprintf(" (and %d more)", len(bad)-len(named))
		}
		if stopped != nil {
			b.ReadErr += fmt.Sprintf("; reading stopped at line %d: the trees after it were not read", stopped.Line)
		}
	}
	b.reset(decode.N3)
	return b, nil
}

// pick returns a when cond holds, else b.
func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

// hasDiscbracketLeaf reports whether s holds a discbracket leaf ("(n
// 3=word)"): after a space or "(", an index, "=" and a word, which a PTB
// tree's labels ("NP-SBJ=1") do not start with. (Not a regular
// expression: the regexp package would add 130 KB to the gzipped wasm.)
func hasDiscbracketLeaf(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '(' {
			continue
		}
		j := i + 1
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j > i+1 && j+1 < len(s) && s[j] == '=' && !strings.ContainsRune(" \t\r\n()", rune(s[j+1])) {
			return true
		}
	}
	return false
}

// sniffFormat guesses the format of a treebank that has no extension the
// readers know from its content, or says why it cannot be read.
func sniffFormat(name string, data []byte) (treebank.Format, error) {
	s := string(data[:min(len(data), 4096)])
	switch {
	case treebank.LooksUTF16(data):
		return treebank.Unknown, fmt.Errorf("%s is in UTF-16: save it as UTF-8 first", name)
	case strings.Contains(s, "#BOS"):
		return treebank.Export, nil
	case strings.Contains(s, "<?xml") || strings.Contains(s, "<corpus"):
		return treebank.TigerXML, nil
	case hasDiscbracketLeaf(s):
		return treebank.Discbracket, nil
	case strings.Contains(s, "("):
		return treebank.PTB, nil
	}
	return treebank.Unknown, fmt.Errorf("%s: not a treebank this app reads (NEGRA export with #BOS lines, discbracket trees with index=word leaves, TIGER-XML, or bracketed PTB trees)", name)
}

// reset drops the parses and sets the variant.
func (b *Bank) reset(v decode.Variant) {
	n := len(b.Gold)
	b.Variant = v
	b.Pred, b.Sent, b.PredErr, b.tooLong = make([]*parser.Parse, n), make([]*eval.SentenceResult, n), make([]string, n), make([]bool, n)
	b.Parsed, b.Summary, b.PredView = 0, nil, nil
	b.ev = eval.NewEvaluator(eval.ProperPrm())
}

// OpenBank opens a treebank from its bytes and shows its first sentence;
// a job on the treebank open before stops. The variant is the one chosen
// in this tab last, else the Sentence tab's.
func (a *App) OpenBank(name string, data []byte) {
	b, err := readBank(name, data)
	if err != nil {
		a.noteErr(err.Error())
		return
	}
	a.stopBankJob()
	b.Variant = a.Parse.Variant
	if a.Bank != nil {
		b.Variant = a.Bank.Variant
	}
	b.model = a.loadGen
	a.Bank, a.Tab = b, TabTreebank
	a.note("")
	a.BankGo(0)
}

// stopBankJob stops a job on the treebank (the caller replaces what it
// works on): its results are dropped as they come, and the next job can
// start at once.
func (a *App) stopBankJob() {
	if a.Job != nil && a.Job.bank {
		a.Job.cancel()
		a.Job = nil
	}
}

// bankModelReady is told that a model load is ready: parses made with
// another model go (a corpus score mixing two models would mean
// nothing), and the sentence shown is parsed with this one.
func (a *App) bankModelReady() {
	b := a.Bank
	if b == nil {
		return
	}
	if b.model != a.loadGen {
		b.reset(b.Variant)
		b.model = a.loadGen
	}
	if a.Tab != TabTreebank {
		// Parsed when the tab is shown: a job here would hold up the
		// tab in use (its parses wait for no job).
		b.pending = true
		return
	}
	a.BankGo(b.Index)
}

// BankBatchRunningNow reports whether "Parse all" runs, read without the
// lock: for the page's beforeunload handler, which asks before a reload
// or a close throws the batch's work away.
func (a *App) BankBatchRunningNow() bool { return a.bankBatch.Load() != nil }

// bankJobDone is told that a job ended: a sentence shown meanwhile, which
// waited for it, is parsed now.
func (a *App) bankJobDone() {
	if b := a.Bank; b != nil && b.pending && a.Job == nil && a.Model.Ready() && a.Tab == TabTreebank {
		b.pending = false
		a.BankGo(b.Index)
	}
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
		name, data, err := a.plat.ReadFile(files, MaxFileBytes)
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
	if err != nil || a.Bank == nil || v == a.Bank.Variant {
		return
	}
	a.stopBankJob() // its parses would be the other variant's
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
	b := a.Bank
	if !a.Model.Ready() || a.Job != nil {
		// Parsed when the model is ready (bankModelReady) or the job
		// ends (bankJobDone): a running parse is not cut short (a
		// cancelled parse restarts the parsing worker), and a batch
		// may be cancelled before it gets to this sentence.
		b.pending = b.pending || !batch
		return
	}
	b.pending = false
	v, gen := b.Variant, a.loadGen
	// The budget is checked here, under the lock: it reads the model's
	// details, which a model change replaces.
	tooLong := make([]error, len(todo))
	for k, i := range todo {
		tooLong[k] = a.checkBudget(b.Gold[i].Len(), v)
	}
	what := fmt.Sprintf("parsing sentence %d with %s", todo[0]+1, v)
	total := 0
	if batch {
		what, total = fmt.Sprintf("parsing %s with %s", Count(len(todo), "sentence"), v), len(todo)
	}
	ctx, job := a.startJob(what, total)
	job.bank = true
	if batch {
		a.bankBatch.Store(job)
	}
	go func() {
		defer a.update(func() {
			a.bankBatch.CompareAndSwap(job, nil) // not a batch started since
			a.finishJob(job)
		})
		for k, i := range todo {
			p, err := (*parser.Parse)(nil), tooLong[k]
			if err == nil {
				p, err = a.engine.Parse(ctx, parser.Request{Words: b.Gold[i].Words(), Variant: v.String()})
			}
			if ctx.Err() != nil {
				return
			}
			a.update(func() {
				// The job was stopped (under the lock) after this parse
				// came back, or the treebank, its variant or the model
				// changed: the parse is not theirs.
				if ctx.Err() != nil || a.Bank != b || b.Variant != v || b.model != gen || a.loadGen != gen {
					return
				}
				job.Done = k + 1
				a.storeParse(i, p, err)
			})
		}
	}()
}

// storeParse records the parse (or error) of sentence i, evaluates it, and
// redraws when it is the sentence shown.
func (a *App) storeParse(i int, p *parser.Parse, err error) {
	b := a.Bank
	if errors.Is(err, context.Canceled) || b.Pred[i] != nil || b.PredErr[i] != "" {
		return // not parsed (parsed again when shown, or by Parse all), or stored already
	}
	if i == b.Index {
		b.pending = false
	}
	if err != nil {
		b.PredErr[i] = describeParseError(err, b.Gold[i].Len())
		if errors.Is(err, decode.ErrTooLong) {
			// Refused: scored as discspan parse's output scores it, a
			// flat tree, its constituents missed, so that the corpus
			// line agrees with discspan eval on the downloads.
			b.tooLong[i] = true
			if _, err := b.ev.Add(b.Gold[i], tree.NoParse(b.Gold[i].Words())); err == nil {
				s := b.ev.Summary()
				b.Summary = &s
			}
		}
	} else {
		p.Tree.ID = b.Gold[i].ID
		if r, err := b.ev.Add(b.Gold[i], p.Tree); err == nil {
			r.Index = i
			b.Pred[i], b.Sent[i] = p, &r
			b.Parsed++
			s := b.ev.Summary()
			b.Summary = &s
		} else {
			b.PredErr[i] = "evaluation: " + err.Error()
		}
	}
	if i == b.Index {
		a.showBank()
	}
}
