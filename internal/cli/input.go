package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/tokenize"
)

// Sentence is a sentence to parse and where it comes from (name:line, or
// the treebank and the tree's id); Words is empty for a blank or refused
// line.
type Sentence struct {
	Where string
	ID    string // the tree's id in a treebank; empty for a text's line
	Words []string
}

// ReadSentences returns the words of the sentences of ReadInput, blank
// lines left out; a refused line, or a sentence over tree.DefaultMaxWords,
// is an error.
func ReadSentences(path string, tokenized bool) ([][]string, error) {
	sents, refused, err := ReadInput(path, TextModeOf(tokenized))
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

// ReadInput returns the sentences of OpenInput's Input all at once, and
// what it refused.
func ReadInput(path string, mode TextMode) (sents []Sentence, refused []string, err error) {
	in, err := OpenInput(path, mode)
	if err != nil {
		return nil, nil, err
	}
	defer in.Close()
	for {
		s, err := in.Next()
		if err == io.EOF {
			r := in.Refused()
			stop := r.Stopped != "" && !slices.Contains(r.Named, r.Stopped)
			more := r.Total - len(r.Named)
			if stop {
				more-- // the refusal that stopped the reading, named below
			}
			if more > 0 {
				r.Named = append(r.Named, fmt.Sprintf(in.moreIs, more))
			}
			if stop {
				r.Named = append(r.Named, r.Stopped)
			}
			return sents, r.Named, nil
		}
		if err != nil {
			return nil, nil, err
		}
		sents = append(sents, s)
	}
}

// Input is the sentences to parse, read one at a time, so that a long
// input is never held whole: one sentence per tree of a treebank (a
// malformed tree giving a sentence without words, so that the output
// lines up with the input) or per line of a text (tokenized unless it is
// already; a blank line gives a sentence without words). What cannot be
// read (a malformed tree; a line with invalid UTF-8, a NUL or another
// control character, which a treebank file cannot hold) gives a sentence
// without words and is listed by Refused, naming its line. An error that
// the treebank reader cannot go on after (a TIGER-XML syntax error, see
// treebank.Error.Stopped) is listed too, saying that the sentences after
// it were not read, and is the input's end. Other errors (a failing disk)
// end the reading with an error.
type Input struct {
	next    func() (Sentence, error)
	file    *os.File // nil for standard input
	counted *countingReader
	size    int64
	mu      sync.Mutex // guards refused: Batches reads on a goroutine
	refused Refusals
	moreIs  string // what refusals beyond the ones named are, a format of their number
}

// maxRefusedNamed is how many refusals a Refusals names; the others are
// counted.
const maxRefusedNamed = 10

// TextMode says how a text input (not a treebank) is cut into sentences.
type TextMode int

// Text modes.
const (
	// OneSentenceALine tokenizes each line into one sentence.
	OneSentenceALine TextMode = iota
	// Tokenized takes each line as one sentence of tokens separated by
	// spaces.
	Tokenized
	// SplitLines cuts each line into sentences (tokenize.Sentences: the
	// app's rule within a line), for text of several sentences a line.
	SplitLines
)

// TextModeOf returns OneSentenceALine, or Tokenized when tokenized is set.
func TextModeOf(tokenized bool) TextMode {
	if tokenized {
		return Tokenized
	}
	return OneSentenceALine
}

// OpenInput opens the input at path: a treebank when its extension names
// a format (.export, .discbracket, .xml, .mrg), else a text cut into
// sentences as mode says; standard input (a text) when path is empty.
func OpenInput(path string, mode TextMode) (*Input, error) {
	return OpenInputAs(path, mode, "")
}

// InputFormats are the names OpenInputAs takes: a text, or a treebank
// format (see treebank.ParseFormat).
var InputFormats = []string{"text", "export", "discbracket", "tigerxml", "ptb"}

// OpenInputAs is OpenInput with the input's format given by name (one of
// InputFormats): "text" reads a text whatever the extension, a treebank
// format reads the input, standard input too, as that treebank; "" is
// OpenInput's choice by extension.
func OpenInputAs(path string, mode TextMode, format string) (*Input, error) {
	tb := treebank.Unknown
	switch format {
	case "":
		if f, err := treebank.FormatOf(path); path != "" && err == nil {
			tb = f
		}
	case "text":
	default:
		f, err := treebank.ParseFormat(format)
		if err != nil {
			return nil, fmt.Errorf("input format %q: want one of %s", format, strings.Join(InputFormats, ", "))
		}
		tb = f
	}
	in := &Input{}
	var r io.Reader = os.Stdin
	name := "standard input"
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		in.file, r, name = f, f, filepath.Base(path)
	}
	info, err := statOf(in.file)
	if err == nil && info.IsDir() {
		in.Close()
		return nil, fmt.Errorf("reading %s: is a folder, not a file", path)
	}
	if err == nil && info.Mode().IsRegular() {
		in.size = info.Size()
	}
	if tb != treebank.Unknown {
		in.counted = &countingReader{r: r}
		where := path
		if path == "" {
			where = name
		}
		in.openTreebank(where, tb)
		return in, nil
	}
	in.openText(r, name, mode)
	return in, nil
}

// openText makes in read r as a text cut into sentences as mode says,
// named name.
func (in *Input) openText(r io.Reader, name string, mode TextMode) {
	in.counted = &countingReader{r: r}
	split := tokenize.Words
	switch mode {
	case Tokenized:
		split = strings.Fields
	case SplitLines:
		split = func(line string) []string { return []string{line} } // cut below
	}
	lines := NewLineReader(in.counted, name, split)
	in.moreIs = name + ": %d more lines that a treebank file cannot hold"
	var pending []Sentence // the further sentences of a line (SplitLines)
	in.next = func() (Sentence, error) {
		if len(pending) > 0 {
			s := pending[0]
			pending = pending[1:]
			return s, nil
		}
		words, why, err := lines.Next()
		if err != nil {
			return Sentence{}, err
		}
		if why != "" {
			in.refuse(why)
		}
		where := fmt.Sprintf("%s:%d", name, lines.Line())
		if mode != SplitLines || len(words) == 0 {
			return Sentence{Where: where, Words: words}, nil
		}
		sents := tokenize.Sentences(words[0])
		for k, toks := range sents {
			s := Sentence{Where: where, Words: make([]string, len(toks))}
			for i, t := range toks {
				s.Words[i] = t.Text
			}
			if len(sents) > 1 {
				s.Where = fmt.Sprintf("%s (sentence %d of %d)", where, k+1, len(sents))
			}
			pending = append(pending, s)
		}
		if len(pending) == 0 { // only spaces the tokenizer knows (U+200B)
			return Sentence{Where: where}, nil
		}
		s := pending[0]
		pending = pending[1:]
		return s, nil
	}
}

// statOf stats f, or standard input when f is nil (a file redirected to
// it has a size too).
func statOf(f *os.File) (os.FileInfo, error) {
	if f == nil {
		return os.Stdin.Stat()
	}
	return f.Stat()
}

// openTreebank makes in read the trees of a treebank file in format f.
func (in *Input) openTreebank(path string, f treebank.Format) {
	r := treebank.NewReader(bufio.NewReaderSize(in.counted, 1<<16), path, f)
	in.moreIs = path + ": %d more errors"
	in.next = func() (Sentence, error) {
		for {
			t, err := r.Next()
			var bad *treebank.Error
			switch {
			case err == io.EOF:
				return Sentence{}, io.EOF
			case errors.As(err, &bad) && bad.Stopped:
				// The reader returns io.EOF next: say that what
				// follows is missing.
				in.stop(bad.Error() + ": reading stopped here; the sentences after it were not read or parsed")
				if bad.Tree {
					return Sentence{Where: fmt.Sprintf("%s:%d", path, bad.Line)}, nil
				}
			case errors.As(err, &bad):
				in.refuse(bad.Error())
				if bad.Tree { // a refused tree keeps its place; stray text takes none
					return Sentence{Where: fmt.Sprintf("%s:%d", path, bad.Line)}, nil
				}
			case err != nil:
				return Sentence{}, fmt.Errorf("reading %s: %w", path, err)
			default:
				// The line where the tree begins (export's #BOS line)
				// tells apart two trees of one id; TIGER-XML counts none.
				where := path
				if line := r.StartLine(); line > 0 {
					where = fmt.Sprintf("%s:%d", path, line)
				}
				return Sentence{Where: fmt.Sprintf("%s (tree %s)", where, t.ID), ID: t.ID, Words: t.Words()}, nil
			}
		}
	}
}

func (in *Input) refuse(why string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.refused.Add(why)
}

// stop counts the refusal that ended the reading (see Refusals.Stopped).
func (in *Input) stop(why string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.refused.Add(why)
	in.refused.Stopped = why
}

// Next returns the next sentence, or io.EOF after the last.
func (in *Input) Next() (Sentence, error) { return in.next() }

// Refused lists what Next has refused so far.
func (in *Input) Refused() Refusals {
	in.mu.Lock()
	defer in.mu.Unlock()
	return Refusals{Named: slices.Clone(in.refused.Named), Total: in.refused.Total, Stopped: in.refused.Stopped}
}

// Refusals lists what was refused: the first ten named, all counted.
type Refusals struct {
	Named []string
	Total int
	// Stopped is the refusal that ended the reading of the input, which
	// is counted in Total but may be past the ten named; "" when reading
	// went on to the end of the input.
	Stopped string
}

// Add counts a refusal, naming it when fewer than ten are named.
func (r *Refusals) Add(why string) {
	r.Total++
	if len(r.Named) < maxRefusedNamed {
		r.Named = append(r.Named, why)
	}
}

// Join adds the refusals of o, and o's Stopped when it is set.
func (r *Refusals) Join(o Refusals) {
	for _, why := range o.Named {
		r.Add(why)
	}
	r.Total += o.Total - len(o.Named)
	if o.Stopped != "" {
		r.Stopped = o.Stopped
	}
}

// Size is the input's size in bytes when it is a regular file (standard
// input redirected from one included), else 0 (a pipe, a terminal).
func (in *Input) Size() int64 { return in.size }

// Offset is how many bytes of the input have been read so far (read
// ahead of Next by up to 64 KiB).
func (in *Input) Offset() int64 { return in.counted.n.Load() }

// Close closes the input's file (standard input is left open).
func (in *Input) Close() error {
	if in.file == nil {
		return nil
	}
	return in.file.Close()
}

// countingReader counts the bytes read through it; Offset may be read
// from another goroutine than the one reading.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Batches reads in on a goroutine of its own, at most n sentences ahead,
// and hands its sentences out in batches of at most n: a batch holds what
// has been read when it is asked for, waiting only for its first sentence,
// so that the lines of a slow pipe are parsed as they come and those of a
// file, read faster than parsed, n at a time. Call Stop when done.
func (in *Input) Batches(n int) *Batches {
	b := &Batches{items: make(chan inputItem, n), done: make(chan struct{}), n: n}
	go func() {
		for {
			s, err := in.Next()
			select {
			case b.items <- inputItem{s, err}:
			case <-b.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return b
}

// Batches hands out an Input's sentences in batches (see Input.Batches).
type Batches struct {
	items   chan inputItem
	done    chan struct{}
	n       int
	ended   bool  // the input's end has been handed out
	pending error // a reading failure, handed out after the batch before it
}

type inputItem struct {
	s   Sentence
	err error // io.EOF at the end
}

// Next returns the next batch of sentences, and whether the input ends
// with it (a batch may then be empty); err is a reading failure, returned
// after the sentences read before it, or ctx's error when it is cancelled
// while Next waits for a sentence.
func (b *Batches) Next(ctx context.Context) (batch []Sentence, last bool, err error) {
	if b.ended {
		return nil, true, nil
	}
	if b.pending != nil {
		return nil, false, b.pending
	}
	add := func(it inputItem) bool {
		switch {
		case it.err == io.EOF:
			b.ended = true
		case it.err != nil:
			b.pending = it.err
		default:
			batch = append(batch, it.s)
			return len(batch) < b.n
		}
		return false
	}
	select {
	case it := <-b.items:
		if !add(it) {
			return batch, b.ended, b.batchErr(batch)
		}
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	for {
		select {
		case it := <-b.items:
			if !add(it) {
				return batch, b.ended, b.batchErr(batch)
			}
		default:
			return batch, false, nil
		}
	}
}

// batchErr is the pending error when no sentence comes before it.
func (b *Batches) batchErr(batch []Sentence) error {
	if len(batch) == 0 {
		return b.pending
	}
	return nil
}

// Stop ends the reading goroutine once its current read returns (a read
// of a terminal or pipe waits for its next line or end).
func (b *Batches) Stop() {
	select {
	case <-b.done:
	default:
		close(b.done)
	}
}
