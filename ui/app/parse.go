package app

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/tokenize"
)

// ParseState is the sentence tab.
type ParseState struct {
	// Text is the text typed or pasted; Sentences its sentences as
	// tokenized (those of an earlier text while Tokenizing), Index the
	// one to parse.
	Text      string
	Sentences [][]string
	Index     int
	// TokenizeNs is the time tokenizing Text took (the paragraphs that
	// changed).
	TokenizeNs int64
	// tokenized is the text Sentences are of; paras holds the sentences of
	// each of its paragraphs, tokenizedBytes counts the bytes tokenized
	// (for tests). tokenizeDue is set while a tokenization is scheduled,
	// lastEdit is the time of the last edit it waits for.
	tokenized      string
	paras          map[string][][]string
	tokenizedBytes int
	tokenizeDue    bool
	lastEdit       time.Time
	// Variant is the decoder variant; with Compare, Other is parsed too
	// and drawn beside it with the differences marked.
	Variant, Other decode.Variant
	Compare        bool
	// Main and Side are the last results (Side with Compare); Gold is the
	// treebank's tree of an example sentence (see Example.Gold), drawn
	// beside them with the constituents the parse missed marked.
	Main, Side, Gold *TreeView
	// Err says why the last parse failed.
	Err string
	// Seq counts the parses shown.
	Seq int
	// Attempts counts the parses asked for and answered, by a parse
	// started or by Err: a page shows a young job late (JobBarDelay), and
	// a change of Attempts tells that a click on Parse has been seen.
	Attempts int
}

// Words returns the words of the chosen sentence.
func (p *ParseState) Words() []string {
	if p.Index < len(p.Sentences) {
		return p.Sentences[p.Index]
	}
	return nil
}

// TokenizeNowBytes bounds the text an edit tokenizes at once: an edit
// whose changed paragraphs (tokenize.Paragraphs) hold more, a large paste
// or an edit inside a very long paragraph, is tokenized once typing has
// paused for TokenizeDelay, so that keystrokes stay quick (a megabyte
// takes about a third of a second in the browser). Until then the
// sentence menu shows the sentences as they were, and an action that needs
// the sentence (a parse, the stepper, the annotation) tokenizes first.
const (
	TokenizeNowBytes = 64 << 10
	TokenizeDelay    = 300 * time.Millisecond
)

// Tokenizing reports whether the text has changed since it was last
// tokenized: Sentences are those of an earlier text.
func (p *ParseState) Tokenizing() bool { return p.tokenized != p.Text }

// retokenize splits Text into sentences of words, tokenizing again only the
// paragraphs that were not in the text tokenized before.
func (p *ParseState) retokenize() {
	start := time.Now()
	sents, cache, n := tokenizeParagraphs(p.Text, p.paras, nil)
	p.publish(p.Text, sents, cache, n, time.Since(start))
}

// publish makes sents, the sentences of text, those shown; cache holds
// its paragraphs' sentences, n the bytes tokenized, took the time taken.
func (p *ParseState) publish(text string, sents [][]string, cache map[string][][]string, n int, took time.Duration) {
	p.paras, p.tokenized = cache, text
	p.tokenizedBytes += n
	p.TokenizeNs = int64(took)
	old := p.Sentences
	p.Sentences = sents
	if p.Index >= len(sents) || !shareSentence(old, sents) {
		p.Index = 0 // a text replaced whole (pasted) starts at its first sentence
	}
}

// tokenizeParagraphs returns the sentences of text, taking those of the
// paragraphs (tokenize.Paragraphs) that cache holds and tokenizing the
// others, with the cache of text's paragraphs and the bytes tokenized.
// cache is only read (it may be the one shown). pause, when not nil, runs
// after each paragraph tokenized.
func tokenizeParagraphs(text string, cache map[string][][]string, pause func()) ([][]string, map[string][][]string, int) {
	paras := tokenize.Paragraphs(text)
	next := make(map[string][][]string, len(paras))
	var sents [][]string
	n := 0
	for _, para := range paras {
		s, ok := next[para]
		if !ok {
			s, ok = cache[para]
		}
		if !ok {
			s = sentenceWords(para)
			n += len(para)
			if pause != nil {
				pause()
			}
		}
		next[para] = s
		sents = append(sents, s...)
	}
	return sents, next, n
}

// sentenceWords tokenizes text into sentences of words.
func sentenceWords(text string) [][]string {
	var sents [][]string
	for _, s := range tokenize.Sentences(text) {
		words := make([]string, len(s))
		for i, t := range s {
			words[i] = t.Text
		}
		sents = append(sents, words)
	}
	return sents
}

// newBytes returns how many bytes of text lie in paragraphs that the last
// tokenization did not meet.
func (p *ParseState) newBytes(text string) int {
	n := 0
	for _, para := range tokenize.Paragraphs(text) {
		if _, ok := p.paras[para]; !ok {
			n += len(para)
		}
	}
	return n
}

// settle tokenizes the text now if it changed since it was last tokenized.
func (p *ParseState) settle() {
	if p.Tokenizing() {
		p.retokenize()
	}
}

// shareSentence reports whether a sentence of a is also one of b: a text
// edited keeps some, one replaced whole none.
func shareSentence(a, b [][]string) bool {
	seen := make(map[string]bool, len(a))
	for _, s := range a {
		seen[strings.Join(s, " ")] = true
	}
	for _, s := range b {
		if seen[strings.Join(s, " ")] {
			return true
		}
	}
	return false
}

// SetText replaces the text and tokenizes it, now or, for an edit of more
// than TokenizeNowBytes, once typing pauses (see TokenizeNowBytes).
func (a *App) SetText(s string) {
	if s == a.Parse.Text {
		return
	}
	a.Parse.Text = s
	if a.Parse.newBytes(s) <= TokenizeNowBytes {
		a.Parse.retokenize()
		return
	}
	a.Parse.lastEdit = time.Now()
	if !a.Parse.tokenizeDue {
		a.Parse.tokenizeDue = true
		a.tokenizeAfter(TokenizeDelay)
	}
}

// tokenizeAfter tokenizes the text after d, or later while it is still
// being edited. The text is tokenized without the lock, pausing for the
// page, and the sentences are shown if the text is still the same then.
func (a *App) tokenizeAfter(d time.Duration) {
	time.AfterFunc(d, func() {
		a.env.Lock()
		p := &a.Parse
		if wait := TokenizeDelay - time.Since(p.lastEdit); wait > 0 {
			a.env.UnlockRender()
			a.tokenizeAfter(wait) // edited meanwhile
			return
		}
		text, cache := p.Text, p.paras
		a.env.UnlockRender()

		start := time.Now()
		sents, next, n := tokenizeParagraphs(text, cache, a.newPacer().pause)
		took := time.Since(start)

		a.env.Lock()
		defer a.env.UnlockRender()
		switch {
		case p.Text != text:
			a.tokenizeAfter(TokenizeDelay) // edited meanwhile: after the next pause
		case p.tokenized != text: // not settled meanwhile (a sentence needed)
			p.tokenizeDue = false
			p.publish(text, sents, next, n, took)
		default:
			p.tokenizeDue = false
		}
	})
}

// UseExample puts example i in the text box and parses it.
func (a *App) UseExample(i int) {
	if i < 0 || i >= len(Examples) {
		return
	}
	a.SetText(Examples[i].Text)
	a.ParseNow()
}

// ChooseSentence picks the sentence of the text to parse.
func (a *App) ChooseSentence(i int) {
	a.Parse.settle()
	if i >= 0 && i < len(a.Parse.Sentences) {
		a.Parse.Index = i
	}
}

// SetVariant sets the decoder variant by name.
func (a *App) SetVariant(name string) {
	if v, err := decode.ParseVariant(name); err == nil {
		a.Parse.Variant = v
	}
}

// SetOther sets the variant compared with.
func (a *App) SetOther(name string) {
	if v, err := decode.ParseVariant(name); err == nil {
		a.Parse.Other = v
	}
}

// SetCompare turns the side-by-side comparison on or off.
func (a *App) SetCompare(on bool) { a.Parse.Compare = on }

// labels returns the loaded model's labels.
func (a *App) labels() []string {
	if a.Model.Info == nil {
		return nil
	}
	return a.Model.Info.Labels
}

// checkBudget returns an error for a sentence longer than the app parses
// (tree.DefaultMaxWords), or than variant v parses within the browser's
// memory budget (the engine's Info.Longest: the network, the scores and
// the chart; before a model is loaded, the chart alone), before any work
// is done; it names the variants that would fit, if any.
func (a *App) checkBudget(n int, v decode.Variant) error {
	if n > tree.DefaultMaxWords {
		return fmt.Errorf("%d words are too many: the app parses sentences of at most %d words, whatever the variant: %w",
			n, tree.DefaultMaxWords, decode.ErrTooLong)
	}
	labels := len(a.labels())
	longest := func(w decode.Variant) int {
		if a.Model.Info != nil && a.Model.Info.Longest != nil {
			if l, ok := a.Model.Info.Longest[w.String()]; ok {
				return l
			}
		}
		return sort.Search(tree.DefaultMaxWords+1, func(k int) bool {
			return decode.ChartBytes(w, k, labels) > parser.DefaultMaxBytes
		}) - 1
	}
	most := longest(v)
	if n <= most {
		return nil
	}
	var fit []string
	for _, w := range decode.Variants {
		if w != v && n <= longest(w) {
			fit = append(fit, w.String())
		}
	}
	hint := "a shorter sentence"
	if len(fit) > 0 {
		hint = "try " + strings.Join(fit, ", ") + ", or " + hint
	}
	return fmt.Errorf("%d words are too many for %s in the browser: within its %d MiB memory budget it parses at most %d words (%s): %w",
		n, v, parser.DefaultMaxBytes>>20, most, hint, decode.ErrTooLong)
}

// ParseNow parses the chosen sentence with the variant (and, comparing,
// the other one) in the background. A parse of the text box still running
// is cancelled: the sentence asked for now (an example chosen, Ctrl+Enter
// on a new text) replaces it. Other work (a treebank, a pre-annotation)
// goes on, and the request is dropped.
func (a *App) ParseNow() {
	if !a.Model.Ready() {
		return
	}
	if a.Job != nil {
		if !a.Job.parse {
			return
		}
		a.Job.cancel()
		a.Job = nil
		// Unless a new parse starts below: a treebank sentence waiting
		// for the job then is parsed now.
		defer a.bankJobDone()
	}
	a.Parse.Attempts++
	a.Parse.settle()
	words := a.Parse.Words()
	if len(words) == 0 {
		a.clearParse()
		a.Parse.Err = "type a sentence first"
		return
	}
	variants := []decode.Variant{a.Parse.Variant}
	if a.Parse.Compare && a.Parse.Other != a.Parse.Variant {
		variants = append(variants, a.Parse.Other)
	}
	for _, v := range variants {
		if err := a.checkBudget(len(words), v); err != nil {
			a.clearParse()
			a.Parse.Err = describeParseError(err, len(words))
			if len(words) > tree.DefaultMaxWords {
				a.Parse.Err += " (split the text into sentences)"
			}
			return
		}
	}
	a.Parse.Err = ""
	what := fmt.Sprintf("parsing %s with %s", Count(len(words), "word"), variants[0])
	if len(variants) > 1 {
		what += " and " + variants[1].String()
	}
	ctx, job := a.startJob(what, 0)
	job.parse = true
	labels := a.labels()
	gold, source := exampleGold(words)
	go func() {
		views, goldView, err := a.parseViews(ctx, words, variants, labels, gold, source)
		a.update(func() {
			if a.Job != job {
				return // replaced by a newer parse (see above)
			}
			if err == nil && ctx.Err() != nil {
				// Cancelled after the parse ended (a model switch, Cancel):
				// its trees may be of the model given up.
				err = context.Cause(ctx)
			}
			a.finishJob(job) // cancels ctx
			if err != nil {
				a.clearParse()
				a.Parse.Err = describeParseError(err, len(words))
				return
			}
			a.Parse.Main, a.Parse.Side, a.Parse.Gold = views[0], nil, goldView
			if len(views) > 1 {
				a.Parse.Side = views[1]
			}
			a.Parse.Seq++
			a.Selected, a.Hover = Focus{}, Focus{}
			a.teachParsed()
		})
	}()
}

// clearParse drops the results shown, so that an error or an empty input
// is not shown above an older sentence's tree.
func (a *App) clearParse() {
	a.Parse.Main, a.Parse.Side, a.Parse.Gold = nil, nil, nil
	a.Selected, a.Hover = Focus{}, Focus{}
}

// parseViews parses words with each variant and draws the trees, marking
// where the second differs from the first. With a gold tree (from source)
// it draws that too, marking the constituents the first parse missed (and,
// with one variant, those it has in excess).
func (a *App) parseViews(ctx context.Context, words []string, variants []decode.Variant, labels []string, gold *tree.Tree, source string) ([]*TreeView, *TreeView, error) {
	parses := make([]*parser.Parse, len(variants))
	for i, v := range variants {
		p, err := a.engine.Parse(ctx, parser.Request{Words: words, Variant: v.String()})
		if err != nil {
			return nil, nil, err
		}
		parses[i] = p
	}
	var classes [2]map[int]string
	if len(parses) > 1 {
		classes[0], classes[1] = compareTrees(parses[0].Tree, parses[1].Tree)
	}
	var goldView *TreeView
	if gold != nil {
		var goldCls, predCls map[int]string
		if r, err := eval.NewEvaluator(eval.ProperPrm()).Add(gold, parses[0].Tree); err == nil {
			goldCls, predCls = classMap(r.GoldUnmatched, "miss"), classMap(r.CandUnmatched, "extra")
		}
		if len(parses) == 1 {
			classes[0] = predCls
		}
		goldView = newTreeView("gold", "gold tree ("+source+")", gold, nil, nil, goldCls)
	}
	views := make([]*TreeView, len(parses))
	ids := []string{"main", "side"}
	for i, p := range parses {
		views[i] = newTreeView(ids[i], p.Variant, p.Tree, p, labels, classes[i])
	}
	return views, goldView, nil
}

// describeParseError turns an engine error into a message for the user.
func describeParseError(err error, n int) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, decode.ErrTooLong):
		// The message says why already; ErrTooLong's own words, added
		// at its end, say it again.
		return strings.TrimSuffix(err.Error(), ": "+decode.ErrTooLong.Error())
	}
	return err.Error()
}

// UnknownWarning warns, when the sentence looks foreign to the model (most
// of its words unknown to the model or common words of another language
// than the model's, see tokenize.Foreign), that its parse will mean
// little. It is "" otherwise.
func (a *App) UnknownWarning() string {
	if a.Model.known == nil || a.Parse.Tokenizing() {
		return ""
	}
	f := tokenize.Foreign(a.Parse.Words(), a.Model.known, a.Model.Language)
	switch {
	case !f.Mostly():
		return ""
	case a.Model.Language == "":
		return fmt.Sprintf("%d of %d words of this sentence are unknown to the model: its parse will mean little (is the sentence in the language the model was trained on?).", f.Foreign, f.Counted)
	case f.Language != "":
		return fmt.Sprintf("This sentence looks like %s, but the model was trained on %s: its parse will mean little (%d of %d words are unknown to the model or %s words).", f.Language, a.Model.Language, f.Foreign, f.Counted, f.Language)
	}
	return fmt.Sprintf("%d of %d words of this sentence are unknown to the model, which was trained on %s, or common words of another language: its parse will mean little.", f.Foreign, f.Counted, a.Model.Language)
}
