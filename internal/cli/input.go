package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/tokenize"
)

// Sentence is a sentence to parse and where it comes from (name:line, or
// the treebank and the tree's id); Words is empty for a blank or refused
// line.
type Sentence struct {
	Where string
	Words []string
}

// ReadSentences returns the words of the sentences of ReadInput, blank
// lines left out; a refused line, or a sentence over tree.DefaultMaxWords,
// is an error.
func ReadSentences(path string, tokenized bool) ([][]string, error) {
	sents, refused, err := ReadInput(path, tokenized)
	if err != nil {
		return nil, err
	}
	if len(refused) > 0 {
		return nil, errors.New(refused[0])
	}
	var out [][]string
	for _, s := range sents {
		if len(s.Words) == 0 {
			continue
		}
		if err := tree.CheckLength(len(s.Words), 0); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Where, err)
		}
		out = append(out, s.Words)
	}
	return out, nil
}

// ReadInput returns the sentences to parse, one per tree of a treebank (a
// malformed tree giving a sentence without words, so that the output lines
// up with the input) or per line of a text (tokenized here unless tokenized is set; a blank line
// gives a sentence without words). What cannot be read (a malformed tree;
// a line with invalid UTF-8, a NUL or another control character, which a
// treebank file cannot hold) is listed in refused, naming its line, and
// the rest is read; other errors (a missing file) are returned.
func ReadInput(path string, tokenized bool) (sents []Sentence, refused []string, err error) {
	if path != "" {
		if f, err := treebank.FormatOf(path); err == nil {
			return readTreebankInput(path, f)
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
	split := tokenize.Words
	if tokenized {
		split = strings.Fields
	}
	lines, bad, err := ReadLinesRefusing(r, name, split)
	if err != nil {
		return nil, nil, err
	}
	for i, words := range lines {
		sents = append(sents, Sentence{Where: fmt.Sprintf("%s:%d", name, i+1), Words: words})
	}
	refused = append(refused, bad.List...)
	if more := bad.Total - len(bad.List); more > 0 {
		refused = append(refused, fmt.Sprintf("%s: %d more lines that a treebank file cannot hold", name, more))
	}
	return sents, refused, nil
}

// maxRefusedNamed is how many refused trees ReadInput names; the others
// are counted.
const maxRefusedNamed = 10

// readTreebankInput is ReadInput for a treebank file in format f.
func readTreebankInput(path string, f treebank.Format) (sents []Sentence, refused []string, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	r := treebank.NewReader(bufio.NewReaderSize(fh, 1<<16), path, f)
	more := 0
	for {
		t, err := r.Next()
		var bad *treebank.Error
		switch {
		case err == io.EOF:
			if more > 0 {
				refused = append(refused, fmt.Sprintf("%s: %d more errors", path, more))
			}
			return sents, refused, nil
		case errors.As(err, &bad):
			if bad.Tree { // a refused tree keeps its place; stray text takes none
				sents = append(sents, Sentence{Where: fmt.Sprintf("%s:%d", path, bad.Line)})
			}
			if len(refused) < maxRefusedNamed {
				refused = append(refused, bad.Error())
			} else {
				more++
			}
		case err != nil:
			return nil, nil, fmt.Errorf("reading %s: %w", path, err)
		default:
			sents = append(sents, Sentence{Where: fmt.Sprintf("%s (tree %s)", path, t.ID), Words: t.Words()})
		}
	}
}
