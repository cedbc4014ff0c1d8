package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/tokenize"
	"github.com/discspan/discspan/weights"
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

// loadParser reads a weights file, the embedded default model (path
// empty), or several files separated by commas, whose models then score as
// one ensemble (see parser.Ensemble).
func loadParser(path string) (*parser.Parser, error) {
	if strings.Contains(path, ",") {
		return loadEnsemble(strings.Split(path, ","))
	}
	var (
		f   *weights.File
		err error
	)
	if path == "" {
		f, err = weights.Default()
	} else {
		f, err = weights.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	return parser.FromFile(f)
}

// loadEnsemble reads several weights files trained with one vocabulary and
// returns a parser that averages their scores.
func loadEnsemble(paths []string) (*parser.Parser, error) {
	first, members, _, err := readModelFiles(paths)
	if err != nil {
		return nil, err
	}
	models := make([]*network.Model, len(members))
	for k, m := range members {
		models[k] = &network.Model{Params: m}
	}
	p, err := parser.New(models[0], first.Meta.Vocab)
	if err != nil {
		return nil, err
	}
	p.Scorer = parser.CPUEnsemble(models)
	return p, nil
}

// readModelFiles reads weights files trained with one vocabulary and
// returns the first file, the models of all of them (an ensemble file's
// every member) and a name for each model (its file and tensor checksum).
// A file with another vocabulary is a usage error.
func readModelFiles(paths []string) (first *weights.File, members []*network.Params, names []string, err error) {
	for _, path := range paths {
		f, err := weights.ReadFile(path)
		if err != nil {
			return nil, nil, nil, err
		}
		if first == nil {
			first = f
		} else if err := first.Meta.Vocab.SameAs(f.Meta.Vocab); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: %s and %s were trained with different vocabularies: %v", errUsage, path, paths[0], err)
		}
		members = append(members, f.Members...)
		for range f.Members {
			names = append(names, fmt.Sprintf("%s (tensors %s)", filepath.Base(path), f.TensorsSHA256[:12]))
		}
	}
	return first, members, names, nil
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
