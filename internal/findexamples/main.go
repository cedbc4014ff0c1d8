// Command findexamples lists the treebank sentences that make good examples
// for the app: their gold trees have discontinuous constituents and the
// shipped model (weights/default.safetensors, embedded) gets every one of
// them right with the app's default decoder (n3), and the tokenizer gives
// back their words from the plain text.
//
//	go run ./internal/findexamples [-treebank FILE] [-min 6] [-max 16] [-exact]
//
// Each line: the sentence number, its length, the labels of its
// discontinuous constituents, the parse's F1, whether the parse is exact,
// then the text. ui/app/examples.go takes its examples from this list.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/tokenize"
)

func main() {
	bank := flag.String("treebank", filepath.Join("..", "shared", "data", "alpino-cdb", "dev.punctmoved.discbracket"), "treebank to search")
	minWords := flag.Int("min", 6, "fewest words")
	maxWords := flag.Int("max", 16, "most words")
	exact := flag.Bool("exact", false, "only parses identical to the gold tree")
	flag.Parse()
	if err := run(*bank, *minWords, *maxWords, *exact); err != nil {
		fmt.Fprintln(os.Stderr, "findexamples:", err)
		os.Exit(1)
	}
}

func run(bank string, minWords, maxWords int, exact bool) error {
	trees, err := treebank.ReadFile(bank)
	if err != nil {
		return err
	}
	p, err := parser.Load() // the embedded default model
	if err != nil {
		return err
	}
	for i, gold := range trees {
		words := gold.Words()
		if len(words) < minWords || len(words) > maxWords || !tokenizes(words) {
			continue
		}
		disc := gold.Discontinuous()
		if len(disc) == 0 {
			continue
		}
		r, err := p.ParseWords(words, decode.N3)
		if err != nil {
			return fmt.Errorf("sentence %d: %w", i+1, err)
		}
		if !slices.Equal(disc, r.Tree.Discontinuous()) {
			continue
		}
		res, err := eval.NewEvaluator(eval.ProperPrm()).Add(gold, r.Tree)
		if err != nil {
			return fmt.Errorf("sentence %d: %w", i+1, err)
		}
		isExact := len(res.GoldUnmatched) == 0 && len(res.CandUnmatched) == 0
		if exact && !isExact {
			continue
		}
		labels := make([]string, len(disc))
		for k, c := range disc {
			labels[k], _, _ = strings.Cut(c, "[")
		}
		fmt.Printf("%d\t%d\t%s\tF1 %.1f\texact %v\t%s\n", i+1, len(words), strings.Join(labels, ","), res.F1, isExact, strings.Join(words, " "))
	}
	return nil
}

// tokenizes reports whether the tokenizer gives back words, as one
// sentence, from the words joined by spaces.
func tokenizes(words []string) bool {
	sents := tokenize.Sentences(strings.Join(words, " "))
	if len(sents) != 1 || len(sents[0]) != len(words) {
		return false
	}
	for k, t := range sents[0] {
		if t.Text != words[k] {
			return false
		}
	}
	return true
}
