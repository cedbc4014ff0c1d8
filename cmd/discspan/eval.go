package main

import (
	"context"
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
	for k, name := range rest {
		if name != "-" {
			continue
		}
		// eval reads its files twice (a first pass checks and counts
		// them): standard input is kept in a temporary file meanwhile,
		// removed also when a signal stops eval (Ctrl-C in a pipeline).
		signalled, release := onInterrupt(stderr, "discspan eval: interrupted")
		defer release()
		path, remove, spoolErr := spoolStdin(stdinFormat, signalled)
		if spoolErr != nil {
			return spoolErr
		}
		defer remove()
		rest[k] = path
		defer func() { // errors name standard input, not the file it is kept in
			if err != nil {
				err = errors.New(strings.ReplaceAll(err.Error(), path, "standard input"))
			}
		}()
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
		return nil, fmt.Errorf("eval: gold has %d sentences, candidate %d", counts[0], counts[1])
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
			return nil, err
		}
	}
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

// spoolStdin copies standard input into a temporary file named for format
// f (its extension), for a command that reads its input twice, and returns
// its path and a function that removes it. A signal (signalled done) while
// it copies or later removes the file and ends the process with 128+N.
func spoolStdin(f treebank.Format, signalled context.Context) (path string, remove func(), err error) {
	tmp, err := os.CreateTemp("", "discspan-stdin-*"+formatExtension[f])
	if err != nil {
		return "", nil, fmt.Errorf("keeping standard input: %w", err)
	}
	stop := context.AfterFunc(signalled, func() {
		sig, ok := context.Cause(signalled).(*signalError)
		if !ok {
			return // released: no signal came
		}
		_ = os.Remove(tmp.Name())
		os.Exit(sig.exitStatus())
	})
	remove = func() {
		stop()
		_ = os.Remove(tmp.Name())
	}
	if _, err := io.Copy(tmp, os.Stdin); err != nil {
		tmp.Close()
		remove()
		return "", nil, fmt.Errorf("reading standard input: %w", err)
	}
	if err := tmp.Close(); err != nil {
		remove()
		return "", nil, fmt.Errorf("keeping standard input: %w", err)
	}
	return tmp.Name(), remove, nil
}
