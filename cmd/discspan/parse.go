package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/tokenize"
)

// parseChunk is the number of sentences parsed between progress updates.
const parseChunk = 128

func runParse(args []string, stdout io.Writer) error {
	fs := newFlags("parse", "[--weights W] [--variant V] [--input FILE] [--format discbracket|export]", stdout)
	weightsPath := fs.String("weights", "", "weights file, or several separated by commas to average their scores (default: the shipped default model, embedded)")
	variant := fs.String("variant", "n3", "decoder variant: continuous, n3, n4, n5wn, n5, n6wn, n6")
	input := fs.String("input", "", "input: a treebank (.export/.discbracket: its words are parsed) or text, one sentence a line (default: standard input)")
	tokenized := fs.Bool("tokenized", false, "text input is already tokenized (tokens separated by spaces)")
	format := fs.String("format", "discbracket", "output format: discbracket or export")
	output := fs.String("output", "", "output file (default: standard output)")
	workers := fs.Int("workers", 0, "parallel workers (default: all cores)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments (use --input)"); err != nil {
		return err
	}
	v, err := decode.ParseVariant(*variant)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var outFormat treebank.Format
	switch *format {
	case "discbracket":
		outFormat = treebank.Discbracket
	case "export":
		outFormat = treebank.Export
	default:
		return fmt.Errorf("%w: --format %q: want discbracket or export", errUsage, *format)
	}
	p, err := loadParser(*weightsPath)
	if err != nil {
		return err
	}
	sents, err := readSentences(*input, *tokenized)
	if err != nil {
		return err
	}
	var w io.Writer = stdout
	if *output != "" {
		f, err := os.Create(*output)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	out := treebank.NewWriter(bw, outFormat)
	bar := cli.NewProgress(len(sents), "parsing")
	defer bar.Finish()
	// One output per input line: a blank line (no words) stays blank in
	// discbracket; tree ids are line numbers.
	for start := 0; start < len(sents); start += parseChunk {
		chunk := sents[start:min(start+parseChunk, len(sents))]
		var words [][]string
		for _, s := range chunk {
			if len(s) > 0 {
				words = append(words, s)
			}
		}
		results, err := p.ParseBatch(words, v, *workers)
		if err != nil {
			return fmt.Errorf("sentences %d-%d: %w", start+1, start+len(chunk), err)
		}
		for k, s := range chunk {
			if len(s) == 0 {
				if err := out.Blank(); err != nil {
					return err
				}
				continue
			}
			t := results[0].Tree
			results = results[1:]
			t.ID = fmt.Sprint(start + k + 1)
			if err := out.Write(t); err != nil {
				return fmt.Errorf("line %d: %w", start+k+1, err)
			}
		}
		bar.Set(start + len(chunk))
	}
	if err := out.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// loadModels reads the weights a --weights flag names (see
// parser.ReadFiles): the embedded default model when it is empty, else one
// file or several separated by commas, whose models then score as one
// ensemble. Files trained with different vocabularies are a usage error.
func loadModels(flag string) (*parser.Models, error) {
	if flag == "" {
		return readModels()
	}
	return readModels(strings.Split(flag, ",")...)
}

// readModels is parser.ReadFiles, with files trained with different
// vocabularies a usage error.
func readModels(paths ...string) (*parser.Models, error) {
	ms, err := parser.ReadFiles(paths...)
	if errors.Is(err, parser.ErrVocabulary) {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return ms, err
}

// loadParser returns the parser of the weights a --weights flag names (see
// loadModels): an ensemble averages its models' scores on the CPU.
func loadParser(flag string) (*parser.Parser, error) {
	ms, err := loadModels(flag)
	if err != nil {
		return nil, err
	}
	return ms.Parser()
}

// readSentences returns the sentences to parse: the words of a treebank's
// trees, or the lines of a text (tokenized here unless tokenized is set),
// one entry per line, with no words for a blank line. Lines that a
// treebank file cannot hold are errors (see cli.ReadLines).
func readSentences(path string, tokenized bool) ([][]string, error) {
	if path != "" {
		if _, err := treebank.FormatOf(path); err == nil {
			trees, err := treebank.ReadFile(path)
			if err != nil {
				return nil, err
			}
			sents := make([][]string, len(trees))
			for i, t := range trees {
				sents[i] = wordsOf(t)
			}
			return sents, nil
		}
	}
	var r io.Reader = os.Stdin
	name := "standard input"
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, name = f, filepath.Base(path)
	}
	split := tokenize.Words
	if tokenized {
		split = strings.Fields
	}
	return cli.ReadLines(r, name, split)
}

func wordsOf(t *tree.Tree) []string { return t.Words() }
