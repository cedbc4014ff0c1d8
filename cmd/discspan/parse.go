package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

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
	fs := newFlags("parse", "[--weights W] [--variant V] [--input FILE] [--format discbracket|export] [--max-words N]", stdout)
	weightsPath := fs.String("weights", "", "weights file, or several separated by commas to average their scores (default: the shipped default model, embedded)")
	variant := fs.String("variant", "n3", "decoder variant: continuous, n3, n4, n5wn, n5, n6wn, n6")
	input := fs.String("input", "", "input: a treebank (.export/.discbracket: its words are parsed) or text, one sentence a line (default: standard input)")
	tokenized := fs.Bool("tokenized", false, "text input is already tokenized (tokens separated by spaces)")
	format := fs.String("format", "discbracket", "output format: discbracket or export")
	output := fs.String("output", "", "output file (default: standard output)")
	workers := fs.Int("workers", 0, "parallel workers (default: all cores)")
	maxWords := fs.Int("max-words", tree.DefaultMaxWords, "longest sentence parsed, in words (longer ones are refused; -1: no limit)")
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
	p.MaxWords = *maxWords
	all, refused, err := readInput(*input, *tokenized)
	if err != nil {
		return err
	}
	// A sentence the parser refuses is reported at the end; the others
	// are parsed. ids keeps each sentence's number among all of them.
	var sents [][]string
	var ids []int
	for i, s := range all {
		if err := p.CheckWords(s.words); err != nil {
			refused = append(refused, fmt.Sprintf("%s: sentence %d: %v", s.where, i+1, err))
			continue
		}
		sents, ids = append(sents, s.words), append(ids, i+1)
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
	for start := 0; start < len(sents); start += parseChunk {
		chunk := sents[start:min(start+parseChunk, len(sents))]
		results, err := p.ParseBatch(chunk, v, *workers)
		if err != nil {
			return fmt.Errorf("sentences %d-%d: %w", start+1, start+len(chunk), err)
		}
		for k, r := range results {
			t := r.Tree
			t.ID = fmt.Sprint(ids[start+k])
			if err := out.Write(t); err != nil {
				return err
			}
		}
		bar.Set(start + len(chunk))
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return refusedError(refused, len(all))
}

// refusedError reports the refused sentences (the first ten named), or nil.
func refusedError(refused []string, total int) error {
	if len(refused) == 0 {
		return nil
	}
	list := strings.Join(refused[:min(len(refused), 10)], "; ")
	if len(refused) > 10 {
		list += fmt.Sprintf("; and %d more", len(refused)-10)
	}
	return fmt.Errorf("%d sentence(s) refused, the others parsed: %s", len(refused), list)
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

// sentence is a sentence to parse and where it comes from (name:line).
type sentence struct {
	where string
	words []string
}

// readSentences returns the words of the sentences of readInput; a refused
// sentence, or one over tree.DefaultMaxWords, is an error.
func readSentences(path string, tokenized bool) ([][]string, error) {
	sents, refused, err := readInput(path, tokenized)
	if err != nil {
		return nil, err
	}
	if len(refused) > 0 {
		return nil, errors.New(refused[0])
	}
	out := make([][]string, len(sents))
	for i, s := range sents {
		if err := tree.CheckLength(len(s.words), 0); err != nil {
			return nil, fmt.Errorf("%s: %w", s.where, err)
		}
		out[i] = s.words
	}
	return out, nil
}

// readInput returns the sentences to parse: the words of a treebank's
// trees, or the lines of a text (tokenized here unless tokenized is set).
// Empty lines are skipped. What cannot be read (a malformed tree, a line
// that is not UTF-8) is returned in refused, naming its line; the rest is
// read. Other errors (a missing file, a read error) are returned.
func readInput(path string, tokenized bool) (sents []sentence, refused []string, err error) {
	if path != "" {
		if _, err := treebank.FormatOf(path); err == nil {
			trees, err := treebank.ReadFile(path)
			var list treebank.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					refused = append(refused, e.Error())
				}
			} else if err != nil {
				return nil, nil, err
			}
			for _, t := range trees {
				sents = append(sents, sentence{where: fmt.Sprintf("%s (tree %s)", path, t.ID), words: wordsOf(t)})
			}
			return sents, refused, nil
		}
	}
	var r io.Reader = os.Stdin
	name := "standard input"
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		r, name = f, filepath.Base(path)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for line := 1; sc.Scan(); line++ {
		where := fmt.Sprintf("%s:%d", name, line)
		if !utf8.Valid(sc.Bytes()) {
			refused = append(refused, where+": not valid UTF-8 text")
			continue
		}
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var words []string
		if tokenized {
			words = strings.Fields(text)
		} else {
			words = tokenize.Words(text)
		}
		if len(words) == 0 {
			return nil, nil, fmt.Errorf("%s: no words", where)
		}
		sents = append(sents, sentence{where: where, words: words})
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return sents, refused, nil
}

func wordsOf(t *tree.Tree) []string { return t.Words() }
