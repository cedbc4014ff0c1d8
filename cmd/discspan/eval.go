package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

func runEval(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlags("eval", "[--json] [--verbose] [--labels] [--prm FILE] [--format F] [--strict] GOLD PRED", stdout)
	asJSON := fs.Bool("json", false, `print {"all":{...},"le40":{...}} as JSON`)
	verbose := fs.Bool("verbose", false, "also print the per-sentence table")
	labels := fs.Bool("labels", false, "also print the per-label table (recall, precision and F1 of each label)")
	strict := fs.Bool("strict", false, "refuse a PRED that holds only some of GOLD's sentences (by default they are paired by id or line and only those are scored, as disco-dop does)")
	prm := fs.String("prm", "", "evaluation parameter file (default: disco-dop's proper.prm)")
	format := fs.String("format", "discbracket", "format of a GOLD or PRED given as - (standard input: discspan parse ... | discspan eval GOLD -) or named without a treebank extension (parse ... > out): discbracket, export, tigerxml or ptb")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 2, "GOLD and PRED files (- for standard input)"); err != nil {
		return err
	}
	if rest[0] == "-" && rest[1] == "-" {
		return fmt.Errorf("%w: GOLD and PRED cannot both be standard input", errUsage)
	}
	stdinFormat, err := treebank.ParseFormat(*format)
	if err != nil {
		return fmt.Errorf("%w: --format %q: want discbracket, export, tigerxml or ptb", errUsage, *format)
	}
	// eval reads its files twice (a first pass checks and counts them):
	// standard input, or a named pipe, is kept in a temporary file
	// meanwhile (see spoolStreams).
	paths, names, cleanup, err := spoolStreams(rest, stdinFormat, nil, stderr, "discspan eval: interrupted")
	if err != nil {
		return err
	}
	defer cleanup()
	defer func() { // errors name the inputs, not the files they are kept in
		if err != nil {
			err = renamePaths(err, paths, names)
		}
	}()
	// A file named without a treebank extension (parse ... > out) is read
	// in --format's format, as standard input is, once its first line
	// agrees.
	var formats [2]treebank.Format
	for k, path := range paths {
		f, err := treebank.FormatOf(path)
		if err != nil || names[k] == "standard input" {
			f = stdinFormat
			if err := checkFirstLine(path, names[k], f); err != nil {
				return err
			}
		}
		formats[k] = f
	}
	params := eval.ProperPrm()
	if *prm != "" {
		f, err := os.Open(*prm)
		if err != nil {
			return err
		}
		params, err = eval.ParseParams(f, *prm)
		f.Close()
		if err != nil {
			return err
		}
	}
	res, err := evaluateFiles([2]string(paths), formats, params, *strict, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]eval.Summary{"all": res.All, "le40": res.Le40})
	}
	if *verbose {
		fmt.Fprint(stdout, eval.FormatSentences(res))
	}
	if *labels {
		fmt.Fprint(stdout, eval.FormatLabels(res))
	}
	fmt.Fprint(stdout, eval.FormatSummary(res))
	return nil
}

// evaluateFiles scores the candidate treebank at candPath against the gold
// one at goldPath, reading the two side by side one tree at a time, so that
// memory does not grow with the treebanks, after a first pass that checks
// and counts them (a file changed between the passes is reported as such).
//
// Sentences are paired in order, except where both files key their
// sentences (export's #BOS and TIGER-XML's s id name them; a discbracket
// sentence is keyed by its line, as disco-dop numbers it) and the
// candidate's keys are gold's in another order or some of them: then, as
// disco-dop does, each candidate sentence is paired with gold's of the same
// key, and a note on notes says so (the gold trees the candidate names are
// then held in memory). So a discbracket candidate of gold's first lines,
// or one with a blank line where a sentence was left out, scores the
// sentences it holds.
func evaluateFiles(paths [2]string, formats [2]treebank.Format, p eval.Params, strict bool, notes io.Writer) (*eval.Result, error) {
	goldPath, candPath := paths[0], paths[1]
	// A first pass reads each file whole, without keeping its trees, so
	// that errors come in the order of reading the files whole: gold's
	// parse errors, then the candidate's, then the numbers of sentences,
	// and only then a pair that differs.
	var keys [2][]string
	var kinds [2]keyKind
	for i, path := range paths {
		kinds[i] = keyKindOf(formats[i])
		f, err := treebank.OpenFileFormat(path, formats[i])
		if err != nil {
			return nil, err
		}
		err = f.Each(func(t *tree.Tree) error { keys[i] = append(keys[i], kinds[i].key(f.Reader, t)); return nil })
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	counts := [2]int{len(keys[0]), len(keys[1])}
	if counts[1] == 0 {
		return nil, fmt.Errorf("eval: no sentences in %s", candPath)
	}
	kind := kinds[0]
	if kind != noKeys && kind == kinds[1] && !slices.Equal(keys[0], keys[1]) {
		err := pairable(kind, keys[0], keys[1])
		if err == nil && strict && counts[1] < counts[0] {
			return nil, fmt.Errorf("eval: %s holds %d of the %d sentences of %s (--strict: every sentence is scored)", candPath, counts[1], counts[0], goldPath)
		}
		if err == nil {
			if counts[1] < counts[0] {
				fmt.Fprintf(notes, "eval: sentences paired by %s: %s holds %d of the %d sentences of %s; the scores are of those %d\n", kind, candPath, counts[1], counts[0], goldPath, counts[1])
			} else {
				fmt.Fprintf(notes, "eval: sentences paired by %s (%s holds them in another order than %s)\n", kind, candPath, goldPath)
			}
			return evaluateByKey(paths, formats, kind, keys[1], p)
		}
		// Ids of another naming (a parser's 1, 2, 3 against a treebank's
		// own) pair in order; ids that are partly gold's cannot pair at
		// all, and in order only by chance. Lines pair in order where
		// both files hold as many sentences (blank lines between trees in
		// one file only).
		if counts[0] != counts[1] || kind == byID && sharesKey(keys[0], keys[1]) {
			return nil, fmt.Errorf("eval: gold %s has %d sentences, candidate %s %d, and they cannot be paired by %s: %v", goldPath, counts[0], candPath, counts[1], kind, err)
		}
	}
	if counts[0] != counts[1] {
		return nil, fmt.Errorf("eval: gold %s has %d sentences, candidate %s %d (sentences are paired in order, by id where both files are export or TIGER-XML, by line where both are discbracket)", goldPath, counts[0], candPath, counts[1])
	}
	gold, err := treebank.OpenFileFormat(goldPath, formats[0])
	if err != nil {
		return nil, err
	}
	defer gold.Close()
	cand, err := treebank.OpenFileFormat(candPath, formats[1])
	if err != nil {
		return nil, err
	}
	defer cand.Close()
	e := eval.NewEvaluator(p)
	for n := 0; ; n++ {
		g, gerr := nextTree(gold.Reader)
		if gerr != nil && gerr != io.EOF {
			return nil, gerr
		}
		c, cerr := nextTree(cand.Reader)
		if cerr != nil && cerr != io.EOF {
			return nil, cerr
		}
		switch {
		case gerr == io.EOF && cerr == io.EOF:
			return e.Result(), nil
		case gerr == io.EOF || cerr == io.EOF:
			// The first pass counted the same number in both.
			return nil, fmt.Errorf("eval: %s or %s changed while it was read (after %d sentences)", goldPath, candPath, n)
		}
		if _, err := e.Add(g, c); err != nil {
			return nil, fmt.Errorf("%s and %s: %w", where(gold.Reader), where(cand.Reader), err)
		}
	}
}

// A keyKind says how a format keys its sentences for pairing.
type keyKind uint8

const (
	noKeys keyKind = iota // sentences pair in order only
	byID                  // export's #BOS, TIGER-XML's s id
	byLine                // discbracket: one sentence per line
)

// keyKindOf returns how sentences of format f are keyed.
func keyKindOf(f treebank.Format) keyKind {
	switch f {
	case treebank.Export, treebank.TigerXML:
		return byID
	case treebank.Discbracket:
		return byLine
	}
	return noKeys
}

// String names the kind in messages ("paired by id").
func (k keyKind) String() string {
	switch k {
	case byID:
		return "id"
	case byLine:
		return "line"
	}
	return "order"
}

// key returns the key of t, just read from r.
func (k keyKind) key(r *treebank.Reader, t *tree.Tree) string {
	switch k {
	case byID:
		return t.ID
	case byLine:
		return strconv.Itoa(r.Line())
	}
	return ""
}

// pairable returns nil when each candidate key names exactly one gold
// sentence and no two candidate sentences share one; otherwise an error
// naming the first key that does not.
func pairable(kind keyKind, gold, cand []string) error {
	seen := make(map[string]int, len(gold))
	for _, k := range gold {
		seen[k]++
	}
	used := make(map[string]bool, len(cand))
	for i, k := range cand {
		switch {
		case seen[k] == 0 && kind == byLine:
			return fmt.Errorf("candidate sentence %d is on line %s, where gold has none", i+1, k)
		case seen[k] == 0:
			return fmt.Errorf("candidate sentence %d has id %q, which no gold sentence has", i+1, k)
		case seen[k] > 1:
			return fmt.Errorf("gold has %d sentences with id %q", seen[k], k)
		case used[k]:
			return fmt.Errorf("candidate has more than one sentence with id %q", k)
		}
		used[k] = true
	}
	return nil
}

// sharesKey reports whether a candidate key is also a gold key.
func sharesKey(gold, cand []string) bool {
	in := make(map[string]bool, len(gold))
	for _, k := range gold {
		in[k] = true
	}
	return slices.ContainsFunc(cand, func(k string) bool { return in[k] })
}

// evaluateByKey scores each candidate sentence against the gold sentence of
// the same key (wanted lists the candidate's keys, checked by pairable).
func evaluateByKey(paths [2]string, formats [2]treebank.Format, kind keyKind, wanted []string, p eval.Params) (*eval.Result, error) {
	goldPath, candPath := paths[0], paths[1]
	type goldTree struct {
		t     *tree.Tree
		where string
	}
	want := make(map[string]bool, len(wanted))
	for _, k := range wanted {
		want[k] = true
	}
	gold, err := treebank.OpenFileFormat(goldPath, formats[0])
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]goldTree, len(wanted))
	err = gold.Each(func(t *tree.Tree) error {
		if k := kind.key(gold.Reader, t); want[k] {
			byKey[k] = goldTree{t, where(gold.Reader)}
		}
		return nil
	})
	gold.Close()
	if err != nil {
		return nil, err
	}
	cand, err := treebank.OpenFileFormat(candPath, formats[1])
	if err != nil {
		return nil, err
	}
	defer cand.Close()
	e := eval.NewEvaluator(p)
	for n := 0; ; n++ {
		c, err := nextTree(cand.Reader)
		if err == io.EOF {
			if n != len(wanted) {
				break
			}
			return e.Result(), nil
		}
		if err != nil {
			return nil, err
		}
		k := kind.key(cand.Reader, c)
		g, ok := byKey[k]
		if !ok || n >= len(wanted) || wanted[n] != k {
			break
		}
		if _, err := e.Add(g.t, c); err != nil {
			return nil, fmt.Errorf("%s and %s: %w", g.where, where(cand.Reader), err)
		}
	}
	return nil, fmt.Errorf("eval: %s or %s changed while it was read", goldPath, candPath)
}

// checkFirstLine refuses an input read in --format's format f (standard
// input, or a file without a treebank extension, kept at path and called
// name) whose first non-blank line shows another format, with the flag to
// give: `parse --format export | eval GOLD -` would otherwise fail on the
// first line without saying why.
func checkFirstLine(path, name string, f treebank.Format) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file) // the first lines only, not the whole input
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\uFEFF"))
		if line == "" {
			continue
		}
		seen := treebank.Unknown
		switch {
		case strings.HasPrefix(line, "#") || strings.HasPrefix(line, "%%"):
			seen = treebank.Export
		case strings.HasPrefix(line, "<"):
			seen = treebank.TigerXML
		case strings.HasPrefix(line, "(") && f != treebank.PTB:
			seen = treebank.Discbracket
		}
		if seen != treebank.Unknown && seen != f {
			return fmt.Errorf("%w: %s looks like %v (it starts with %.20q), not %v: add --format %v", errUsage, name, seen, line, f, seen)
		}
		return nil
	}
	return nil
}

// where names r's file and, where it counts lines, the line of the tree
// it read last (where that tree began).
func where(r *treebank.Reader) string {
	if l := r.StartLine(); l > 0 {
		return fmt.Sprintf("%s:%d", r.Name(), l)
	}
	return r.Name()
}

// nextTree returns the next tree of r, io.EOF at its end, or, for a
// malformed tree, the errors of it and of the rest of the input (see
// treebank.Reader.Rest).
func nextTree(r *treebank.Reader) (*tree.Tree, error) {
	t, err := r.Next()
	var pe *treebank.Error
	if errors.As(err, &pe) {
		_, err = r.Rest(pe)
	} else if err != nil && err != io.EOF {
		err = fmt.Errorf("treebank: reading %s: %w", r.Name(), err)
	}
	return t, err
}

// formatExtension is a file extension of each format (FormatOf's).
var formatExtension = map[treebank.Format]string{
	treebank.Discbracket: ".discbracket", treebank.Export: ".export", treebank.TigerXML: ".xml", treebank.PTB: ".mrg",
}
