package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

func runEval(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlags("eval", "[--json] [--verbose] [--labels] [--prm FILE] [--format F] GOLD PRED", stdout)
	asJSON := fs.Bool("json", false, `print {"all":{...},"le40":{...}} as JSON`)
	verbose := fs.Bool("verbose", false, "also print the per-sentence table")
	labels := fs.Bool("labels", false, "also print the per-label table (recall, precision and F1 of each label)")
	prm := fs.String("prm", "", "evaluation parameter file (default: disco-dop's proper.prm)")
	format := fs.String("format", "discbracket", "format of a GOLD or PRED given as - (standard input: discspan parse ... | discspan eval GOLD -): discbracket, export, tigerxml or ptb")
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
	rest = paths
	for k := range paths {
		if names[k] == "standard input" {
			if err := checkStdinFormat(paths[k], stdinFormat); err != nil {
				return err
			}
		}
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
	res, err := evaluateFiles(rest[0], rest[1], params)
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
func evaluateFiles(goldPath, candPath string, p eval.Params) (*eval.Result, error) {
	// A first pass reads each file whole, without keeping its trees, so
	// that errors come in the order of reading the files whole: gold's
	// parse errors, then the candidate's, then the numbers of sentences,
	// and only then a pair that differs.
	var counts [2]int
	for i, path := range []string{goldPath, candPath} {
		f, err := treebank.OpenFile(path)
		if err != nil {
			return nil, err
		}
		counts[i], err = f.Rest(nil)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	switch {
	case counts[0] != counts[1]:
		return nil, fmt.Errorf("eval: gold %s has %d sentences, candidate %s %d (sentences are paired in order; a blank discbracket line is no sentence)", goldPath, counts[0], candPath, counts[1])
	case counts[0] == 0:
		return nil, fmt.Errorf("eval: no sentences")
	}
	gold, err := treebank.OpenFile(goldPath)
	if err != nil {
		return nil, err
	}
	defer gold.Close()
	cand, err := treebank.OpenFile(candPath)
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

// checkStdinFormat refuses standard input (kept at path) whose first
// non-blank line shows another format than --format's, with the flag to
// give: `parse --format export | eval GOLD -` would otherwise fail on the
// first line without saying why.
func checkStdinFormat(path string, f treebank.Format) error {
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
			return fmt.Errorf("%w: standard input looks like %v (it starts with %.20q), not %v: add --format %v", errUsage, seen, line, f, seen)
		}
		return nil
	}
	return nil
}

// where names r's file and, where it counts lines, the line of the tree
// it read last.
func where(r *treebank.Reader) string {
	if l := r.Line(); l > 0 {
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
