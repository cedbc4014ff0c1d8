package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
)

// MinUploadSentences is the fewest sentences a training upload may hold:
// with fewer, the dev split (every DevEvery-th sentence) would be empty.
const MinUploadSentences = 10

// DevEvery is the dev split of an uploaded treebank: sentences 10, 20, 30,
// ... (1-based: index i with i%DevEvery == DevEvery-1) go to the dev set,
// the others to the training set. The split is deterministic.
const DevEvery = 10

// uploadError is a malformed upload: a message and, when the treebank
// reader named one, the line.
type uploadError struct {
	Line int
	Msg  string
}

func (e *uploadError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// detectFormat tells the treebank format of an upload: from the Content-Type
// when it names one (text/x-export, application/x-discbracket, ...: any
// type whose subtype contains "export" or "discbracket"), else from the
// first non-blank line: "#BOS", "%%" or another "#" line (#FORMAT) means
// export, "(" means discbracket.
func detectFormat(data []byte, contentType string) (treebank.Format, error) {
	if contentType != "" {
		if mt, _, err := mime.ParseMediaType(contentType); err == nil {
			switch {
			case strings.HasPrefix(mt, "multipart/"):
				return treebank.Unknown, &uploadError{Msg: "a form upload (" + mt + "): send the treebank file itself as the body (curl --data-binary @FILE)"}
			case strings.Contains(mt, "discbracket"):
				return treebank.Discbracket, nil
			case strings.Contains(mt, "export"):
				return treebank.Export, nil
			}
		}
	}
	if treebank.LooksUTF16(data) {
		// A UTF-16 byte order mark, or one byte of two zero (ASCII text
		// in UTF-16): a common export of editors on Windows.
		return treebank.Unknown, &uploadError{Msg: "the treebank is in UTF-16: send it in UTF-8 (iconv -f UTF-16 -t UTF-8)"}
	}
	rest := bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")) // a byte order mark
	line := 0
	for len(rest) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			l, rest = rest, nil
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		switch {
		case l[0] == '#' || bytes.HasPrefix(l, []byte("%%")):
			return treebank.Export, nil
		case l[0] == '(':
			return treebank.Discbracket, nil
		}
		return treebank.Unknown, &uploadError{Line: line, Msg: "cannot tell the treebank format: want export (#BOS ...) or discbracket ((ROOT ...)) "}
	}
	return treebank.Unknown, &uploadError{Msg: "empty treebank"}
}

// formatPeek is how much of an upload detectFormat sees: its first
// non-blank line must start within it.
const formatPeek = 64 << 10

// peekHead returns the start of br's input, without consuming it: as much
// as detectFormat needs (the first two bytes after leading white space and
// a byte order mark), or all of it up to formatPeek bytes or the end. It
// waits only for the bytes it needs.
func peekHead(br *bufio.Reader) ([]byte, error) {
	for {
		head, _ := br.Peek(br.Buffered())
		rest := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n\v\f")
		if len(rest) >= 2 || len(head) >= formatPeek {
			return head, nil
		}
		if _, err := br.Peek(len(head) + 1); err == io.EOF {
			head, _ = br.Peek(br.Buffered())
			return head, nil
		} else if err != nil {
			return nil, err
		}
	}
}

// converted is what convertUpload wrote.
type converted struct {
	Format     treebank.Format
	Train, Dev int // sentences
	// Distinct in the training sentences: what the network's vocabulary,
	// and so its size, will hold (words lower-cased, counted whatever
	// their frequency; labels of the trainable constituents, unary chains
	// merged, as the trainer has them).
	Words, Chars, Labels, Tags int
	// Lengths counts the training sentences of each length, in words: a
	// job's memory grows with the squares (see trainingBytes).
	Lengths map[int]int
}

// Limits on an upload's vocabulary: the network's label and tag layers
// grow with them (each label biaffine holds Labels x (d+1)^2 weights), and
// a 134 KB upload of 4,501 labels once took a tiny job to 14 GB. Treebanks
// have tens of labels (Alpino 34 with unary chains merged) and of tags.
const (
	MaxUploadLabels = 500
	MaxUploadTags   = 500
)

// MaxTrainParams bounds the parameters of a job's network with its
// upload's vocabulary: 2 GiB of training state (weights, gradients and the
// optimiser's moments, float32). The paper preset on Alpino has 62 M.
const MaxTrainParams = 1 << 27

// vocabLimit returns the most distinct words (lower-cased) an upload's
// training sentences may have under preset: more would make the network
// larger than MaxTrainParams whatever its labels and tags. An upload is
// refused at the line where it passes it, before its vocabulary takes
// more memory (two 32 MiB uploads of 2.25 M words each took the server to
// 555 MB before they were refused at their end).
func vocabLimit(preset string) int {
	cfg, err := network.Preset(preset)
	if err != nil {
		return 0
	}
	cfg.CharVocab, cfg.Labels, cfg.Tags = 8, 1, 1
	cfg.WordVocab = 8
	base := cfg.NumParams()
	cfg.WordVocab++
	perWord := cfg.NumParams() - base
	if perWord <= 0 || base >= MaxTrainParams {
		return 0
	}
	return (MaxTrainParams - base) / perWord
}

// checkModel refuses (with an *uploadError) an upload whose network under
// the preset would be larger than MaxTrainParams, whose training would
// take more than budget bytes of memory, or that has nothing to learn.
func (c converted) checkModel(preset string, s trainShape, budget int64) error {
	if c.Labels == 0 {
		return &uploadError{Msg: "no constituent in the training sentences: nothing to learn (a tree needs phrase nodes over its words)"}
	}
	cfg, err := network.Preset(preset)
	if err != nil {
		return &uploadError{Msg: err.Error()}
	}
	// Upper bounds of the vocabulary sizes (a few ids are reserved).
	cfg.WordVocab, cfg.CharVocab, cfg.Labels, cfg.Tags = c.Words+8, c.Chars+8, c.Labels, max(c.Tags, 1)
	if cfg.WordVocab <= network.MaxVocab && cfg.CharVocab <= network.MaxVocab { // else Validate says so
		if n := cfg.NumParams(); n > MaxTrainParams {
			return &uploadError{Msg: fmt.Sprintf("the %s network for this treebank (%d words, %d labels, %d tags) would have %d M parameters, at most %d M: use a smaller preset or a smaller treebank",
				preset, c.Words, c.Labels, c.Tags, n>>20, MaxTrainParams>>20)}
		}
	}
	if err := cfg.Validate(); err != nil {
		return &uploadError{Msg: fmt.Sprintf("the %s network for this treebank: %v", preset, err)}
	}
	return c.checkMemory(cfg, s, budget)
}

// countVocab adds the words, characters, labels and tags of training
// sentence t to the sets, and returns why t is refused when it brings
// more words than maxVocab (0: no limit), or more labels or tags than the
// limits.
func countVocab(t *tree.Tree, maxVocab int, words map[string]bool, chars map[rune]bool, labels, tags map[string]bool) string {
	for _, w := range t.Words() {
		lw := strings.ToLower(w)
		if !words[lw] && maxVocab > 0 && len(words) == maxVocab {
			return fmt.Sprintf("word %q is one more than the %d different words (lower-cased) the preset's network may hold (at most %d M parameters): use a smaller preset or a smaller treebank", w, maxVocab, MaxTrainParams>>20)
		}
		words[lw] = true
		for _, r := range w {
			chars[r] = true
		}
	}
	for _, g := range t.Tags() {
		if !tags[g] && len(tags) == MaxUploadTags {
			return fmt.Sprintf("tag %q is one more than the %d different tags a training upload may have", g, MaxUploadTags)
		}
		tags[g] = true
	}
	cons, _ := tree.Targets(tree.MergeUnaries(t))
	for _, con := range cons {
		if !labels[con.Label] && len(labels) == MaxUploadLabels {
			return fmt.Sprintf("label %q is one more than the %d different constituent labels a training upload may have", con.Label, MaxUploadLabels)
		}
		labels[con.Label] = true
	}
	return ""
}

// readingUpload wraps an error met reading an upload, unless the body's
// reader said already that it is one (errBodyRead).
func readingUpload(err error) error {
	if errors.Is(err, errBodyRead) {
		return err
	}
	return fmt.Errorf("reading the upload: %w", err)
}

// convertUpload reads an uploaded treebank from r as a stream and writes its
// sentences as discbracket to train and dev (every DevEvery-th to dev),
// holding one sentence in memory at a time. The first error of the reader,
// a sentence longer than maxWords (tree.CheckLength), a training sentence
// that brings more distinct words than maxVocab (0: no limit; see
// vocabLimit), a sentence that
// cannot be written as discbracket, or fewer than MinUploadSentences
// sentences make it fail with an *uploadError (naming the line where
// there is one); an error of r (a body over the size limit, a timeout) is
// returned wrapped.
func convertUpload(r io.Reader, contentType string, maxWords, maxVocab int, train, dev io.Writer) (converted, error) {
	var c converted
	br := bufio.NewReaderSize(r, formatPeek)
	skipped := 0 // blank lines discarded before the first line of text
	var head []byte
	for {
		var err error
		if head, err = peekHead(br); err != nil {
			return c, readingUpload(err)
		}
		blank := len(bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n\v\f")) == 0
		end := bytes.LastIndexByte(head, '\n')
		if len(head) < formatPeek || !blank || end < 0 {
			break
		}
		// A buffer of nothing but blank lines: drop them, keeping count.
		skipped += bytes.Count(head[:end+1], []byte("\n"))
		if _, err := br.Discard(end + 1); err != nil {
			return c, readingUpload(err)
		}
	}
	var err error
	if c.Format, err = detectFormat(head, contentType); err != nil {
		if ue, ok := err.(*uploadError); ok && ue.Line > 0 {
			ue.Line += skipped
		}
		return c, err
	}
	rd := treebank.NewReader(br, "upload", c.Format)
	lineNo := func() int { // where the last tree began; 0 when the format counts none (TIGER-XML)
		if n := rd.StartLine(); n > 0 {
			return n + skipped
		}
		return 0
	}
	tw, dw := treebank.NewWriter(train, treebank.Discbracket), treebank.NewWriter(dev, treebank.Discbracket)
	words, chars, labels, tags := map[string]bool{}, map[rune]bool{}, map[string]bool{}, map[string]bool{}
	for k := 1; ; k++ {
		t, err := rd.Next()
		if err == io.EOF {
			break
		}
		var e *treebank.Error
		switch {
		case errors.As(err, &e):
			line := e.Line
			if line > 0 {
				line += skipped
			}
			return c, &uploadError{Line: line, Msg: fmt.Sprintf("%s: %s", c.Format, e.Msg)}
		case err != nil:
			return c, readingUpload(err)
		}
		if err := tree.CheckLength(t.Len(), maxWords); err != nil {
			return c, &uploadError{Line: lineNo(), Msg: fmt.Sprintf("%s: sentence %d: %v", c.Format, k, err)}
		}
		w := tw
		if k%DevEvery == 0 {
			w, c.Dev = dw, c.Dev+1
		} else {
			c.Train++
			if c.Lengths == nil {
				c.Lengths = map[int]int{}
			}
			if t.Len() > 0 { // a sentence without words is left out of training
				c.Lengths[t.Len()]++
			}
			if msg := countVocab(t, maxVocab, words, chars, labels, tags); msg != "" {
				return c, &uploadError{Line: lineNo(), Msg: fmt.Sprintf("%s: sentence %d: %s", c.Format, k, msg)}
			}
		}
		if err := w.Write(t); err != nil {
			var we *treebank.WriteError
			if !errors.As(err, &we) {
				return c, fmt.Errorf("server: storing the upload: %w", err) // the server's disk
			}
			return c, &uploadError{Line: lineNo(), Msg: fmt.Sprintf("cannot convert the treebank to discbracket: %v", err)}
		}
	}
	c.Words, c.Chars, c.Labels, c.Tags = len(words), len(chars), len(labels), len(tags)
	if n := c.Train + c.Dev; n < MinUploadSentences {
		if n == 0 {
			return c, &uploadError{Msg: "no sentences in the treebank"}
		}
		return c, &uploadError{Msg: fmt.Sprintf("%d sentences: want at least %d (every %dth goes to the dev set)", n, MinUploadSentences, DevEvery)}
	}
	if err := tw.Flush(); err != nil {
		return c, err
	}
	return c, dw.Flush()
}
