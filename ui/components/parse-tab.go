package components

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
)

// ParseTab is the sentence tab: the text, the variant(s), the trees, the
// timings and the node details.
type ParseTab struct {
	App *app.App
}

// example puts the chosen example in the text box and parses it.
func (c *ParseTab) example(event vugu.DOMEvent) {
	if i, err := strconv.Atoi(event.PropString("target", "value")); err == nil {
		c.App.UseExample(i)
	}
}

// keydown parses on Ctrl+Enter (or Cmd+Enter).
func (c *ParseTab) keydown(event vugu.DOMEvent) {
	if event.PropString("key") == "Enter" && (event.PropBool("ctrlKey") || event.PropBool("metaKey")) {
		event.PreventDefault()
		c.App.ParseNow()
	}
}

// tokens shows the chosen sentence's tokens.
func (c *ParseTab) tokens() string {
	if c.App.Parse.Tokenizing() {
		return "tokenizing the text…"
	}
	w := c.App.Parse.Words()
	if len(w) == 0 {
		return "no words"
	}
	return fmt.Sprintf("%s: %s", app.Count(len(w), "token"), strings.Join(w, " · "))
}

// maxSentenceOptions bounds the sentence menu: a text of thousands of
// sentences lists those around the chosen one (choosing one near an end
// of the list moves it on), so that a render stays quick.
const maxSentenceOptions = 500

// sentenceOption is an entry of the sentence menu.
type sentenceOption struct {
	Index int
	Label string
}

// sentences labels the sentences of the text for the sentence menu.
func (c *ParseTab) sentences() []sentenceOption {
	sents := c.App.Parse.Sentences
	lo, hi := 0, len(sents)
	if hi > maxSentenceOptions {
		lo = max(0, min(c.App.Parse.Index-maxSentenceOptions/2, len(sents)-maxSentenceOptions))
		hi = lo + maxSentenceOptions
	}
	out := make([]sentenceOption, 0, hi-lo)
	for i := lo; i < hi; i++ {
		label := strings.Join(sents[i], " ")
		if r := []rune(label); len(r) > 60 {
			label = string(r[:60]) + "…" // whole characters
		}
		out = append(out, sentenceOption{i, fmt.Sprintf("%d: %s", i+1, label)})
	}
	return out
}

// chooseSentence picks a sentence of the text.
func (c *ParseTab) chooseSentence(event vugu.DOMEvent) {
	if i, err := strconv.Atoi(event.PropString("target", "value")); err == nil {
		c.App.ChooseSentence(i)
	}
}

// views are the trees shown.
func (c *ParseTab) views() []*app.TreeView { return c.App.Views() }

// canParse reports whether the parse button is enabled.
func (c *ParseTab) canParse() bool { return c.App.Model.Ready() && c.App.Job == nil }

// examples are the example sentences.
func (c *ParseTab) examples() []app.Example { return app.Examples }

// variants are the decoder variants' names.
func (c *ParseTab) variants() []string { return app.Variants() }

// unknownWarning is app.App.UnknownWarning as a list of at most one, so
// that the template computes it once per render.
func (c *ParseTab) unknownWarning() []string {
	if w := c.App.UnknownWarning(); w != "" {
		return []string{w}
	}
	return nil
}

// lang is the language code of the model's language, for the text field
// and the tokens (screen readers pronounce Dutch as Dutch); "" when the
// model card names none the page knows.
func (c *ParseTab) lang() string {
	switch strings.ToLower(c.App.Model.Language) {
	case "dutch", "nederlands":
		return "nl"
	case "english":
		return "en"
	case "german", "deutsch":
		return "de"
	}
	return ""
}
